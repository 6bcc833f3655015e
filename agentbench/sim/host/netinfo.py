"""Name resolution and the firewall of the declared host: dig host nslookup getent iptables.

DNS answers come from `system.dns` (a CNAME is followed); any other name is NXDOMAIN, as the
stub resolver at 127.0.0.53 would say. `iptables -L` prints the filter table of
`system.firewall` (root only, as on a real host). Reads resolve to ("dns", NAME, TYPE) and
("firewall", "list").
"""

from __future__ import annotations

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.core.options import parse_options, usage_text
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.spec_services import DnsRecord, FirewallRule
from agentbench.sim.core.system import SystemState

_TYPES = ("A", "AAAA", "CNAME", "MX", "TXT", "NS")
SERVICES = {22: "ssh", 25: "smtp", 53: "domain", 80: "http", 443: "https", 5432: "postgresql"}
SERVICES.update({3306: "mysql", 6379: "redis", 8080: "http-alt", 9100: "jetdirect"})


def resolve(state: SystemState, name: str, rtype: str) -> list[DnsRecord]:
    """The answer section for NAME/TYPE: a CNAME chain, then the records of its end."""
    name = name.rstrip(".").lower()
    answer: list[DnsRecord] = []
    for _ in range(8):
        records = [r for r in state.spec.dns if r.name.lower() == name]
        alias = next((r for r in records if r.type == "CNAME"), None)
        if alias is not None and rtype != "CNAME":
            answer.append(alias)
            name = alias.value.rstrip(".").lower()
            continue
        return answer + [r for r in records if r.type == rtype]
    return answer


def _known(state: SystemState, name: str) -> bool:
    return any(r.name.lower() == name.rstrip(".").lower() for r in state.spec.dns)


def _value(record: DnsRecord) -> str:
    if record.type in ("CNAME", "NS") or (record.type == "MX"):
        return record.value.rstrip(".") + "."
    if record.type == "TXT":
        return f'"{record.value}"'
    return record.value


@program("dig", needs=("system",))
def dig(call: Call) -> CommandResult:
    """bind9 dig: NAME, a type (`MX`, `-t MX`), class IN, `@SERVER` and `+short`; its other
    options and query options (`-x`, `+noall`, ...) are not simulated, and one it does not
    have is answered with its usage text (not carried)."""
    state, args = call.system, call.argv[1:]
    opts, words, error = parse_options(
        "dig", args, "t:", uncarried="46b:c:f:hik:mp:q:ruvx:y:", reject=usage_text
    )
    if error:
        return error
    rtype, name, short = "A", ".", False
    rtype = next((v.upper() for o, v in reversed(opts) if o == "-t"), rtype)
    server = "127.0.0.53"
    for word in words:
        if word == "+short":
            short = True
        elif word.startswith("+"):
            raise NotSimulated(f"dig {word} (a query option not simulated)")
        elif word.startswith("@"):
            server = word[1:]
        elif word.upper() in _TYPES:
            rtype = word.upper()
        elif word.upper() != "IN":
            name = word
    answer = resolve(state, name, rtype)
    identity = ("dns", name.rstrip(".").lower(), rtype)
    if short:
        return CommandResult(stdout="".join(_value(r) + "\n" for r in answer), identity=identity)
    status = "NOERROR" if answer or _known(state, name) else "NXDOMAIN"
    fqdn = name.rstrip(".") + "."
    size = 12 + len(fqdn) + 4 + 11 + sum(12 + len(_value(r)) for r in answer)
    lines = [
        "",
        f"; <<>> DiG 9.18.28-0ubuntu0.24.04.1-Ubuntu <<>> {' '.join(args)}",
        ";; global options: +cmd",
        ";; Got answer:",
        f";; ->>HEADER<<- opcode: QUERY, status: {status}, id: 41233",
        f";; flags: qr rd ra; QUERY: 1, ANSWER: {len(answer)}, AUTHORITY: 0, ADDITIONAL: 1",
        "",
        ";; OPT PSEUDOSECTION:",
        "; EDNS: version: 0, flags:; udp: 65494",
        ";; QUESTION SECTION:",
        f";{fqdn}\t\tIN\t{rtype}",
        "",
    ]
    if answer:
        lines.append(";; ANSWER SECTION:")
        lines += [f"{r.name}.\t{r.ttl}\tIN\t{r.type}\t{_value(r)}" for r in answer]
        lines.append("")
    lines += [
        ";; Query time: 0 msec",
        f";; SERVER: {server}#53({server}) (UDP)",
        f";; WHEN: {state.now.strftime('%a %b %d %H:%M:%S UTC %Y')}",
        f";; MSG SIZE  rcvd: {size}",
        "",
    ]
    return CommandResult(stdout="\n".join(lines) + "\n", identity=identity)


@program("host", needs=("system",))
def host(call: Call) -> CommandResult:
    state, argv = call.system, call.argv
    args = argv[1:]
    rtype = args[args.index("-t") + 1].upper() if "-t" in args[:-1] else None
    names = [
        a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "-t")
    ]
    if not names:
        usage = "Usage: host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time]\n"
        return CommandResult(stderr=usage, exit_code=1)
    name = names[0]
    identity = ("dns", name.rstrip(".").lower(), rtype or "A")
    if not _known(state, name):
        return CommandResult(
            stdout=f"Host {name} not found: 3(NXDOMAIN)\n", exit_code=1, identity=identity
        )
    lines: list[str] = []
    for wanted in [rtype] if rtype else ["A", "AAAA", "MX"]:
        for r in resolve(state, name, wanted):
            if r.type == "CNAME" and f"{r.name} is an alias for {_value(r)}" in lines:
                continue
            lines.append(
                {
                    "A": f"{r.name} has address {r.value}",
                    "AAAA": f"{r.name} has IPv6 address {r.value}",
                    "CNAME": f"{r.name} is an alias for {_value(r)}",
                    "MX": f"{r.name} mail is handled by {_value(r)}",
                    "TXT": f"{r.name} descriptive text {_value(r)}",
                    "NS": f"{r.name} name server {_value(r)}",
                }[r.type]
            )
    if not lines and rtype:
        lines.append(f"{name} has no {rtype} record")
    return CommandResult(stdout="\n".join(lines) + "\n", identity=identity)


