"""An event a log prints of one numbered sibling, said of another."""

from agentbench.scoring.entities import declared_entities
from agentbench.scoring.reading import Reading
from agentbench.scoring.siblings import sibling_problems
from agentbench.tasks.model import Environment

LOG = (
    "09:51:04 ERROR GET /v2/search failed: 429 circuit_breaking_exception from es-data-1 "
    "(products-v14)\n"
    "09:51:08 WARN cluster es-prod status=yellow, heap es-data-1=97%, es-data-2=61%, "
    "es-data-3=58%\n"
)


def problems(answer: str) -> list[str]:
    return sibling_problems(Reading(answer, declared_entities(Environment(), ""), [], []), [LOG])


def test_an_event_moved_to_a_sibling_host_fails() -> None:
    found = problems("The circuit_breaking_exception on products-v14 comes from es-data-2.")
    assert found and "es-data-1" in found[0]


def test_the_right_sibling_a_ruled_out_one_and_a_true_aside_pass() -> None:
    assert problems("The circuit_breaking_exception on products-v14 comes from es-data-1.") == []
    assert problems("The circuit_breaking_exception is not from es-data-2.") == []
    assert problems("es-data-2 sits at 61% heap, well below es-data-1.") == []
