"""openssl x509 and s_client over declared certificates and TLS endpoints."""

from __future__ import annotations

import pytest

from agentbench.sim.core.spec import FileSpec, SystemSpec
from agentbench.sim.core.spec_services import CertSpec, DnsRecord, TlsEndpoint
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

CA = "C = US, O = Example Corp, CN = Example Corp Internal CA G2"
LEAF = "/etc/ssl/billing.pem"


@pytest.fixture
def tls() -> World:
    files: dict[str, str | FileSpec] = {
        LEAF: FileSpec(
            cert=CertSpec(
                subject="CN = billing.internal",
                issuer=CA,
                not_before="2026-08-30T00:00:00Z",
                not_after="2026-11-28T23:59:59Z",
                sans=["billing.internal", "billing-api.internal"],
            )
        ),
        "/etc/ssl/ca.pem": FileSpec(
            cert=CertSpec(
                subject=CA,
                issuer="C = US, O = Example Corp, CN = Example Corp Root CA",
                not_before="2024-01-10T00:00:00Z",
                not_after="2034-01-09T23:59:59Z",
            )
        ),
        "/etc/hosts": "127.0.0.1 localhost\n",
    }
    system = SystemSpec(
        dns=[DnsRecord(name="billing.internal", value="10.0.4.20")],
        tls=[TlsEndpoint(address="billing.internal:443", cert=LEAF, chain=["/etc/ssl/ca.pem"])],
    )
    return World(WorldSpec(files=files, system=system))


@pytest.mark.parametrize(
    ("cmd", "stdout"),
    [
        (
            f"openssl x509 -in {LEAF} -noout -dates",
            "notBefore=Aug 30 00:00:00 2026 GMT\nnotAfter=Nov 28 23:59:59 2026 GMT\n",
        ),
        (f"openssl x509 -noout -enddate -in {LEAF}", "notAfter=Nov 28 23:59:59 2026 GMT\n"),
        (
            f"openssl x509 -in {LEAF} -noout -subject -issuer",
            f"subject=CN = billing.internal\nissuer={CA}\n",
        ),
        (
            "openssl s_client -connect billing.internal:443 -servername billing.internal "
            "</dev/null 2>/dev/null | openssl x509 -noout -dates",
            "notBefore=Aug 30 00:00:00 2026 GMT\nnotAfter=Nov 28 23:59:59 2026 GMT\n",
        ),
        (
            "echo | openssl s_client -connect billing.internal:443 2>/dev/null | "
            "openssl x509 -noout -enddate",
            "notAfter=Nov 28 23:59:59 2026 GMT\n",
        ),
    ],
)
def test_x509_prints_the_declared_fields(tls: World, cmd: str, stdout: str) -> None:
    result = sh(tls, cmd)
    assert (result.stdout, result.exit_code, result.simulated) == (stdout, 0, True)


def test_text_checkend_and_pem(tls: World) -> None:
    text = sh(tls, f"openssl x509 -in {LEAF} -noout -text").stdout
    assert "            Not After : Nov 28 23:59:59 2026 GMT\n" in text
    assert "DNS:billing.internal, DNS:billing-api.internal" in text
    check = sh(tls, f"openssl x509 -in {LEAF} -noout -checkend 86400")
    assert (check.stdout, check.exit_code) == ("Certificate will expire\n", 1)
    ca = sh(tls, "openssl x509 -in /etc/ssl/ca.pem -noout -checkend 86400")
    assert (ca.stdout, ca.exit_code) == ("Certificate will not expire\n", 0)
    pem = sh(tls, f"cat {LEAF}").stdout
    assert pem.startswith("-----BEGIN CERTIFICATE-----\n") and pem == sh(tls, f"cat {LEAF}").stdout
    assert sh(tls, f"openssl x509 -in {LEAF}").stdout == pem  # without -noout: the PEM


def test_x509_errors_are_openssls(tls: World) -> None:
    missing = sh(tls, "openssl x509 -in /etc/ssl/nope.pem -noout -dates")
    assert missing.exit_code == 1
    assert missing.stderr.startswith(
        "Could not open file or uri for loading certificate from /etc/ssl/nope.pem\n"
    )
    assert "No such file or directory" in missing.stderr
    assert missing.stderr.endswith("Unable to load certificate\n")
    plain = sh(tls, "openssl x509 -in /etc/hosts -noout -dates")
    assert (
        plain.stderr == "Could not read certificate from /etc/hosts\nUnable to load certificate\n"
    )


def test_s_client_shows_the_chain_and_the_verification(tls: World) -> None:
    result = sh(tls, "openssl s_client -connect billing.internal:443 </dev/null")
    assert result.stdout.startswith("CONNECTED(00000003)\n---\nCertificate chain\n")
    assert " 0 s:CN = billing.internal\n" in result.stdout
    assert f" 1 s:{CA}\n" in result.stdout
    assert "Verify return code: 10 (certificate has expired)\n" in result.stdout
    assert "verify error:num=10:certificate has expired\n" in result.stderr
    assert result.stdout.endswith("---\nDONE\n")
    assert result.identity == ("tls", "connect", "billing.internal:443")


def test_s_client_to_unknown_or_closed_hosts(tls: World) -> None:
    unknown = sh(tls, "openssl s_client -connect nope.internal:443")
    assert unknown.exit_code == 1 and "Name or service not known" in unknown.stderr
    closed = sh(tls, "openssl s_client -connect billing.internal:8443")
    assert closed.exit_code == 1 and closed.stderr.endswith("connect:errno=111\n")
    bad = sh(tls, "openssl frobnicate")
    assert bad.stderr == "Invalid command 'frobnicate'; type \"help\" for a list.\n"


def test_a_remote_servers_certificate_declared_inline() -> None:
    remote = CertSpec(
        subject="CN = shop.example.com",
        issuer="C = US, O = Let's Encrypt, CN = R11",
        not_before="2026-09-04T00:00:00Z",
        not_after="2026-12-03T23:59:59Z",
    )
    system = SystemSpec(tls=[TlsEndpoint(address="shop.example.com:443", cert=remote)])
    world = World(WorldSpec(system=system))
    cmd = "openssl s_client -connect shop.example.com:443 </dev/null 2>/dev/null"
    dates = sh(world, f"{cmd} | openssl x509 -noout -subject -enddate")
    assert dates.stdout == "subject=CN = shop.example.com\nnotAfter=Dec  3 23:59:59 2026 GMT\n"
    assert "Verify return code: 0 (ok)\n" in sh(world, cmd).stdout
    assert "shop.example.com" not in sh(world, "ls -R /etc").stdout  # nothing lands on disk
