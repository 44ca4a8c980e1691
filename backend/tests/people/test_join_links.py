"""Which join link the class page shows, and when it warns that the link works only on the
host itself (issue 26.1)."""

from pathlib import Path

from c10klab.config import Settings
from c10klab.people.join_links import Origin, join_links, machine_addresses, origin_of
from tests.people.conftest import Browser, log_in, make_class

CODE = "K7QXM-4TPRW"
ON_HOST = Origin("http", "localhost", 8000)


def _settings(tmp_path: Path, **values: object) -> Settings:
    return Settings(mode="classroom", db_path=tmp_path / "s.sqlite3", **values)  # type: ignore[arg-type]


def test_the_public_address_is_the_one_link(tmp_path: Path) -> None:
    settings = _settings(tmp_path, public_url="https://lab.example.org/")
    links = join_links(settings, ON_HOST, CODE, addresses=["192.0.2.10"])
    assert [link.url for link in links.links] == [f"https://lab.example.org/#/join?code={CODE}"]
    assert links.warning is None


def test_opened_on_the_host_the_link_uses_the_hosts_network_addresses(tmp_path: Path) -> None:
    links = join_links(_settings(tmp_path), ON_HOST, CODE, addresses=["192.0.2.10", "fd00::2"])
    assert [link.url for link in links.links] == [
        f"http://192.0.2.10:8000/#/join?code={CODE}",
        f"http://[fd00::2]:8000/#/join?code={CODE}",
    ]
    assert links.opened_on_host and links.warning is None


def test_the_address_the_instructor_used_comes_first(tmp_path: Path) -> None:
    origin = origin_of("http", "lab-room-4.local:8130")
    links = join_links(_settings(tmp_path), origin, CODE, addresses=["192.0.2.10"])
    assert [(link.kind, link.url) for link in links.links] == [
        ("browser", f"http://lab-room-4.local:8130/#/join?code={CODE}"),
        ("address", f"http://192.0.2.10:8130/#/join?code={CODE}"),
    ]
    assert not links.opened_on_host


def test_a_course_listening_on_loopback_warns_that_nobody_else_can_reach_it(
    tmp_path: Path,
) -> None:
    settings = _settings(tmp_path, host="127.0.0.1")
    links = join_links(settings, ON_HOST, CODE, addresses=["192.0.2.10"])
    assert [link.url for link in links.links] == [f"http://localhost:8000/#/join?code={CODE}"]
    assert links.warning == "listens-on-loopback"
    # A host with no network address at all, listening everywhere: a warning of its own.
    alone = join_links(_settings(tmp_path), ON_HOST, CODE, addresses=[])
    assert alone.warning == "no-network-address"


def test_the_addresses_the_settings_name_stand_for_the_machines(tmp_path: Path) -> None:
    """Under compose the API sees only its container's network: make compose-up names the
    host's addresses (C10K_HOST_ADDRESSES)."""
    settings = _settings(tmp_path, host_addresses=["198.51.100.7"])
    links = join_links(settings, ON_HOST, CODE)
    assert [link.url for link in links.links] == [f"http://198.51.100.7:8000/#/join?code={CODE}"]


def test_this_machines_addresses_leave_out_loopback_and_container_bridges() -> None:
    for address in machine_addresses():
        assert not address.startswith(("127.", "172.17.", "fe80")) and address != "::1"


def test_only_the_classes_instructor_reads_its_join_links(browser: Browser) -> None:
    grace = log_in(browser(), "Grace")
    make_class(grace)
    class_id = grace.get("/api/classes").json()[0]["id"]
    answer = grace.get(f"/api/classes/{class_id}/join-links")  # as http://testserver
    assert answer.status_code == 200, answer.text
    first = answer.json()["links"][0]
    assert first["kind"] == "browser" and first["url"].startswith("http://testserver/#/join?code=")
    assert log_in(browser(), "Linus").get(f"/api/classes/{class_id}/join-links").status_code == 404
