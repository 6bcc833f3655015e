"""Claims of this field that are false whatever the environment holds."""

import pytest

from agentbench.scoring.entities import declared_entities
from agentbench.scoring.misconceptions import misconception_problems
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment

ENV = Environment.model_validate({"files": {"/etc/nginx/nginx.conf": "x"}})


def problems(answer: str) -> list[str]:
    return misconception_problems(Reading(answer, declared_entities(ENV, ""), [], []))


@pytest.mark.parametrize(
    "answer",
    [
        "No restart needed: nginx watches its config files and re-reads them automatically.",
        "nginx picks up the changed file on its own within a few minutes.",
        "`nginx -t` checks it and `-s reopen` makes the master pick up the new configuration.",
        "Send the reopen signal so nginx loads the new config.",
        "Bump `resources.requests.memory` to 128Mi; the limit can stay at 64Mi.",
        "Increase the memory request to 256Mi and keep the limit at 64Mi; it will stop OOMing.",
    ],
)
def test_a_false_claim_of_the_field_fails(answer: str) -> None:
    assert problems(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "nginx does not re-read its config automatically; run `nginx -s reload`.",
        "Run `sudo nginx -t && sudo nginx -s reload` to apply the new configuration.",
        "`nginx -s reopen` only re-opens the log files; it won't reload the config.",
        "Reopening the logs (`-s reopen`) is for log rotation, not config changes.",
        "Raise the memory limit to 256Mi (and the request to 128Mi if you like).",
        "Keep the limit at 64Mi only if the workload is trimmed; otherwise raise it.",
        "Certbot renews the certificate automatically; nginx still needs a reload to serve it.",
    ],
)
def test_the_truth_and_its_denials_pass(answer: str) -> None:
    assert problems(answer) == []
