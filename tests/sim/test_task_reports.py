"""Commands reviewers played through shipped tasks and found mis-simulated, each checked
against the text the real tool prints on the task's declared state."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from agentbench.sim.core.spec import FileSpec, SystemSpec
from agentbench.sim.world import World, WorldSpec
from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import TaskSuite, load_suite
from agentbench.tasks.model import Environment

TASKS = Path(__file__).resolve().parents[2] / "tasks"


@cache
def _suite() -> TaskSuite:
    return load_suite(TASKS)


def env_of(task_id: str) -> SimulatedEnvironment:
    suite = _suite()
    task = next(t for t in suite.tasks if t.id == task_id)
    return SimulatedEnvironment(task, suite.tools, suite.grammar)


def run(env: SimulatedEnvironment, cmd: str) -> str:
    return env.execute("run_command", {"cmd": cmd}).content()


def test_declared_container_creating_pods_stay_waiting() -> None:
    env = env_of("ops-missing-configmap")
    lines = run(env, "kubectl get pods -n reporting").splitlines()
    assert lines[1].split() == [
        "report-renderer-7b4d8c9f5-6vzrk",
        "0/1",
        "ContainerCreating",
        "0",
        "18m",
    ]
    described = run(env, "kubectl describe pod report-renderer-7b4d8c9f5-6vzrk -n reporting")
    assert "Status:           Pending\n" in described
    assert "    State:          Waiting\n      Reason:       ContainerCreating\n" in described
    assert "    Name:        report-renderer-config\n" in described


def test_job_past_its_backoff_limit_is_failed() -> None:
    env = env_of("err-cronjob-other-namespace")
    lines = run(env, "kubectl get jobs -n analytics").splitlines()
    assert lines[2].split() == ["reports-cron-29931960", "Failed", "0/1", "7h35m", "7h35m"]
    assert lines[1].split()[1] == "Complete"
    jsonpath = "{.spec.backoffLimit} {.status.conditions[0].reason}"
    got = run(env, f"kubectl get job reports-cron-29931960 -n analytics -o jsonpath='{jsonpath}'")
    assert got == "1 BackoffLimitExceeded"


def test_kubectl_pod_notice_comes_before_the_piped_output() -> None:
    env = env_of("err-cronjob-other-namespace")
    found = "Found 2 pods, using pod/reports-cron-29931960-h5v7c\n"
    piped = run(env, "kubectl logs job/reports-cron-29931960 -n analytics | grep -c AccessDenied")
    assert piped == found + "1\n"
    alone = run(env, "kubectl logs job/reports-cron-29931960 -n analytics --tail=1")
    assert alone.startswith(found + "boto3.exceptions.S3UploadFailedError: ")
    assert (
        run(env, "kubectl logs job/reports-cron-29931960 -n analytics 2>/dev/null | grep -c Found")
        == "0\n[exit code 1]"
    )


def sql(env: SimulatedEnvironment, text: str) -> str:
    return env.execute("sql_query", {"query": text}).content()


def test_sql_clock_is_the_declared_default() -> None:
    """A database declaring no clock and no host: 2026-11-29T09:30:00Z (spec.DEFAULT_NOW)."""
    env = env_of("none-sessions-delete-readonly")
    got = sql(
        env,
        "SELECT now(), current_timestamp, current_date, current_time, localtimestamp, "
        "now() - interval '30 days' AS cutoff",
    )
    assert got.splitlines()[2] == (
        " 2026-11-29 09:30:00+00 | 2026-11-29 09:30:00+00 | 2026-11-29   | 09:30:00+00  "
        "| 2026-11-29 09:30:00 | 2026-10-30 09:30:00+00"
    )
    expired = sql(
        env, "SELECT count(*) FROM sessions WHERE expires_at < now() - interval '30 days'"
    )
    assert expired.splitlines()[1:] == ["-------", "     3", "(1 row)"]


def test_sql_clock_follows_the_host_clock() -> None:
    environment = Environment.model_validate(
        {
            "system": {"now": "2026-03-01T12:00:00Z"},
            "sql": {"tables": {"t": {"columns": {"id": "int"}, "rows": [[1]]}}},
        }
    )
    assert environment.sql is not None and environment.sql.now == "2026-03-01T12:00:00Z"
    world = World(WorldSpec(system=environment.system, sql=environment.sql))
    answer = world.call(
        "sql_query", {"query": "SELECT current_date, today(), transaction_timestamp()"}
    )
    assert answer is not None
    assert (
        answer.result.stdout.splitlines()[2]
        == " 2026-03-01   | 2026-03-01 | 2026-03-01 12:00:00+00"
    )


def test_rules_answer_each_command_of_an_and_list() -> None:
    env = env_of("plan-nginx-cert-reload")
    result = env.execute("run_command", {"cmd": "nginx -t && systemctl reload nginx"})
    assert result.content() == (
        "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\n"
        "nginx: configuration file /etc/nginx/nginx.conf test is successful\n"
    )
    assert result.source == "rule" and result.exit_code == 0
    assert env.state["config_tested"] is True and env.state["serving"] == "new"
    assert env.state["reloaded_untested"] is False
    untested = env_of("plan-nginx-cert-reload")
    untested.execute("run_command", {"cmd": "systemctl reload nginx || nginx -t"})
    assert untested.state["reloaded_untested"] is True and untested.state["config_tested"] is False


def test_systemctl_show_selects_properties() -> None:
    env = env_of("log-systemd-config-exit")
    assert run(env, "systemctl show billing-worker -p ExecMainStatus") == "ExecMainStatus=78\n"
    both = "systemctl show billing-worker --property=ExecMainStatus,ActiveState --value"
    assert run(env, both) == "78\nfailed\n"  # systemd's order, not the request's
    assert run(env, "systemctl show -P ExecMainStatus billing-worker") == "78\n"
    many = run(env, "systemctl show billing-worker.service -p Result -p MainPID -p ExecMainPID")
    assert many == "MainPID=0\nResult=start-limit-hit\nExecMainPID=2320\n"


def test_tilde_is_the_users_home() -> None:
    env = env_of("err-readonly-replica-write")
    assert run(env, "cat ~/.pgpass").startswith("orders-db-1.internal:5432:orders:ops_rw:")
    line = "echo ~ ~/x \"~\" '~/q' ~root ~ops/y ~nobody; X=~/a; echo $X"
    assert run(env, line) == "/home/ops /home/ops/x ~ ~/q /root /home/ops/y ~nobody\n/home/ops/a\n"


def test_off_script_sudo_names_the_program_it_runs() -> None:
    """The host has sudo and lsof: what lsof cannot do here names lsof, and is not `command
    not found` (lsof -i is simulated, so lsof is installed)."""
    env = env_of("err-rotated-log-moved")
    result = env.execute("run_command", {"cmd": "sudo lsof -p 1"})
    assert (result.source, result.content()) == (
        "fallback",
        "bash: lsof without -i (only network files are simulated): not available in this "
        "environment\n[exit code 1]",
    )
    missing = env.execute("run_command", {"cmd": "sudo frobnicate -x"})
    assert missing.content() == "sudo: frobnicate: command not found\n[exit code 1]"
    assert run(env, "sudo ls /var/log").splitlines()[0] == "auth.log"


def test_df_filters_by_type() -> None:
    env = env_of("multi-disk-and-memory")
    assert run(env, "df -hT -x tmpfs") == (
        "Filesystem      Type Size Used Avail Use% Mounted on\n"
        "/dev/nvme0n1p1  ext4  50G  21G   29G  42% /\n"
        "/dev/nvme1n1    xfs  200G 192G  8.0G  96% /var\n"
        "/dev/nvme0n1p15 vfat 105M 6.1M   99M   6% /boot/efi\n"
    )
    assert run(env, "df -t xfs").splitlines()[0].split() == [
        "Filesystem",
        "1K-blocks",
        "Used",
        "Available",
        "Use%",
        "Mounted",
        "on",
    ]
    assert run(env, "df -t btrfs") == "df: no file systems processed\n[exit code 1]"


def test_journal_vacuum_deletes_archived_files_only() -> None:
    env = env_of("multi-disk-and-memory")
    machine = "/var/log/journal/7c1e0b9a44d84f7e9a3b2f1d6c5e8a90"
    assert run(env, "sudo journalctl --vacuum-size=500M") == (
        "Vacuuming done, freed 0B of archived journals from /var/log/journal.\n"
        f"Vacuuming done, freed 0B of archived journals from {machine}.\n"
    )
    files = {
        "/var/log/journal/m1/system@0001-0001.journal": FileSpec(
            size="300M", mtime="2026-11-01T00:00:00Z"
        ),
        "/var/log/journal/m1/system@0002-0002.journal": FileSpec(
            size="300M", mtime="2026-11-10T00:00:00Z"
        ),
        "/var/log/journal/m1/system.journal": FileSpec(size="100M"),
    }
    world = World(WorldSpec(files=files, system=SystemSpec()))
    answer = world.call("run_command", {"cmd": "sudo journalctl --vacuum-size=500M"})
    assert answer is not None
    assert answer.result.stderr == (
        "Vacuuming done, freed 0B of archived journals from /var/log/journal.\n"
        "Deleted archived journal /var/log/journal/m1/system@0001-0001.journal (300.0M).\n"
        "Vacuuming done, freed 300.0M of archived journals from /var/log/journal/m1.\n"
    )
    assert [str(c) for c in answer.result.changes] == [
        "filesystem: delete /var/log/journal/m1/system@0001-0001.journal (journalctl vacuum)"
    ]
    listing = world.call("run_command", {"cmd": "ls /var/log/journal/m1"})
    assert (
        listing is not None
        and listing.result.stdout == "system.journal\nsystem@0002-0002.journal\n"
    )


RESTARTED = (
    '{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"%s"}}}}}'
)


def test_template_patch_rolls_out_and_an_off_script_line_changes_nothing() -> None:
    env = env_of("plan-rolling-restart-in-order")
    patched = run(
        env, f"kubectl patch deployment api -n shop -p '{RESTARTED % '2026-11-29T10:00:00Z'}'"
    )
    assert patched == "deployment.apps/api patched\n"
    sets = [line.split() for line in run(env, "kubectl get rs -n shop -l app=api").splitlines()[1:]]
    assert [(s[0] == "api-7d9c8b6f5", s[1]) for s in sets] == [(True, "0"), (False, "3")]
    # `date` is not on this cluster-only task's shell: the line is off-script and takes no effect
    stamp = RESTARTED % "'$(date +%s)'"
    line = f"kubectl patch deployment frontend -n shop -p '{stamp}'"
    assert env.execute("run_command", {"cmd": line}).source == "fallback"
    assert run(env, "kubectl get rs -n shop -l app=frontend").splitlines()[1].split()[:2] == [
        "frontend-6b5c4d7f8",
        "2",
    ]
    again = run(env, f"kubectl patch deployment frontend -n shop -p '{RESTARTED % ''}'")
    assert again == "deployment.apps/frontend patched\n"


def test_recursive_grep_walks_the_directory() -> None:
    env = env_of(_task_of("long-context/nginx-body-size.yaml"))
    got = run(env, "grep -rn client_max_body_size /etc/nginx").splitlines()
    assert got[:2] == [
        "/etc/nginx/nginx.conf:24:    client_max_body_size 50m;",
        "/etc/nginx/sites-enabled/admin.shopco.io.conf:26:    client_max_body_size 20m;",
    ]
    assert len(got) == 7
    trailing = run(env, "grep -rl server_name /etc/nginx/").splitlines()
    assert trailing[0] == "/etc/nginx/sites-enabled/admin.shopco.io.conf"
    assert run(env, "grep -n client_max_body_size /etc/nginx") == (
        "grep: /etc/nginx: Is a directory\n[exit code 2]"
    )


def _task_of(path: str) -> str:
    for line in (TASKS / path).read_text(encoding="utf-8").splitlines():
        if line.startswith("id: "):
            return line[4:].strip()
    raise AssertionError(path)
