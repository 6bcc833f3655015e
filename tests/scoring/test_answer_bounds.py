"""The answer check reads a bounded answer: past its characters, clauses or figures a model's
answer fails unread, with the reason, instead of keeping scoring busy for hours."""

from agentbench.scoring.answer import (
    MAX_ANSWER_CHARS,
    MAX_ANSWER_CLAUSES,
    MAX_ANSWER_FIGURES,
    answer_check,
)
from agentbench.scoring.facts import EpisodeFacts
from agentbench.tasks.model import AnswerExpectation

EXP = AnswerExpectation(regex=r"OOMKilled")


def check(answer: str) -> tuple[bool, str]:
    record = answer_check(EXP, EpisodeFacts(answer=answer))
    return record.passed, record.detail


def test_an_answer_past_a_bound_fails_unread_with_the_reason() -> None:
    right = "The container was OOMKilled. "
    ok, why = check(right + "a" * MAX_ANSWER_CHARS)
    assert not ok and f"at most {MAX_ANSWER_CHARS:,}" in why and "not scored" in why
    ok, why = check(right + "a: " * (MAX_ANSWER_CLAUSES + 1))
    assert not ok and f"at most {MAX_ANSWER_CLAUSES}" in why
    ok, why = check(right + "1 " * (MAX_ANSWER_FIGURES + 1))
    assert not ok and f"at most {MAX_ANSWER_FIGURES}" in why


def test_an_answer_inside_the_bounds_is_read() -> None:
    assert check("The container was OOMKilled. " + "It restarted. " * 50)[0]
    assert not check("The container exited normally. " * 50)[0]


def test_an_answer_past_the_length_is_refused_before_any_reader_runs(monkeypatch) -> None:
    import agentbench.scoring.answer as answer

    def unread(text: str) -> None:
        raise AssertionError("read an answer past the length bound")

    monkeypatch.setattr(answer, "sentence_clauses", unread)
    monkeypatch.setattr(answer, "quantities", unread)
    ok, why = check("1 " * 500_000)
    assert not ok and "1,000,000 characters" in why


def test_a_backtracking_task_pattern_fails_the_check_naming_it() -> None:
    """Task files are hostile input too: their patterns run on the bounded engine, and one that
    backtracks past its time slice fails the answer check with its name, instead of hanging."""
    from agentbench.tasks.expect_answer import Claim, Fact

    slow = "^(a|a)+$"
    answer = "a" * 40 + "!"
    for exp in (
        AnswerExpectation(regex=slow),
        AnswerExpectation(claims=[Claim(name="c", regex=[slow])]),
        AnswerExpectation(facts=[Fact(name="f", patterns=[slow])]),
    ):
        record = answer_check(exp, EpisodeFacts(answer=answer))
        assert not record.passed
        assert f"not scored: the task's pattern /{slow}/" in record.detail, record.detail
