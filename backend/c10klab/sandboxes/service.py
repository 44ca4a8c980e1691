"""Loading the catalog and serving excerpts of the sandbox sources that lessons quote.

GET /api/sources serves only the files lessons may quote, never whatever else lies under
sandboxes/ (build output, the Rust `target/` dir with its 12 MB .rlib files, caches). The list,
`quotable_sources()`, is built once per sandboxes dir and kept for the life of the process:

1. every catalog server's `source` (servers/c/epoll.c, servers/rust/src/bin/rust-tokio.rs …);
2. the shared modules those servers are built from: servers/c/runtime, protocol and readiness
   (.c and .h) and epoll.h, and every .rs file of the Rust servers' crate under servers/rust/src/;
3. every code file (.c .h .rs .py .sh) under sandboxes/ with an anchor, a line whose comment
   opens with `ANCHOR: name` (`// ANCHOR: pacing`, `/* ANCHOR: accept */`, `# ANCHOR: x`):
   marking lines for a lesson is what makes a file quotable (loadgen/src/pacing.rs). Directories
   of build output and tooling (target/, build/, node_modules/, __pycache__/, dot-dirs) are not
   searched, and prose that merely mentions anchors (README.md) is not code.

Each listed file must resolve inside sandboxes/ and be at most MAX_SOURCE_BYTES (256 KiB, the
largest server is a tenth of that); a file that has grown past it since is refused with 422. A
path outside the list is 404 with the list. The content checker (content/check.py) refuses a
lesson whose `source` block names a file outside the list, so lessons and API agree. The route
is a plain `def`: FastAPI runs it in a worker thread, so reading a file never blocks the event
loop.
"""

import os
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from c10klab.errors import InvalidRequest, NotFound, Phrase, shorten
from c10klab.sandboxes.schemas import Catalog, SourceExcerpt

NOT_QUOTED = Phrase("source-not-quoted", "{path}: not a file lessons quote; these are: {sources}")
SOURCE_GONE = Phrase("source-gone", "{path}: no longer under sandboxes/")
SOURCE_NOT_FILE = Phrase("source-not-file", "{path}: no longer a file under sandboxes/")
SOURCE_TOO_LARGE = Phrase(
    "source-too-large", "{path}: {size_kib} KiB; sources are served up to {limit_kib} KiB"
)
NO_ANCHOR = Phrase(
    "anchor-not-marked", "anchor {name!r} is not marked (ANCHOR: {name} ... ANCHOR_END: {name})"
)
LINES_NOT_RANGE = Phrase(
    "lines-not-range",
    "lines={spec!r}: write a range such as lines=10-40; the file has lines 1-{total}",
)
LINES_OUTSIDE = Phrase("lines-outside-file", "lines={spec}: the file has lines 1-{total}")

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
# A line that opens an anchored region: the marker is the first thing in its comment.
ANCHOR_LINE = re.compile(r"^[ \t]*(?://|/\*|#)[ \t]*ANCHOR:[ \t]*[A-Za-z0-9_-]+", re.MULTILINE)
ANCHORED_SUFFIXES = {".c", ".h", ".rs", ".py", ".sh"}
SHARED_MODULES = tuple(
    f"servers/c/{name}"
    for name in (
        "runtime.c",
        "runtime.h",
        "protocol.c",
        "protocol.h",
        "readiness.c",
        "readiness.h",
        "epoll.h",
    )
)
SHARED_CRATE = "servers/rust/src"
SKIPPED_DIRS = {"target", "build", "node_modules", "__pycache__"}
MAX_SOURCE_BYTES = 256 * 1024
# A line range longer than this many digits cannot be a line of a file we serve.
MAX_LINE_DIGITS = 9


@lru_cache
def load_catalog(sandboxes_dir: Path) -> Catalog:
    return Catalog.model_validate_json((sandboxes_dir / "catalog.json").read_text())


