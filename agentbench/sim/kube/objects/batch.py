"""Declared Jobs and CronJobs as the API server shapes them."""

from __future__ import annotations

from datetime import UTC, datetime

from agentbench.sim.kube.objects.infra import meta
from agentbench.sim.kube.objects.pods import container_spec
from agentbench.sim.kube.objects.store import Obj, owner_ref
from agentbench.sim.kube.objects.units import Clock, parse_duration_s, rfc3339
from agentbench.sim.kube.schema.workloads import Container, CronJob, Job


def _pod_template(containers: list[Container], labels: dict[str, str]) -> Obj:
    return {
        "metadata": {"labels": labels},
        "spec": {"containers": [container_spec(c) for c in containers], "restartPolicy": "Never"},
    }


def job(j: Job, clock: Clock, containers: list[Container], owner: Obj | None) -> Obj:
    labels = {"job-name": j.name}
    stopped = j.failed > 0 and j.active == 0 and j.succeeded < j.completions
    limit = j.backoff_limit if j.backoff_limit is not None else (j.failed - 1 if stopped else 6)
    out: Obj = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": meta(j.name, j.namespace, j.age, clock, labels),
        "spec": {
            "backoffLimit": limit,
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
    ended = rfc3339(
        datetime.fromtimestamp(
            clock.at(j.age).timestamp() + (parse_duration_s(j.duration or "") or 0), UTC
        )
    )
    if j.duration and j.succeeded >= j.completions:
        status["completionTime"] = ended
        status["conditions"] = [_condition("Complete", ended)]
    elif stopped and j.failed > limit:
        status["conditions"] = [
            _condition(
                "Failed",
                ended,
                "BackoffLimitExceeded",
                "Job has reached the specified backoff limit",
            )
        ]
    out["status"] = status
    return out


def _condition(kind: str, at: str, reason: str = "", message: str = "") -> Obj:
    out: Obj = {"lastProbeTime": at, "lastTransitionTime": at, "status": "True", "type": kind}
    if reason:
        out |= {"message": message, "reason": reason}
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
