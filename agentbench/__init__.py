"""agentbench: benchmark agent workloads on local LLMs.

Correctness of tool calls and end states, thinking tokens per step, time-to-done, raw serving
speed, and routing economics — measured on your own tasks and hardware.
"""

__version__ = "0.1.0"
