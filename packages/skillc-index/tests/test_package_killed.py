"""``skc package`` killed part way (SIGKILL, an OOM kill, a power cut: none of its clean-up
runs): the next run recognises every file the killed run left as skillc's. On real folders; the
kill is an exception no handler of the run catches, raised at a rename."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout
from skillc_index.package.make import package_skills


class Killed(BaseException):
    """Where a SIGKILL stops the run: nothing after it runs."""


def kill_at_rename(monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """:meth:`Path.replace` raises :class:`Killed` at its ``at``-th call (0: the first)."""
    replace = Path.replace
    calls = itertools.count()

    def stopped(self: Path, target: str | Path) -> Path:
        if next(calls) == at:
            raise Killed
        return replace(self, target)

    monkeypatch.setattr(Path, "replace", stopped)


def published(folder: Path) -> dict[str, bytes]:
    """The files in ``folder`` but temporary ones (``.<name>.tmp.<pid>-<hex>``)."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and ".tmp." not in path.name
    }


@pytest.mark.parametrize("at", range(5))
def test_a_run_killed_between_its_renames_leaves_files_the_next_run_calls_skillcs(
    layout: Layout,
    project: Path,
    write_skill: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    at: int,
) -> None:
    """The record was renamed last: a run killed before it left new files whose digest the
    record did not hold, and once the skill was edited again the next run refused skillc's
    own file (E050, until ``--force`` moved it aside). ``at``: the rename the kill stops (the
    record of both digests, index.json, notes/SKILL.md, pdf-tool.zip, the record of the new
    ones)."""
    skills = project / "skills"
    write_skill(skills / "notes")
    write_skill(skills / "pdf-tool", files={"extract.py": "print(1)\n"})
    given = [str(skills / "notes"), str(skills / "pdf-tool")]
    out = tmp_path / "dist"
    package_skills(given, layout, fmt="well-known", output=out)

    def edit(text: str) -> None:
        for name in ("notes", "pdf-tool"):
            with (skills / name / "SKILL.md").open("a", encoding="utf-8") as handle:
                handle.write(text)

    edit("\nMore.\n")
    kill_at_rename(monkeypatch, at)
    with pytest.raises(Killed):
        package_skills(given, layout, fmt="well-known", output=out)
    monkeypatch.undo()
    edit("\nEven more.\n")
    package_skills(given, layout, fmt="well-known", output=out)  # E050 before
    package_skills(given, layout, fmt="well-known", output=tmp_path / "fresh")
    assert published(out) == published(tmp_path / "fresh")  # the record too; nothing aside
