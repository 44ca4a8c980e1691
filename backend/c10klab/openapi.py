"""The API's OpenAPI document: FastAPI's, with each event stream's events spelt out.

`python -m c10klab openapi > frontend/openapi.json` writes it; the frontend's types and zod
validators are generated from that file (`make contract`), and `make lint` fails when either
is stale. So the pydantic models are the one place the API's shapes are written.

FastAPI describes a Server-Sent Events response with one schema for every frame's `data`. Our
streams send several events, each with its own name and data, so a stream's path operation
registers the union of its event models (c10klab.sse.stream_doc) and this module turns it
into the stream's `itemSchema`: one entry per event, its `event:` name and the schema of its
`data:` (JSON), as OpenAPI 3.2 describes `text/event-stream`.
"""

from typing import Any

from fastapi import FastAPI

from c10klab.errors import Phrase, Problem
from c10klab.sse import STREAM_MARK

SSE = "text/event-stream"
REF = "#/components/schemas/"


def _component(document: dict[str, Any], ref: str) -> dict[str, Any]:
    schema: dict[str, Any] = document["components"]["schemas"][ref.removeprefix(REF)]
    return schema


def _event_schema(document: dict[str, Any], event_ref: str) -> dict[str, Any]:
    """One event model ({"type": const, "data": model}) as the SSE frame that carries it."""
    event = _component(document, event_ref)["properties"]
    return {
        "type": "object",
        "required": ["event", "data"],
        "properties": {
            "event": {"const": event["type"]["const"]},
            "id": {"type": "string", "description": "its number: resume after it"},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": event["data"],
            },
        },
    }


def _describe_streams(document: dict[str, Any]) -> None:
    for operations in document["paths"].values():
        for operation in operations.values():
            answer = operation.get("responses", {}).get("200", {})
            if not answer.pop(STREAM_MARK, False):
                continue
            # The union sits wherever FastAPI put the registered model's schema.
            events = next(c["schema"] for c in answer["content"].values() if "schema" in c)
            union = _component(document, events["$ref"])
            item = {"oneOf": [_event_schema(document, m["$ref"]) for m in union["oneOf"]]}
            answer["content"] = {SSE: {"itemSchema": item}}


def _list_phrases(problem: dict[str, Any]) -> None:
    """A Problem's `code` is one of the API's phrases (errors.Phrase); `x-phrases` gives each
    code's params and English (Python's format syntax), for the interface's own wording of it
    to be checked against."""
    problem["properties"]["code"]["enum"] = sorted(Phrase.every)
    problem["x-phrases"] = {
        code: {"params": list(p.params), "english": p.english}
        for code, p in sorted(Phrase.every.items())
    }


def _describe_refusals(document: dict[str, Any]) -> None:
    """Every operation may refuse with a 4xx whose body is a Problem (errors.py): FastAPI
    documents only a 422, and with the body its own handler would send, not ours."""
    schemas = document["components"]["schemas"]
    schemas["Problem"] = Problem.model_json_schema(ref_template=REF + "{model}")
    _list_phrases(schemas["Problem"])
    refusal = {
        "description": "refused: `detail` says what was wrong and what to send instead",
        "content": {"application/json": {"schema": {"$ref": REF + "Problem"}}},
    }
    for operations in document["paths"].values():
        for operation in operations.values():
            operation["responses"].pop("422", None)
            operation["responses"]["4XX"] = refusal
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)


def document(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document of `app`, made once and kept (as FastAPI's own is)."""
    if app.openapi_schema is None:
        app.openapi_schema = FastAPI.openapi(app)
        _describe_streams(app.openapi_schema)
        _describe_refusals(app.openapi_schema)
    return app.openapi_schema
