"""The language server's own layer over the real-world corpus (``../shared/corpus``): for
every skill, what a change of each Markdown file makes the server compute (the findings and
where they are, the links and where they lead, the outline, the frontmatter keys) without
pygls, in this process. Nothing may crash, every range must lie inside its file and every
link must lead inside its skill. Every fourth skill (the whole corpus with the long suite,
``SKILLC_LONG=1``: the lint's own corpus test covers every skill each run). Skipped when
the corpus is absent (``$SKILLC_CORPUS``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillc_lint.server.navigation import links_of
from skillc_lint.server.session import Session
from skillc_lint.server.text import Lines, diagnostic_span, key_on_line, outline

pytestmark = [pytest.mark.corpus]


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[3].parent / "shared" / "corpus"


def test_every_corpus_skill_as_the_server_reads_it() -> None:
    corpus = _corpus()
    if not corpus.is_dir():
        pytest.skip(f"corpus not found at {corpus} (set SKILLC_CORPUS to use another)")
    roots = sorted(path.parent for path in corpus.rglob("SKILL.md") if path.is_file())
    assert len(roots) > 100
    roots = roots if os.environ.get("SKILLC_LONG") == "1" else roots[::4]
    session = Session()
    findings = links = sections = 0
    for root in roots:
        session.open(root / "SKILL.md", (root / "SKILL.md").read_text(errors="replace") + "\n")
        for report in session.reports(root):
            lines = Lines(report.text)
            for found in report.diagnostics:
                line, start, end_line, end = diagnostic_span(found, lines)
                assert 0 <= start <= len(lines.line(line)), (report.path, found)
                assert (line, start) <= (end_line, end), (report.path, found)
                findings += 1
        skill = session.skill(root)
        assert skill is not None, root
        real_root = root.resolve()
        for rel, text in skill.texts.items():
            for link in links_of(skill, rel):
                assert link.path.resolve().is_relative_to(real_root), (root, rel, link)
                links += 1
            sections += len(outline(text))
        skill_lines = Lines(skill.texts["SKILL.md"])
        for index in range(min(len(skill_lines), 40)):
            key_on_line(skill_lines, index)
        session.close(root / "SKILL.md")
    assert findings and links and sections
