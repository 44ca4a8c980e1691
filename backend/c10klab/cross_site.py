"""Cross-site requests cannot change anything, and a request for another host name is refused.

HostGuard answers only the host names the deployment serves (`Settings.served_hosts`): in solo
mode localhost and its addresses. A page on any site whose DNS name an attacker rebinds to
127.0.0.1 sends its own name as Host and as Origin, which the check below would take for this
server's own; refusing the name itself closes that (DNS rebinding).

The session cookie is SameSite=Strict, so another site's page cannot make the browser send it;
this guard is the second wall, and the only one in solo mode, where there is no cookie at all
(a page on any site could otherwise queue runs on a learner's `localhost:8000`). A mutating
request (anything but GET, HEAD, OPTIONS) is refused with 403 when the browser says it comes
from another site: `Sec-Fetch-Site` other than same-origin or none, or an `Origin` that is not
this server's own (its Host) nor one of `C10K_ALLOWED_ORIGINS`. Requests without either header
are not from a browser page (curl, the tests, scripts) and carry no ambient credentials to
abuse, so they pass.
"""

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from c10klab.errors import Message, Phrase, problem

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SAME_ORIGIN_FETCHES = frozenset({"same-origin", "none"})
OTHER_SITE = Phrase(
    "other-site", "a request from another site ({fetch_site}) cannot change anything here"
)
OTHER_ORIGIN = Phrase(
    "other-origin",
    "a request from {origin} cannot change anything here; if that is this course's own "
    "address behind a proxy, add it to C10K_ALLOWED_ORIGINS",
)
OTHER_HOST = Phrase(
    "other-host",
    "this course answers to {served}, not {named!r}: open it by one of those names, or add "
    "this one to C10K_ALLOWED_HOSTS",
)


def refusal(scope: Scope, allowed_origins: Iterable[str]) -> Message | None:
    """Why this request must be refused as cross-site, or None."""
    if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
        return None
    headers = Headers(scope=scope)
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in SAME_ORIGIN_FETCHES:
        return OTHER_SITE(fetch_site=fetch_site)
    origin = headers.get("origin")
    if origin is None:
        return None
    host = headers.get("host")
    if origin in allowed_origins or (host and urlsplit(origin).netloc == host):
        return None
    return OTHER_ORIGIN(origin=origin)


class CrossSiteGuard:
    """Pure ASGI middleware (it never wraps a response, so event streams pass untouched)."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed_origins = frozenset(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        why = refusal(scope, self.allowed_origins)
        if why is None:
            await self.app(scope, receive, send)
            return
        await JSONResponse(problem(why), status_code=403)(scope, receive, send)


def host_name(host: str) -> str:
    """The name of a Host header, without its port: "localhost", "::1", "lab.example.org"."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class HostGuard:
    """Pure ASGI middleware: 400, with what to do, for an HTTP request naming a host the
    deployment does not serve (or none)."""

    def __init__(self, app: ASGIApp, served: Iterable[str]) -> None:
        self.app = app
        self.served = frozenset(served)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "*" in self.served:
            await self.app(scope, receive, send)
            return
        named = Headers(scope=scope).get("host", "")
        if host_name(named) in self.served:
            await self.app(scope, receive, send)
            return
        why = OTHER_HOST(served=", ".join(sorted(self.served)), named=named[:80])
        await JSONResponse(problem(why), status_code=400)(scope, receive, send)
