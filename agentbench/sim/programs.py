"""Every simulated program, registered: importing this module imports each program module, whose
`@program` decorators fill the registry (sim/core/registry.py). The World imports it; nothing
below the top layer imports a program module to build a table.

A new program module is added to this list (docs/design.md, "Adding a simulated tool").
"""

from agentbench.sim.core.registry import REGISTRY, Registration
from agentbench.sim.files import du, gzip, tools, writes
from agentbench.sim.host import (
    docker,
    facts,
    journal,
    netinfo,
    nginx,
    ports,
    procs,
    ps,
    sessions,
    systemd,
    tls,
)
from agentbench.sim.http import routes, wget
from agentbench.sim.kube import program, unreachable
from agentbench.sim.sql import psql
from agentbench.sim.terraform import program as terraform
from agentbench.sim.text import filters, sort
from agentbench.sim.text.awk import program as awk
from agentbench.sim.text.jq import program as jq
from agentbench.sim.text.sed import program as sed

MODULES = (
    *(du, gzip, tools, writes),
    *(docker, facts, journal, netinfo, nginx, ports, procs, ps, sessions, systemd, tls),
    *(routes, wget, program, unreachable, psql, terraform, filters, sort, awk, jq, sed),
)


def registrations() -> list[Registration]:
    """Every registration, in registering order."""
    return list(REGISTRY)
