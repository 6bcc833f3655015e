"""Commands the answer advises that their program would refuse."""

import subprocess

import pytest

from agentbench.scoring.advice import _KUBECTL_VERBS, _ROLLOUT_VERBS, advice_problems


@pytest.mark.parametrize(
    ("answer", "sql", "fails"),
    [
        ("Apply it with `nginx -s restart`.", False, True),
        ("Apply it with `nginx -s reload`.", False, False),
        ("Apply it with `nginx -c /etc/nginx/nginx.conf -s reload`.", False, False),
        ("Roll back with `kubectl rollout rollback deployment/web -n web`.", False, True),
        ("Roll back with `kubectl rollout undo deployment/web -n web`.", False, False),
        ("Then `kubectl -n web rollout restart deploy/web`.", False, False),
        ("Then `kubectl --namespace=web restart deploy/web`.", False, True),
        ("Then `systemctl refresh nginx`.", False, True),
        ("Then `systemctl --no-pager try-reload-or-restart nginx`.", False, False),
        ("Run:\n```sql\nDELETE FROM s WHERE t < now() - INTERVAL 30 DAY;\n```\n", True, True),
        ("Run:\n```sql\nDELETE FROM s WHERE t < now() - INTERVAL '30 days';\n```\n", True, False),
        ("Use `SELECT DATE_SUB(now(), 1)` to see the cut-off.", True, True),
        ("Use `SELECT DATE_SUB(now(), 1)` to see the cut-off.", False, False),  # no PostgreSQL
        ("Fix the Corefile:\n```\n.:53 {\n    proxy . /etc/resolv.conf\n}\n```", False, True),
        ("Fix the Corefile:\n```\n.:53 {\n    forward . /etc/resolv.conf\n}\n```", False, False),
        ("Use the short form `kubectl logs search-api-0 -n 200`.", False, True),
        ("Use `kubectl logs search-api-0 -n search --tail 200`.", False, False),
        ("Use `kubectl logs search-api-0 --namespace=team-2 --tail=200`.", False, False),
        ("kubectl logs takes `--tail=200` (short form `-n 200`).", False, True),
        ("head takes `-n 200` too.", False, False),  # no kubectl in the answer
    ],
)
def test_a_command_its_program_refuses_is_no_advice(answer: str, sql: bool, fails: bool) -> None:
    assert bool(advice_problems(answer, [], sql)) is fails


@pytest.mark.parametrize(
    "answer",
    [
        "There is no `nginx -s restart`; use `nginx -s reload`.",
        "`kubectl restart` doesn't exist, so roll the pods with a rollout.",
        "Don't run `systemctl refresh nginx`.",
        "Use `nginx -s reload` instead of `nginx -s restart`.",
        "The drain failed: `kubectl restart node-1` is unknown.",
    ],
)
def test_a_form_named_as_wrong_is_no_advice(answer: str) -> None:
    assert advice_problems(answer, [], False) == []


def test_a_command_the_episode_ran_is_quoted_not_advised() -> None:
    answer = "`kubectl restart deploy/web` answered with an error, so I rolled it instead."
    assert advice_problems(answer, ["kubectl restart deploy/web"], False) == []


def test_a_long_run_of_options_reads_in_linear_time() -> None:
    """Each option reads one way only: 1,000 of them before the verb are read through (a
    backtracking reading would not return), and the verb after them is still judged."""
    answer = "`kubectl " + "--namespace=a " * 1000 + "restart deploy/web`"
    assert "no command 'restart'" in advice_problems(answer, [], False)[0]
    assert advice_problems(answer.replace("restart", "get"), [], False) == []
    assert advice_problems(answer.replace("restart deploy/web", "!"), [], False) == []  # no verb


def test_the_verbs_are_kubectls_own() -> None:
    """The real kubectl lists the same commands (the binary is a test oracle, never model
    input)."""
    try:
        top = subprocess.run(["kubectl", "--help"], capture_output=True, text=True, timeout=30)
        rollout = subprocess.run(
            ["kubectl", "rollout", "--help"], capture_output=True, text=True, timeout=30
        )
    except FileNotFoundError:
        pytest.skip("no kubectl on this machine")

    def listed(text: str) -> set[str]:
        return {
            line.split()[0]
            for line in text.splitlines()
            if line.startswith("  ")
            and line[2:3].isalpha()
            and not line.lstrip().startswith("kubectl")
        }

    assert {"get", "rollout", "drain"} <= listed(top.stdout) <= _KUBECTL_VERBS
    assert {"undo", "restart"} <= listed(rollout.stdout) <= _ROLLOUT_VERBS
