"""Figures written in words count as figures, and the working of a derivation written out
before its result is not asserted as the answer nor held as an unsupported figure."""

from agentbench.scoring.answer import answer_check
from agentbench.scoring.facts import EpisodeFacts
from agentbench.scoring.numbers import derivation_operand
from agentbench.scoring.spelled import with_digits
from agentbench.scoring.totals import column_sums
from agentbench.tasks.model import AnswerExpectation


def test_spelled_cardinals_become_digits() -> None:
    assert with_digits("which leaves thirty-four units") == "which leaves 34 units"
    assert with_digits("Fourteen orders, two hundred and five rows") == "14 orders, 205 rows"
    assert with_digits("three thousand four hundred") == "3400"
    spelled = "two million five hundred and five thousand six hundred seconds"
    assert with_digits(spelled) == "2505600 seconds"
    assert with_digits("three million, four hundred thousand") == "3400000"
    assert with_digits("five six") == "5 6"  # two figures, not one
    assert with_digits("1.68 million ms, or 1.68e6 ms") == "1680000 ms, or 1680000 ms"
    ids = "commit 433eb14, build 2e5a, dep-70e8"
    assert with_digits(ids) == ids
    assert with_digits("one of the pods is gone") == "one of the pods is gone"
    assert with_digits("someone, tone, fortyish") == "someone, tone, fortyish"
    # a spelled count leading a line before "." stays a word: "3." would read as a list item
    assert with_digits("Three. The failed deploys are") == "Three. The failed deploys are"
    assert with_digits("> Two) retries") == "> Two) retries"
    assert with_digits("It failed three. times") == "It failed 3. times"


def test_working_before_the_result_is_an_operand() -> None:
    figures = [(67.0, 10), (33.0, 25), (34.0, 60)]
    assert derivation_operand(67.0, figures, [34.0])
    # the rejected figure said first and explained afterwards is no working
    assert not derivation_operand(243.0, [(243.0, 5), (217.0, 40), (26.0, 60)], [217.0])
    assert not derivation_operand(50.0, [(50.0, 1), (34.0, 9)], [34.0])


def _passed(answer: str) -> bool:
    exp = AnswerExpectation.model_validate(
        {
            "facts": [{"name": "34 sellable", "amount": {"value": 34}}],
            "rejects": [{"name": "on hand (67)", "amount": {"value": 67}}],
        }
    )
    return answer_check(exp, EpisodeFacts(answer=answer)).passed


def test_a_spelled_answer_with_its_working_passes_and_the_rejected_answer_fails() -> None:
    assert _passed("There are 67 on hand and 33 reserved, which leaves thirty-four to sell.")
    assert not _passed("We can sell 67 units (34 of them free and 33 reserved).")
    assert not _passed("You can sell sixty-seven units.")


def test_written_arithmetic_that_is_right_is_working() -> None:
    from agentbench.scoring.numbers import worked_figures, worked_results

    text = "On hand is 17 + 68 + 22 = 107, so 107 − 49 = 58 can be sold; 3 + 4 = 8 is wrong."
    assert worked_results(text) == {107.0, 58.0}
    assert worked_figures(text) == {17.0, 68.0, 22.0, 107.0, 49.0, 58.0}


def test_modes_and_identifier_parts_count_as_read() -> None:
    from agentbench.scoring.figures import file_modes, identifier_part

    listing = "-rw-r----- 1 indexer indexer 5120 Nov 17 02:02 search-reindex.log\n"
    assert file_modes([listing]) == "0640"
    pods = "order-router-7f9c6d5b8-66967   1/1   Running"
    assert identifier_part("66967", [pods])
    assert not identifier_part("6696", [pods])


def test_a_field_totalled_over_the_records_printed_is_read_not_invented() -> None:
    body = '{"sku": "P-6717", "warehouses": [{"on_hand": 40, "reserved": 21},'
    body += ' {"on_hand": 62, "reserved": 28}, {"on_hand": 0, "reserved": 0}]}'
    sums = column_sums([body])
    assert 102.0 in sums and 49.0 in sums
    assert 103.0 not in sums  # no field totals to it
    assert column_sums(["not json at all [1, 2"]) == set()


def test_a_printed_tables_column_totals_are_read() -> None:
    psql = " status | count\n--------+------\n a | 225\n b | 1187\n c | 44\n(3 rows)"
    assert 1456.0 in column_sums([psql])
    assert column_sums(["a | b\nx | y"]) == set()


