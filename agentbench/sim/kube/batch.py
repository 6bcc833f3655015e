"""Declared Jobs and CronJobs as the API server shapes them."""

from __future__ import annotations

from datetime import UTC, datetime

from agentbench.sim.kube.infra import meta
from agentbench.sim.kube.objects import container_spec
from agentbench.sim.kube.store import Obj, owner_ref
from agentbench.sim.kube.units import Clock, parse_duration_s, rfc3339
from agentbench.sim.kube.workloads import Container, CronJob, Job


def _pod_template(containers: list[Container], labels: dict[str, str]) -> Obj:
    return {
        "metadata": {"labels": labels},
        "spec": {"containers": [container_spec(c) for c in containers], "restartPolicy": "Never"},
    }


def job(j: Job, clock: Clock, containers: list[Container], owner: Obj | None) -> Obj:
    labels = {"job-name": j.name}
    out: Obj = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": meta(j.name, j.namespace, j.age, clock, labels),
        "spec": {
            "backoffLimit": 6,
            "completions": j.completions,
            "parallelism": 1,
            "template": _pod_template(containers, labels),
        },
    }
    if owner is not None:
        out["metadata"]["ownerReferences"] = [owner_ref(owner)]
    status: Obj = {"startTime": clock.stamp(j.age)}
    for field, value in (("active", j.active), ("succeeded", j.succeeded), ("failed", j.failed)):
        if value:
            status[field] = value
    if j.duration and j.succeeded >= j.completions:
        started = clock.at(j.age).timestamp() + (parse_duration_s(j.duration) or 0)
        status["completionTime"] = rfc3339(datetime.fromtimestamp(started, UTC))
    out["status"] = status
    return out


def cronjob(c: CronJob, clock: Clock, containers: list[Container]) -> Obj:
    status: Obj = {}
    if c.last_schedule:
        status["lastScheduleTime"] = clock.stamp(c.last_schedule)
    return {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": meta(c.name, c.namespace, c.age, clock),
        "spec": {
            "concurrencyPolicy": "Allow",
            "schedule": c.schedule,
            "suspend": c.suspend,
            "jobTemplate": {"spec": {"template": _pod_template(containers, {})}},
        },
        "status": status,
    }
