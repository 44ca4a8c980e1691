"""Which address a request came from, for the limits kept per address (logins, joins).

Behind reverse proxies, the connection's peer is the nearest proxy, and each proxy appends the
address it saw to X-Forwarded-For. Only the proxies the deployment names are believed: the
client is the rightmost address in that list that is not one of them (MDN's "rightmost
untrusted hop"), since anything further left was written by whoever sent the request. uvicorn's
ProxyHeadersMiddleware walks the list that way for a named set of proxies; with "*" it takes
the leftmost, the client's own claim, so "*" is refused (config.Settings).

`gateway` names the container's default gateway: under docker-compose, a reverse proxy on the
host reaches the API through the published port, and Docker hands the API that connection from
the gateway of the API's network, an address that varies from host to host.
"""

import ipaddress
import socket
import struct
from pathlib import Path

from fastapi import FastAPI
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

ROUTES = Path("/proc/net/route")
GATEWAY = "gateway"


def default_gateway(route_table: str) -> str | None:
    """The IPv4 default route's gateway in a /proc/net/route table, if there is one."""
    for line in route_table.splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 3 and fields[1] == "00000000":  # destination 0.0.0.0
            return socket.inet_ntoa(struct.pack("<L", int(fields[2], 16)))
    return None


def trusted_proxies(spec: str, routes: Path = ROUTES) -> list[str]:
    """The addresses and networks in C10K_TRUSTED_PROXIES (comma-separated), `gateway`
    resolved; ValueError naming what is not one."""
    trusted = []
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            continue
        if item == GATEWAY:
            found = default_gateway(routes.read_text()) if routes.exists() else None
            if found is None:
                raise ValueError(
                    "C10K_TRUSTED_PROXIES names 'gateway', but this machine has no default "
                    "route: name the reverse proxy's address instead"
                )
            item = found
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError as bad:
            raise ValueError(
                f"C10K_TRUSTED_PROXIES: {item!r} is not an address or a network (e.g. "
                "127.0.0.1, 10.0.0.0/8, or 'gateway' for the compose stack behind a proxy "
                "on its host)"
            ) from bad
        trusted.append(item)
    return trusted


def install_client_address(app: FastAPI, proxies: list[str]) -> None:
    """Requests from the named proxies take their client (and scheme) from X-Forwarded-For
    and X-Forwarded-Proto; all others are what their connection says. Added last, it runs
    first: every guard and limit sees the client's address."""
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=proxies)
