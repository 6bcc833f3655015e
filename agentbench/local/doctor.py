"""What `agentbench doctor` finds: which local servers answer, what they serve, and whether tools
and reasoning come back the way agentbench reads them — with known failures explained.

Three flows: every profile's usual addresses (what answers, what it serves), one `--local`
profile (its candidates, then the checks on the first one serving it), or one `--base-url`
server. Server logs given with `--log` are read for known failure signatures.

The checks on a served model are in local.checks. The findings are a `DoctorReport`;
cli/doctor.py only renders it.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from agentbench.backends.base import strip_credentials
from agentbench.backends.providers import served_as
from agentbench.errors import ConfigError
from agentbench.local.checks import DoctorReport, checks_on
from agentbench.local.diagnose import diagnose
from agentbench.local.probe import Probe, probe, serves
from agentbench.local.profiles import Profile, expand, load_profiles

__all__ = ["check_embedded", "check_logs", "run_doctor"]

# ------------------------------------------------------------------------- installed parts


def check_embedded(report: DoctorReport, profiles: dict[str, Profile]) -> set[str]:
    """The llama-server build and each embedded profile's weights; the usable profiles."""
    from agentbench.local.llama_build import server_binary
    from agentbench.local.weights import installed_problem

    binary = server_binary()
    if binary.exists():
        report.add("llama-server", "ok", f"built: {binary}")
    else:
        report.add(
            "llama-server",
            "info",
            "not built yet: the first --local embedded* run builds it (about 10 minutes on "
            "2 cores), or bash scripts/setup_llama_server.sh",
        )
    usable = set()
    for alias, profile in profiles.items():
        if not profile.embedded or profile.weights is None:
            continue
        keys = [k for k in (profile.weights, profile.draft_weights) if k]
        problem = next((p for p in map(installed_problem, keys) if p), None)
        if problem:
            report.add(f"weights of {alias}", "info", problem)
        else:
            report.add(f"weights of {alias}", "ok", "installed: " + ", ".join(keys))
            usable.add(alias)
    return usable


# ------------------------------------------------------------------------------- the flows


def check_logs(report: DoctorReport, logs: dict[str, str]) -> None:
    """Known signatures in server logs (the tail of each: the last start is what matters)."""
    for name, text in logs.items():
        tail = text[-200_000:]
        found = diagnose(tail)
        if found:
            check = report.add(f"log {name}", "fail", f"{len(found)} known failure signature(s)")
            check.diagnoses = found
        else:
            report.add(f"log {name}", "info", "no known failure signature")


def run_doctor(
    *,
    local: str | None = None,
    base_url: str | None = None,
    model: str | None = None,
    profiles_file: Path | None = None,
    env: dict[str, str] | None = None,
    timeout_s: float = 120.0,
    logs: dict[str, str] | None = None,
) -> DoctorReport:
    env = dict(os.environ if env is None else env)
    report = DoctorReport()
    if logs:
        check_logs(report, logs)
    profiles = load_profiles(profiles_file)
    usable = check_embedded(report, profiles)
    if base_url:
        if not model:
            raise ConfigError("--base-url needs --model NAME (ollama/NAME for Ollama's API)")
        server, name = served_as(model)
        report.target = f"{strip_credentials(base_url)} {model}"
        found = probe(server, base_url)
        _report_probe(report, server, found, [name])
        report.target_ok = found.answers and (not found.served or serves(name, found.served))
        if report.target_ok:
            asyncio.run(checks_on(report, server, base_url, name, timeout_s))
        else:
            report.error = (
                found.line
                if not found.answers
                else (
                    f"{found.line}: it serves {', '.join(found.served) or 'no model'}, not {name}"
                )
            )
        return report
    if local:
        profile = profiles.get(local)
        if profile is None:
            raise ConfigError(f"unknown --local alias '{local}'; known: {', '.join(profiles)}")
        report.target = f"--local {local}"
        if profile.embedded:
            report.target_ok = local in usable
            if local in usable:
                from agentbench.local.embedded import EmbeddedServer, launch_for

                with EmbeddedServer(launch_for(profile, local), env=env) as embedded:
                    asyncio.run(
                        checks_on(report, "llama.cpp", embedded.base_url, embedded.alias, timeout_s)
                    )
            else:
                report.error = f"--local {local} needs its weights (see 'weights of {local}')"
            return report
        serving = _probe_profile(report, profile, env)
        if serving is None:
            tried = "; ".join(c.detail for c in report.checks if c.name.startswith("server at"))
            hint = f"\nTo start it:\n{profile.start_hint.rstrip()}" if profile.start_hint else ""
            report.error = f"no server answered for --local {local}; tried: {tried}{hint}"
            report.target_ok = False
            return report
        report.target_ok = True
        asyncio.run(checks_on(report, *serving, timeout_s))
        return report
    seen: set[tuple[str, str]] = set()
    for profile in profiles.values():
        for cand in profile.candidates:
            key = (cand.server, expand(cand.base_url, env))
            if key in seen:
                continue
            seen.add(key)
            _report_probe(report, cand.server, probe(*key), [])
    return report


def _probe_profile(
    report: DoctorReport, profile: Profile, env: dict[str, str]
) -> tuple[str, str, str] | None:
    found = None
    for cand in profile.candidates:
        url = expand(cand.base_url, env)
        looked = probe(cand.server, url)
        _report_probe(report, cand.server, looked, cand.models)
        match = next((m for m in cand.models if serves(m, looked.served)), None)
        if found is None and looked.answers and match:
            found = (cand.server, url, match)
    return found


def _report_probe(report: DoctorReport, server: str, found: Probe, wanted: list[str]) -> None:
    name = f"server at {server}"
    answers, line, served = found.answers, found.line, found.served
    if not answers:
        report.add(name, "fail" if wanted else "info", line, line)
        return
    models = ", ".join(served[:8]) + (" …" if len(served) > 8 else "") if served else "none"
    if wanted and served and not any(serves(m, served) for m in wanted):
        report.add(
            name,
            "warn",
            f"{line} answers, serves {models}; serves none of {wanted}",
            f"serves none of {wanted}",
        )
    else:
        report.add(name, "ok", f"{line} answers; models: {models}")
