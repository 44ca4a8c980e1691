from pathlib import Path

import pytest

from c10klab.config import Settings
from c10klab.errors import InvalidRequest, NotFound
from c10klab.sandboxes.service import load_catalog, read_excerpt

SOURCE = """#include <stdio.h>
/* ANCHOR: main */
int main(void) {
    // ANCHOR: inner
    puts("hi");
    // ANCHOR_END: inner
    return 0;
}
/* ANCHOR_END: main */
"""


@pytest.fixture
def sandboxes(tmp_path: Path) -> Path:
    (tmp_path / "servers").mkdir()
    (tmp_path / "servers" / "demo.c").write_text(SOURCE)
    (tmp_path / ".secret").write_text("no")
    (tmp_path.parent / "outside.txt").write_text("no")
    return tmp_path


def test_an_anchor_gives_the_lines_between_its_markers(sandboxes: Path) -> None:
    excerpt = read_excerpt(sandboxes, "servers/demo.c", "main", None)
    assert (excerpt.start_line, excerpt.end_line, excerpt.language) == (3, 8, "c")
    # Nested markers are left out of the excerpt.
    assert excerpt.text == 'int main(void) {\n    puts("hi");\n    return 0;\n}\n'


def test_a_line_range_and_the_whole_file(sandboxes: Path) -> None:
    assert read_excerpt(sandboxes, "servers/demo.c", None, "1-1").text == "#include <stdio.h>\n"
    assert read_excerpt(sandboxes, "servers/demo.c", None, None).end_line == 9
    with pytest.raises(InvalidRequest, match="lines 1-9"):
        read_excerpt(sandboxes, "servers/demo.c", None, "5-50")
    with pytest.raises(InvalidRequest, match="such as"):
        read_excerpt(sandboxes, "servers/demo.c", None, "five")


@pytest.mark.parametrize(
    "path", ["../outside.txt", ".secret", "servers/../../outside.txt", "/etc/passwd"]
)
def test_nothing_outside_sandboxes_is_served(sandboxes: Path, path: str) -> None:
    with pytest.raises(NotFound):
        read_excerpt(sandboxes, path, None, None)


def test_a_missing_anchor_says_how_to_mark_one(sandboxes: Path) -> None:
    with pytest.raises(NotFound, match="ANCHOR: nope"):
        read_excerpt(sandboxes, "servers/demo.c", "nope", None)


def test_the_real_catalog_loads_and_every_source_exists() -> None:
    sandboxes_dir = Settings().sandboxes_dir
    catalog = load_catalog(sandboxes_dir)
    assert catalog.get("c-epoll") is not None
    for server in catalog.servers:
        assert (sandboxes_dir / server.source).is_file(), server.source
        assert server.image.endswith(f":{server.id}")
