"""terraform over a declared directory, through the World's shell: the plan as terraform
prints it (actions, alignment, hidden counts, forces replacement, outputs), state list, the
commands that are not simulated, and the terraform task answered from declared state."""

from __future__ import annotations

from pathlib import Path

import yaml

from agentbench.sim.terraform.spec import TerraformSpec
from agentbench.sim.world import World, WorldSpec
from agentbench.tasks.env import world_spec
from agentbench.tasks.model import Task

SPEC = {
    "dir": "/srv/infra",
    "default_tags": {"Env": "prod"},
    "data": [{"address": "data.aws_region.current", "id": "eu-west-1"}],
    "resources": [
        {
            "address": "aws_db_instance.main",
            "id": "db-1",
            "attributes": {"storage_encrypted": True, "endpoint": "db.internal:5432", "port": 5432},
            "tags": {"Team": "data", "Cost": "a"},
            "planned": {"storage_encrypted": False, "tags": {"Cost": "b"}},
            "forces_replacement": ["storage_encrypted"],
            "computed": ["endpoint", "secret"],
        },
        {
            "address": "aws_vpc.main",
            "id": "vpc-1",
            "attributes": {"name": "main", "cidr": "10.0.0.0/16"},
            "tags": {"Cost": "a"},
            "planned": {"tags": {"Cost": "b", "New": "x"}},
        },
        {"address": "aws_subnet.a[10]", "id": "subnet-10"},
        {"address": "aws_subnet.a[2]", "id": "subnet-2"},
        {"address": "aws_s3_bucket.old", "id": "old", "destroy": True},
        {"address": "aws_s3_bucket.logs", "create": True, "attributes": {"bucket": "logs"}},
    ],
    "outputs": [{"name": "db_endpoint", "from": "aws_db_instance.main.endpoint"}],
}


def world(spec: dict | None = None) -> World:
    return World(WorldSpec(terraform=TerraformSpec.model_validate(spec or SPEC)))


def run(w: World, line: str) -> tuple[int, str, bool]:
    answer = w.call("run_command", {"cmd": line})
    assert answer is not None
    return answer.result.exit_code, answer.result.output, answer.result.simulated


def block(text: str, address: str) -> str:
    start = text.index(f"  # {address} ")
    return text[start : text.index("\n    }\n", start) + 7]


def test_a_plan_renders_each_action_as_terraform_does() -> None:
    code, out, simulated = run(world(), "terraform -chdir=/srv/infra plan -no-color")
    assert simulated and code == 0
    assert out.startswith(
        "data.aws_region.current: Reading...\n"
        "data.aws_region.current: Read complete after 0s [id=eu-west-1]\n"
        "aws_db_instance.main: Refreshing state... [id=db-1]\n"
    )
    assert "aws_s3_bucket.logs: Refreshing" not in out  # not in state yet
    assert (
        "  + create\n  ~ update in-place\n  - destroy\n-/+ destroy and then create replacement\n"
    ) in out
    assert block(out, "aws_db_instance.main") == (
        "  # aws_db_instance.main must be replaced\n"
        '-/+ resource "aws_db_instance" "main" {\n'
        '      ~ endpoint          = "db.internal:5432" -> (known after apply)\n'
        '      ~ id                = "db-1" -> (known after apply)\n'
        "      + secret            = (known after apply)\n"
        "      ~ storage_encrypted = true -> false # forces replacement\n"
        "      ~ tags              = {\n"
        '          ~ "Cost" = "a" -> "b"\n'
        "            # (1 unchanged element hidden)\n"
        "        }\n"
        "      ~ tags_all          = {\n"
        '          ~ "Cost" = "a" -> "b"\n'
        "            # (2 unchanged elements hidden)\n"
        "        }\n"
        "        # (1 unchanged attribute hidden)\n"
        "    }\n"
    )
    vpc = block(out, "aws_vpc.main")
    assert '        id       = "vpc-1"\n        name     = "main"\n' in vpc  # shown unchanged
    assert '          + "New"  = "x"\n' in vpc and "# (1 unchanged attribute hidden)" in vpc
    assert '  - resource "aws_s3_bucket" "old" {\n      - id = "old" -> null\n' in out
    assert '  + resource "aws_s3_bucket" "logs" {\n      + bucket = "logs"\n' in out
    assert "aws_subnet" not in out.split("Terraform will perform")[1]  # no-op: not listed
    assert "Plan: 2 to add, 1 to change, 2 to destroy.\n" in out
    assert '  ~ db_endpoint = "db.internal:5432" -> (known after apply)\n' in out
    assert out.rstrip().endswith('if you run "terraform apply" now.')


