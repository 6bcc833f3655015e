"""`openssl x509` on declared certificates and a minimal `openssl s_client -connect`.

A certificate is a declared file with `cert:` fields (`CertSpec`, core/spec_services.py); its
PEM text is derived from the file's path, so `openssl s_client ... | openssl x509 -noout -dates`
finds the certificate again in the PEM block on stdin. A server is a `system.tls` endpoint
naming the certificate file it presents. Verification checks the validity dates against the host
clock. Output follows OpenSSL 3: `notAfter=Nov 28 23:59:59 2026 GMT`,
`subject=CN = billing.internal`.
"""

from __future__ import annotations

from datetime import datetime

from agentbench.sim.core.base import CommandResult, NotSimulated, ShellContext
from agentbench.sim.core.spec_services import CertSpec
from agentbench.sim.core.system import Command, SystemState
from agentbench.sim.core.units import parse_time

_BEGIN, _END = "-----BEGIN CERTIFICATE-----", "-----END CERTIFICATE-----"
_ERR = "40C7B6F8B77F0000:error"


def gmt(stamp: str) -> str:
    """`Nov 28 23:59:59 2026 GMT` (day padded with a space, as ASN1_TIME_print does)."""
    return parse_time(stamp).strftime("%b %e %H:%M:%S %Y GMT")


def pem(path: str, cert: CertSpec) -> str:
    return cert.pem(path)


def _certs(state: SystemState) -> dict[str, CertSpec]:
    if state.fs is None:
        return {}
    return {path: node.cert for path, node in state.fs.nodes.items() if node.cert is not None}


def _load(
    state: SystemState, args: list[str], stdin: str | None, ctx: ShellContext
) -> tuple[str, CertSpec | None, str]:
    """(path, certificate, error text) for `-in FILE` or the PEM on stdin."""
    certs = _certs(state)
    if "-in" in args and args.index("-in") + 1 < len(args):
        operand = args[args.index("-in") + 1]
        full = state.fs.resolve(operand, ctx.cwd) if state.fs else operand
        text, problem = state.fs.read(full, ctx.user) if state.fs else (None, "No such file")
        if text is None:
            return (
                full,
                None,
                (
                    f"Could not open file or uri for loading certificate from {operand}\n"
                    f"{_ERR}:80000002:system library:file_open:{problem}:"
                    "../providers/implementations/storemgmt/file_store.c:267:"
                    f"calling stat({operand})\n"
                    "Unable to load certificate\n"
                ),
            )
        if full in certs:
            return full, certs[full], ""
        return (
            full,
            None,
            f"Could not read certificate from {operand}\nUnable to load certificate\n",
        )
    text = stdin or ""
    for endpoint in state.spec.tls:
        for index, item in enumerate([endpoint.cert, *endpoint.chain]):
            if isinstance(item, CertSpec):
                certs[f"{endpoint.address}#{index}"] = item
    if _BEGIN in text:
        body = text.split(_BEGIN, 1)[1].split(_END, 1)[0].strip()
        for path, cert in certs.items():
            if body and body in pem(path, cert):
                return path, cert, ""
    return "-", None, "Could not read certificate from <stdin>\nUnable to load certificate\n"


def x509(
    state: SystemState, args: list[str], stdin: str | None, ctx: ShellContext
) -> CommandResult:
    path, cert, error = _load(state, args, stdin, ctx)
    if cert is None:
        return CommandResult(stderr=error, exit_code=1, identity=("tls", "cert", path, "!error"))
    lines: list[str] = []
    code = 0
    for i, arg in enumerate(args):
        if arg == "-dates":
            lines += [f"notBefore={gmt(cert.not_before)}", f"notAfter={gmt(cert.not_after)}"]
        elif arg == "-startdate":
            lines.append(f"notBefore={gmt(cert.not_before)}")
        elif arg == "-enddate":
            lines.append(f"notAfter={gmt(cert.not_after)}")
        elif arg == "-subject":
            lines.append(f"subject={cert.subject}")
        elif arg == "-issuer":
            lines.append(f"issuer={cert.issuer}")
        elif arg == "-serial":
            lines.append("serial=" + cert.serial.replace(":", "").upper())
        elif arg == "-ext" and i + 1 < len(args) and "subjectAltName" in args[i + 1]:
            lines += ["X509v3 Subject Alternative Name: ", "    " + _sans(cert)]
        elif arg == "-checkend" and i + 1 < len(args) and args[i + 1].isdigit():
            left = (parse_time(cert.not_after) - state.now).total_seconds()
            expires = left < int(args[i + 1])
            lines.append("Certificate will expire" if expires else "Certificate will not expire")
            code = 1 if expires else 0
        elif arg == "-text":
            lines += _text(cert)
    out = "\n".join(lines) + "\n" if lines else ""
    if "-noout" not in args:
        out += pem(path, cert)
    return CommandResult(stdout=out, exit_code=code, identity=("tls", "cert", path))


def _sans(cert: CertSpec) -> str:
    return ", ".join(f"DNS:{name}" for name in cert.sans)


def _text(cert: CertSpec) -> list[str]:
    lines = [
        "Certificate:",
        "    Data:",
        "        Version: 3 (0x2)",
        "        Serial Number:",
        f"            {cert.serial}",
        "        Signature Algorithm: sha256WithRSAEncryption",
        f"        Issuer: {cert.issuer}",
        "        Validity",
        f"            Not Before: {gmt(cert.not_before)}",
        f"            Not After : {gmt(cert.not_after)}",
        f"        Subject: {cert.subject}",
        "        Subject Public Key Info:",
        "            Public Key Algorithm: rsaEncryption",
        f"                Public-Key: ({cert.key_bits} bit)",
    ]
    if cert.sans:
        lines += ["        X509v3 extensions:", "            X509v3 Subject Alternative Name: "]
        lines.append("                " + _sans(cert))
    return lines


