"""Declared pods and the controllers that own them (part of the `cluster:` format).

A container's `state` / `last_state` name one of running, waiting, terminated with its details;
times are ages relative to the cluster's `now` (or ISO-8601). A deployment with no declared
pods gets `replicas` running pods; declared pods name their owner with `owner: deployment/x`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class State(_Spec):
    """A container state. `kind: running` needs `started`; `waiting` a `reason`
    (CrashLoopBackOff, ImagePullBackOff, CreateContainerConfigError, ...); `terminated`
    a `reason` (OOMKilled, Error, Completed), `exit_code`, `started`, `finished`."""

    kind: Literal["running", "waiting", "terminated"] = "running"
    reason: str | None = None
    message: str | None = None
    exit_code: int | None = None
    signal: int | None = None
    started: str | None = None
    finished: str | None = None


class Probe(_Spec):
    """A liveness/readiness/startup probe: `http_get` path+port, `tcp_port`, or `exec`."""

    path: str | None = None
    port: int | str | None = None
    tcp_port: int | None = None
    exec: list[str] | None = None
    scheme: str = "HTTP"
    initial_delay: int = 0
    timeout: int = 1
    period: int = 10
    success_threshold: int = 1
    failure_threshold: int = 3


class EnvVar(_Spec):
    """An env var: a literal `value`, or a `key` of a `configmap` or `secret`."""

    name: str
    value: str | None = None
    configmap: str | None = None
    secret: str | None = None
    key: str | None = None
    optional: bool = False


class EnvFrom(_Spec):
    """`envFrom` a whole ConfigMap or Secret."""

    configmap: str | None = None
    secret: str | None = None


class Mount(_Spec):
    """A volume mount of one of the pod's volumes."""

    name: str
    path: str
    read_only: bool = False
    sub_path: str | None = None


class Volume(_Spec):
    """A pod volume: exactly one source (`empty_dir: true`, `configmap`, `secret`, `pvc`,
    `host_path`)."""

    name: str
    empty_dir: bool = False
    configmap: str | None = None
    secret: str | None = None
    pvc: str | None = None
    host_path: str | None = None


class Container(_Spec):
    """A container in a pod (or a workload template): image, resources, probes, env,
    its current `state` and `last_state`, and its `logs` / `previous_logs` text. In a pod
    owned by a workload, fields left out (image, limits, probes, env, ...) come from the
    workload's template container of the same name: declare the spec on the template and the
    state (state, last_state, restarts, logs) on the pod."""

    name: str
    image: str = ""
    ports: list[int | str] = Field(default_factory=list)  # 8080, or "53/UDP"
    command: list[str] | None = None
    args: list[str] | None = None
    limits: dict[str, str] = Field(default_factory=dict)
    requests: dict[str, str] = Field(default_factory=dict)
    liveness: Probe | None = None
    readiness: Probe | None = None
    startup: Probe | None = None
    env: list[EnvVar] = Field(default_factory=list)
    env_from: list[EnvFrom] = Field(default_factory=list)
    mounts: list[Mount] = Field(default_factory=list)
    state: State = Field(default_factory=State)
    last_state: State | None = None
    ready: bool | None = None  # default: running (and no failing readiness) means ready
    restarts: int = 0
    logs: str = ""
    previous_logs: str | None = None
    usage: dict[str, str] = Field(default_factory=lambda: {"cpu": "1m", "memory": "16Mi"})
    files: dict[str, str] = Field(default_factory=dict)  # path -> content inside (kubectl exec)


class Pod(_Spec):
    """A pod. `owner` is `deployment/x` (its current ReplicaSet), `replicaset/x`,
    `statefulset/x`, `daemonset/x` or `job/x`; `phase` defaults to Running."""

    name: str
    namespace: str = "default"
    labels: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, str] = Field(default_factory=dict)
    owner: str | None = None
    revision: int | None = None  # a deployment's pod: the rollout revision (default: current)
    node: str | None = None
    ip: str | None = None
    age: str = "1d"
    phase: Literal["Pending", "Running", "Succeeded", "Failed", "Unknown"] = "Running"
    reason: str | None = None  # pod-level status reason (Evicted, ...)
    message: str | None = None
    containers: list[Container] = Field(default_factory=list)
    init_containers: list[Container] = Field(default_factory=list)
    volumes: list[Volume] = Field(default_factory=list)
    service_account: str = "default"
    restart_policy: str = "Always"
    priority_class: str | None = None
    qos_class: str | None = None


class Template(_Spec):
    """A pod template: one image (short form) or `containers`; `labels` default to
    `{app: <workload name>}`."""

    image: str | None = None
    containers: list[Container] = Field(default_factory=list)
    labels: dict[str, str] = Field(default_factory=dict)
    volumes: list[Volume] = Field(default_factory=list)


class Revision(_Spec):
    """One rollout revision of a deployment (oldest first; the last one is current).
    `image` replaces the template's first image, or `template` the whole pod template;
    `hash` names its ReplicaSet; `number` defaults to the position (1, 2, ...)."""

    number: int | None = None
    image: str | None = None
    template: Template | None = None
    change_cause: str | None = None
    hash: str | None = None
    age: str = "1d"


class Deployment(_Spec):
    """A Deployment. Its ReplicaSets come from `revisions` (default: one, the template).
    Ready/available counts are derived from its pods."""

    name: str
    namespace: str = "default"
    replicas: int | None = None  # default: its declared pods, or 1
    selector: dict[str, str] = Field(default_factory=dict)
    labels: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, str] = Field(default_factory=dict)
    template: Template = Field(default_factory=Template)
    image: str | None = None  # short form of template.image
    revisions: list[Revision] = Field(default_factory=list)
    strategy: Literal["RollingUpdate", "Recreate"] = "RollingUpdate"
    age: str = "30d"
    paused: bool = False
    progress_deadline_exceeded: bool = False


class StatefulSet(_Spec):
    """A StatefulSet; pods `<name>-0..N-1` are generated unless declared."""

    name: str
    namespace: str = "default"
    replicas: int = 1
    service_name: str | None = None
    selector: dict[str, str] = Field(default_factory=dict)
    labels: dict[str, str] = Field(default_factory=dict)
    template: Template = Field(default_factory=Template)
    image: str | None = None
    age: str = "30d"


class DaemonSet(_Spec):
    """A DaemonSet; one pod per schedulable node is generated unless pods are declared."""

    name: str
    namespace: str = "kube-system"
    selector: dict[str, str] = Field(default_factory=dict)
    labels: dict[str, str] = Field(default_factory=dict)
    template: Template = Field(default_factory=Template)
    image: str | None = None
    age: str = "30d"


class Job(_Spec):
    """A Job: `completions`, how many `succeeded` / `failed`, its `duration`. A Job with
    failed pods, none active and too few succeeded has hit its `backoff_limit` (when not
    declared: one less than `failed`, else the API default 6) and carries the Failed condition."""

    name: str
    namespace: str = "default"
    completions: int = 1
    succeeded: int = 0
    failed: int = 0
    active: int = 0
    backoff_limit: int | None = None
    template: Template = Field(default_factory=Template)
    image: str | None = None
    duration: str | None = None
    age: str = "1h"
    owner: str | None = None  # cronjob/x


class CronJob(_Spec):
    """A CronJob: schedule, suspend, last schedule age."""

    name: str
    namespace: str = "default"
    schedule: str = "0 * * * *"
    suspend: bool = False
    template: Template = Field(default_factory=Template)
    image: str | None = None
    last_schedule: str | None = None
    age: str = "30d"
