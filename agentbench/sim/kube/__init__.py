"""kubectl over a declared cluster: `build_kubectl(Cluster)` gives the `kubectl` program.

The `Cluster` model (model.py, workloads.py) is the task file's `environment.cluster:`
section; its docstrings document the format.
"""

from agentbench.sim.kube.model import Cluster
from agentbench.sim.kube.program import Kubectl, build_kubectl

__all__ = ["Cluster", "Kubectl", "build_kubectl"]
