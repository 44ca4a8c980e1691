"""A real nginx in front of the API, configured as the README tells a class's host to (without
TLS: it speaks plain http on loopback), for the tests and the probe that check whose address a
request is counted against."""

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

NGINX_CONF = """\
daemon off;
master_process off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass {api};
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""
START_S = 10


class NoNginx(RuntimeError):
    pass


@contextmanager
def reverse_proxy(api: str, prefix: Path, port: int) -> Iterator[str]:
    """nginx on 127.0.0.1:`port` passing everything to `api`, for as long as the block runs
    (its files under `prefix`): its base URL."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        raise NoNginx("nginx is not installed (make host-test installs nginx-light)")
    prefix.mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(NGINX_CONF.format(prefix=prefix, port=port, api=api))
    process = subprocess.Popen([binary, "-p", str(prefix), "-c", str(conf)])
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_S
    try:
        while True:
            try:
                httpx.get(url + "/api/health", timeout=1)
                break
            except httpx.TransportError:
                if process.poll() is not None:
                    raise NoNginx((prefix / "error.log").read_text()) from None
                if time.monotonic() > deadline:
                    raise NoNginx("nginx did not answer within 10 s") from None
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def client_at(address: str) -> httpx.Client:
    """A client whose connections come from `address` (any 127/8 address is this machine)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)
