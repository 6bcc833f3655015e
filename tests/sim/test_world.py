"""The World and the episode environment: sources, off-script fallbacks, changes, copies."""

from __future__ import annotations

from agentbench.sim.core.base import Change
from agentbench.sim.core.spec import SystemSpec
from agentbench.sim.world import World, WorldSpec
from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task
from tests.sim.conftest import sh


def _task(suite: TaskSuite, **environment: object) -> Task:
    return Task.model_validate(
        {
            "id": "sim-world-test",
            "category": "ops-diagnosis",
            "difficulty": "easy",
            "description": "d",
            "prompt": "p",
            "tools": ["run_command", "read_file"],
            "environment": environment,
            "expect": {"answer": {"claims": [{"name": "x", "regex": ["x"]}]}},
            "reference": [{"answer": "x"}],
            "wrong": [{"name": "w", "steps": [{"answer": "y"}]}],
        }
    )


def test_sources_rule_first_then_simulator_then_fallback(suite: TaskSuite) -> None:
    task = _task(
        suite,
        files={"/etc/app.conf": "port=8080\n"},
        rules=[
            {
                "tool": "run_command",
                "args": {"cmd": "openssl x509 -noout -dates -in /etc/tls.pem"},
                "output": "notAfter=Nov 20 00:00:00 2026 GMT\n",
            }
        ],
    )
    env = SimulatedEnvironment(task, suite.tools, suite.grammar)
    rule = env.execute("run_command", {"cmd": "openssl x509 -noout -dates -in /etc/tls.pem"})
    assert (rule.source, rule.rule) == ("rule", 0)
    sim = env.execute("run_command", {"cmd": "grep port /etc/app.conf"})
    assert (sim.source, sim.output, sim.identity) == (
        "sim:grep",
        "port=8080\n",
        ("file", "read", "/etc/app.conf"),
    )
    off = env.execute("run_command", {"cmd": "traceroute db.internal"})
    assert off.source == "fallback" and off.kind == "unmatched"
    tool = env.execute("read_file", {"path": "/etc/app.conf"})
    assert (tool.source, tool.output, tool.exit_code) == ("sim:read_file", "port=8080\n", None)
    assert env.execute("nope", {}).source == "runtime_error"


def test_the_environment_keeps_every_change(suite: TaskSuite) -> None:
    env = SimulatedEnvironment(_task(suite, files={"/tmp/a": "1\n"}), suite.tools, suite.grammar)
    env.execute("run_command", {"cmd": "rm /tmp/a"})
    env.execute("run_command", {"cmd": "echo 2 > /tmp/b"})
    assert env.changes == [
        Change("filesystem", "delete", "/tmp/a"),
        Change("filesystem", "write", "/tmp/b"),
    ]
    record = env.execute("run_command", {"cmd": "cat /tmp/b"}).record("run_command")
    assert (record.source, record.identity) == ("sim:cat", ["file", "read", "/tmp/b"])


def test_a_task_without_declared_state_answers_only_what_a_bare_host_would(
    suite: TaskSuite,
) -> None:
    env = SimulatedEnvironment(_task(suite), suite.tools, suite.grammar)
    assert env.execute("run_command", {"cmd": "ls /"}).source == "fallback"  # no filesystem
    kubectl = env.execute("run_command", {"cmd": "kubectl get nodes -o wide"})
    assert (kubectl.source, kubectl.exit_code, kubectl.kind) == ("sim:kubectl", 1, "error")
    assert kubectl.output.startswith("The connection to the server localhost:8080 was refused")


def test_copy_is_the_start_state_and_identify_changes_nothing(host: World) -> None:
    sh(host, "sudo rm /srv/pods.json")
    assert sh(host.copy(), "ls /srv").stdout == "pods.json\n"
    fresh = host.copy()
    assert fresh.identify("run_command", {"cmd": "sudo rm /srv/pods.json"}) == (
        "file",
        "delete",
        "/srv/pods.json",
    )
    assert sh(fresh, "ls /srv").stdout == "pods.json\n"


def test_not_installed_commands_are_simulated_absences() -> None:
    world = World(WorldSpec(system=SystemSpec(not_installed=["docker-compose"])))
    result = sh(world, "docker-compose ps")
    assert (result.stderr, result.simulated) == ("bash: docker-compose: command not found\n", True)
    no_daemon = sh(world, "docker ps")  # docker is installed, but no daemon is declared
    assert (no_daemon.simulated, no_daemon.exit_code) == (True, 1)
    assert no_daemon.stderr.startswith("Cannot connect to the Docker daemon at unix:///var/run/")


def test_kubectl_runs_through_the_shell_and_identify_restores_the_cluster() -> None:
    from agentbench.sim.kube.schema.model import Cluster

    cluster = Cluster.model_validate(
        {
            "deployments": [
                {"name": "nginx", "namespace": "web", "replicas": 1, "image": "nginx:1.27"}
            ]
        }
    )
    world = World(WorldSpec(cluster=cluster))
    listed = sh(world, "sudo /usr/local/bin/kubectl get po -n web | grep nginx | wc -l")
    assert listed.stdout == "1\n"
    assert listed.identity == sh(world, "kubectl get pods --namespace=web -o wide").identity
    deleted = world.identify("run_command", {"cmd": "kubectl delete deployment nginx -n web"})
    assert deleted is not None and "delete" in deleted
    assert "nginx" in sh(world, "kubectl get deploy -n web").stdout


def test_a_simulator_bug_is_answered_off_script_not_raised(suite: TaskSuite) -> None:
    env = SimulatedEnvironment(_task(suite, files={"/a": "1\n"}), suite.tools, suite.grammar)
    assert env.world is not None

    def broken(tool: str, args: dict[str, object]) -> None:
        raise RuntimeError("boom")

    env.world.call = broken  # type: ignore[method-assign]
    result = env.execute("run_command", {"cmd": "cat /a"})
    assert result.source == "fallback"
    assert env.simulator_errors == ["run_command({'cmd': 'cat /a'}): RuntimeError: boom"]