def test_no_changes_and_the_detailed_exit_code() -> None:
    quiet = {"dir": "/srv/infra", "resources": [{"address": "aws_vpc.main", "id": "vpc-1"}]}
    code, out, _ = run(world(quiet), "terraform -chdir=/srv/infra plan -detailed-exitcode")
    assert code == 0 and "No changes. Your infrastructure matches the configuration." in out
    code, _, _ = run(world(), "terraform -chdir=/srv/infra plan -detailed-exitcode")
    assert code == 2
    _, out, _ = run(world(), "cd /srv/infra && terraform plan -refresh=false")
    assert out.startswith("Terraform used the selected providers")


def test_state_list_sorts_instances_by_index_and_filters_by_address() -> None:
    code, out, _ = run(world(), "terraform -chdir=/srv/infra state list")
    assert code == 0
    assert out.splitlines() == [
        "aws_db_instance.main",
        "aws_s3_bucket.old",
        "aws_subnet.a[2]",
        "aws_subnet.a[10]",
        "aws_vpc.main",
    ]
    _, out, _ = run(world(), "terraform -chdir=/srv/infra state list aws_subnet.a")
    assert out == "aws_subnet.a[2]\naws_subnet.a[10]\n"


def test_outside_the_directory_there_is_no_configuration() -> None:
    code, out, simulated = run(world(), "terraform plan")
    assert simulated and code == 1 and "Error: No configuration files" in out
    code, out, _ = run(world(), "terraform -chdir=/tmp state list")
    assert code == 1 and out.startswith("No state file was found!")
    code, out, _ = run(world(), "terraform version")
    assert code == 0 and out == "Terraform v1.7.5\non linux_amd64\n"


def test_writes_and_what_needs_the_configuration_text_are_not_simulated() -> None:
    for line in (
        "terraform -chdir=/srv/infra apply -auto-approve",
        "terraform -chdir=/srv/infra state rm aws_vpc.main",
        "terraform -chdir=/srv/infra plan -out=tf.plan",
        "terraform -chdir=/srv/infra plan -target=aws_vpc.main",
        "terraform -chdir=/srv/infra plan --help",
    ):
        assert run(world(), line)[2] is False, line
    code, out, simulated = run(world(), "terraform -chdir=/srv/infra plan -bogus")
    assert simulated and code == 1 and "flag provided but not defined: -bogus" in out
    code, out, _ = run(world(), "terraform planx")
    assert code == 1 and 'Terraform has no command named "planx".' in out


def test_show_prints_the_state() -> None:
    _, out, _ = run(world(), "terraform -chdir=/srv/infra show -no-color")
    assert '# aws_vpc.main:\nresource "aws_vpc" "main" {\n    cidr     = "10.0.0.0/16"\n' in out
    assert 'Outputs:\n\ndb_endpoint = "db.internal:5432"\n' in out


def test_without_a_terraform_section_terraform_is_not_simulated() -> None:
    assert "terraform" not in World(WorldSpec()).programs


def test_the_terraform_task_is_answered_from_declared_state() -> None:
    path = Path(__file__).parents[3] / "tasks/long-context/terraform-replacement.yaml"
    task = Task.model_validate(yaml.safe_load(path.read_text()))
    spec = world_spec(task.environment)
    assert spec is not None
    code, out, simulated = run(World(spec), task.reference[0].calls[0].args["cmd"])
    assert simulated and code == 0
    assert "  # aws_db_instance.orders must be replaced\n" in out
    assert "      ~ storage_encrypted      = true -> false # forces replacement\n" in out
    assert "Plan: 1 to add, 79 to change, 1 to destroy.\n" in out
    # what is left of 1,600 lines of rules: the restricted shell and the held state lock
    assert len(task.environment.rules) == 2
