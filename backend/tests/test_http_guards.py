"""Refusals before a route (c10klab/http_guards.py) through the whole app on a real store:
bodies past their operation's limit, and text that is not Unicode (issue 23, items 3 and 4)."""

import json
from collections.abc import Iterator

from fastapi.testclient import TestClient

from c10klab.http_guards import (
    BODY_LIMIT,
    BODY_LIMIT_KEY,
    is_json,
    json_body_operations,
    lone_surrogate,
)
from c10klab.variants.schemas import MAX_SOURCE_BODY_BYTES, MAX_SOURCE_BYTES
from tests.raw_json import JSON


def test_a_lone_surrogate_anywhere_in_a_body_is_a_422_that_says_where(client: TestClient) -> None:
    for path, body, field in (
        ("/api/classes/join", '{"code": "\\ud800", "name": "Ana"}', "code"),
        ("/api/auth/login", '{"name": "x\\udfff", "password": "p"}', "name"),
        ("/api/runs", '{"server": "c-epoll", "knobs": {"\\ud801": 1}}', "a key of knobs"),
        ("/api/sweeps", '{"servers": ["c-epoll", "\\udc00"]}', "servers[1]"),
    ):
        answer = client.post(path, content=body, headers=JSON)
        assert answer.status_code == 422, (path, answer.text)
        detail = answer.json()["detail"]
        assert detail.startswith(f"{field}: holds a lone UTF-16 surrogate"), detail
        assert "surrogate pair" in detail
    # a pair is one character, and welcome
    pair = client.post("/api/classes/join", content='{"code": "\\ud83d\\ude00", "name": "A"}')
    assert "surrogate" not in pair.text


def test_a_body_nested_past_what_json_can_parse_is_a_422(client: TestClient) -> None:
    deep = client.post("/api/runs", content="[" * 60_000, headers=JSON)
    assert deep.status_code == 422 and "nested too deeply" in deep.json()["detail"]


def test_lone_surrogate_names_the_place_and_passes_clean_text() -> None:
    found = lone_surrogate({"base": {"knobs": {"et": "\udc00"}}})
    assert found is not None and found.text.startswith("base.knobs.et:")
    assert (found.code, found.params["field"]) == ("lone-surrogate", "base.knobs.et")
    assert lone_surrogate({"name": "网络编程 😀", "values": [1, 2.5, None, True]}) is None


def test_a_body_past_its_limit_is_a_413_before_it_is_read(client: TestClient) -> None:
    big = json.dumps({"server": "c-epoll", "pad": "x" * BODY_LIMIT})
    declared = client.post("/api/runs", content=big, headers=JSON)
    assert declared.status_code == 413 and "64 KiB" in declared.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"server": "c-epoll", "pad": "'
        for _ in range(64):
            yield b"x" * 16 * 1024
        yield b'"}'

    streamed = client.post("/api/runs", content=chunks(), headers=JSON)
    assert streamed.status_code == 413


def test_an_edited_file_has_its_own_larger_limit(client: TestClient) -> None:
    source = "/* é */\n" * (MAX_SOURCE_BYTES // 12)  # under 64 KiB of UTF-8
    body = json.dumps({"server": "c-epoll", "source": source})  # é escaped: over 64 KiB
    assert BODY_LIMIT < len(body) < MAX_SOURCE_BODY_BYTES
    made = client.post("/api/variants", content=body, headers=JSON)
    assert made.status_code == 202, made.text
    too_big = json.dumps({"server": "c-epoll", "source": "x" * MAX_SOURCE_BODY_BYTES})
    assert client.post("/api/variants", content=too_big, headers=JSON).status_code == 413


def test_the_guarded_operations_are_those_the_api_document_says_take_json(
    client: TestClient,
) -> None:
    """The guard reads the routes (cheaply) rather than the OpenAPI document (half a second per
    app): both must name the same operations and limits."""
    documented = {
        (method.upper(), path, operation.get(BODY_LIMIT_KEY, BODY_LIMIT))
        for path, item in client.get("/openapi.json").json()["paths"].items()
        for method, operation in item.items()
        if (media := operation.get("requestBody", {}).get("content"))
        and all(is_json(m) for m in media)
    }
    # A path may match another route's pattern too (/api/classes/come-back and the PATCH of
    # /api/classes/{class_id}): the one documented for the same method is the operation's.
    guarded = {
        (
            method,
            next(p for m, p, _ in documented if m == method and operation.path.fullmatch(p)),
            operation.limit,
        )
        for operation in json_body_operations(client.app)  # type: ignore[arg-type]
        for method in operation.methods
    }
    assert guarded == documented and len(documented) >= 8
