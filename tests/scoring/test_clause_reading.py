"""How an answer is cut and bound: inline code and quotes hold no clause breaks, a later clause
that disowns what came before negates it, a clause after "so" is a statement of its own, and a
fact split across a sentence's clauses is found in the sentence as written."""

from pathlib import Path

import pytest

from agentbench.scoring.answer import answer_check
from agentbench.scoring.claims import sentence_clauses
from agentbench.scoring.facts import EpisodeFacts
from agentbench.scoring.quantities import quantities
from agentbench.scoring.stance import Stance, stance_at
from agentbench.tasks.loader import load_suite
from agentbench.tasks.model import AnswerExpectation, Task

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_suite(ROOT / "tasks").tasks}


def texts(answer: str) -> list[list[str]]:
    return [[c.text for c in group] for group in sentence_clauses(answer)]


def test_inline_code_and_quotes_are_never_cut() -> None:
    groups = texts(
        "Add `listen 443 ssl; http2 on;` and rerun: it said \"expected ';', got ':'\" there."
    )
    flat = [c for g in groups for c in g]
    assert any("`listen 443 ssl; http2 on;`" in c for c in flat)
    assert any("\"expected ';', got ':'\"" in c for c in flat)


def test_a_disowning_clause_negates_what_came_before() -> None:
    group = sentence_clauses(
        "The timeout in the proxy log was a retry of mine, not the real problem."
    )[0]
    first = group[0]
    assert stance_at(first, (4, 11)) is Stance.negated
    kept = sentence_clauses("The disk is full, not an inode problem.")[0][0]
    assert stance_at(kept, (4, 8)) is Stance.asserted


def test_a_negation_reaches_the_rest_of_its_verb_list() -> None:
    group = sentence_clauses("I have not edited, reloaded or restarted anything.")[0]
    assert stance_at(group[1], (0, 8)) is Stance.negated
    kept = sentence_clauses("I restarted nginx, reloaded php or something.")[0]
    assert stance_at(kept[1], (0, 8)) is Stance.asserted


def test_a_consequence_clause_is_its_own_statement() -> None:
    group = sentence_clauses("The volume is at 100%, so the database cannot write its WAL.")[0]
    assert [c.consequence for c in group] == [False, True]
    assert not sentence_clauses("So far the pods are fine.")[0][0].consequence


def test_a_fact_across_clauses_is_read_in_the_sentence_as_written() -> None:
    group = sentence_clauses("It runs at 01:00, 01:30, 02:00.")[0]
    assert len(group) > 1 and group[0].sentence == "It runs at 01:00, 01:30, 02:00."


def test_an_unnamed_statement_before_so_binds_to_the_earlier_subject(
    tasks: dict[str, Task],
) -> None:
    task = tasks["ops-nginx-config-syntax"]
    answer = (
        "`nginx -t` reports an error in /etc/nginx/sites-enabled/shop.conf.\n"
        "The proxy_pass directive on line 31 has no semicolon, so nginx keeps reading into the "
        "next line and fails."
    )
    assert task.expect.answer is not None
    exp = AnswerExpectation(facts=[f for f in task.expect.answer.facts])
    record = answer_check(exp, EpisodeFacts(answer=answer), task)
    assert record.passed, record.detail


@pytest.mark.parametrize(
    ("text", "value"),
    [("forty-two rows", 42), ("ninety nine jobs", 99), ("Sixty pods", 60), ("twenty-one", 21)],
)
def test_compound_number_words(text: str, value: float) -> None:
    assert [q.value for q in quantities(text)] == [value]


def test_a_lead_in_that_disqualifies_negates_what_it_introduces() -> None:
    group = sentence_clauses(
        "The history has two newer entries, but neither qualifies: 3.21.1-rc1 only went to "
        "staging."
    )[0]
    tail = group[-1]
    assert stance_at(tail, (0, 10)) is Stance.negated
    bullets = sentence_clauses("Not included:\n- H-1372 has exactly 22 on hand.")
    assert stance_at(bullets[-1][0], (0, 6)) is Stance.negated


