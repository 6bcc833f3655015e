"""Task files: format, loading, the simulated environment and validation."""

from agentbench.tasks.loader import TaskSuite, load_suite
from agentbench.tasks.model import Task, ToolDef

__all__ = ["Task", "TaskSuite", "ToolDef", "load_suite"]
