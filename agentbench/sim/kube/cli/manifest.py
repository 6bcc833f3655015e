"""YAML from a model (`apply -f -`, `create -f`, `--patch`), loaded within the call's budget.

PyYAML builds an alias as a second reference to one object, so a "billion laughs" document
loads small and explodes later, when it is copied, compared or printed (`get -o json`). Each
document is therefore sized as it will be printed, every alias counted where it appears
(`Budget.size_of`); one over `Limits.value_bytes` is refused the way kubectl's YAML library
refuses it ("excessive aliasing"), and the limit is recorded on the call. Composing a node is a
step of the budget, so a long document costs its length, not more.
"""

from __future__ import annotations

from typing import Any

import yaml

from agentbench.sim.core.budget import WorkExceeded, current
from agentbench.sim.kube.cli.parse import KubectlError


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
