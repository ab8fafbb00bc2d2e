"""Every gateway command over every skill of the real-world corpus (``../shared/corpus``).

Each skill is built (from its path, into a temporary project) and then outlined, shown,
searched, opened and listed, through the same library calls the commands make. No exception,
and sane output: every outline heading can be shown, and the first search hit is a section
the index knows; the outline read from the index is the one parsing the sources gives, at
every level. Skipped when the corpus is absent; ``$SKILLC_CORPUS`` points elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillc_gateway import open_file, outline, search_skill, show_section, source_tree
from skillc_gateway._outline import Outline, _parsed_outline
from skillc_index import Layout, ResolvedSkill, fresh_index, walk_skill
from skillc_index.build.skill import build_skill

pytestmark = pytest.mark.corpus


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    return (
        Path(custom) if custom else Path(__file__).resolve().parents[3].parent / "shared" / "corpus"
    )


def _as_json(found: Outline) -> tuple[list[dict[str, object]], list[str]]:
    return [h.to_dict() for h in found.headings], [w.text for w in found.warnings]


def _check_indexed_outline(skill: ResolvedSkill) -> None:
    """``outline`` of a built skill comes from its index, and equals the parsed one at every
    level. The sources are parsed twice, not once a level (seven parses of every file were
    five sixths of this test's time): the parsed outline of a level is the whole one's
    headings of that level and above (checked at level 2), the same warnings."""
    assert fresh_index(skill) is not None
    parsed = _parsed_outline(skill, None)
    assert _as_json(_parsed_outline(skill, 2)) == _as_json(_up_to(parsed, 2))
    for level in (None, 1, 2, 3, 4, 5, 6):
        indexed = outline(skill, level=level)
        assert _as_json(indexed) == _as_json(_up_to(parsed, level)), level


def _up_to(found: Outline, level: int | None) -> Outline:
    """``found`` with the headings of ``level`` and above only."""
    if level is None:
        return found
    return found._replace(headings=tuple(h for h in found.headings if h.level <= level))


def test_every_gateway_command_on_every_corpus_skill(tmp_path: Path) -> None:
    corpus = _corpus()
    if not corpus.is_dir():
        pytest.skip(f"corpus not found at {corpus} (set SKILLC_CORPUS to use another)")
    skills = sorted(path.parent for path in corpus.rglob("SKILL.md"))
    assert len(skills) > 500
    failures: list[str] = []
    for number, source in enumerate(skills):
        project = tmp_path / f"p{number}"
        (project / ".skillc").mkdir(parents=True)
        layout = Layout.discover(project, {"SKILLC_HOME": str(tmp_path / "home")})
        try:
            skill = build_skill(str(source), layout, targets=[str(project / "agents")]).skill
            _check_indexed_outline(skill)
            headings = outline(skill).headings
            for heading in headings[:3]:
                shown = show_section(skill, heading.text, file=heading.file, max_lines=50)
                assert shown.text.splitlines()[0].lstrip("# ").strip() or shown.heading
            word = next((h.text.split()[0] for h in headings if h.text.split()), skill.name)
            hits = search_skill(skill, word, limit=5)
            for hit in hits.results:
                assert hit.file in set(walk_skill(skill.source).files)
            assert open_file(skill, "SKILL.md", max_lines=10).shown_lines <= 10
            assert source_tree(skill, depth=2).lines()[0] == f"{skill.name}/"
        except Exception as error:  # any failure at all is what this test looks for
            failures.append(f"{source.relative_to(corpus)}: {type(error).__name__}: {error}")
    assert not failures, "\n".join(failures[:20])
