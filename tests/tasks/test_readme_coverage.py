from agentbench.tasks.coverage import coverage_markdown

from ..conftest import TASKS_DIR


def test_tasks_readme_shows_the_current_coverage(suite) -> None:
    readme = (TASKS_DIR / "README.md").read_text()
    assert coverage_markdown(suite) in readme, "run: agentbench tasks coverage tasks/"
