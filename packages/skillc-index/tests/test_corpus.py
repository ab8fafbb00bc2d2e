"""The skill model and the file walk over the real-world corpus (``../shared/corpus``).

Every folder holding a SKILL.md is a skill. Each ``.md`` file must parse without an exception;
each valid SKILL.md must give sane heading ranges; every skill folder must walk and hash.
Skipped when the corpus is absent; ``$SKILLC_CORPUS`` points elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillc_index.digests import source_hash
from skillc_index.markdown.document import MarkdownDoc, read_markdown
from skillc_index.skill_files import walk_skill

# One xdist worker runs the module: the corpus is parsed once for all its tests.
pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("index-corpus")]


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[3].parent / "shared" / "corpus"


CORPUS = _corpus()


@pytest.fixture(scope="module")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS} (set SKILLC_CORPUS to use another)")
    return CORPUS


@pytest.fixture(scope="module")
def parsed(corpus: Path) -> dict[Path, MarkdownDoc]:
    """Every ``.md`` file of the corpus, parsed once for all the tests of this module."""
    docs: dict[Path, MarkdownDoc] = {}
    failures: list[str] = []
    for path in sorted(corpus.rglob("*.md")):
        if not path.is_file():
            continue
        try:
            docs[path] = read_markdown(path)
        except Exception as error:  # any exception at all is the failure under test
            failures.append(f"{path.relative_to(corpus)}: {type(error).__name__}: {error}")
    assert not failures, "\n".join(failures)
    return docs


def _skill_files(docs: dict[Path, MarkdownDoc]) -> list[Path]:
    return [path for path in docs if path.name == "SKILL.md"]


def test_every_markdown_file_parses(parsed: dict[Path, MarkdownDoc]) -> None:
    assert parsed, "the corpus holds no .md file"
    assert _skill_files(parsed), "the corpus holds no SKILL.md"


def test_skill_headings_are_sane(corpus: Path, parsed: dict[Path, MarkdownDoc]) -> None:
    problems: list[str] = []
    for path in _skill_files(parsed):
        doc = parsed[path]
        if doc.frontmatter.data is None:
            continue
        for heading in doc.headings:
            ok = (
                1 <= heading.level <= 6
                and doc.frontmatter.body_start <= heading.line < heading.end_line
                and heading.end_line <= doc.line_count + 1
            )
            if not ok:
                problems.append(f"{path.relative_to(corpus)}: {heading}")
    assert not problems, "\n".join(problems)


def test_every_skill_walks_and_hashes(corpus: Path, parsed: dict[Path, MarkdownDoc]) -> None:
    problems: list[str] = []
    for path in _skill_files(parsed):
        root = path.parent
        files = walk_skill(root)
        if "SKILL.md" not in files.files:
            problems.append(f"{root.relative_to(corpus)}: SKILL.md not walked")
        digest = source_hash(root, files.files)
        if len(digest) != 64 or digest != source_hash(root):
            problems.append(f"{root.relative_to(corpus)}: unstable source hash")
    assert not problems, "\n".join(problems)
