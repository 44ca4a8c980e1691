"""Requests from pages of other sites, against a real server on loopback with headers as a
browser sends them (issue 23.5: DNS rebinding in solo mode)."""

from pathlib import Path

import httpx

from c10klab.config import Settings
from c10klab.cross_site import host_name
from c10klab.main import create_app
from tests.serving import served


def test_a_page_whose_name_was_rebound_to_this_machine_is_refused(tmp_path: Path) -> None:
    """A page at attacker.example:port, its name rebound to 127.0.0.1, sends its own name as
    Host and Origin: same-origin by every browser rule. Only the names served are answered."""
    settings = Settings(db_path=tmp_path / "store.sqlite3", allowed_hosts=[])  # solo's default
    with served(create_app(settings)) as url:
        port = url.rsplit(":", 1)[1]
        rebound = f"attacker.example:{port}"
        page = {"Host": rebound, "Origin": f"http://{rebound}", "Sec-Fetch-Site": "same-origin"}
        for method, path, body in (
            ("POST", "/api/runs", {"server": "c-epoll"}),
            ("POST", "/api/variants", {"server": "c-epoll", "source": "int main;"}),
            ("GET", "/api/history", None),
            ("GET", "/", None),
        ):
            answer = httpx.request(method, url + path, json=body, headers=page)
            assert answer.status_code == 400, (path, answer.text)
            assert "C10K_ALLOWED_HOSTS" in answer.json()["detail"]
        for own in (f"localhost:{port}", f"127.0.0.1:{port}"):
            ok = {"Host": own, "Origin": f"http://{own}", "Sec-Fetch-Site": "same-origin"}
            assert (
                httpx.post(url + "/api/runs", json={"server": "c-epoll"}, headers=ok).status_code
                == 202
            )
        assert httpx.get(url + "/api/history").status_code == 200  # httpx names 127.0.0.1


def test_a_hosted_course_answers_the_names_it_is_given(tmp_path: Path) -> None:
    hosted = Settings(db_path=tmp_path / "s.sqlite3", allowed_hosts=["Lab.Example.org"])
    assert hosted.served_hosts == {"lab.example.org"}
    classroom = Settings(db_path=tmp_path / "s.sqlite3", mode="classroom", allowed_hosts=[])
    assert classroom.served_hosts == {"*"}  # students reach it by whatever name it has
    bound = Settings(db_path=tmp_path / "s.sqlite3", host="10.0.0.5", allowed_hosts=[])
    assert "10.0.0.5" in bound.served_hosts and "localhost" in bound.served_hosts
    assert [host_name(h) for h in ("LocalHost:8000", "[::1]:8000", "::1", "a.b")] == [
        "localhost",
        "::1",
        "::1",
        "a.b",
    ]