def test_worked_arithmetic_in_parentheses_or_bold_is_an_equation() -> None:
    from agentbench.scoring.numbers import equations

    assert equations("exit 137 (128 + 9 = SIGKILL)") == [([128.0, 9.0], 137.0)]
    assert equations("So 67 − 33 = **34 units** are sellable.") == [([67.0, 33.0], 34.0)]
    assert equations("exit 137 (128 + 8 = SIGKILL)") == []


def test_a_product_or_quotient_of_the_answers_own_read_figures_is_working() -> None:
    """An average of a total over a count the answer gives, to the precision it is written in;
    a figure no pair gives is still invented."""
    from agentbench.scoring.entities import declared_entities
    from agentbench.scoring.figures import figure_problems
    from agentbench.scoring.reading import Reading
    from agentbench.tasks.model import Environment

    env = Environment.model_validate({"files": {"/srv/orders.csv": "x"}})
    seen = ["total_eur 48213.40 orders 28"]

    def problems(answer: str) -> list[str]:
        reading = Reading(answer, declared_entities(env, ""), [], [])
        return figure_problems(reading, [], seen)

    assert problems("48,213.40 EUR over 28 orders: an average order of €1,721.91.") == []
    assert problems("48,213.40 EUR over 28 orders: an average order of €1,821.91.")
    # a rate over the week's days: 48,213.40 / 7
    assert problems("48,213.40 EUR for the week, about €6,887.63 per day.") == []
    assert problems("48,213.40 EUR for the week, about €6,987.63 per day.")
    assert problems("48,213.40 EUR for the week; €6,887.63 was paid by card.")  # no rate


def test_arithmetic_in_words_is_an_equation_when_it_is_right() -> None:
    from agentbench.scoring.numbers import equations

    text = "Its 6 primaries plus 6 replicas would account for exactly 12 shards."
    assert equations(text) == [([6.0, 6.0], 12.0)]
    assert equations("67 on hand minus 33 reserved leaves 34.") == [([67.0, 33.0], 34.0)]
    assert equations("67 on hand minus 33 reserved leaves 30.") == []


def test_a_share_must_be_a_ratio_of_read_figures_not_a_sum_of_two() -> None:
    """66% of 67 on hand is no share of anything read (34 of 67 is 51%), even though 66 is
    a sum of two figures the inventory prints; 51% and the rest to 100 of a read share are."""
    from agentbench.scoring.entities import declared_entities
    from agentbench.scoring.figures import figure_problems
    from agentbench.scoring.reading import Reading
    from agentbench.tasks.model import Environment

    env = Environment.model_validate({"files": {"/srv/stock.json": "x"}})
    seen = [
        '{"AMS-1": {"on_hand": 11, "reserved": 4}, "BER-2": {"on_hand": 36, "reserved": 9},'
        ' "WAW-1": {"on_hand": 20, "reserved": 20}, "total": 67, "active_percent": 89.8}'
    ]

    def problems(answer: str) -> list[str]:
        return figure_problems(Reading(answer, declared_entities(env, ""), [], []), [], seen)

    assert problems("34 are sellable, about 66% of the 67 on hand.")
    assert problems("34 of the 67 on hand are sellable, about 51%.") == []
    assert problems("10.2% of shards are unassigned.") == []


def test_a_bare_figure_the_unread_environment_puts_in_another_unit_is_checked() -> None:
    """The agent filtered the journal to errors ("timeout 30.00"), but the same journal says
    the requests that hit it took 30011 ms: 30 ms is the wrong unit, 30 s is right."""
    from agentbench.scoring.entities import declared_entities
    from agentbench.scoring.figures import figure_problems
    from agentbench.scoring.reading import Reading
    from agentbench.tasks.model import Environment

    env = Environment.model_validate(
        {
            "system": {
                "journal": [{"time": "2026-11-29T14:05:31Z", "message": "POST /v1 500 30011ms"}]
            }
        }
    )
    seen = ["TimeoutError: QueuePool limit reached, connection timed out, timeout 30.00"]

    def problems(answer: str) -> list[str]:
        return figure_problems(Reading(answer, declared_entities(env, ""), [], []), [], seen)

    assert problems("The pool checkout timeout is only 30 ms.")
    assert problems("The pool checkout timeout is 30 s.") == []
