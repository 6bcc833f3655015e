"""nginx -t / -T over declared configuration files: includes in order, nginx's parse errors."""

from __future__ import annotations

from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

MAIN = "events {}\nhttp {\n    include /etc/nginx/conf.d/*.conf;\n    include sites-enabled/*;\n}\n"
SITE = "server {\n    listen 80;\n    location /api/ {\n        proxy_pass http://app\n    }\n}\n"


def world(site: str = SITE.replace("http://app\n", "http://app;\n")) -> World:
    files = {
        "/etc/nginx/nginx.conf": MAIN,
        "/etc/nginx/conf.d/10-gzip.conf": "gzip on;\n",
        "/etc/nginx/conf.d/00-tls.conf": "ssl_protocols TLSv1.3;\n",
        "/etc/nginx/sites-enabled/shop.conf": site,
    }
    return World(WorldSpec(files=files))


def test_dump_lists_every_opened_file_in_include_order() -> None:
    result = sh(world(), "nginx -T")
    headers = [line for line in result.stdout.splitlines() if line.startswith("# configuration")]
    assert headers == [
        "# configuration file /etc/nginx/nginx.conf:",
        "# configuration file /etc/nginx/conf.d/00-tls.conf:",
        "# configuration file /etc/nginx/conf.d/10-gzip.conf:",
        "# configuration file /etc/nginx/sites-enabled/shop.conf:",
    ]
    assert result.stderr.endswith("configuration file /etc/nginx/nginx.conf test is successful\n")
    assert sh(world(), "nginx -t").stdout == ""


def test_an_unterminated_directive_fails_the_test_as_nginx_reports_it() -> None:
    result = sh(world(SITE), "sudo nginx -t")
    assert result.exit_code == 1
    assert result.stderr == (
        'nginx: [emerg] unexpected "}" in /etc/nginx/sites-enabled/shop.conf:5\n'
        "nginx: configuration file /etc/nginx/nginx.conf test failed\n"
    )


def test_signals_need_root_and_are_changes() -> None:
    assert sh(world(), "nginx -s reload").exit_code == 1
    assert [str(c) for c in sh(world(), "sudo nginx -s reload").changes] == [
        "systemd: reload nginx.service (nginx -s)"
    ]
