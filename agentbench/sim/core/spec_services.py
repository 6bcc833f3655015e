"""Declared host facts beyond files and units: certificates, DNS, firewall, logins, containers.

Fields of `system:` (see core/spec.py `SystemSpec`) and of a file (`FileSpec.cert`). Every tool that
reads them (openssl, dig/host/nslookup, iptables, who/last/lastb, docker) prints only what is
declared here, so two spellings of one command print the same facts. Times are ISO 8601 UTC.
"""

from __future__ import annotations

import base64
import hashlib
import textwrap
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CertSpec(_Strict):
    """An X.509 certificate stored in a file (`openssl x509 -in FILE`), as its fields.

    Names are written the way openssl prints them: `CN = shop.example.com` or
    `C = US, O = Let's Encrypt, CN = R11`."""

    subject: str = Field(description="Subject DN, e.g. `CN = billing.internal`.")
    issuer: str = Field(description="Issuer DN, e.g. `C = US, O = Example Corp, CN = CA G2`.")
    not_before: str = Field(description="Start of validity (ISO 8601).")
    not_after: str = Field(description="End of validity (ISO 8601).")
    sans: list[str] = Field(default_factory=list, description="DNS names (subjectAltName).")
    serial: str = Field(default="5e:21:9c:0d:7a:44:b1:e3:08:6f:92:d5:13:ac:4e:70")
    key_bits: int = Field(default=2048, description="RSA key size.")

    def pem(self, path: str) -> str:
        """A deterministic PEM block standing for this certificate stored at `path` (what
        `cat` shows when no content is declared, and what `openssl s_client` prints)."""
        seed = f"{path}\n{self.subject}\n{self.not_after}".encode()
        der = b"".join(hashlib.sha256(seed + bytes([i])).digest() for i in range(22))[:690]
        body = base64.b64encode(der).decode()
        lines = ["-----BEGIN CERTIFICATE-----", *textwrap.wrap(body, 64)]
        return "\n".join([*lines, "-----END CERTIFICATE-----"]) + "\n"


class TlsEndpoint(_Strict):
    """A TLS server the host can reach: `openssl s_client -connect HOST:PORT` shows `cert`,
    then the `chain` certificates above it. Each is a certificate (a remote server's) or the
    path of a declared file that has `cert:` (a server on this host)."""

    address: str = Field(description="host:port, e.g. billing.internal:443.")
    cert: str | CertSpec = Field(description="The certificate the server presents, or its file.")
    chain: list[str | CertSpec] = Field(
        default_factory=list, description="Intermediate certificates (or their files)."
    )


class DnsRecord(_Strict):
    """One DNS answer for `dig`, `host`, `nslookup`. Names not declared are NXDOMAIN."""

    name: str = Field(description="Owner name without the trailing dot, e.g. billing.internal.")
    type: Literal["A", "AAAA", "CNAME", "MX", "TXT", "NS"] = "A"
    value: str = Field(description="Address, target name, `10 mail.example.com` or text.")
    ttl: int = 300


class FirewallRule(_Strict):
    """One iptables rule of the filter table, in chain order."""

    chain: str = Field(default="INPUT", description="INPUT, FORWARD, OUTPUT or a user chain.")
    target: str = Field(description="ACCEPT, DROP, REJECT, LOG or a user chain.")
    protocol: str = Field(default="all", description="all, tcp, udp, icmp.")
    source: str = "0.0.0.0/0"
    destination: str = "0.0.0.0/0"
    dport: int | None = Field(default=None, description="Destination port (tcp/udp).")
    extra: str = Field(default="", description="Further match text, e.g. `ctstate ESTABLISHED`.")
    packets: int = 0
    bytes: int = 0


class FirewallSpec(_Strict):
    """The filter table: chain policies (default ACCEPT) and rules."""

    policies: dict[str, str] = Field(default_factory=dict, description="Chain -> policy.")
    rules: list[FirewallRule] = Field(default_factory=list)


class LoginSpec(_Strict):
    """A login session (wtmp, for `who` and `last`) or a failed one (btmp, for `lastb`)."""

    user: str
    tty: str = "pts/0"
    host: str = Field(default="", description="Remote address; empty for a console login.")
    start: str = Field(description="Login time (ISO 8601).")
    end: str | None = Field(default=None, description="Logout time; none: still logged in.")
    failed: bool = Field(default=False, description="A failed attempt (lastb only).")


class ContainerSpec(_Strict):
    """A container of the declared docker daemon."""

    name: str
    image: str
    id: str = Field(default="3f2c9a1b7d4e", description="Short id (12 hex digits).")
    command: str = ""
    created: str = Field(description="Creation time (ISO 8601).")
    state: Literal["running", "exited", "restarting", "paused", "created"] = "running"
    started: str | None = Field(default=None, description="Last start; default `created`.")
    finished: str | None = Field(default=None, description="Last exit (exited containers).")
    health: Literal["healthy", "unhealthy", "starting"] | None = None
    exit_code: int = 0
    ports: list[str] = Field(default_factory=list, description="e.g. 0.0.0.0:8080->80/tcp.")
    logs: str = Field(default="", description="What `docker logs` prints.")
    restart_count: int = 0
    oom_killed: bool = Field(default=False, description="The kernel OOM killer ended it.")
    env: list[str] = Field(default_factory=list, description="KEY=value lines.")


class DockerSpec(_Strict):
    """A running docker daemon and its containers (without one, docker cannot connect)."""

    containers: list[ContainerSpec] = Field(default_factory=list)
