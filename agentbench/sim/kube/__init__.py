"""kubectl over a declared cluster. `program.build_kubectl(Cluster)` gives the `kubectl` program;
`schema/` is the task file's `environment.cluster:` format (its docstrings document it) and
imports nothing of the runtime, so this package exports nothing: loading the format must not
load kubectl."""
