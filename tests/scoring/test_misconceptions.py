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
        "A 503 means the service was taken out of operation, so treat it as permanent.",
        "HTTP 503 is a 4xx-class client error: the request itself was malformed.",
        "With a 503 the server must include a Retry-After header.",
        "503 Service Unavailable: the Retry-After header is required and says when to retry.",
        "The taint `disk-pressure:NoSchedule` was added, so the pods get evicted from the node.",
        "Prefer restart for nginx: it finishes in-flight connections, whereas reload drops them.",
        "The cert expired; refresh the CA bundle on the client hosts and restart them.",
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
        "A 503 is temporary (not permanent): retry later, honouring Retry-After if it is sent.",
        "Unlike a 4xx client error, a 503 says the server is unable to handle the request.",
        "The server may send a Retry-After header with the 503.",
        "ES answered 429 and search-api passed it on as a 503 to its clients.",
        "Requests give up after 30 s, returning 503; a permanent fix is a bigger pool.",
        "The kubelet evicted them under disk pressure; the NoSchedule taint keeps new ones off.",
        "Reload nginx rather than restart it: a restart drops open connections.",
        "The cert expired at 23:59:59 UTC; renew it on billing.internal and reload nginx.",
    ],
)
def test_the_truth_and_its_denials_pass(answer: str) -> None:
    assert problems(answer) == []
