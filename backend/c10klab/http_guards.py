"""Refusals made before a request reaches its route.

`install_request_guards(app)` adds one ASGI middleware, JsonBodyOnly, for every operation whose
OpenAPI entry takes a JSON request body (POST /api/runs, POST /api/sweeps, …):

- 415, with a sentence saying what to send, when its body comes with another Content-Type, or
  with none. Without it FastAPI hands the raw bytes to validation, whose 422 reads "input
  should be a valid dictionary (got b'…')". A request with neither Content-Type nor body
  passes, so FastAPI answers it "field required"; malformed JSON sent as JSON is FastAPI's 422
  (errors.py words it).
- 413 when the body is larger than the operation takes: BODY_LIMIT, or the larger limit an
  operation declares as `x-body-limit` in its OpenAPI entry (an edited source file's route).
  The body is read up to that limit and no further, so a 50 MB body costs the API nothing.
- 422 when a string in the body (a key or a value) holds a lone UTF-16 surrogate (`"\\ud800"`
  is valid JSON, but not Unicode): no store, log or error report can encode it; and when it
  nests deeper than the parser recurses (60 KiB of `[`), which would otherwise be a 500.

The operations are read once, on the first request, from the app's routes, so the guard follows
the routes as declared and needs no list of its own. (Not from the OpenAPI document, which says
the same: making it takes half a second, on the first request of every app.) It is pure ASGI (not
BaseHTTPMiddleware): every other request, the SSE streams included, passes through untouched.
"""

import json
import re
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, params
from fastapi.routing import iter_route_contexts
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from c10klab.errors import Message as Said
from c10klab.errors import Phrase, problem

NOT_JSON = Phrase(
    "body-not-json", "send the body as JSON (Content-Type: application/json); this came with {came}"
)
TOO_LARGE = Phrase(
    "body-too-large", "the body is larger than this operation takes ({limit_kib} KiB); send less"
)
TOO_DEEP = Phrase(
    "body-too-deep", "body: nested too deeply to read; send a JSON object a few levels deep"
)
LONE_SURROGATE = Phrase(
    "lone-surrogate",
    "{field}: holds a lone UTF-16 surrogate (\\u{code} at character {at}), which is not "
    "text; send a character beyond U+FFFF as a surrogate pair (\\ud83d\\ude00) or as UTF-8",
)
# What a JSON body may weigh unless its operation says more (`x-body-limit`): the largest any
# request of the course needs (a sweep of 200 values, 40 runs to compare) is a few KiB.
BODY_LIMIT = 64 * 1024
BODY_LIMIT_KEY = "x-body-limit"


def is_json(content_type: str) -> bool:
    """application/json or application/<anything>+json, parameters (charset) ignored."""
    media_type = content_type.split(";", 1)[0].strip().lower()
    kind, _, subtype = media_type.partition("/")
    return kind == "application" and (subtype == "json" or subtype.endswith("+json"))


@dataclass(frozen=True)
class JsonOperation:
    path: re.Pattern[str]
    methods: frozenset[str]
    limit: int


def json_body_operations(app: FastAPI) -> list[JsonOperation]:
    """Every operation that takes a body as JSON (FastAPI's way with any body that is not a
    form), with the largest body it takes. The routes are walked as FastAPI's own OpenAPI
    document walks them, included routers and their prefixes resolved."""
    operations = []
    for route in iter_route_contexts(app.routes):
        if getattr(route, "body_field", None) is None or not route.methods:
            continue
        if any(isinstance(p.field_info, params.Form) for p in route.dependant.body_params):
            continue
        declared = (route.openapi_extra or {}).get(BODY_LIMIT_KEY, BODY_LIMIT)
        operations.append(JsonOperation(route.path_regex, frozenset(route.methods), int(declared)))
    return operations


def _at(where: str, step: str) -> str:
    """A field's name in an error: `name`, `base.knobs.x`, `values[2]`."""
    if step.startswith("["):
        return where + step
    return step if where == "body" else f"{where}.{step}"


def _surrogate_at(text: str, where: str) -> Said | None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as bad:
        code = f"{ord(text[bad.start]):04x}"
        return LONE_SURROGATE(field=where, code=code, at=bad.start)
    return None


def lone_surrogate(value: Any) -> Said | None:
    """Where in a parsed JSON value a string holds a lone surrogate, as a sentence; or None.
    Walked without recursion: the parser accepts nesting deeper than Python's stack."""
    pending: list[tuple[Any, str]] = [(value, "body")]
    while pending:
        item, where = pending.pop()
        if isinstance(item, str):
            found = _surrogate_at(item, where)
            if found:
                return found
        elif isinstance(item, dict):
            for key, inner in reversed(item.items()):
                pending += [(inner, _at(where, key)), (key, f"a key of {where}")]
        elif isinstance(item, list):
            pending += [
                (inner, _at(where, f"[{n}]")) for n, inner in reversed(list(enumerate(item)))
            ]
    return None


def _unreadable(body: bytes) -> Said | None:
    """Why a JSON body cannot reach its route, or None: nested past what a parser recurses
    into, or a string with a lone surrogate. Other bad JSON is the route's to word."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return None
    except RecursionError:
        return TOO_DEEP()
    return lone_surrogate(parsed)


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse(problem(TOO_LARGE(limit_kib=limit // 1024)), 413)


class JsonBodyOnly:
    """415 for a body that is not JSON on an operation that takes a JSON body, 413 for one
    larger than it takes, 422 for one with a lone surrogate; the body, read once, is handed on."""

    def __init__(self, app: ASGIApp, api: FastAPI) -> None:
        self.app = app
        self.api = api
        self.operations: list[JsonOperation] | None = None

    def operation(self, scope: Scope) -> JsonOperation | None:
        if self.operations is None:
            self.operations = json_body_operations(self.api)
        return next(
            (
                o
                for o in self.operations
                if scope["method"] in o.methods and o.path.fullmatch(scope["path"])
            ),
            None,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        operation = self.operation(scope) if scope["type"] == "http" else None
        if operation is None:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        content_type = headers.get("content-type")
        declared = headers.get("content-length", "0")
        has_body = declared != "0" or "transfer-encoding" in headers
        if not is_json(content_type) if content_type is not None else has_body:
            came = f"{content_type[:60]!r}" if content_type is not None else "no Content-Type"
            refusal = JSONResponse(problem(NOT_JSON(came=came)), 415)
            await refusal(scope, receive, send)
            return
        if declared.isdigit() and int(declared) > operation.limit:
            await _too_large(operation.limit)(scope, receive, send)
            return
        body = await _read_body(receive, operation.limit)
        if body is None:
            await _too_large(operation.limit)(scope, receive, send)
            return
        unreadable = _unreadable(body)
        if unreadable:
            await JSONResponse(problem(unreadable), 422)(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The request's body, or None once it passes `limit` (nothing more is read)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)  # the client left: the route will find it gone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then whatever comes next (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def install_request_guards(app: FastAPI) -> None:
    """Add the guards above to `app`; call it in create_app(), before the app serves."""
    app.add_middleware(JsonBodyOnly, api=app)
