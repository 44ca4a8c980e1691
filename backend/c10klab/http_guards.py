"""Refusals made before a request reaches its route.

`install_request_guards(app)` adds one ASGI middleware, JsonBodyOnly. An operation whose
OpenAPI entry takes a JSON request body (POST /api/runs, POST /api/sweeps, …) is answered 415,
with a sentence saying what to send, when its body comes with another Content-Type, or with
none. Without it FastAPI hands the raw bytes to validation, whose 422 reads "input should be a
valid dictionary (got b'…')". A request with neither Content-Type nor body passes, so FastAPI
answers it "field required"; malformed JSON sent as JSON is FastAPI's 422 (errors.py words it).

The operations are read once, on the first request, from the app's own OpenAPI schema, so the
guard follows the routes as declared and needs no list of its own. It is pure ASGI (not
BaseHTTPMiddleware): it reads headers only and passes every other request, the SSE streams
included, through untouched.
"""

import re

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

SEND_JSON = "send the body as JSON (Content-Type: application/json)"


def is_json(content_type: str) -> bool:
    """application/json or application/<anything>+json, parameters (charset) ignored."""
    media_type = content_type.split(";", 1)[0].strip().lower()
    kind, _, subtype = media_type.partition("/")
    return kind == "application" and (subtype == "json" or subtype.endswith("+json"))


def json_body_operations(app: FastAPI) -> list[tuple[re.Pattern[str], frozenset[str]]]:
    """(path pattern, methods) of every operation whose request body is JSON only."""
    operations = []
    for path, item in app.openapi().get("paths", {}).items():
        methods = frozenset(
            method.upper()
            for method, operation in item.items()
            if isinstance(operation, dict)
            and (media := operation.get("requestBody", {}).get("content"))
            and all(is_json(m) for m in media)
        )
        if methods:
            segments = [
                "[^/]+" if s.startswith("{") and s.endswith("}") else re.escape(s)
                for s in path.split("/")
            ]
            operations.append((re.compile("/".join(segments)), methods))
    return operations


class JsonBodyOnly:
    """415 for a body that is not JSON on an operation that takes a JSON body."""

    def __init__(self, app: ASGIApp, api: FastAPI) -> None:
        self.app = app
        self.api = api
        self.operations: list[tuple[re.Pattern[str], frozenset[str]]] | None = None

    def takes_json(self, scope: Scope) -> bool:
        if self.operations is None:
            self.operations = json_body_operations(self.api)
        return any(
            scope["method"] in methods and pattern.fullmatch(scope["path"])
            for pattern, methods in self.operations
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            content_type = headers.get("content-type")
            has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
            refused = not is_json(content_type) if content_type is not None else has_body
            if refused and self.takes_json(scope):
                came = f"{content_type[:60]!r}" if content_type is not None else "no Content-Type"
                refusal = JSONResponse({"detail": f"{SEND_JSON}; this came with {came}"}, 415)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def install_request_guards(app: FastAPI) -> None:
    """Add the guards above to `app`; call it in create_app(), before the app serves."""
    app.add_middleware(JsonBodyOnly, api=app)
