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


TABLES = Environment.model_validate(
    {
        "sql": {
            "database": "app",
            "tables": {
                "sessions": {
                    "columns": {"id": "text", "user_id": "bigint"},
                    "rows": [["t-6716a", 6716], ["t-7151b", 7151]],
                },
                "upload_links": {
                    "columns": {"id": "text", "user_id": "bigint"},
                    "rows": [["o-7151a", 7151]],
                },
                "orders": {
                    "columns": {"id": "text", "session": "text"},
                    "rows": [["ord-1", "t-7151b"]],
                },
            },
        }
    }
)


@pytest.mark.parametrize(
    ("said", "passes"),
    [
        ("The sessions table has two expired rows: t-6716a and t-7151b.", True),
        ("The sessions table has three expired rows: t-6716a, t-7151b and o-7151a.", False),
        ("In sessions, t-7151b expired; upload_links' o-7151a is another table's.", True),
        ("The orders table's ord-1 came from session t-7151b.", True),  # a foreign key
    ],
)
def test_a_record_named_under_another_table_fails(said: str, passes: bool) -> None:
    from agentbench.scoring.naming import crossed_parent_problems
    from agentbench.scoring.reading import Reading

    reading = Reading(said, declared_entities(TABLES, ""), [], [])
    assert (crossed_parent_problems(reading) == []) is passes
