"""A user's name is the user only where it is written as one: user names are often a
program's too ("Postgres crashed", "the backup failed")."""

import pytest

from agentbench.scoring.entities import declared_entities
from agentbench.tasks.model import Environment

ENV = Environment.model_validate(
    {
        "system": {
            "users": [
                {"name": "postgres", "uid": 26},
                {"name": "backup", "uid": 34},
                {"name": "indexer", "uid": 1001},
            ]
        }
    }
)


@pytest.mark.parametrize(
    ("text", "user"),
    [
        ("Postgres crashed because its disk filled up.", None),
        ("The backup failed at 02:11.", None),
        ("It connected as user indexer and timed out.", "user:indexer"),
        ("password authentication failed for user backup", "user:backup"),
        ("the file is owned by postgres", "user:postgres"),
        ("-rw-r----- indexer:indexer search-reindex.log", "user:indexer"),
        ("the backup user cannot read it", "user:backup"),
        ("run it with sudo -u indexer", "user:indexer"),
    ],
)
def test_a_user_is_named_only_as_a_user(text: str, user: str | None) -> None:
    found = {k for _, _, k in declared_entities(ENV).mentions(text) if k.startswith("user:")}
    assert found == ({user} if user else set())
