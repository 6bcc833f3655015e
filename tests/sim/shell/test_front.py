"""The shell front end: one tree-sitter parse into our syntax tree, executed by walking it."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import Change, CommandResult, ShellContext
from agentbench.sim.core.spec import FileSpec
from agentbench.sim.shell.ast import (
    Case,
    Command,
    For,
    Group,
    If,
    Pipeline,
    Redirected,
    Sequence,
    Unsupported,
    While,
)
from agentbench.sim.shell.interpreter import Shell, ShellSyntaxError, parse
from agentbench.sim.shell.static import line_words, static_commands, static_word
from agentbench.sim.world import World, WorldSpec
from agentbench.tasks.matching import shell_commands
from tests.sim.conftest import sh


def words(command: object) -> list[str]:
    assert isinstance(command, Command)
    return [static_word(w, {}) for w in command.words]


# -- parsing ---------------------------------------------------------------------------------


def test_each_construct_becomes_its_node() -> None:
    tree = parse("for p in $(kubectl get pods -o name); do kubectl logs $p; done | sort")
    assert isinstance(tree, Pipeline) and isinstance(tree.stages[0], For)
    assert words(tree.stages[1]) == ["sort"]
    assert isinstance(parse("while read x; do echo $x; done < f"), Redirected)
    assert isinstance(parse("until false; do :; done"), While)
    assert isinstance(parse("if a; then b; elif c; then d; else e; fi"), If)
    assert isinstance(parse("case $x in a|b) echo 1;; esac"), Case)
    group = parse("{ a; b; } 2>&1")
    assert isinstance(group, Redirected) and isinstance(group.body, Group)
    subshell = parse("(cd /x; ls)")
    assert isinstance(subshell, Group) and subshell.subshell
    assert isinstance(parse("f() { echo; }"), Unsupported)


def test_lists_keep_their_connectors() -> None:
    tree = parse("a && b || c; d & e")
    assert isinstance(tree, Sequence)
    inner = tree.items[0][1]
    assert isinstance(inner, Sequence)
    assert [c for c, _ in inner.items] == ["", "&&", "||"]
    assert [c for c, _ in tree.items] == ["", ";", ";"]


def test_grammar_quirks_are_repaired() -> None:
    # a word after a redirect target belongs to the command
    assert words(parse("grep x 2>/dev/null file.txt")) == ["grep", "x", "file.txt"]
    # `- <<EOF` keeps its `-`
    apply = parse("kubectl apply -f - <<EOF\nkind: X\nEOF")
    assert words(apply) == ["kubectl", "apply", "-f", "-"]
    assert isinstance(apply, Command) and apply.redirects[0].op == "<<"
    # a heredoc's node swallowing the rest of its pipeline
    piped = parse("cat <<EOF | grep -c x\nx1\nEOF")
    assert isinstance(piped, Pipeline) and words(piped.stages[1]) == ["grep", "-c", "x"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("| up", "bash: syntax error near unexpected token `|'"),
        ("echo 'open", "bash: unexpected EOF while looking for matching `''"),
        ("echo a &&", "bash: syntax error: unexpected end of file"),
    ],
)
def test_syntax_errors_say_what_bash_says(line: str, message: str) -> None:
    with pytest.raises(ShellSyntaxError, match="^" + message.replace("|", r"\|") + "$"):
        parse(line)


# -- execution over the declared host --------------------------------------------------------


@pytest.fixture
def box() -> World:
    files: dict[str, str | FileSpec] = {
        "/srv/a.log": "ok\nERROR one\n",
        "/srv/b.log": "ERROR two\nERROR three\n",
        "/tmp/q": "`cat /tmp/q`\n",
        "/tmp/evil": "$(touch /tmp/pwned) `rm /srv/a.log`\n",
    }
    return World(WorldSpec(files=files))


def test_variables_set_earlier_on_the_line_expand_later(box: World) -> None:
    assert sh(box, "F=/srv/a.log; grep -c ERROR $F").stdout == "1\n"
    assert sh(box, 'D=/srv; for f in "$D"/*.log; do wc -l < $f; done').stdout == "2\n2\n"
    assert sh(box, "export N=3; echo $N").stdout == "3\n"


def test_subshells_and_pipeline_stages_keep_their_variables_and_directory(box: World) -> None:
    assert sh(box, '(X=1; cd /srv); echo "[$X]"; pwd').stdout == "[]\n/home/ops\n"
    assert sh(box, "{ X=1; cd /srv; }; echo $X; pwd").stdout == "1\n/srv\n"
    assert sh(box, 'X=1 | true; echo "[$X]"').stdout == "[]\n"


def test_substituted_output_is_never_parsed_again(box: World) -> None:
    looping = sh(box, "echo $(cat /tmp/q)")
    assert (looping.stdout, looping.exit_code) == ("`cat /tmp/q`\n", 0)
    evil = sh(box, "echo $(cat /tmp/evil)")
    assert evil.stdout == "$(touch /tmp/pwned) `rm /srv/a.log`\n"
    assert evil.changes == []
    assert sh(box, "cat /srv/a.log").exit_code == 0


def test_unquoted_substitution_splits_into_fields_and_quoted_does_not(box: World) -> None:
    assert sh(box, "for w in $(echo a b); do echo [$w]; done").stdout == "[a]\n[b]\n"
    assert sh(box, 'for w in "$(echo a b)"; do echo [$w]; done').stdout == "[a b]\n"


def test_redirects_apply_left_to_right(box: World) -> None:
    assert sh(box, "cat /nope 2>&1 >/dev/null | wc -l").stdout == "1\n"
    assert sh(box, "cat /nope >/dev/null 2>&1 | wc -l").stdout == "0\n"
    written = sh(box, "echo hi > /tmp/out 2>&1; cat /tmp/out")
    assert written.stdout == "hi\n"
    assert written.changes and written.changes[0].target == "/tmp/out"
    assert sh(box, ": > /tmp/out; wc -c /tmp/out").stdout.startswith("0 ")


def test_a_compound_command_redirects_as_a_whole(box: World) -> None:
    result = sh(
        box, "for f in /srv/*.log; do grep -c ERROR $f; done > /tmp/counts; cat /tmp/counts"
    )
    assert result.stdout == "1\n2\n"


def test_heredocs_expand_unless_the_delimiter_is_quoted(box: World) -> None:
    assert sh(box, "X=1; cat <<EOF\nx=$X $(echo sub)\nEOF").stdout == "x=1 sub\n"
    assert sh(box, "cat <<'EOF'\nx=$X\nEOF").stdout == "x=$X\n"
    assert sh(box, "grep -c ERROR <<< 'ERROR here'").stdout == "1\n"


def test_an_endless_loop_is_timed_out_by_the_runtime(box: World) -> None:
    result = sh(box, "while true; do echo x; done")
    assert (result.exit_code, result.timed_out, result.stdout) == (124, True, "")


def test_nesting_is_bounded_and_reported_not_simulated(box: World) -> None:
    assert sh(box, "eval eval eval echo deep").stdout == "deep\n"
    result = sh(box, "eval " * 14 + "echo deep")
    assert result.simulated is False


def test_what_the_simulator_does_not_carry_out_is_off_script(box: World) -> None:
    for line in ("watch ls", "echo $((1+2))", "f() { :; }", "diff <(ls) <(ls)", "source x.sh"):
        result = sh(box, line)
        assert result.simulated is False, line


# -- wrappers and identities -------------------------------------------------------------------


class Record:
    """Reports who ran it with which argv, and records a change."""

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        text = f"{ctx.user}:{' '.join(argv)}:{(stdin or '').strip()}"
        return CommandResult(
            stdout=text + "\n",
            identity=("rec", *argv[1:]),
            changes=[Change("test", "touch", " ".join(argv[1:]))],
        )


class Lines:
    """Prints each argument on a line of its own."""

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        return CommandResult(stdout="".join(f"{a}\n" for a in argv[1:]))


@pytest.fixture
def shell() -> Shell:
    return Shell({"rec": Record(), "lines": Lines()}, users=frozenset({"root", "ops"}))


def test_wrappers_run_the_command_they_wrap(shell: Shell) -> None:
    ctx = ShellContext(user="ops")
    assert shell.run("sudo rec a", ctx).stdout == "root:rec a:\n"
    assert shell.run("timeout -s KILL 5 nice -n 3 nohup rec b", ctx).stdout == "ops:rec b:\n"
    assert shell.run("env -i X=1 command rec c", ctx).stdout == "ops:rec c:\n"
    assert shell.run("lines x | rec d", ctx).stdout == "ops:rec d:x\n"


def test_xargs_batches_its_input_into_commands(shell: Shell) -> None:
    ctx = ShellContext(user="ops")
    each = shell.run("lines a b | xargs -n1 rec", ctx)
    assert each.stdout == "ops:rec a:\nops:rec b:\n"
    assert each.identity == ("rec", "a", ";", "rec", "b")
    assert [c.target for c in each.changes] == ["a", "b"]
    assert shell.run("lines 'x y' | xargs -I{} rec {} z", ctx).stdout == "ops:rec x y z:\n"
    assert shell.run("lines | xargs -r rec", ctx).stdout == ""


def test_static_reading_sees_every_command_the_line_would_run() -> None:
    line = "N=web; for p in a b; do sudo kubectl delete pod $p -n $N; done | xargs echo"
    assert [" ".join(c.words) for c in static_commands(line) if c.words] == [
        "kubectl delete pod a -n web",
        "kubectl delete pod b -n web",
        "xargs",
        "echo …",
    ]
    assert shell_commands("eval 'kubectl delete ns x'; bash -c 'rm -f /a'") == [
        "eval kubectl delete ns x",
        "kubectl delete ns x",
        "bash -c rm -f /a",
        "rm -f /a",
    ]
    assert line_words("kubectl get pods -n 'web' 2> /dev/null | grep x") == [
        "kubectl",
        "get",
        "pods",
        "-n",
        "web",
        "2>/dev/null",
        "|",
        "grep",
        "x",
    ]


def test_hostile_lines_are_bounded_and_never_cleared_as_reads(box: World) -> None:
    from agentbench.sim.shell.intent.classify import classify

    deep = "$(" * 2000 + "rm -rf /" + ")" * 2000
    result = sh(box, deep)
    assert result.simulated is False and "nesting" in result.stderr
    assert [w.program for w in classify(deep)] == ["bash"]
    long_line = "echo " + "a " * 40_000
    assert sh(box, long_line).simulated is False
    assert sh(box, "for i in " + "x " * 6000 + "; do :; done").timed_out
