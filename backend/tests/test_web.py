"""The built frontend, served pre-compressed: a made-up dist/ with marker contents, so each test
can tell from the raw body which of plain, .gz and .br was sent."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from c10klab.web import FRONTEND_MISSING, acceptable_codings, find_file, mount_frontend

JS = "assets/app-AbC_12-z.js"  # a Vite-style hashed name
CSS = "assets/style-Zz9Zz9Zz.css"  # gzipped only: a file brotli did not shrink
PNG = "assets/logo-12345678.png"  # not compressible
SECRET = b"outside dist"


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    for name, encodings in (("index.html", ("", ".gz", ".br")), (JS, ("", ".gz", ".br"))):
        for suffix in encodings:
            (dist / (name + suffix)).write_bytes(f"{name}{suffix or ' plain'}".encode())
    (dist / CSS).write_bytes(b"css plain")
    (dist / (CSS + ".gz")).write_bytes(b"css gzip")
    (dist / PNG).write_bytes(b"\x89PNG")
    (dist / (PNG + ".gz")).write_bytes(b"never sent")
    (dist / "favicon.svg").write_bytes(b"<svg/>")
    (tmp_path / "secret.txt").write_bytes(SECRET)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_bytes(SECRET)
    # Symlinks that lead out of dist: a hashed-looking asset, a directory, and a .br sibling.
    (dist / "assets" / "leak-12345678.js").symlink_to(tmp_path / "secret.txt")
    (dist / "escape").symlink_to(tmp_path / "outside")
    (dist / "assets" / "evil-87654321.js").write_bytes(b"evil plain")
    (dist / "assets" / "evil-87654321.js.br").symlink_to(tmp_path / "secret.txt")
    return dist


def client_for(dist: Path) -> TestClient:
    app = FastAPI()

    @app.get("/api/ping")
    def ping() -> dict[str, bool]:
        return {"pong": True}

    mount_frontend(app, dist)
    return TestClient(app)


@pytest.fixture
def client(dist: Path) -> Iterator[TestClient]:
    with client_for(dist) as test_client:
        yield test_client


def fetch(
    client: TestClient, path: str, accept: str, **headers: str
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and the body exactly as sent (TestClient would otherwise decode gzip)."""
    with client.stream("GET", path, headers={"accept-encoding": accept, **headers}) as response:
        return response.status_code, dict(response.headers), b"".join(response.iter_raw())


@pytest.mark.parametrize(
    ("accept", "coding"),
    [
        ("gzip, deflate, br, zstd", "br"),  # what Chromium sends over HTTPS
        ("gzip, deflate", "gzip"),  # … and over plain HTTP
        ("br", "br"),
        ("x-gzip", "gzip"),
        ("BR;Q=1.0", "br"),
        ("br;q=0, gzip", "gzip"),
        ("br;q=0.5, gzip;q=0.9", "gzip"),  # the client's order wins over ours
        ("br;q=0.9, gzip;q=0.9", "br"),  # a tie goes to the smaller file
        ("*", "br"),
        ("gzip;q=0, *", "br"),
        ("br;q=0, *;q=0.3", "gzip"),
        ("br;q=0, gzip;q=0", None),
        ("*;q=0", None),
        ("identity", None),
        ("", None),
        ("gzip;q=oops", None),  # unreadable q: not trusted
    ],
)
def test_each_request_gets_the_encoding_its_accept_encoding_prefers(
    client: TestClient, accept: str, coding: str | None
) -> None:
    status, headers, body = fetch(client, f"/{JS}", accept)
    assert status == 200
    suffix = {"br": ".br", "gzip": ".gz", None: " plain"}[coding]
    assert body == f"{JS}{suffix}".encode()
    assert headers.get("content-encoding") == coding
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    assert headers["vary"] == "Accept-Encoding"  # on the plain answer too: it depends on the header
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers["content-length"] == str(len(body))


def test_a_missing_sibling_falls_back_to_the_next_encoding_or_the_plain_file(
    client: TestClient,
) -> None:
    assert fetch(client, f"/{CSS}", "br, gzip")[2] == b"css gzip"
    status, headers, body = fetch(client, f"/{CSS}", "br")
    assert (status, body, headers.get("content-encoding")) == (200, b"css plain", None)
    assert headers["content-type"] == "text/css; charset=utf-8"
    assert headers["vary"] == "Accept-Encoding"


def test_files_that_do_not_compress_are_sent_as_they_are(client: TestClient) -> None:
    status, headers, body = fetch(client, f"/{PNG}", "gzip, br")
    assert (status, body) == (200, b"\x89PNG")
    assert "content-encoding" not in headers and "vary" not in headers
    assert headers["content-type"] == "image/png"


