"""kubectl over a declared cluster: `build_kubectl(Cluster)` gives the `kubectl` program.

The `Cluster` model (schema/model.py, schema/workloads.py) is the task file's `environment.cluster:`
section; its docstrings document the format.
"""

from agentbench.sim.kube.program import Kubectl, build_kubectl
from agentbench.sim.kube.schema.model import Cluster

__all__ = ["Cluster", "Kubectl", "build_kubectl"]
