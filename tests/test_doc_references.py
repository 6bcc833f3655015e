"""Every reference to a document (in the code, docs/ and the README) names a file of this
repository, and a `#section` names a heading of that file."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# `docs/design.md#results-contract`, `tasks/README.md`, `DESIGN.md`: a path ending in .md
MD_PATH = re.compile(r"(?<![\w./-])((?:\.{1,2}/)*(?:[\w.-]+/)*[\w-]+\.md)(#[\w-]+)?")
# Markdown links: [text](target)
LINK = re.compile(r"\]\(([^)\s]+)\)")
# A relative path out of the file's folder, e.g. ../shared/notes
PARENT_PATH = re.compile(r"(?<![\w./-])(\.\./[\w./-]*[\w/])")


def sources() -> list[Path]:
    files = [*ROOT.glob("agentbench/**/*.py"), *ROOT.glob("router/**/*.py")]
    return sorted([*files, *ROOT.glob("docs/*.md"), ROOT / "README.md"])


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to -."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.+)$", doc.read_text(), re.M)}


def resolve(source: Path, target: str, root: Path = ROOT) -> Path | None:
    """The file a reference names: markdown links are relative to their page; other mentions
    are relative to the repository root (or, for ../ paths, to the file's folder)."""
    candidates = [source.parent / target] if source.suffix == ".md" else []
    if target.startswith("../"):
        candidates.append(source.parent / target)
    else:
        candidates.append(root / target)
    for path in candidates:
        path = path.resolve()
        if path.is_relative_to(root.resolve()) and path.exists():
            return path
    return None


def references(source: Path) -> list[tuple[str, str | None]]:
    """(path, anchor or None) of every document reference in a file."""
    text = source.read_text()
    found = [(m.group(1), (m.group(2) or "")[1:] or None) for m in MD_PATH.finditer(text)]
    if source.suffix == ".md":
        text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold commands, not links
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path, _, anchor = target.partition("#")
            found.append((path, anchor or None))
    # A C source path (`../crypto/bio/bio_sock2.c`) is part of a simulated program's real error
    # text (OpenSSL prints its own sources), not a reference to a document.
    return found + [
        (m.group(1), None) for m in PARENT_PATH.finditer(text) if not m.group(1).endswith(".c")
    ]


def broken_in(source: Path, where: str, root: Path = ROOT) -> list[str]:
    broken = []
    for target, anchor in references(source):
        path = resolve(source, target, root)
        if path is None:
            broken.append(f"{where}: {target} is not a file of this repository")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{where}: {target} has no section #{anchor}")
    return broken


def test_every_document_reference_resolves_in_the_repository() -> None:
    checked = sources()
    assert len(checked) > 50 and ROOT / "docs" / "design.md" in checked
    assert sum(len(references(s)) for s in checked) > 30
    broken = [b for s in checked for b in broken_in(s, str(s.relative_to(ROOT)))]
    assert not broken, "\n".join(broken)


def test_the_checker_catches_a_missing_doc_a_missing_section_and_a_path_outside(
    tmp_path: Path,
) -> None:
    page = ROOT / "docs" / "design.md"
    assert {"timing-and-tokens", "results-contract", "the-episode-loop"} <= anchors(page)
    assert resolve(ROOT / "agentbench" / "records.py", "docs/design.md") == page
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "design.md").write_text(page.read_text())
    sample = repo / "docs" / "sample.md"  # links in a page resolve from its folder
    sample.write_text(
        "See [the note](../DESIGN.md), [design](design.md#no-such-section), "
        "[timing](design.md#timing-and-tokens), docs/nothing.md and ../../shared/seeds.\n"
    )
    assert set(broken_in(sample, "sample", repo)) == {
        "sample: docs/nothing.md is not a file of this repository",
        "sample: ../DESIGN.md is not a file of this repository",
        "sample: design.md has no section #no-such-section",
        "sample: ../../shared/seeds is not a file of this repository",
    }
