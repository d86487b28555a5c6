"""The README's reverse-proxy example (docs/nginx-thievery.conf) passes `nginx -t`, with a
throwaway certificate in place of the real one. CI installs nginx (.ci/run); elsewhere the
test needs nginx on PATH."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx2
import pytest

from thievery.server.app import MAX_BODY
from thievery.server.errors import ServerError

CONFIG = Path(__file__).resolve().parents[2] / "docs" / "nginx-thievery.conf"


def test_the_nginx_example_passes_nginx_t(tmp_path: Path) -> None:
    nginx, openssl = shutil.which("nginx"), shutil.which("openssl")
    if nginx is None or openssl is None:
        if os.environ.get("CI"):
            pytest.fail("CI installs nginx and openssl (.ci/run); they are missing")
        pytest.skip("needs nginx and openssl (apt-get install nginx-light openssl)")
    key, cert = str(tmp_path / "key.pem"), str(tmp_path / "cert.pem")
    command = [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    command += ["-keyout", key, "-out", cert, "-subj", "/CN=games.example.org"]
    subprocess.run(
        command,
        check=True,
        capture_output=True,
    )
    live = "/etc/letsencrypt/live/games.example.org/"
    site = CONFIG.read_text()
    assert live + "fullchain.pem" in site and "proxy_set_header Upgrade" in site
    site = site.replace(live + "fullchain.pem", cert).replace(live + "privkey.pem", key)
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  include {tmp_path}/site.conf;\n}}\n"
    )
    result = subprocess.run(
        [nginx, "-t", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr

    # Running (on free loopback ports, as this user): a body past the limit gets the
    # server's JSON error, not nginx's HTML page.
    ports = [free_port(), free_port()]
    site = site.replace("listen 80;", f"listen 127.0.0.1:{ports[0]};")
    (tmp_path / "site.conf").write_text(
        site.replace("listen 443 ssl;", f"listen 127.0.0.1:{ports[1]} ssl;")
    )
    conf = (tmp_path / "nginx.conf").read_text()
    (tmp_path / "nginx.conf").write_text("daemon off;\n" + conf)  # (our child, waited for)
    server = subprocess.Popen([nginx, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)])
    try:
        url = f"https://127.0.0.1:{ports[1]}/api/tables"
        body = b"x" * (MAX_BODY + 1)
        for _ in range(50):  # (nginx forks its workers; the port is bound at once)
            try:
                refused = httpx2.post(
                    url, content=body, verify=False, headers={"Host": "games.example.org"}
                )
                break
            except httpx2.TransportError:
                time.sleep(0.1)
        else:
            raise AssertionError("nginx did not answer")
        assert refused.status_code == 413
        assert refused.headers["content-type"].startswith("application/json")
        assert (
            refused.json()
            == ServerError(
                "request/too_large", f"a request has at most {MAX_BODY} bytes", 413
            ).to_json()
        )
    finally:
        server.send_signal(signal.SIGQUIT)
        server.wait(10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
