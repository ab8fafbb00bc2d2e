"""Building every skill of the real-world corpus (``../shared/corpus``) through the public API.

Each folder holding a SKILL.md is a skill; each is built from its path, so it is imported into
a fresh temporary project, compiled and deployed there (nothing real is touched). Every build
must succeed, and every stub must hold the source's whole frontmatter (issue 16: the same data
through a YAML loader, keys in the same order), then at most 100 lines of Markdown naming no
absolute path, with the ``skc exec`` line exactly when the skill has files other than Markdown.
Skipped when the corpus is absent; ``$SKILLC_CORPUS`` points elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from skillc_index import Layout, load_config, parse_markdown
from skillc_index.build.skill import build_skill
from skillc_index.markdown.frontmatter import parse_frontmatter

pytestmark = pytest.mark.corpus


def _corpus() -> Path:
    custom = os.environ.get("SKILLC_CORPUS")
    if custom:
        return Path(custom)
    return Path(__file__).resolve().parents[3].parent / "shared" / "corpus"


CORPUS = _corpus()


@pytest.fixture(scope="module")
def skills() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS} (set SKILLC_CORPUS to use another)")
    found = sorted(path.parent for path in CORPUS.rglob("SKILL.md") if path.is_file())
    assert found, f"no SKILL.md under {CORPUS}"
    return found


def _source_frontmatter(skill: Path) -> dict[str, object]:
    text = (skill / "SKILL.md").read_bytes().decode("utf-8", errors="replace")
    return parse_frontmatter(text).data or {}


def test_every_corpus_skill_builds(skills: list[Path], tmp_path: Path) -> None:
    env = {"SKILLC_HOME": str(tmp_path / "home")}
    failures: list[str] = []
    for number, skill in enumerate(skills):
        project = tmp_path / f"p{number}"
        (project / ".skillc").mkdir(parents=True)
        layout = Layout.discover(project, env)
        rel = skill.relative_to(CORPUS).as_posix()
        try:
            result = build_skill(str(skill), layout, config=load_config(layout, env={}))
        except Exception as error:  # any failure at all is what this test looks for
            failures.append(f"{rel}: {type(error).__name__}: {error}")
            continue
        text = result.compiled.stub.read_text(encoding="utf-8")
        block, _, body = text.removeprefix("---\n").partition("\n---\n")
        if len(body.splitlines()) > 100:
            failures.append(f"{rel}: stub body has {len(body.splitlines())} lines")
        doc = parse_markdown(text)
        source = _source_frontmatter(skill)
        loaded = yaml.safe_load(block)
        if doc.frontmatter.data != source or loaded != source or list(loaded) != list(source):
            failures.append(f"{rel}: stub frontmatter does not round-trip")
        if str(CORPUS) in text or str(tmp_path) in text:
            failures.append(f"{rel}: stub names an absolute path")
        others = any(path.is_file() and path.suffix != ".md" for path in skill.rglob("*"))
        if ("`skc exec " in body) != others:
            failures.append(f"{rel}: skc exec line {'missing' if others else 'without files'}")
        if not any(h.text == "Top Sections" for h in doc.headings):
            failures.append(f"{rel}: stub has no Top Sections heading")
        expected = {"SKILL.md", ".skillc-meta"}
        if {p.name for p in result.compiled.runtime.iterdir()} != expected:
            failures.append(f"{rel}: runtime holds more than the stub and .skillc-meta")
        if result.compiled.index.counts is None or result.compiled.index.counts.sections < 1:
            failures.append(f"{rel}: nothing indexed")
    assert not failures, f"{len(failures)} of {len(skills)} skills failed:\n" + "\n".join(
        failures[:50]
    )
