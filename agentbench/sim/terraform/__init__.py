"""terraform over a declared configuration and state: `plan`, `show`, `state list`, `validate`,
`version`, `init` (spec.py is the task format, plan.py the plan renderer, program.py the CLI)."""
