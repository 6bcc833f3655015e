"""The `terraform` program over the declared `terraform:` section (spec.py).

Simulated: `plan` (-no-color -input=false -lock=false -lock-timeout= -refresh=false
-parallelism= -compact-warnings -detailed-exitcode), `show` (the state), `state list [ADDR...]`,
`validate`, `version` (also -version/-v), `init` (an initialised directory: nothing to
download), each in the declared directory (`-chdir=DIR` or the shell's cwd). Elsewhere there is
no configuration: plan fails as terraform does, `state list` finds no state. Whatever writes
state or files (apply, destroy, import, taint, `state rm`, `plan -out`) or needs the
configuration's text (-var, -target, -json) is not simulated. No colour codes are printed.
"""

from __future__ import annotations

import posixpath

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.core.registry import Call, program
from agentbench.sim.terraform.plan import render_plan, state_of, value
from agentbench.sim.terraform.spec import TerraformSpec

PLAN_FLAGS = {
    "no-color", "input", "lock", "lock-timeout", "refresh", "parallelism", "compact-warnings",
    "detailed-exitcode",
}  # fmt: skip
COMMANDS = {"plan", "show", "state", "validate", "version", "init", "apply", "destroy", "import"}
COMMANDS |= {"taint", "untaint", "output", "fmt", "providers", "graph", "console", "workspace"}
COMMANDS |= {"refresh", "login", "logout", "force-unlock", "get", "test", "metadata"}
NO_CONFIG = (
    "╷\n│ Error: No configuration files\n│\n│ Plan requires configuration to be present. Planning "
    "without a configuration would mark everything for\n│ destruction, which is normally not what "
    "is desired. If you would like to destroy everything, run plan with\n│ the -destroy option. "
    "Otherwise, create a Terraform configuration file (.tf file) and try again.\n╵\n"
)
NO_STATE = (
    "No state file was found!\n\nState management commands require a state file. Run this "
    "command\nin a directory where Terraform has been run or use the -state flag\nto point the "
    "command to an existing state file.\n"
)


def _flag_error(command: str, flag: str) -> CommandResult:
    text = (
        f"╷\n│ Error: Failed to parse command-line flags\n│\n│ flag provided but not defined: "
        f"-{flag}\n╵\n\nFor more help on using this command, run:\n  terraform {command} -help\n"
    )
    return CommandResult(stderr=text, exit_code=1, identity=("terraform", command, "!usage"))


def _flags(words: list[str]) -> tuple[dict[str, str], list[str]]:
    flags: dict[str, str] = {}
    rest: list[str] = []
    for word in words:
        if word.startswith("-") and len(word) > 1:
            name, _, given = word.lstrip("-").partition("=")
            flags[name] = given or "true"
        else:
            rest.append(word)
    return flags, rest


@program("terraform", needs=("terraform",))
def terraform(call: Call) -> CommandResult:
    spec = call.part("terraform", TerraformSpec)
    words = call.argv[1:]
    where = call.ctx.cwd
    while words and words[0].startswith("-"):
        name, _, given = words[0].lstrip("-").partition("=")
        if name == "chdir":
            where = posixpath.normpath(posixpath.join(call.ctx.cwd, given))
        elif name in ("version", "v"):
            words = ["version", *words[1:]]
            break
        else:
            raise NotSimulated(f"terraform -{name}")
        words = words[1:]
    command = words[0] if words else ""
    if command not in COMMANDS:
        text = (
            f'Terraform has no command named "{command}".\n\nTo see all of Terraform\'s '
            "top-level commands, run:\n  terraform -help\n"
        )
        if not command:
            raise NotSimulated("terraform with no command (its usage text)")
        return CommandResult(stderr=text, exit_code=1, identity=("terraform", "!unknown", command))
    here = where == posixpath.normpath(spec.dir)
    flags, operands = _flags(words[1:])
    if command == "version":
        text = f"Terraform v{spec.version}\non linux_amd64\n"
        return CommandResult(stdout=text, identity=("terraform", "version"))
    if command == "plan":
        return _plan(spec, flags, here)
    if command == "state" and operands[:1] == ["list"]:
        if not here:
            return CommandResult(stderr=NO_STATE, exit_code=1, identity=("terraform", "state"))
        listed = [r.address for r in spec.resources if not r.create]
        wanted = operands[1:]
        listed = [a for a in listed if not wanted or any(a.startswith(w) for w in wanted)]
        text = "".join(f"{a}\n" for a in sorted(listed, key=_order))
        return CommandResult(stdout=text, identity=("terraform", "state", "list", *wanted))
    if command == "show" and not operands and here:
        return CommandResult(stdout=_show(spec), identity=("terraform", "show"))
    if command == "validate" and here:
        unknown = next((f for f in flags if f != "no-color"), None)
        if unknown:
            return _flag_error("validate", unknown)
        text = "Success! The configuration is valid.\n\n"
        return CommandResult(stdout=text, identity=("terraform", "validate"))
    if command == "init" and here and set(flags) <= {"no-color", "input"}:
        text = (
            "Initializing the backend...\n\nInitializing provider plugins...\n\n"
            "Terraform has been successfully initialized!\n"
        )
        return CommandResult(stdout=text, identity=("terraform", "init"))
    raise NotSimulated(f"terraform {' '.join(words[:2])}")


def _order(address: str) -> tuple[str, int, str]:
    base, _, index = address.partition("[")
    index = index.rstrip("]")
    return (base, int(index) if index.isdigit() else -1, index)


def _plan(spec: TerraformSpec, flags: dict[str, str], here: bool) -> CommandResult:
    for flag in flags:
        if flag in ("out", "var", "var-file", "target", "replace", "destroy", "json"):
            raise NotSimulated(f"terraform plan -{flag}")
        if flag not in PLAN_FLAGS:
            return _flag_error("plan", flag)
    if not here:
        return CommandResult(stderr=NO_CONFIG, exit_code=1, identity=("terraform", "plan", "!none"))
    text, changes = render_plan(spec, refresh=flags.get("refresh", "true") != "false")
    code = 2 if changes and "detailed-exitcode" in flags else 0
    return CommandResult(stdout=text, exit_code=code, identity=("terraform", "plan"))


def _show(spec: TerraformSpec) -> str:
    blocks = []
    for r in sorted((r for r in spec.resources if not r.create), key=lambda r: _order(r.address)):
        attrs = state_of(r, spec)
        width = max(len(k) for k in attrs)
        lines = [f"# {r.address}:", f'resource "{r.type}" "{r.name}" {{']
        for key in sorted(attrs):
            v = attrs[key]
            if isinstance(v, dict):
                lines.append(f"    {key:<{width}} = {{")
                pad = max((len(value(k)) for k in v), default=0)
                lines += [f"        {value(k):<{pad}} = {value(x)}" for k, x in sorted(v.items())]
                lines.append("    }")
            else:
                lines.append(f"    {key:<{width}} = {value(v)}")
        blocks.append("\n".join([*lines, "}"]))
    text = "\n\n".join(blocks) + "\n"
    if spec.outputs:
        outs = []
        for o in spec.outputs:
            v = o.value
            if o.from_:
                address, _, attr = o.from_.rpartition(".")
                res = next((r for r in spec.resources if r.address == address), None)
                v = state_of(res, spec).get(attr) if res else None
            outs.append(f"{o.name} = {value(v)}")
        text += "\n\nOutputs:\n\n" + "\n".join(outs) + "\n"
    return text
