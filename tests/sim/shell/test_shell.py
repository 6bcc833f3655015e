"""The shell layer: parsing, lists and pipes, redirects, prefixes, identity and changes."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import Change, CommandResult, ShellContext
from agentbench.sim.shell.ast import Command, Sequence
from agentbench.sim.shell.interpreter import Shell, ShellSyntaxError, parse
from agentbench.sim.shell.static import static_word
from agentbench.sim.world import World
from tests.sim.conftest import sh


class Echo:
    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        env = dict(ctx.env)
        text = " ".join(argv[1:]) + (f" [{env['X']}]" if "X" in env else "")
        return CommandResult(stdout=text + "\n", identity=("echo", ctx.user))


class Upper:
    """A filter: presentation only, so its identity is None."""

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        return CommandResult(stdout=(stdin or "").upper())


class Fail:
    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        change = Change("test", "touch", argv[-1])
        return CommandResult(stderr="boom\n", exit_code=3, identity=("fail",), changes=[change])


@pytest.fixture
def shell() -> Shell:
    programs = {"echo": Echo(), "up": Upper(), "fail": Fail()}
    return Shell(
        programs,
        users=frozenset({"root", "ops", "backup"}),
        not_installed=frozenset({"docker-compose"}),
    )


CTX = ShellContext(user="ops")


def test_quotes_and_operators_split_like_bash() -> None:
    tree = parse("""echo 'a | b' "c;d" e\\ f && up || echo x; echo y""")
    assert isinstance(tree, Sequence)
    first, last = tree.items
    assert isinstance(first[1], Sequence)
    assert [c for c, _ in first[1].items] == ["", "&&", "||"] and last[0] == ";"
    command = first[1].items[0][1]
    assert isinstance(command, Command)
    assert [static_word(w, {}) for w in command.words] == ["echo", "a | b", "c;d", "e f"]


def test_pipe_feeds_stdout_into_the_next_stage_and_the_filter_adds_no_identity(
    shell: Shell,
) -> None:
    result = shell.run("echo hello | up", CTX)
    assert result.stdout == "HELLO\n"
    assert result.identity == ("echo", "ops")


def test_and_or_and_sequence_follow_exit_codes(shell: Shell) -> None:
    result = shell.run("fail x && echo skipped || echo recovered; echo after", CTX)
    assert result.stdout == "recovered\nafter\n"
    assert result.stderr == "boom\n"
    assert result.exit_code == 0
    assert result.identity == ("fail", ";", "echo", "ops", ";", "echo", "ops")
    assert result.changes == [Change("test", "touch", "x")]


def test_redirects_drop_or_merge_streams(shell: Shell) -> None:
    assert shell.run("fail x 2>/dev/null", CTX).output == ""
    merged = shell.run("fail x 2>&1 | up", CTX)
    assert merged.stdout == "BOOM\n"
    assert shell.run("echo hi >/dev/null", CTX).stdout == ""
    assert shell.run("fail x &>/dev/null", CTX).output == ""


def test_sudo_runs_as_root_and_sudo_u_as_that_user(shell: Shell) -> None:
    assert shell.run("sudo echo a", CTX).identity == ("echo", "root")
    assert shell.run("sudo -u backup echo a", CTX).identity == ("echo", "backup")
    assert shell.run("sudo -u nobody echo a", CTX).stderr == "sudo: unknown user nobody\n"


def test_without_sudo_rights_a_password_is_required() -> None:
    shell = Shell({"echo": Echo()}, sudo=False)
    result = shell.run("sudo echo a", CTX)
    assert result.exit_code == 1
    assert result.stderr.endswith("sudo: a password is required\n")


def test_env_prefixes_and_paths(shell: Shell) -> None:
    assert shell.run("X=1 echo a", CTX).stdout == "a [1]\n"
    assert shell.run("env X=2 /usr/bin/echo a", CTX).stdout == "a [2]\n"
    assert shell.run('echo "$USER"', CTX).stdout == "ops\n"


def test_unknown_commands_answer_like_bash_and_are_off_script(shell: Shell) -> None:
    result = shell.run("foo --bar", CTX)
    assert (result.stderr, result.exit_code, result.simulated) == (
        "bash: foo: command not found\n",
        127,
        False,
    )
    declared = shell.run("docker-compose up", CTX)
    assert declared.exit_code == 127 and declared.simulated
    assert shell.run("./deploy.sh", CTX).stderr == "bash: ./deploy.sh: No such file or directory\n"


def test_syntax_errors_are_bash_s(shell: Shell) -> None:
    assert shell.run("echo 'open", CTX).exit_code == 2
    assert "unexpected EOF" in shell.run("echo 'open", CTX).stderr
    assert shell.run("| up", CTX).stderr == "bash: syntax error near unexpected token `|'\n"
    with pytest.raises(ShellSyntaxError):
        parse("echo a &&")


def test_bash_builtins_work_without_a_declared_filesystem() -> None:
    from agentbench.sim.world import World, WorldSpec

    world = World(WorldSpec(http=()))
    answer = world.call("run_command", {"cmd": "cd /srv && export A=1; pwd -P; echo ok"})
    assert answer is not None
    assert (answer.result.stdout, answer.result.simulated) == ("/srv\nok\n", True)


def test_command_substitution_and_a_for_loop(host: World) -> None:
    looped = sh(host, "for f in /srv/pods.json /nope; do wc -l $f; done")
    assert looped.stdout == "1 /srv/pods.json\n"
    assert looped.stderr == "wc: /nope: No such file or directory\n"
    assert sh(host, 'echo "I am $(whoami)"').stdout == "I am ops\n"
    assert sh(host, "wc -l `echo /srv/pods.json`").identity == ("file", "read", "/srv/pods.json")


def test_nothing_is_substituted_inside_single_quotes(host: World) -> None:
    assert sh(host, "echo 'a $(whoami) b' \"$(whoami)\"").stdout == "a $(whoami) b ops\n"
