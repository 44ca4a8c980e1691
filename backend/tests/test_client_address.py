"""Whose address a request is counted against (issue 23.6): behind a real nginx configured as
the README says, and straight from clients, with X-Forwarded-For spoofed each time."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from c10klab.client_address import default_gateway, trusted_proxies
from c10klab.config import Settings
from c10klab.main import create_app
from c10klab_bench.proxy import NoNginx, client_at, reverse_proxy
from tests.serving import free_port, served

# /proc/net/route of a container on a compose network: its default route via 172.18.0.1.
ROUTES = """\
Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
eth1\t00000000\t010012AC\t0003\t0\t0\t0\t00000000\t0\t0\t0
eth1\t000012AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0
eth0\t000013AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0
"""

ADDRESS_LIMIT = 4


def test_the_default_gateway_is_read_from_the_route_table(tmp_path: Path) -> None:
    assert default_gateway(ROUTES) == "172.18.0.1"
    assert default_gateway(ROUTES.splitlines()[0]) is None
    routes = tmp_path / "route"
    routes.write_text(ROUTES)
    assert trusted_proxies("127.0.0.1, gateway", routes) == ["127.0.0.1", "172.18.0.1"]
    assert trusted_proxies("10.0.0.0/8,::1", routes) == ["10.0.0.0/8", "::1"]
    routes.write_text(ROUTES.splitlines()[0])
    with pytest.raises(ValueError, match="no default route"):
        trusted_proxies("gateway", routes)
    with pytest.raises(ValueError, match=r"'proxy\.example' is not an address or a network"):
        trusted_proxies("proxy.example", routes)


def test_trusting_every_forwarder_is_refused(tmp_path: Path) -> None:
    """'*' made uvicorn take the leftmost X-Forwarded-For: whatever the client wrote."""
    with pytest.raises(ValidationError, match="names its own address"):
        Settings(db_path=tmp_path / "s.sqlite3", trusted_proxies="*")


@pytest.fixture
def api(tmp_path: Path) -> Iterator[str]:
    settings = Settings(
        mode="classroom",
        db_path=tmp_path / "store.sqlite3",
        trusted_proxies="127.0.0.1",
        login_attempts_per_address=ADDRESS_LIMIT,
    )
    with served(create_app(settings)) as url:
        yield url


@pytest.fixture
def nginx(api: str, tmp_path: Path) -> Iterator[str]:
    try:
        with reverse_proxy(api, tmp_path / "nginx", free_port()) as url:
            yield url
    except NoNginx as missing:
        pytest.fail(str(missing))


def failed_logins(url: str, source: str, tries: int) -> list[int]:
    """Wrong logins under new names each time (no account's limit is reached), each with a
    new made-up X-Forwarded-For: the statuses answered."""
    with client_at(source) as client:
        return [
            client.post(
                url + "/api/auth/login",
                json={"name": f"nobody {i}", "password": "wrong"},
                headers={"X-Forwarded-For": f"203.0.113.{i}"},
            ).status_code
            for i in range(tries)
        ]


def test_behind_the_proxy_a_spoofed_forwarded_for_does_not_reset_the_address_limit(
    nginx: str,
) -> None:
    """Issue 23.6: with X-Forwarded-For spoofed, 40 of 40 tries got 401, never 429. nginx
    appends the address it saw; the API, trusting nginx only, counts that one."""
    statuses = failed_logins(nginx, "127.0.0.2", ADDRESS_LIMIT + 3)
    assert statuses == [401] * ADDRESS_LIMIT + [429] * 3
    # Counted per real client, not per proxy: another machine behind the same proxy may try.
    assert failed_logins(nginx, "127.0.0.3", 1) == [401]


def test_straight_to_the_api_a_forwarded_for_from_the_client_is_ignored(api: str) -> None:
    statuses = failed_logins(api, "127.0.0.4", ADDRESS_LIMIT + 2)
    assert statuses == [401] * ADDRESS_LIMIT + [429] * 2