def test_a_negation_inside_a_condition_leaves_the_consequence_asserted() -> None:
    clause = sentence_clauses("If she doesn't acknowledge it escalates to the secondary.")[0][0]
    at = clause.text.index("secondary")
    assert stance_at(clause, (at, at + 9)) is Stance.asserted
    plain = sentence_clauses("It doesn't escalate to the secondary.")[0][0]
    at = plain.text.index("secondary")
    assert stance_at(plain, (at, at + 9)) is Stance.negated


def test_and_nothing_starts_a_statement_of_its_own() -> None:
    group = sentence_clauses("The final run is at 7:45 and nothing fires at 8:00.")[0]
    assert stance_at(group[0], (0, 9)) is Stance.asserted
    assert len(group) == 2


def test_abbreviations_end_no_sentence() -> None:
    assert len(sentence_clauses("The timeout is 30 s, i.e. 30000 ms. It retries.")) == 2
    assert len(sentence_clauses("Use a tag, e.g. 1.11.4, not 1.114.")) == 1


def test_an_ellipsis_in_a_list_ends_no_sentence() -> None:
    groups = sentence_clauses("That's 12 runs a day: 02:00, 02:15, ... 04:30, 04:45. Fine.")
    assert len(groups) == 2


def test_a_negation_inside_a_statement_across_clauses_is_its_own() -> None:
    from agentbench.scoring.entities import declared_entities
    from agentbench.scoring.lexicon import entry
    from agentbench.scoring.reading import Reading
    from agentbench.tasks.model import Environment

    reading = Reading(
        "The Secret the new revision reads from, ledger-creds, isn't present in the namespace.",
        declared_entities(Environment(), ""),
        [],
        [],
    )
    found = reading.occurrences(entry("missing-secret").span)
    assert [o.stance for o in found] == [Stance.asserted]
    secret = entry("missing-secret").span
    for said in (
        "The Secret, ledger-creds, exists; it is not missing.",
        "The secret is not missing.",
    ):
        denied = Reading(said, reading.entities, [], []).occurrences(secret)
        assert denied and all(o.stance is not Stance.asserted for o in denied), said


@pytest.mark.parametrize(
    "answer",
    [
        "My first guess was an OOM kill, but that is wrong: the exit code is 1.",
        "At first glance it looked like OOMKilled, but the last state says Error.",
        "OOMKilled - no wait, that's not quite it: the exit code is 1.",
    ],
)
def test_a_first_impression_the_sentence_retracts_is_negated(answer: str) -> None:
    for clause in sentence_clauses(answer)[0]:
        at = clause.text.lower().find("oom")
        if at >= 0:
            assert stance_at(clause, (at, at + 3)) is Stance.negated, clause.text
            return
    raise AssertionError("no clause names the OOM kill")


def test_a_question_in_a_table_cell_hedges_no_other_cell() -> None:
    rows = sentence_clauses(
        "| window | primary | applies at 10:00? |\n|---|---|---|\n| Nov 20 - Nov 22 | Clara | no |"
    )
    header = rows[0]
    assert [c.text.strip() for c in header][:2] == ["window", "primary"]
    assert not any(c.hedged_before for c in header[:2])


def test_replacing_negates_whom_it_replaces() -> None:
    group = sentence_clauses("An override replacing Sara Haddad as primary is in force.")[0]
    replaced = next(c for c in group if "Sara" in c.text)
    at = replaced.text.index("primary")
    assert stance_at(replaced, (at, at + 7)) is Stance.negated


def test_nobody_negates() -> None:
    clause = sentence_clauses("So nobody has been paged about it.")[0][0]
    at = clause.text.index("paged")
    assert stance_at(clause, (at, at + 5)) is Stance.negated


def test_a_negation_inside_a_definition_is_the_definition_s() -> None:
    clause = sentence_clauses(
        "502 Bad Gateway means the proxy couldn't get a valid response from the upstream."
    )[0][0]
    assert stance_at(clause, (4, 15)) is Stance.asserted
    plain = sentence_clauses("Bad Gateway is not what the log shows.")[0][0]
    assert stance_at(plain, (0, 11)) is Stance.negated