def _verify(cert: CertSpec, now: datetime) -> tuple[int, str]:
    if now > parse_time(cert.not_after):
        return 10, "certificate has expired"
    if now < parse_time(cert.not_before):
        return 9, "certificate is not yet valid"
    return 0, "ok"


def s_client(
    state: SystemState, args: list[str], stdin: str | None, ctx: ShellContext
) -> CommandResult:
    target = args[args.index("-connect") + 1] if "-connect" in args[:-1] else None
    if target is None:
        text = "connect:errno=111\n"  # s_client's default is localhost:4433, where nothing listens
        return CommandResult(
            stderr=text, exit_code=1, identity=("tls", "connect", "localhost:4433")
        )
    address = target if ":" in target else f"{target}:443"
    host = address.rsplit(":", 1)[0]
    identity = ("tls", "connect", address)
    endpoint = next((e for e in state.spec.tls if e.address == address), None)
    certs = _certs(state)

    def served(item: str | CertSpec, index: int) -> tuple[str, CertSpec] | None:
        if isinstance(item, CertSpec):  # a remote server's certificate: its PEM seeded by address
            return f"{address}#{index}", item
        return (item, certs[item]) if item in certs else None

    chain = [
        c
        for i, item in enumerate([*(endpoint.chain if endpoint else [])])
        if (c := served(item, i + 1))
    ]
    leaf = served(endpoint.cert, 0) if endpoint else None
    if endpoint is None or leaf is None:
        known = {r.name for r in state.spec.dns} | {
            e.address.rsplit(":", 1)[0] for e in state.spec.tls
        }
        if host not in known and host not in ("localhost", "127.0.0.1"):
            text = (
                f"{_ERR}:10080002:BIO routines:BIO_lookup_ex:system lib:"
                "../crypto/bio/bio_addr.c:738:Name or service not known\nconnect:errno=0\n"
            )
        else:
            text = (
                f"{_ERR}:8000006F:system library:BIO_connect:Connection refused:"
                "../crypto/bio/bio_sock2.c:114:calling connect()\nconnect:errno=111\n"
            )
        return CommandResult(stderr=text, exit_code=1, identity=(*identity, "!refused"))
    chain = [leaf, *chain]
    code, reason = _verify(chain[0][1], state.now)
    err: list[str] = []
    for depth in range(len(chain) - 1, -1, -1):
        cert = chain[depth][1]
        err.append(f"depth={depth} {cert.subject}")
        if depth == 0 and code:
            err += [f"verify error:num={code}:{reason}", f"notAfter={gmt(cert.not_after)}"]
        err.append("verify return:1")
    out = ["CONNECTED(00000003)", "---", "Certificate chain"]
    for depth, (_, cert) in enumerate(chain):
        out += [
            f" {depth} s:{cert.subject}",
            f"   i:{cert.issuer}",
            f"   a:PKEY: rsaEncryption, {cert.key_bits} (bit); sigalg: RSA-SHA256",
            f"   v:NotBefore: {gmt(cert.not_before)}; NotAfter: {gmt(cert.not_after)}",
        ]
    out += ["---", "Server certificate", pem(*chain[0]).rstrip("\n")]
    out += [f"subject={chain[0][1].subject}", f"issuer={chain[0][1].issuer}", "---"]
    out += ["No client certificate CA names sent", "Peer signing digest: SHA256"]
    out += ["Peer signature type: RSA-PSS", "Server Temp Key: X25519, 253 bits", "---"]
    out += ["SSL handshake has read 3187 bytes and written 391 bytes"]
    out += [f"Verification error: {reason}" if code else "Verification: OK", "---"]
    out += ["New, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384"]
    out += [f"Server public key is {chain[0][1].key_bits} bit"]
    out += ["This TLS version forbids renegotiation.", "Compression: NONE", "Expansion: NONE"]
    out += ["No ALPN negotiated", "Early data was not sent"]
    out += [f"Verify return code: {code} ({reason})", "---", "DONE"]
    return CommandResult(
        stdout="\n".join(out) + "\n", stderr="\n".join(err) + "\n", identity=identity
    )


def openssl(
    state: SystemState, argv: list[str], stdin: str | None, ctx: ShellContext
) -> CommandResult:
    sub, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if sub == "x509":
        return x509(state, args, stdin, ctx)
    if sub == "s_client":
        return s_client(state, args, stdin, ctx)
    if sub == "version":
        return CommandResult(
            stdout="OpenSSL 3.0.13 30 Jan 2024 (Library: OpenSSL 3.0.13 30 Jan 2024)\n",
            identity=("tls", "version"),
        )
    if sub in ("req", "verify", "rsa", "pkey", "genrsa", "dgst", "enc", "crl", "pkcs12", "rand"):
        raise NotSimulated(f"openssl {sub}")
    text = f"Invalid command '{sub}'; type \"help\" for a list.\n" if sub else "OpenSSL> \n"
    return CommandResult(stderr=text, exit_code=1, identity=("tls", "invalid", sub))


TLS_COMMANDS: dict[str, Command] = {"openssl": openssl}
