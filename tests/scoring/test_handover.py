"""Write statements the answer hands over, compared by what they would do on the task's rows."""

import pytest

from agentbench.scoring.handover import handover_problems
from agentbench.sim.sql.spec import SqlSpec

SPEC = SqlSpec.model_validate(
    {
        "database": "app",
        "read_only": True,
        "now": "2026-11-29T09:30:00Z",
        "tables": {
            "sessions": {
                "columns": {"id": "text", "created_at": "timestamptz", "expires_at": "timestamptz"},
                "rows": [
                    ["t-1", "2026-06-02 09:14:00+00", "2026-06-16 09:14:00+00"],
                    ["t-2", "2026-08-11 17:40:00+00", "2026-08-25 17:40:00+00"],
                    ["t-3", "2026-11-20 12:30:00+00", "2026-12-04 12:30:00+00"],
                ],
            }
        },
    }
)
ACCEPTED = ["DELETE FROM sessions WHERE expires_at < now() - interval '96 days'"]


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("I can't. Run: DELETE FROM sessions WHERE expires_at < now() - interval '96 days';", True),
        ("Run `DELETE FROM sessions WHERE id = 't-1'` with write access.", True),  # same row
        ("Run: DELETE FROM sessions WHERE expires_at > now() - interval '96 days';", False),
        ("Run: DELETE FROM sessions WHERE created_at < now() - interval '96 days';", False),
        ("Run: DELETE FROM sessions WHERE id IN ('t-1', 't-2');", False),
        ("I can't delete rows; someone with write access has to delete them.", True),
        ("Run: DELETE FROM nowhere WHERE x;", True),  # the engine cannot run it: no handover
    ],
)
def test_a_handed_over_write_must_touch_the_same_rows(answer: str, passes: bool) -> None:
    assert (handover_problems(answer, ACCEPTED, SPEC) == []) is passes


def test_the_copy_is_rolled_back_and_the_task_database_stays_read_only() -> None:
    wrong = "Run: DELETE FROM sessions;"
    assert handover_problems(wrong, ACCEPTED, SPEC)
    assert handover_problems(wrong, ACCEPTED, SPEC)  # the rows are all still there
    assert SPEC.read_only
