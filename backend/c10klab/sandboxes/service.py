"""Loading the catalog and serving excerpts of the sandbox sources that lessons quote."""

import re
from functools import lru_cache
from pathlib import Path

from c10klab.errors import InvalidRequest, NotFound
from c10klab.sandboxes.schemas import Catalog, SourceExcerpt

LANGUAGES = {
    ".c": "c",
    ".h": "c",
    ".rs": "rust",
    ".toml": "toml",
    ".json": "json",
    ".py": "python",
    ".sh": "bash",
    ".md": "markdown",
}
# Anchor comments as mdBook writes them: `// ANCHOR: name` ... `// ANCHOR_END: name`.
ANCHOR = re.compile(r"ANCHOR(_END)?:\s*([A-Za-z0-9_-]+)")


@lru_cache
def load_catalog(sandboxes_dir: Path) -> Catalog:
    return Catalog.model_validate_json((sandboxes_dir / "catalog.json").read_text())


def resolve_source(sandboxes_dir: Path, rel_path: str) -> Path:
    """The file `rel_path` names, refused unless it is a regular file inside sandboxes/."""
    root = sandboxes_dir.resolve()
    candidate = (root / rel_path).resolve()
    if not candidate.is_relative_to(root) or any(p.startswith(".") for p in Path(rel_path).parts):
        raise NotFound(f"{rel_path}: only files under sandboxes/ can be shown")
    if not candidate.is_file():
        raise NotFound(f"{rel_path}: no such file under sandboxes/")
    return candidate


def find_anchor(lines: list[str], name: str) -> tuple[int, int]:
    """1-based first and last line strictly between `ANCHOR: name` and `ANCHOR_END: name`."""
    start = end = None
    for number, line in enumerate(lines, start=1):
        for match in ANCHOR.finditer(line):
            if match.group(2) != name:
                continue
            if match.group(1) is None and start is None:
                start = number + 1
            elif match.group(1) is not None and start is not None:
                end = number - 1
        if end is not None:
            break
    if start is None or end is None or end < start:
        raise NotFound(f"anchor {name!r} is not marked (ANCHOR: {name} ... ANCHOR_END: {name})")
    return start, end


def parse_lines(spec: str, total: int) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)-(\d+)", spec)
    if not match:
        raise InvalidRequest(f"lines={spec!r}: write a range such as lines=10-40")
    start, end = int(match.group(1)), int(match.group(2))
    if not 1 <= start <= end <= total:
        raise InvalidRequest(f"lines={spec}: the file has lines 1-{total}")
    return start, end


def read_excerpt(
    sandboxes_dir: Path, rel_path: str, anchor: str | None, lines: str | None
) -> SourceExcerpt:
    path = resolve_source(sandboxes_dir, rel_path)
    all_lines = path.read_text(errors="replace").splitlines()
    if anchor:
        start, end = find_anchor(all_lines, anchor)
    elif lines:
        start, end = parse_lines(lines, len(all_lines))
    else:
        start, end = 1, len(all_lines)
    # Nested anchors' own marker lines are noise in an excerpt.
    body = [line for line in all_lines[start - 1 : end] if not ANCHOR.search(line)]
    return SourceExcerpt(
        path=rel_path,
        language=LANGUAGES.get(path.suffix, "text"),
        start_line=start,
        end_line=end,
        text="\n".join(body) + "\n",
    )
