"""kubectl's verbs over the live store: get/describe, logs, exec, apply, writes, rollout, drain."""
