"""``find`` over the real-world corpus (``../shared/corpus``, 581 skills): every skill is
found and indexed, and the light SKILL.md reader agrees with markdown-it on the headings of
nearly every file. Skipped when the corpus is absent; ``$SKILLC_CORPUS`` points elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillc_gateway import find_skills
from skillc_gateway.catalog.skill_text import read_skill_text
from skillc_index import Layout, parse_markdown

pytestmark = pytest.mark.corpus


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    corpus = (
        Path(custom) if custom else Path(__file__).resolve().parents[3].parent / "shared" / "corpus"
    )
    if not corpus.is_dir():
        pytest.skip(f"corpus not found at {corpus} (set SKILLC_CORPUS to use another)")
    return corpus


def test_every_corpus_skill_is_found(tmp_path: Path) -> None:
    corpus = _corpus()
    folders = {
        str(path.parent)
        for path in corpus.rglob("SKILL.md")
        if ".git" not in path.relative_to(corpus).parts
    }
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    result = find_skills(layout, "pdf", paths=[str(corpus)], limit=100)
    for _call in range(20):  # each call indexes for at most 10 s; a loaded machine needs more
        if not result.partial:
            break
        result = find_skills(layout, "pdf", paths=[str(corpus)], limit=100)
    assert (result.searched, result.skipped, result.partial) == (len(folders), 0, False)
    assert result.skills and all(skill.path in folders for skill in result.skills)


def test_the_reader_finds_the_headings_markdown_it_finds() -> None:
    """The ranker's headings are those ``outline`` lists, on every SKILL.md of the corpus."""
    corpus = _corpus()
    files = sorted(corpus.rglob("SKILL.md"))
    differ = []
    for file in files:
        data = file.read_bytes()
        text = read_skill_text(data, file.parent.name)
        assert text is not None, file
        expected = [(h.level, h.text, h.line) for h in parse_markdown(data.decode()).headings]
        if [tuple(heading) for heading in text.headings] != expected:
            differ.append(file)
    assert differ == []