@program("nslookup", needs=("system",))
def nslookup(call: Call) -> CommandResult:
    """bind9 nslookup NAME against the stub resolver; its `-option` settings, another server
    and the interactive mode (no NAME) are not simulated."""
    state = call.system
    _, names, error = parse_options("nslookup", call.argv[1:], "", reject=usage_text)
    if error:
        return error
    if len(names) != 1:
        raise NotSimulated("nslookup " + " ".join(names) + " (interactive, or another server)")
    name = names[0]
    head = "Server:\t\t127.0.0.53\nAddress:\t127.0.0.53#53\n\n"
    identity = ("dns", name.rstrip(".").lower(), "A")
    answer = resolve(state, name, "A") + [
        r for r in resolve(state, name, "AAAA") if r.type == "AAAA"
    ]
    if not _known(state, name):
        text = head + f"** server can't find {name}: NXDOMAIN\n\n"
        return CommandResult(stdout=text, exit_code=1, identity=identity)
    lines = ["Non-authoritative answer:"]
    for r in answer:
        if r.type == "CNAME":
            lines.append(f"{r.name}\tcanonical name = {_value(r)}")
        else:
            lines += [f"Name:\t{r.name}", f"Address: {r.value}"]
    return CommandResult(stdout=head + "\n".join(lines) + "\n\n", identity=identity)


@program("getent", needs=("system",))
def getent(call: Call) -> CommandResult:
    state, argv = call.system, call.argv
    if len(argv) < 3 or argv[1] not in ("hosts", "ahosts"):
        raise NotSimulated(f"getent {argv[1] if len(argv) > 1 else ''} (only hosts)".strip())
    name = argv[2]
    records = [r for r in resolve(state, name, "A") if r.type == "A"]
    identity = ("dns", name.rstrip(".").lower(), "A")
    if not records:
        return CommandResult(exit_code=2, identity=identity)
    return CommandResult(stdout=f"{records[0].value:<15} {name}\n", identity=identity)


@program("iptables", needs=("system",))
def iptables(call: Call) -> CommandResult:
    state, argv, ctx = call.system, call.argv, call.ctx
    args = [a for a in argv[1:] if a not in ("--line-numbers",)]
    flags = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    chains_asked = [a for a in args if not a.startswith("-")]
    if "L" not in flags and "--list" not in args:
        raise NotSimulated(f"{argv[0]} without -L (only listing is simulated)")
    if ctx.user != "root":
        text = (
            "iptables v1.8.10 (nf_tables): Could not fetch rule set generation id: "
            "Permission denied (you must be root)\n\n"
        )
        return CommandResult(stderr=text, exit_code=4, identity=("firewall", "list", "!denied"))
    fw = state.spec.firewall
    chains = ["INPUT", "FORWARD", "OUTPUT"]
    chains += sorted({r.chain for r in fw.rules} - set(chains))
    if chains_asked:
        missing = [c for c in chains_asked if c not in chains]
        if missing:
            text = "iptables: No chain/target/match by that name.\n"
            return CommandResult(
                stderr=text, exit_code=1, identity=("firewall", "list", *chains_asked)
            )
        chains = chains_asked
    numeric, verbose = "n" in flags, "v" in flags
    blocks = []
    for chain in chains:
        rules = [r for r in fw.rules if r.chain == chain]
        if chain in ("INPUT", "FORWARD", "OUTPUT"):
            policy = fw.policies.get(chain, "ACCEPT")
            counts = (
                f" {sum(r.packets for r in rules)} packets, {sum(r.bytes for r in rules)} bytes"
            )
            head = f"Chain {chain} (policy {policy}{counts if verbose else ''})"
        else:
            refs = sum(1 for r in fw.rules if r.target == chain)
            head = f"Chain {chain} ({refs} references)"
        columns = "target     prot opt source               destination"
        if verbose:
            columns = (
                " pkts bytes target     prot opt in     out     source               destination"
            )
        lines = [head, columns] + [_rule(r, numeric, verbose) for r in rules]
        blocks.append("\n".join(lines))
    return CommandResult(
        stdout="\n\n".join(blocks) + "\n", identity=("firewall", "list", *chains_asked)
    )


def _rule(rule: FirewallRule, numeric: bool, verbose: bool) -> str:
    def addr(a: str) -> str:
        return a if numeric or a != "0.0.0.0/0" else "anywhere"

    match = rule.extra
    if rule.dport is not None:
        port = str(rule.dport) if numeric else SERVICES.get(rule.dport, str(rule.dport))
        match = f"{rule.protocol} dpt:{port}" + (f" {match}" if match else "")
    body = f"{rule.target:<10} {rule.protocol:<4} --  "
    if verbose:
        body = f"{rule.packets:>5} {rule.bytes:>5} {body}{'*':<6} {'*':<6} "
    return f"{body}{addr(rule.source):<20} {addr(rule.destination):<20} {match}".rstrip()