@pytest.mark.parametrize("path", ["/", "/lessons/01-c10k-problem", "/index.html", "/assets"])
def test_index_html_answers_the_root_and_any_unknown_path(client: TestClient, path: str) -> None:
    status, headers, body = fetch(client, path, "gzip, deflate, br")
    assert (status, body) == (200, b"index.html.br")
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["content-encoding"] == "br"
    assert headers["vary"] == "Accept-Encoding"
    assert headers["cache-control"] == "no-cache"


def test_unhashed_files_are_revalidated_and_index_html_answers_304_when_unchanged(
    client: TestClient,
) -> None:
    assert fetch(client, "/favicon.svg", "gzip")[1]["cache-control"] == "no-cache"
    _, headers, _ = fetch(client, "/", "gzip")
    status, again, body = fetch(client, "/", "gzip", **{"if-none-match": headers["etag"]})
    assert (status, body) == (304, b"")
    assert again["etag"] == headers["etag"] and again["vary"] == "Accept-Encoding"
    assert again["cache-control"] == "no-cache"
    # The gzip file's ETag is not the brotli file's: a cache never mixes them up.
    assert fetch(client, "/", "br", **{"if-none-match": headers["etag"]})[0] == 200


def test_head_is_answered_without_a_body(client: TestClient) -> None:
    response = client.head(f"/{JS}", headers={"accept-encoding": "gzip"})
    assert response.status_code == 200 and response.content == b""
    assert response.headers["content-encoding"] == "gzip"


@pytest.mark.parametrize(
    "path", ["/api/nope", "/api", "/api/", "/assets/missing-12345678.js", "/assets/"]
)
def test_unknown_api_and_asset_paths_are_404(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_api_routes_come_first(client: TestClient) -> None:
    assert client.get("/api/ping").json() == {"pong": True}


@pytest.mark.parametrize(
    "path",
    [
        "/%2e%2e/secret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e%2f%2e%2e%2fsecret.txt",
        "/assets/..%5c..%5csecret.txt",
        "/assets/leak-12345678.js",  # a symlink out of dist
        "/escape/secret.txt",  # through a symlinked directory
    ],
)
def test_nothing_outside_dist_is_ever_sent(client: TestClient, path: str) -> None:
    status, _, body = fetch(client, path, "identity")
    assert status in (200, 404) and SECRET not in body


def test_a_sibling_that_leads_out_of_dist_is_not_sent(client: TestClient) -> None:
    status, headers, body = fetch(client, "/assets/evil-87654321.js", "br")
    assert (status, body, headers.get("content-encoding")) == (200, b"evil plain", None)


@pytest.mark.parametrize(
    "path",
    [
        "/" + "a/" * 3000,  # longer than PATH_MAX
        "/" + "x" * 300,  # a name longer than NAME_MAX
        "/assets/" + "y" * 300 + ".js",
        "/leçons/日本語",
        "/%00",
        "/assets/app.js%00.png",
        "/%ff%fe",
        "/%c0%ae%c0%ae/secret.txt",  # overlong UTF-8 for ".."
        "/%252e%252e/secret.txt",  # double-encoded
        "/.",
        "//etc/passwd",
        "/assets//app-AbC_12-z.js",
    ],
)
def test_odd_paths_never_fail_the_server(client: TestClient, path: str) -> None:
    status, _, body = fetch(client, path, "gzip, br")
    assert status in (200, 404) and SECRET not in body


def test_find_file_refuses_dot_dot_and_absolute_paths(dist: Path) -> None:
    assert find_file(dist, JS) == (dist / JS).resolve()
    for path in ("../secret.txt", "assets/../../secret.txt", "/etc/passwd", "", "assets", "a\x00b"):
        assert find_file(dist, path) is None


def test_the_codings_a_client_accepts_best_first() -> None:
    assert acceptable_codings("gzip, deflate, br") == ["br", "gzip"]
    assert acceptable_codings("gzip;q=1, br;q=0.2") == ["gzip", "br"]
    assert acceptable_codings("br;q=0") == []
    assert acceptable_codings(None) == []


def test_an_unbuilt_frontend_says_how_to_build_it(tmp_path: Path) -> None:
    with client_for(tmp_path / "no-dist") as client:
        page = client.get("/lessons/01-c10k-problem")
        assert page.status_code == 200 and page.text == FRONTEND_MISSING
        assert client.get("/assets/app-AbC_12-z.js").status_code == 404
        assert client.get("/api/nope").status_code == 404
