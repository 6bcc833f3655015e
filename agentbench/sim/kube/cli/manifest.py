"""YAML from a model (`apply -f -`, `create -f`, `--patch`), loaded within the call's budget.

PyYAML builds an alias as a second reference to one object, so a "billion laughs" document
loads small and explodes later, when it is copied, compared or printed (`get -o json`). Each
document is therefore sized as it will be printed, every alias counted where it appears
(`Budget.size_of`); one over `Limits.value_bytes` is refused the way kubectl's YAML library
refuses it ("excessive aliasing"), and the limit is recorded on the call. Composing a node is a
step of the budget, so a long document costs its length, not more. `documents` reads the objects
of `-f FILE` for apply, create and delete.
"""

from __future__ import annotations

from typing import Any

import yaml

from agentbench.sim.core.budget import WorkExceeded, current
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.cli.targets import resource_type
from agentbench.sim.kube.objects.resources import ResourceType
from agentbench.sim.kube.objects.store import Obj, Store


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, one budget step per node it composes."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        current().step()
        return super().compose_node(parent, index)


def load_documents(text: str, source: str) -> list[Any]:
    """Every document of `text` (None for an empty one); `source` names it in errors."""
    budget = current()
    budget.value(len(text), "a manifest")
    try:
        documents = list(yaml.load_all(text, Loader=_Loader))
    except yaml.YAMLError as error:
        raise KubectlError(f"error: error parsing {source}: {error}") from error
    for document in documents:
        _sized(document, source)
    return documents


def load_document(text: str, source: str) -> Any:
    """The first document of `text` (a patch)."""
    documents = load_documents(text, source)
    return documents[0] if documents else None


def _sized(document: Any, source: str) -> None:
    budget = current()
    try:
        budget.size_of(document)
    except ValueError as error:
        raise KubectlError(
            f"error: error parsing {source}: yaml: anchor value contains itself"
        ) from error
    except WorkExceeded as error:
        if error.limit != "value_bytes":
            raise
        budget.exceeded = None  # replaced by the YAML library's own refusal
        raise budget.fail(
            WorkExceeded(
                "yaml",
                f"error: error parsing {source}: error converting YAML to JSON: yaml: document "
                "contains excessive aliasing",
                1,
                prefix=False,
            )
        ) from None


def documents(store: Store, args: Args) -> list[Obj]:
    """The objects of `-f FILE` (a file of the task's filesystem, or `-` for stdin), a `List`'s
    items each one object; a document without `kind` is refused as kubectl refuses it."""
    path = args.get("filename")
    text: str | None = store.stdin or ""
    if path != "-":
        text = store.read_file(path) if store.read_file else None
        if text is None:
            raise KubectlError(f'error: the path "{path}" does not exist')
    docs = [d for d in load_documents(text or "", str(path)) if d]
    out: list[Obj] = []
    for doc in docs:
        if not isinstance(doc, dict) or "kind" not in doc:
            raise KubectlError(
                f'error: error validating "{path}": error validating data: '
                "kind not set; if you choose to ignore these errors, turn "
                "validation off with --validate=false"
            )
        out += doc.get("items", []) if doc["kind"] == "List" else [doc]
    return out


def document_type(doc: Obj) -> ResourceType:
    """The resource type of a document (by its `kind`); a document without a name is refused."""
    rtype = resource_type(doc["kind"])
    if "metadata" not in doc or "name" not in doc["metadata"]:
        raise KubectlError("error: resource name may not be empty")
    return rtype


def objects_from_file(store: Store, args: Args) -> list[tuple[ResourceType, str, str]]:
    """(type, namespace, name) of every object a file declares (the namespace of the
    document, else `-n`, "" for cluster-scoped types)."""
    out = []
    for doc in documents(store, args):
        rtype = document_type(doc)
        namespace = doc["metadata"].get("namespace") or args.namespace()
        out.append((rtype, namespace if rtype.namespaced else "", doc["metadata"]["name"]))
    return out
