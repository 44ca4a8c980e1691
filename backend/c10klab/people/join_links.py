"""Where students can reach the class: the join links its page shows, and a warning when the
one it shows could only work on the course's own machine.

An instructor who opens the course on the host itself sees it as `localhost`; a link built from
that address, as the page once did, sends every student's browser to their own machine. So the
links come from, in order: the public address the host's owner set (C10K_PUBLIC_URL); else the
address the instructor's browser used, unless it names this machine only; then this machine's
own addresses on its networks, at the port the browser used (the published one, under compose).
"""

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

import psutil

from c10klab.config import Settings
from c10klab.people.schemas import JoinLink, JoinLinks

# Interfaces no student's machine reaches: Docker's and libvirt's bridges and their veth ends.
HOST_ONLY_INTERFACES = ("docker", "br-", "veth", "virbr", "lo")
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


@dataclass(frozen=True)
class Origin:
    """The scheme, host and port the instructor's browser asked with (the Host header)."""

    scheme: str
    host: str
    port: int | None


def is_loopback(host: str) -> bool:
    """A host name or address that means "this machine" wherever it is typed."""
    host = host.lower().strip("[]")
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _listens_on_loopback(settings: Settings) -> bool:
    return is_loopback(settings.listen_host)


def machine_addresses() -> list[str]:
    """This machine's addresses on networks other machines may be on, IPv4 first: no loopback,
    no link-local (needs a zone a link cannot carry), no container bridges, no interface down."""
    up = {name for name, stats in psutil.net_if_stats().items() if stats.isup}
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for name, addresses in psutil.net_if_addrs().items():
        if name not in up or name.startswith(HOST_ONLY_INTERFACES):
            continue
        for address in addresses:
            try:
                ip = ipaddress.ip_address(address.address.split("%", 1)[0])
            except ValueError:  # a hardware address
                continue
            if not (ip.is_loopback or ip.is_link_local or ip.is_multicast):
                found.append(ip)
    found.sort(key=lambda ip: (ip.version, ip.packed))
    return [str(ip) for ip in found]


def published_addresses(publish: str) -> list[str]:
    """The machine's addresses a compose port spec ("8000", "0.0.0.0:8000",
    "192.0.2.10:8000", "127.0.0.1:8000") publishes on: all of them, the one named, or none
    when it names loopback (a reverse proxy on the host is then the way in)."""
    bound, _, port = publish.rpartition(":")
    bound = bound.strip("[]")
    if not port or bound in ("", "0.0.0.0", "::"):
        return machine_addresses()
    return [] if is_loopback(bound) else [bound]


def _url(scheme: str, host: str, port: int | None) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = {"http": 80, "https": 443}[scheme]
    return f"{scheme}://{host}" if port in (None, default) else f"{scheme}://{host}:{port}"


def join_path(code: str) -> str:
    return f"/#/join?code={code}"


def join_links(
    settings: Settings, origin: Origin, code: str, addresses: list[str] | None = None
) -> JoinLinks:
    """The class's join links, the first the one to show, and what is wrong with it if it
    cannot work for the room. `addresses`: this machine's (machine_addresses() when None and
    the settings name none)."""
    path = join_path(code)
    if settings.public_url:
        return JoinLinks(
            links=[JoinLink(url=settings.public_url.rstrip("/") + path, kind="public")]
        )
    links: list[JoinLink] = []
    if not is_loopback(origin.host):
        links.append(
            JoinLink(url=_url(origin.scheme, origin.host, origin.port) + path, kind="browser")
        )
    loopback_only = _listens_on_loopback(settings)
    if not loopback_only:
        if addresses is None:
            addresses = (
                settings.host_addresses
                if settings.host_addresses is not None
                else machine_addresses()
            )
        for address in addresses:
            url = _url(origin.scheme, address, origin.port) + path
            if all(link.url != url for link in links):
                links.append(JoinLink(url=url, kind="address"))
    opened_here = is_loopback(origin.host)
    if links:
        return JoinLinks(links=links, opened_on_host=opened_here)
    here = JoinLink(url=_url(origin.scheme, origin.host, origin.port) + path, kind="browser")
    return JoinLinks(
        links=[here],
        opened_on_host=opened_here,
        warning="listens-on-loopback" if loopback_only else "no-network-address",
    )


def origin_of(scheme: str, host_header: str) -> Origin:
    """The browser's origin from the request's scheme and Host header ("192.0.2.10:8000")."""
    parts = urlsplit(f"{scheme}://{host_header}")
    try:
        port = parts.port
    except ValueError:  # a malformed port: the scheme's default
        port = None
    return Origin(scheme=scheme, host=parts.hostname or "localhost", port=port)