def test_a_clock_time_in_am_ends_no_sentence_before_a_lowercase_word() -> None:
    assert len(sentence_clauses("It runs from 6:00 a.m. until 8:55 a.m. on weekends.")) == 1
    assert len(sentence_clauses("It runs until 8:55 a.m. Then it stops.")) == 2


def _stance(text: str, words: str) -> Stance:
    for group in sentence_clauses(text):
        for clause in group:
            if words in clause.text:
                at = clause.text.index(words)
                return stance_at(clause, (at, at + len(words)))
    raise AssertionError(f"{words!r} not in {text!r}")


def test_what_an_if_clause_supposes_is_neither_claimed_nor_offered() -> None:
    said = "If she doesn't respond within 10 minutes, it escalates to Piotr."
    assert _stance(said, "respond within") is Stance.supposed
    assert _stance("She doesn't respond within 10 minutes.", "respond within") is Stance.negated


def test_a_state_said_to_have_ended_is_no_longer_so() -> None:
    said = "Marta's weekend override of the primary ended Sunday at 22:00 UTC."
    assert _stance(said, "primary") is Stance.negated
    assert _stance("Marta is primary until Sunday.", "primary") is Stance.asserted


def test_what_the_clause_says_is_skipped_is_left_out() -> None:
    assert _stance("That's twelve runs per night; weekends are skipped.", "weekends") is (
        Stance.negated
    )
    assert _stance("It runs on weekends too.", "weekends") is Stance.asserted
    assert _stance("The weekend run was skipped.", "weekend run") is Stance.negated


def test_a_first_impression_mid_sentence_is_retracted_from_where_it_starts() -> None:
    said = "The API lists 6417 - at first that looks like EUR 6,417, but it is in cents."
    groups = sentence_clauses(said)
    assert not groups[0][0].negated_before  # "The API lists 6417" stands
    assert _stance(said, "looks like") is Stance.negated


def test_a_counterfactual_describes_what_is_not_the_case() -> None:
    said = "This is a kill by the kubelet, not an OOM kill (that would be 137 / reason OOMKilled)."
    assert _stance(said, "OOMKilled") is Stance.supposed


def test_a_parenthesised_list_of_alternatives_asserts_none_of_them() -> None:
    said = "It got in some other way (a manual ALTER, a hotfix script or another migration)."
    assert _stance(said, "hotfix") is Stance.hedged
    said = "Three previews were there (PR 4398, PR 4411 and PR 4420)."
    assert _stance(said, "PR 4411") is Stance.asserted
    said = "It fails verification (the certificate has expired, or is not yet valid)."
    assert _stance(said, "has expired") is Stance.asserted  # an error's own two readings


def test_a_notation_value_explained_is_not_the_one_in_use() -> None:
    said = "Nothing runs at weekends (day-of-week 1-5 = Mon-Fri, 0 or 7 would be Sunday)."
    assert _stance(said, "Sunday") is Stance.supposed
    assert _stance("The job also runs on Sunday.", "Sunday") is Stance.asserted


def test_a_permission_refused_with_a_negation_is_the_denial_stated() -> None:
    said = "The role reports-prod-irsa isn't allowed s3:PutObject on the bucket."
    assert _stance(said, "PutObject") is Stance.asserted
    assert _stance("The upload did not use PutObject.", "PutObject") is Stance.negated


def test_an_identifier_said_not_to_be_found_is_asserted_absent() -> None:
    assert _stance("Tag typo (api:v2.41 → not found in registry).", "v2.41") is Stance.asserted
    assert _stance("OOMKilled was not found in the events.", "OOMKilled") is Stance.negated


def test_and_between_two_names_is_one_subject() -> None:
    said = "Saturdays and Sundays it doesn't run at all."
    assert _stance(said, "Saturdays") is Stance.negated
    kept = "I raised the limit and the pod is now Running without restarts."
    assert _stance(kept, "raised the limit") is Stance.asserted


def test_a_json_false_negates_its_key_and_a_flat_record_is_one_statement() -> None:
    from agentbench.scoring.claims import sentences

    answer = '{"timed_out": false, "order_id": 88412, "status": "refunded"}'
    said = [s for s, _ in sentences(answer)]
    assert "not timed out" in said
    assert any("88412" in s and "refunded" in s for s in said)
