import inspect
import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from c10klab.api.sandboxes import get_source
from c10klab.config import Settings
from c10klab.content.check import FENCE
from c10klab.errors import InvalidRequest, NotFound
from c10klab.sandboxes.service import (
    MAX_SOURCE_BYTES,
    load_catalog,
    quotable_sources,
    read_excerpt,
)

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
ANCHORED_RS = "// ANCHOR: loop\nloop {}\n// ANCHOR_END: loop\n"
SERVER = {
    "id": "c-demo",
    "title": "Demo",
    "model": "demo",
    "language": "c",
    "source": "servers/c/demo.c",
    "lesson": "01-t",
    "image": "c10klab/server:c-demo",
    "command": ["/usr/local/bin/c-demo"],
    "protocols": ["echo"],
    "limits": {"max_connections": 10},
}


@pytest.fixture
def sandboxes(tmp_path: Path) -> Path:
    """A sandboxes/ dir with one file of each kind the list takes or leaves out."""
    files = {
        "catalog.json": json.dumps({"servers": [SERVER]}),
        "servers/c/demo.c": "int main(void) { return 0; }\n",  # the catalog's source
        "servers/c/protocol.c": "/* shared */\n",  # a shared module, no anchor
        "servers/c/protocol.h": "/* shared */\n",
        "servers/c/Makefile": "# ANCHOR: not-code\n",  # not a code file
        "servers/c/unmarked.c": "int x;\n",
        "servers/rust/src/lib.rs": "pub mod net;\n",  # the servers' crate
        "servers/rust/src/net.rs": "\n",
        "servers/rust/target/debug/build/x/out/gen.rs": ANCHORED_RS,  # build output
        "servers/c/build/gen.c": SOURCE,
        "servers/rust/Cargo.toml": "[package]\n",
        "loadgen/src/pacing.rs": ANCHORED_RS,  # anchored: lessons quote it
        "loadgen/src/cli.rs": "// mentions ANCHOR: loop in a sentence\n",
        "loadgen/target/release/deps/libbig.rlib": "x" * 1000,
        "tools/quote.c": SOURCE,
        "README.md": "Mark lines with `// ANCHOR: name`.\n",
        ".git/hooks/x.sh": "# ANCHOR: hidden\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    # Anchored, but outside: a symlink to it must not make it quotable.
    (tmp_path.parent / "outside.txt").write_text(SOURCE)
    (tmp_path / "servers" / "c" / "link.c").symlink_to(tmp_path.parent / "outside.txt")
    return tmp_path


def test_the_list_is_catalog_sources_shared_modules_and_anchored_code(sandboxes: Path) -> None:
    assert quotable_sources(sandboxes) == {
        "servers/c/demo.c",
        "servers/c/protocol.c",
        "servers/c/protocol.h",
        "servers/rust/src/lib.rs",
        "servers/rust/src/net.rs",
        "loadgen/src/pacing.rs",
        "tools/quote.c",
    }
    # Built once: a file added later is not served until the process starts again.
    (sandboxes / "tools" / "new.c").write_text(SOURCE)
    assert "tools/new.c" not in quotable_sources(sandboxes)


def test_an_anchor_gives_the_lines_between_its_markers(sandboxes: Path) -> None:
    excerpt = read_excerpt(sandboxes, "tools/quote.c", "main", None)
    assert (excerpt.start_line, excerpt.end_line, excerpt.language) == (3, 8, "c")
    # Nested markers are left out of the excerpt.
    assert excerpt.text == 'int main(void) {\n    puts("hi");\n    return 0;\n}\n'


def test_a_line_range_and_the_whole_file(sandboxes: Path) -> None:
    assert read_excerpt(sandboxes, "tools/quote.c", None, "1-1").text == "#include <stdio.h>\n"
    assert read_excerpt(sandboxes, "tools/quote.c", None, None).end_line == 9


@pytest.mark.parametrize(
    "spec",
    [
        "5-50",
        "0-3",
        "4-2",
        "five",
        "1-" + "9" * 5000,  # past int()'s digit limit: was a 500
        "9" * 5000 + "-1",
        "1-99999999999",
        "\u0661-\u0663",  # Arabic-Indic digits, which int() reads
        "1 - 3",
    ],
)
def test_a_bad_line_range_is_422_with_the_files_lines(sandboxes: Path, spec: str) -> None:
    with pytest.raises(InvalidRequest, match="the file has lines 1-9") as refused:
        read_excerpt(sandboxes, "tools/quote.c", None, spec)
    assert len(refused.value.message) < 200


@pytest.mark.parametrize(
    "path",
    [
        "../outside.txt",
        ".git/hooks/x.sh",
        "servers/../../outside.txt",
        "/etc/passwd",
        "servers/c/link.c",  # a symlink out of sandboxes/
        "servers/c/Makefile",
        "servers/c/unmarked.c",
        "servers/c/build/gen.c",
        "servers/rust/target/debug/build/x/out/gen.rs",
        "loadgen/target/release/deps/libbig.rlib",
        "loadgen/src/cli.rs",
        "README.md",
        "catalog.json",
        "servers/c/./demo.c",
        "servers/c/demo.c\x00",
        "x" * 5000,
    ],
)
def test_only_files_lessons_quote_are_served(sandboxes: Path, path: str) -> None:
    with pytest.raises(NotFound, match="not a file lessons quote; these are: ") as refused:
        read_excerpt(sandboxes, path, None, None)
    assert "servers/c/: demo.c, protocol.c, protocol.h" in refused.value.message
    assert len(refused.value.message) < 500


def test_a_listed_file_past_the_size_cap_is_refused(sandboxes: Path) -> None:
    quotable_sources(sandboxes)
    (sandboxes / "tools" / "quote.c").write_text(SOURCE + "x" * MAX_SOURCE_BYTES)
    with pytest.raises(InvalidRequest, match="256 KiB"):
        read_excerpt(sandboxes, "tools/quote.c", None, None)
    (sandboxes / "tools" / "quote.c").unlink()
    with pytest.raises(NotFound, match="no longer"):
        read_excerpt(sandboxes, "tools/quote.c", None, None)


def test_a_missing_anchor_says_how_to_mark_one(sandboxes: Path) -> None:
    with pytest.raises(NotFound, match="ANCHOR: nope"):
        read_excerpt(sandboxes, "tools/quote.c", "nope", None)
    with pytest.raises(NotFound) as refused:
        read_excerpt(sandboxes, "tools/quote.c", "a" * 5000, None)
    assert len(refused.value.message) < 300


def test_the_real_catalog_loads_and_every_source_exists() -> None:
    sandboxes_dir = Settings().sandboxes_dir
    catalog = load_catalog(sandboxes_dir)
    assert catalog.get("c-epoll") is not None
    for server in catalog.servers:
        assert (sandboxes_dir / server.source).is_file(), server.source
        assert server.image.endswith(f":{server.id}")


def test_the_real_list_holds_every_file_a_lesson_quotes_and_no_build_output() -> None:
    settings = Settings()
    sources = quotable_sources(settings.sandboxes_dir)
    quoted = {
        match.group(2).split("path:", 1)[1].split("\n", 1)[0].strip()
        for lesson in (settings.content_dir / "lessons").glob("*.md")
        for match in FENCE.finditer(lesson.read_text())
        if match.group(1) == "source"
    }
    assert quoted and quoted <= sources
    assert {"servers/c/protocol.c", "servers/c/protocol.h", "servers/rust/src/lib.rs"} <= sources
    assert not [s for s in sources if re.search(r"(^|/)(target|build)/", s)]
    assert all((settings.sandboxes_dir / s).stat().st_size <= MAX_SOURCE_BYTES for s in sources)


def test_the_route_reads_in_a_worker_thread_and_answers_4xx(client: TestClient) -> None:
    # A plain def: FastAPI runs it in its thread pool, so file reads never block the loop.
    assert not inspect.iscoroutinefunction(get_source)
    path = "/api/sources/servers/c/epoll.c"
    total = len((Settings().sandboxes_dir / "servers/c/epoll.c").read_text().splitlines())
    huge = client.get(path, params={"lines": "1-" + "9" * 5000})
    assert huge.status_code == 422 and f"the file has lines 1-{total}" in huge.json()["detail"]
    unlisted = client.get("/api/sources/servers/c/Makefile")
    assert unlisted.status_code == 404
    assert "not a file lessons quote; these are: " in unlisted.json()["detail"]
    assert client.get(path, params={"lines": "1-3"}).json()["end_line"] == 3
