"""dig, host, nslookup and getent over declared DNS records; iptables over declared rules."""

from __future__ import annotations

import pytest

from agentbench.sim.core.spec import SystemSpec
from agentbench.sim.core.spec_services import DnsRecord, FirewallRule, FirewallSpec
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh


@pytest.fixture
def net() -> World:
    system = SystemSpec(
        dns=[
            DnsRecord(name="billing.internal", value="10.0.4.20"),
            DnsRecord(name="api.internal", type="CNAME", value="billing.internal"),
            DnsRecord(name="example.com", type="MX", value="10 mx1.example.com"),
        ],
        firewall=FirewallSpec(
            policies={"INPUT": "DROP"},
            rules=[
                FirewallRule(target="ACCEPT", extra="ctstate RELATED,ESTABLISHED"),
                FirewallRule(target="ACCEPT", protocol="tcp", dport=22),
                FirewallRule(target="f2b-sshd", protocol="tcp", dport=22),
                FirewallRule(
                    chain="f2b-sshd",
                    target="REJECT",
                    source="203.0.113.45",
                    extra="reject-with icmp-port-unreachable",
                    packets=9,
                    bytes=540,
                ),
            ],
        ),
    )
    return World(WorldSpec(system=system))


@pytest.mark.parametrize(
    ("cmd", "stdout"),
    [
        ("dig +short billing.internal", "10.0.4.20\n"),
        ("dig billing.internal +short", "10.0.4.20\n"),
        ("dig +short api.internal", "billing.internal.\n10.0.4.20\n"),
        ("dig +short MX example.com", "10 mx1.example.com.\n"),
        ("dig -t mx example.com +short", "10 mx1.example.com.\n"),
        ("dig +short nope.internal", ""),
        ("host billing.internal", "billing.internal has address 10.0.4.20\n"),
        (
            "host api.internal",
            "api.internal is an alias for billing.internal.\n"
            "billing.internal has address 10.0.4.20\n",
        ),
        ("getent hosts billing.internal", "10.0.4.20       billing.internal\n"),
    ],
)
def test_names_resolve_from_the_declared_records(net: World, cmd: str, stdout: str) -> None:
    result = sh(net, cmd)
    assert (result.stdout, result.exit_code, result.simulated) == (stdout, 0, True)


def test_full_dig_answer_and_nxdomain(net: World) -> None:
    full = sh(net, "dig billing.internal").stdout
    assert ";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 41233\n" in full
    assert ";; ANSWER SECTION:\nbilling.internal.\t300\tIN\tA\t10.0.4.20\n" in full
    missing = sh(net, "dig nope.internal")
    assert "status: NXDOMAIN" in missing.stdout and "ANSWER SECTION" not in missing.stdout
    assert missing.exit_code == 0  # dig succeeds; the status says NXDOMAIN


def test_host_nslookup_getent_fail_on_unknown_names(net: World) -> None:
    host = sh(net, "host nope.internal")
    assert (host.stdout, host.exit_code) == ("Host nope.internal not found: 3(NXDOMAIN)\n", 1)
    ns = sh(net, "nslookup nope.internal")
    assert "** server can't find nope.internal: NXDOMAIN\n" in ns.stdout and ns.exit_code == 1
    assert sh(net, "getent hosts nope.internal").exit_code == 2
    found = sh(net, "nslookup api.internal").stdout
    assert "api.internal\tcanonical name = billing.internal.\n" in found
    assert "Name:\tbilling.internal\nAddress: 10.0.4.20\n" in found
    assert (
        sh(net, "host billing.internal").identity == sh(net, "dig +short billing.internal").identity
    )


def test_iptables_needs_root(net: World) -> None:
    denied = sh(net, "iptables -L -n")
    assert denied.exit_code == 4
    assert denied.stderr.startswith(
        "iptables v1.8.10 (nf_tables): Could not fetch rule set generation id: Permission denied "
        "(you must be root)"
    )


def test_iptables_lists_chains_with_and_without_numbers(net: World) -> None:
    named = sh(net, "sudo iptables -L INPUT").stdout.splitlines()
    assert named[:2] == [
        "Chain INPUT (policy DROP)",
        "target     prot opt source               destination",
    ]
    assert named[2].split() == [
        "ACCEPT",
        "all",
        "--",
        "anywhere",
        "anywhere",
        "ctstate",
        "RELATED,ESTABLISHED",
    ]
    assert named[3].split()[-2:] == ["tcp", "dpt:ssh"]
    numeric = sh(net, "sudo iptables -n -L").stdout
    assert "dpt:22" in numeric and "Chain f2b-sshd (1 references)" in numeric
    assert "REJECT     all  --  203.0.113.45         0.0.0.0/0" in numeric
    verbose = sh(net, "sudo iptables -L f2b-sshd -n -v").stdout.splitlines()
    assert verbose[2].split()[:3] == ["9", "540", "REJECT"]
    missing = sh(net, "sudo iptables -L NOPE")
    assert (missing.stderr, missing.exit_code) == (
        "iptables: No chain/target/match by that name.\n",
        1,
    )
