"""The README's reverse-proxy example (docs/nginx-thievery.conf) passes `nginx -t`, with a
throwaway certificate in place of the real one. CI installs nginx (.ci/run); elsewhere the
test needs nginx on PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

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
