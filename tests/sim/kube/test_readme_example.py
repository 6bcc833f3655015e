"""The kubectl example in tasks/README.md is a valid cluster and answers like the text says."""

from __future__ import annotations

import shlex
from pathlib import Path

import yaml

from agentbench.sim.core.base import ShellContext
from agentbench.sim.kube.program import build_kubectl
from agentbench.sim.kube.schema.model import Cluster

README = Path(__file__).resolve().parents[3] / "tasks" / "README.md"


def test_readme_cluster_example_builds_and_answers() -> None:
    text = README.read_text()
    section = text[text.index("## Simulated state: kubectl") :]
    start = section.index("```yaml") + len("```yaml")
    doc = yaml.safe_load(section[start : section.index("```", start)])
    kubectl = build_kubectl(Cluster.model_validate(doc["environment"]["cluster"]))

    def run(line: str) -> str:
        result = kubectl.run(shlex.split(line), None, ShellContext())
        return result.stdout + result.stderr

    assert "nginx-7c5ddbdf54-x8k2p   0/1     CrashLoopBackOff   7 (2m11s ago)   14m" in run(
        "kubectl get po -n web"
    )
    assert run("kubectl rollout history deploy/nginx -n web").splitlines()[2:4] == [
        "11        release 3.17",
        "12        <none>",
    ]
    assert run("kubectl auth can-i delete nodes") == "no\n"
    assert "OOMKilled" in run("kubectl describe pod/nginx-7c5ddbdf54-x8k2p -n web")
