"""catalog.json: the runner builds every server's command line from it, so it must match
the binaries and the sources."""

from __future__ import annotations

import re

from conftest import SANDBOXES, ServerEntry

SOURCE_ANCHORS = {"epoll": ["event-loop", "accept", "read", "write"]}


def test_entry_matches_its_files_and_names(c_server: ServerEntry) -> None:
    server_id = c_server["id"]
    stem = server_id.removeprefix("c-")
    assert c_server["source"] == f"servers/c/{stem}.c"
    assert (SANDBOXES / c_server["source"]).is_file()
    assert c_server["image"] == f"c10klab/server:{server_id}"
    assert c_server["command"] == [f"/usr/local/bin/{server_id}"]
    assert set(c_server["protocols"]) == {"echo", "http"}
    assert c_server["limits"]["max_connections"] < 20000  # the containers' nofile limit


def test_knob_defaults_are_valid(c_server: ServerEntry) -> None:
    for knob in c_server["knobs"]:
        assert re.fullmatch(r"--[a-z][a-z0-9-]*", knob["flag"])
        if knob["type"] == "enum":
            assert knob["default"] in knob["values"]
        else:
            assert knob["min"] <= knob["default"] <= knob["max"]


def test_source_marks_the_regions_lessons_quote(c_server: ServerEntry) -> None:
    source = (SANDBOXES / c_server["source"]).read_text()
    stem = c_server["id"].removeprefix("c-")
    for anchor in SOURCE_ANCHORS.get(stem, []):
        assert f"ANCHOR: {anchor}\n" in source.replace(" */", "")
        assert f"ANCHOR_END: {anchor}" in source
    protocol = (SANDBOXES / "servers" / "c" / "protocol.c").read_text()
    for anchor in ["echo", "http"]:
        assert f"ANCHOR: {anchor} */" in protocol and f"ANCHOR_END: {anchor} */" in protocol
