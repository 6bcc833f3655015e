"""HTTP status codes given another code's reason phrase or class."""

import pytest

from agentbench.scoring.entities import declared_entities
from agentbench.scoring.http_status import status_problems
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment

ENV = Environment.model_validate({})


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("The upstream answered 503 (Bad Gateway).", True),
        ("Gateway Timeout (502) from the load balancer.", True),
        ('HTTP 503 "Service Unavailable" is a client error.', True),
        ("A 404 is a server error.", True),
        ("503 Service Unavailable means the server is overloaded.", False),
        ("It is not a 502 Bad Gateway but a 503.", False),
        ("nginx returned 502 (Bad Gateway), then 503 Service Unavailable.", False),
        ("429 Too Many Requests is a client error.", False),
        ("A 503 is a server-side error.", False),
        (
            "HTTP 503 means a gateway or proxy did not receive a timely response from upstream.",
            True,
        ),
        ("A 503 means the proxy got an invalid response from the upstream.", True),
        ("A 502 means the proxy got an invalid response from the upstream server.", False),
        ("A 504 means the gateway did not receive a timely response from upstream.", False),
        ("A 503 tells the client to try again later with an Expires header.", True),
        ("A 503 may carry a Retry-After header saying when to try again.", False),
        ("503 means overloaded; it is not a 504, where upstream timed out.", False),
    ],
)
def test_a_code_with_another_code_s_meaning_fails(answer: str, fails: bool) -> None:
    assert bool(status_problems(Reading(answer, declared_entities(ENV, ""), [], []))) is fails


def test_a_table_row_of_empty_cells_is_read_without_error() -> None:
    table = "| | |\n|---|---|\n| Error | 503 Service Unavailable |\n"
    assert status_problems(Reading(table, declared_entities(Environment(), ""), [], [])) == []


LOG = (
    "09:51:04.429Z ERROR GET /v2/search?q=hdmi failed: 429 circuit_breaking_exception from "
    "es-data-1 (products-v14)\n"
    "09:51:04.430Z INFO  GET /v2/search?q=hdmi 503 (1527 ms)\n"
)


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("es-data-1 rejects the searches with HTTP 503 Service Unavailable.", True),
        ("es-data-1 rejects the searches with 429 (circuit breaker).", False),
        ("The API answers its clients 503 because es-data-1 returns 429.", False),
        ("The API returns 503 to its clients.", False),  # no name with lines of its own
        ("es-data-1 did not return 503; it returned 429.", False),
    ],
)
def test_a_status_code_belongs_to_the_party_whose_lines_print_it(answer: str, fails: bool) -> None:
    from agentbench.scoring.http_status import status_party_problems

    reading = Reading(answer, declared_entities(ENV, ""), [], [])
    assert bool(status_party_problems(reading, [LOG])) is fails
