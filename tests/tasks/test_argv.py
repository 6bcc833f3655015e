import pytest

from agentbench.tasks.argv import ArgvError, ProgramFlags, canonical_argv, same_command

KUBECTL = {
    "kubectl": ProgramFlags(
        aliases={"-n": "--namespace", "-p": "--previous", "-o": "--output"},
        boolean=["--previous"],
    )
}


@pytest.mark.parametrize(
    "variant",
    [
        "kubectl get pods -n web",
        "kubectl -n web get pods",
        "kubectl get pods --namespace=web",
        "kubectl get pods --namespace web",
        "kubectl  get   pods -nweb",
        "/usr/local/bin/kubectl get pods -n 'web'",
    ],
)
def test_equivalent_spellings_of_the_seed_command(variant: str) -> None:
    assert same_command("kubectl get pods -n web", variant, KUBECTL)


@pytest.mark.parametrize(
    "other",
    [
        "kubectl get pods",
        "kubectl get pods -n default",
        "kubectl get deployments -n web",
        "kubectl describe pods -n web",
        "kubectl get pods -n web -o wide",
    ],
)
def test_different_commands_differ(other: str) -> None:
    assert not same_command("kubectl get pods -n web", other, KUBECTL)


def test_boolean_flag_does_not_swallow_the_positional() -> None:
    a = canonical_argv("kubectl logs --previous web-1 -n web", KUBECTL)
    b = canonical_argv("kubectl logs web-1 -p -n web", KUBECTL)
    assert a == b
    assert a.positionals == ("logs", "web-1")


def test_unparseable_command_is_an_error_and_never_equal() -> None:
    with pytest.raises(ArgvError):
        canonical_argv("kubectl get 'pods")
    assert not same_command("kubectl get 'pods", "kubectl get 'pods")


JOURNALCTL = {
    "journalctl": ProgramFlags(
        aliases={"-u": "--unit", "-x": "--catalog", "-e": "--pager-end"},
        boolean=["--catalog", "--pager-end"],
    )
}


def test_short_flag_cluster_with_a_value_at_the_end() -> None:
    assert same_command("journalctl -xeu nginx", "journalctl -x -e --unit=nginx", JOURNALCTL)


def test_sudo_keeps_the_inner_grammar_but_is_not_the_same_command() -> None:
    assert same_command("sudo journalctl -u nginx", "sudo journalctl --unit nginx", JOURNALCTL)
    assert not same_command("sudo journalctl -u nginx", "journalctl -u nginx", JOURNALCTL)
