"""catalog.json: the runner builds every server's command line from it, so it must match
the binaries and the sources."""

from __future__ import annotations

import re

from conftest import ALL_SERVERS, SANDBOXES, ServerEntry

C_DIR = SANDBOXES / "servers" / "c"
RUST_DIR = SANDBOXES / "servers" / "rust"
NOFILE_LIMIT = 20000  # the containers' nofile limit
ANCHOR = re.compile(r"ANCHOR(_END)?: ([a-z0-9-]+)")


def test_ids_are_unique() -> None:
    ids = [s["id"] for s in ALL_SERVERS]
    assert len(ids) == len(set(ids)), ids


def test_entry_matches_its_files_and_names(server_entry: ServerEntry) -> None:
    server_id = server_entry["id"]
    language = server_entry["language"]
    assert server_id.startswith(f"{language}-"), server_id
    assert server_entry["image"] == f"c10klab/server:{server_id}"
    assert server_entry["command"] == [f"/usr/local/bin/{server_id}"]
    assert set(server_entry["protocols"]) == {"echo", "http"}
    assert re.fullmatch(r"\d\d-[a-z0-9-]+", server_entry["lesson"]), server_entry["lesson"]
    assert (SANDBOXES / server_entry["source"]).is_file(), server_entry["source"]
    if language == "c":
        stem = server_id.removeprefix("c-")
        assert server_entry["source"] == f"servers/c/{stem}.c"
        models = re.search(r"^MODELS\s*:?=(.*)$", (C_DIR / "Makefile").read_text(), re.M)
        assert models and stem in models.group(1).split(), f"{stem} not in MODELS"
    else:
        assert server_entry["source"].startswith("servers/rust/"), server_entry["source"]
        # cargo names a binary after src/bin/<name>.rs, or after a [[bin]] name = "..."
        cargo = (RUST_DIR / "Cargo.toml").read_text()
        assert (RUST_DIR / "src" / "bin" / f"{server_id}.rs").is_file() or re.search(
            rf'^name\s*=\s*"{server_id}"', cargo, re.M
        ), f"cargo builds no binary named {server_id} in servers/rust"


def test_limits_are_consistent(server_entry: ServerEntry) -> None:
    limits = server_entry["limits"]
    assert 1 <= limits["max_connections"] < NOFILE_LIMIT
    serves = limits.get("serves_at_once")
    assert serves is None or 1 <= serves <= limits["max_connections"]
    assert 8 <= limits.get("pids", 64) <= 32768


def test_knob_defaults_are_valid(server_entry: ServerEntry) -> None:
    names = [k["name"] for k in server_entry["knobs"]]
    assert len(names) == len(set(names)), names
    for knob in server_entry["knobs"]:
        assert re.fullmatch(r"--[a-z][a-z0-9-]*", knob["flag"])
        # Learners read the label, never the raw name ("thread stack", not "stack_kib").
        assert knob["label"].strip() and "_" not in knob["label"], knob["name"]
        assert knob["flag"] not in ("--port", "--protocol"), "set by the runner, not a knob"
        if knob["type"] == "enum":
            assert knob["default"] in knob["values"]
        elif knob["type"] == "bool":
            assert isinstance(knob["default"], bool)
        else:
            assert knob["min"] <= knob["default"] <= knob["max"]


def test_source_marks_the_regions_lessons_quote(server_entry: ServerEntry) -> None:
    """Every ANCHOR: name has its ANCHOR_END: name after it, and each name is used once."""
    source = (SANDBOXES / server_entry["source"]).read_text()
    opened: list[str] = []
    seen: set[str] = set()
    for end, name in ANCHOR.findall(source):
        if not end:
            assert name not in seen, f"ANCHOR: {name} appears twice"
            seen.add(name)
            opened.append(name)
        else:
            assert name in opened, f"ANCHOR_END: {name} without ANCHOR: {name}"
            opened.remove(name)
    assert not opened, f"ANCHOR without ANCHOR_END: {opened}"
    assert seen, "no ANCHOR: regions for lessons to quote"


def test_readiness_anchors_the_lessons_quote() -> None:
    quoted = {
        "epoll.c": ["event-loop", "accept", "read", "interest", "epoll-create"],
        "readiness.c": ["accept", "read", "send", "interest"],
    }
    for file, anchors in quoted.items():
        source = (C_DIR / file).read_text()
        for anchor in anchors:
            assert f"ANCHOR: {anchor} */" in source, (file, anchor)
            assert f"ANCHOR_END: {anchor} */" in source, (file, anchor)


def test_protocol_module_anchors() -> None:
    protocol = (C_DIR / "protocol.c").read_text()
    for anchor in ["echo", "http"]:
        assert f"ANCHOR: {anchor} */" in protocol and f"ANCHOR_END: {anchor} */" in protocol
