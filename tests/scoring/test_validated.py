"""A JSON answer's "fixed value" held to the document that passed validation."""

from agentbench.scoring.facts import CallFact
from agentbench.scoring.validated import validated_value_problems

DRAFT = """\
apiVersion: batch/v1
kind: CronJob
spec:
  schedule: "*/15 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: {policy}  # fixed
"""


def validate(document: str, output: str) -> CallFact:
    return CallFact(tool="validate_document", args={"document": document}, output=output)


def episode(policy: str) -> list[CallFact]:
    return [
        validate("/srv/k8s/cronjob.yaml", "FAIL - /srv/k8s/cronjob.yaml\n  2 errors"),
        validate(DRAFT.format(policy="Always"), "FAIL - <stdin>\n  1 error"),
        validate(DRAFT.format(policy=policy), "PASS - <stdin> - CronJob\n  0 errors"),
    ]


def test_the_value_of_the_text_that_passed_is_the_fixed_value() -> None:
    answer = {"errors_found": 2, "schedule": "*/15 * * * *", "restart_policy": "Never"}
    assert validated_value_problems(answer, episode("Never")) == []
    assert validated_value_problems({**answer, "restart_policy": "never"}, episode("Never")) == []


def test_a_value_the_passing_text_does_not_hold_fails() -> None:
    answer = {"errors_found": 2, "schedule": "*/15 * * * *", "restart_policy": "OnFailure"}
    problems = validated_value_problems(answer, episode("Never"))
    assert problems == [
        "JSON key 'restart_policy' is 'OnFailure', but the document that passed "
        "validation has 'Never'"
    ]


def test_a_schedule_spelled_another_way_that_fires_alike_passes() -> None:
    same = {"schedule": "0,15,30,45 * * * *"}
    assert validated_value_problems(same, episode("Never")) == []
    other = {"schedule": "*/30 * * * *"}
    assert validated_value_problems(other, episode("Never"))


def test_nothing_is_held_without_a_passing_text() -> None:
    failed = episode("Never")[:2]
    assert validated_value_problems({"restart_policy": "OnFailure"}, failed) == []
    by_path = [validate("/srv/k8s/cronjob.yaml", "PASS - /srv/k8s/cronjob.yaml\n  0 errors")]
    assert validated_value_problems({"restart_policy": "OnFailure"}, by_path) == []


def test_keys_the_document_does_not_hold_or_holds_twice_are_left_alone() -> None:
    twice = DRAFT.format(policy="Never") + "      restartPolicy: OnFailure\n"
    calls = [validate(twice, "PASS - <stdin>")]
    assert validated_value_problems({"restart_policy": "OnFailure", "passes": True}, calls) == []
