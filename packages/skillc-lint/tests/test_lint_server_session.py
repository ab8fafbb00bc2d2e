"""The language server's session (:mod:`skillc_lint.server.session`), in this process and
without pygls: which skill owns a file, and what a lint as you type reads again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_lint.server.session import Session

SKILL = "---\nname: {name}\ndescription: Formats tables. Use when a table needs formatting.\n---\n"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKILLC_HOME", str(tmp_path / "home"))


def findings(session: Session, root: Path) -> dict[str, list[str]]:
    return {
        report.rel: [f"{d.rule} {d.line}" for d in report.diagnostics]
        for report in session.reports(root)
    }


def test_a_file_of_a_nested_skill_is_reported_by_that_skill_alone(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A skill nested in a skill: the file had two sets of findings, the outer skill's from
    the saved text (a link removed in the editor still reported, on a line now blank) and
    the inner's, shown by turns. The innermost skill owns its files (as ``skillc-lint FILE``
    finds it), and the outer skill is linted with the unsaved texts of the inner one's."""
    outer = write_skill(
        tmp_path / "outer",
        skill_md=SKILL.format(name="outer") + "\n# outer\n\nSee [inner](inner/SKILL.md#new).\n",
    )
    inner = write_skill(
        tmp_path / "outer" / "inner",
        skill_md=SKILL.format(name="inner") + "\n# inner\n\n[x](nope.md)\n",
    )
    session = Session()
    session.open(outer / "SKILL.md", (outer / "SKILL.md").read_text())
    unsaved = SKILL.format(name="inner") + "\n# inner\n\n## New\n\nno link any more\n"
    session.open(inner / "SKILL.md", unsaved)
    assert findings(session, inner) == {"SKILL.md": []}
    assert findings(session, outer) == {"SKILL.md": []}  # the anchor is in the unsaved text
    assert session.owner(outer, "inner/SKILL.md") == inner
    assert [root for root, _ in session.workspace([tmp_path])] == [outer, inner]
