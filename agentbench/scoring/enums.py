"""A value of a closed set the outputs print another member of: the wrong attribute named.

Some attributes of this field take one of a few fixed values: a taint's effect (NoSchedule,
PreferNoSchedule, NoExecute), a Service's type, a volume's access mode, a pod's QoS class, a
TLS version, the Let's Encrypt intermediate that issued a certificate. "the taint
`disk-pressure:NoExecute`" where `kubectl describe node` printed `disk-pressure:NoSchedule`
names the wrong member. An answer fails when it asserts a member that neither a tool output
nor the prompt holds while a tool output holds another member of its set. What the
environment holds but nobody read is no evidence (the issuer of the certificate served before
a reload is stale). A member the clause denies, hedges, or names as advice or a contrast ("a
NoExecute taint would evict them") is not asserted.
"""

from __future__ import annotations

import re

from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at

# each set: the pattern of one member (its spellings), by the name that reports it
_SETS: dict[str, dict[str, str]] = {
    "taint effect": {
        "NoSchedule": r"(?<!Prefer)NoSchedule",
        "PreferNoSchedule": r"PreferNoSchedule",
        "NoExecute": r"NoExecute",
    },
    "Service type": {
        "ClusterIP": r"ClusterIP",
        "NodePort": r"NodePort",
        "LoadBalancer": r"LoadBalancer",
        "ExternalName": r"ExternalName",
    },
    "access mode": {
        "ReadWriteOnce": r"ReadWriteOnce(?:Pod)?|\bRWO\b",
        "ReadOnlyMany": r"ReadOnlyMany|\bROX\b",
        "ReadWriteMany": r"ReadWriteMany|\bRWX\b",
    },
    "QoS class": {
        "Guaranteed": r"\bGuaranteed\b",
        "Burstable": r"\bBurstable\b",
        "BestEffort": r"\bBestEffort\b",
    },
    "TLS version": {
        "TLS 1.0": r"\bTLS\s?v?1\.0\b|\bTLSv1\b(?!\.)",
        "TLS 1.1": r"\bTLS\s?v?1\.1\b",
        "TLS 1.2": r"\bTLS\s?v?1\.2\b",
        "TLS 1.3": r"\bTLS\s?v?1\.3\b",
    },
    "certificate issuer": {
        f"{n}": rf"(?:Let's Encrypt|Let’s Encrypt|CN\s?=\s?)\s*{n}\b"
        for n in ("R3", "R10", "R11", "R12", "R13", "R14", "E1", "E5", "E6", "E7", "E8", "E9")
    },
}
_COMPILED = {
    name: {member: re.compile(p) for member, p in members.items()}
    for name, members in _SETS.items()
}
# a member named as advice, a contrast or a hypothetical is not said to be the case
_NOT_THE_CASE = re.compile(
    r"\b(?:would|could|should|might|if|unless|instead|unlike|rather|versus|vs\.?|whereas|"
    r"change|switch|set|use|make|prefer|consider|recommend|try)\b",
    re.IGNORECASE,
)


def enum_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """Why a member of a closed set the answer asserts is not the one printed (module
    docstring; empty: every one is)."""
    if not reading.entities.simulated:
        return []
    seen = "\n".join(o[:200_000] for o in outputs)
    declared = f"{reading.entities.prompt}\n{seen}"
    for name, members in _COMPILED.items():
        printed = {m for m, p in members.items() if p.search(seen)}
        if not printed:
            continue
        for group in reading.groups:
            for clause in group:
                if _NOT_THE_CASE.search(clause.text):
                    continue
                for member, pattern in members.items():
                    if member in printed or pattern.search(declared):
                        continue
                    for m in pattern.finditer(clause.text):
                        if stance_at(clause, m.span()) is Stance.asserted:
                            return [
                                f"names the {name} {member}; what was read shows "
                                f"{', '.join(sorted(printed))}"
                            ]
    return []