def _code_files(root: Path) -> Iterator[Path]:
    """Code files under `root`, not descending into build output, tooling or dot-dirs."""
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = [d for d in subdirs if d not in SKIPPED_DIRS and not d.startswith(".")]
        for name in files:
            path = Path(directory, name)
            if path.suffix in ANCHORED_SUFFIXES and not name.startswith("."):
                yield path


def _has_anchor(path: Path) -> bool:
    try:
        if path.stat().st_size > MAX_SOURCE_BYTES:
            return False
        return ANCHOR_LINE.search(path.read_text(errors="replace")) is not None
    except OSError:
        return False


@lru_cache
def quotable_sources(sandboxes_dir: Path) -> frozenset[str]:
    """The paths (relative to sandboxes/, with /) that GET /api/sources serves: see above."""
    root = sandboxes_dir.resolve()
    candidates = [server.source for server in load_catalog(sandboxes_dir).servers]
    candidates += SHARED_MODULES
    crate = root / SHARED_CRATE
    if crate.is_dir():
        candidates += [p.relative_to(root).as_posix() for p in crate.rglob("*.rs")]
    candidates += [p.relative_to(root).as_posix() for p in _code_files(root) if _has_anchor(p)]
    return frozenset(
        rel
        for rel in candidates
        if (root / rel).is_file() and (root / rel).resolve().is_relative_to(root)
    )


def describe_sources(sources: frozenset[str]) -> str:
    """The list, grouped by directory: `servers/c/: epoll.c, poll.c; loadgen/src: pacing.rs`."""
    by_dir: dict[str, list[str]] = {}
    for rel in sorted(sources):
        directory, _, name = rel.rpartition("/")
        by_dir.setdefault(directory, []).append(name)
    return "; ".join(f"{d}/: {', '.join(names)}" for d, names in sorted(by_dir.items()))


def resolve_source(sandboxes_dir: Path, rel_path: str) -> Path:
    """The file `rel_path` names, refused unless it is one lessons quote (see the docstring)."""
    sources = quotable_sources(sandboxes_dir)
    if rel_path not in sources:
        raise NotFound(NOT_QUOTED(path=shorten(rel_path), sources=describe_sources(sources)))
    root = sandboxes_dir.resolve()
    path = (root / rel_path).resolve()
    try:
        size = path.stat().st_size
    except OSError as gone:
        raise NotFound(SOURCE_GONE(path=rel_path)) from gone
    if not path.is_relative_to(root) or not path.is_file():
        raise NotFound(SOURCE_NOT_FILE(path=rel_path))
    if size > MAX_SOURCE_BYTES:
        limit_kib = MAX_SOURCE_BYTES // 1024
        raise InvalidRequest(
            SOURCE_TOO_LARGE(path=rel_path, size_kib=size // 1024, limit_kib=limit_kib)
        )
    return path


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
        name = shorten(name)
        raise NotFound(NO_ANCHOR(name=name))
    return start, end


def parse_lines(spec: str, total: int) -> tuple[int, int]:
    """`A-B`, 1-based and inclusive, within the file's `total` lines."""
    match = re.fullmatch(r"([0-9]+)-([0-9]+)", spec)
    if not match:
        raise InvalidRequest(LINES_NOT_RANGE(spec=shorten(spec), total=total))
    first, last = match.groups()
    # int() refuses strings over 4,300 digits; no line number has more than a few.
    if max(len(first), len(last)) <= MAX_LINE_DIGITS:
        start, end = int(first), int(last)
        if 1 <= start <= end <= total:
            return start, end
    raise InvalidRequest(LINES_OUTSIDE(spec=shorten(spec), total=total))


def read_excerpt(
    sandboxes_dir: Path, rel_path: str, anchor: str | None, lines: str | None
) -> SourceExcerpt:
    path = resolve_source(sandboxes_dir, rel_path)
    with path.open(errors="replace") as file:
        all_lines = file.read(MAX_SOURCE_BYTES).splitlines()
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
