"""The built frontend (frontend/dist) at /, served pre-compressed.

`vite build` writes a `.br` and a `.gz` beside every compressible file (frontend/vite.config.ts),
at the highest levels, once. A request gets the smallest one its Accept-Encoding allows, so the
API process never compresses anything per request. The SPA's routes are hash routes, so any
other path that is not a file gets index.html; unknown `/api/…` and `/assets/…` paths are 404s
(a missing chunk must fail as a script load, not come back as HTML).
"""

import mimetypes
import os
import re
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

FRONTEND_MISSING = """<!doctype html><title>C10K Lab</title>
<p>The frontend is not built. Run <code>make up</code> (or <code>make frontend</code>).</p>"""

COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".html", ".svg", ".json", ".map", ".txt", ".xml"})
# The content codings there are pre-compressed siblings for, the smaller first: coding → suffix.
PRECOMPRESSED = {"br": ".br", "gzip": ".gz"}
# Types that must not depend on the host's /etc/mime.types: browsers refuse a module script
# served as anything but JavaScript.
MEDIA_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".map": "application/json"}
# Vite names what it emits under assets/ `name-HASH.ext` (an 8-character base64url hash): a new
# build gives changed files new names, so a browser may keep these forever.
HASHED_ASSET = re.compile(r"assets/(?:[^/]+/)*[^/]+-[A-Za-z0-9_-]{8}\.[A-Za-z0-9]+")
IMMUTABLE = "public, max-age=31536000, immutable"
# index.html names the current hashed files: always revalidate it (its ETag makes that cheap).
REVALIDATE = "no-cache"


def parse_accept_encoding(header: str | None) -> dict[str, float]:
    """`gzip;q=0.5, br, *;q=0` → {"gzip": 0.5, "br": 1.0, "*": 0.0}. A q we cannot read counts
    as 0, so a malformed header never gets a coding the client might not understand."""
    weights: dict[str, float] = {}
    for item in (header or "").split(","):
        coding, _, params = item.partition(";")
        coding = coding.strip().lower()
        if not coding:
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = min(max(float(value.strip()), 0.0), 1.0)
                except ValueError:
                    q = 0.0
        weights["gzip" if coding == "x-gzip" else coding] = q
    return weights


def acceptable_codings(header: str | None) -> list[str]:
    """The pre-compressed codings the client accepts (q > 0), its preferred first; on equal q,
    brotli first (smaller). A coding not named takes the weight of `*`, if any."""
    weights = parse_accept_encoding(header)
    wildcard = weights.get("*", 0.0)
    ranked = [
        (weights.get(coding, wildcard), -rank, coding) for rank, coding in enumerate(PRECOMPRESSED)
    ]
    return [coding for q, _, coding in sorted(ranked, reverse=True) if q > 0]


def find_file(dist: Path, path: str) -> Path | None:
    """The regular file `path` (URL path, already percent-decoded) names inside `dist`, or None.

    Refuses `..` segments outright, and anything whose real path (symlinks followed) is not
    inside dist. Odd input (a NUL byte, a name too long for the filesystem, undecodable
    characters) is just "no such file": a static file lookup must never be a 500."""
    if not path or "\x00" in path or "\\" in path or path.startswith("/"):
        return None
    if ".." in path.split("/"):
        return None
    try:
        root = dist.resolve()
        file = (root / path).resolve()
        if file.is_relative_to(root) and file.is_file():
            return file
    except (OSError, ValueError):  # ENAMETOOLONG, ELOOP, embedded NUL, lone surrogates …
        pass
    return None


def file_response(dist: Path, path: str, file: Path, request: Request) -> Response:
    """`file` (the plain one, found at `path`) in the best encoding the request accepts."""
    headers: dict[str, str] = {}
    served = file
    if file.suffix in COMPRESSIBLE:
        # Every compressible answer depends on Accept-Encoding, including the plain one.
        headers["Vary"] = "Accept-Encoding"
        for coding in acceptable_codings(request.headers.get("accept-encoding")):
            sibling = find_file(dist, path + PRECOMPRESSED[coding])
            if sibling is not None:
                served = sibling
                headers["Content-Encoding"] = coding
                break
    headers["Cache-Control"] = IMMUTABLE if HASHED_ASSET.fullmatch(path) else REVALIDATE
    response = FileResponse(
        served, headers=headers, media_type=media_type(file), stat_result=os.stat(served)
    )
    if etag_matches(request, response):
        return Response(status_code=304, headers=not_modified_headers(response))
    return response


def media_type(file: Path) -> str:
    """The plain file's type: a .js.br is JavaScript, sent brotli-encoded."""
    guessed = MEDIA_TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0]
    return guessed or "application/octet-stream"


def etag_matches(request: Request, response: Response) -> bool:
    """Whether the client's If-None-Match names this exact file (each encoding has its own ETag)."""
    if_none_match = request.headers.get("if-none-match")
    if not if_none_match:
        return False
    etag = response.headers["etag"]
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


def not_modified_headers(response: Response) -> dict[str, str]:
    """What a 304 repeats from the 200 it stands for (RFC 9110 §15.4.5)."""
    keep = ("cache-control", "content-location", "etag", "vary", "last-modified")
    return {name: value for name, value in response.headers.items() if name in keep}


def not_found() -> Response:
    return HTMLResponse("Not Found", status_code=404)


def mount_frontend(app: FastAPI, dist: Path) -> None:
    """Serve the built single-page app at / (added after the API's routes, which therefore win)."""

    @app.api_route("/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
    def frontend(path: str, request: Request) -> Response:
        if path == "api" or path.startswith("api/"):
            return not_found()
        file = find_file(dist, path)
        if file is not None:
            return file_response(dist, path, file, request)
        if path.startswith("assets/"):
            return not_found()
        index = find_file(dist, "index.html")
        if index is None:
            return HTMLResponse(FRONTEND_MISSING)
        return file_response(dist, "index.html", index, request)
