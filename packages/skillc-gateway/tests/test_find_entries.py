"""``find``'s walker reads at most ``skillc_index.walk.MAX_ENTRIES`` entries of one folder,
the bound of the walk of ``build`` and ``lint``: a folder of a million files under a searched
folder was read whole by every find. The folders past the bound are not walked, and the answer
says it is partial, naming the folder. What the walk looks for by name (``SKILL.md``) is looked
up, wherever it lies in the listing. Past the depth bound (``MAX_DEPTH``, 8 levels) the
walker said nothing; it says it as the walk of ``build`` and ``lint`` does.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway import find_skills
from skillc_gateway.catalog import listing, scan
from skillc_index import Layout, walk

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSkill = Callable[..., Path]


@pytest.fixture
def layout(project: Path, home: Path) -> Layout:
    return Layout.discover(project, {"SKILLC_HOME": str(home)})


@pytest.fixture
def bound(monkeypatch: pytest.MonkeyPatch) -> int:
    """The entry bound set to 5, in the walker's listing and in its home (which the warning
    names)."""
    monkeypatch.setattr(listing, "MAX_ENTRIES", 5)
    monkeypatch.setattr(walk, "MAX_ENTRIES", 5)
    return 5


def test_a_crowded_folder_is_read_up_to_the_bound_and_the_answer_says_so(
    project: Path, layout: Layout, bound: int, write_skill: WriteSkill
) -> None:
    write_skill(project / "lib/owls", "owls", "A skill about owls.")
    for number in range(12):
        (project / f"lib/crowd/sub{number:02d}").mkdir(parents=True)
    result = find_skills(layout, "owls", paths=["lib"], limit=10)
    assert [Path(skill.path).name for skill in result.skills] == ["owls"]
    assert result.partial is True
    crowd = project / "lib/crowd"
    assert [w.text for w in result.warnings] == [
        f"{crowd} holds more than 5 entries: not walked past them, the answer is partial"
    ]
    state = scan.walk(str(project / "lib"), None, time.time_ns(), lambda _real, _meta: None)
    walked = [path for path in state.state.paths if path.startswith("crowd/")]
    assert len(walked) == bound  # not the 12 folders: the rest of the listing is not read
    assert [cut.text for cut in state.cuts(project / "lib")] == [w.text for w in result.warnings]


def test_a_folder_within_the_bound_is_whole_and_the_answer_not_partial(
    project: Path, layout: Layout, bound: int, write_skill: WriteSkill
) -> None:
    write_skill(project / "lib/owls", "owls", "A skill about owls.")
    for number in range(bound - 1):
        (project / f"lib/few/sub{number}").mkdir(parents=True)
    result = find_skills(layout, "owls", paths=["lib"], limit=10)
    assert result.partial is False and not result.warnings


def test_a_skill_md_past_the_bound_is_found(
    project: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    """With a bound of 0 no entry is read: the root's SKILL.md is found by its name."""
    monkeypatch.setattr(listing, "MAX_ENTRIES", 0)
    skill = write_skill(project / "owls", "owls", "A skill about owls.")
    for number in range(3):
        (skill / f"note{number}.md").write_text("owls\n", encoding="utf-8")
    result = find_skills(layout, "owls", paths=["owls"], limit=10)
    assert [Path(found.path).name for found in result.skills] == ["owls"]
    assert result.partial is True  # its folders were not walked: nested skills may be there


def test_a_crowded_folder_read_whole_again_once_it_is_not(
    project: Path, layout: Layout, bound: int, write_skill: WriteSkill
) -> None:
    """The flag is the folder's, kept in the saved state: a later find still says partial;
    once entries go (the folder changed), it is listed again, whole."""
    write_skill(project / "lib/owls", "owls", "A skill about owls.")
    crowd = project / "lib/crowd"
    for number in range(8):
        (crowd / f"sub{number}").mkdir(parents=True)
    assert find_skills(layout, "owls", paths=["lib"]).partial is True
    assert find_skills(layout, "owls", paths=["lib"]).partial is True  # from the state
    for number in range(4):
        (crowd / f"sub{number}").rmdir()
    write_skill(crowd / "sub7/herons", "herons", "A skill about owls too.")
    result = find_skills(layout, "owls", paths=["lib"])
    assert result.partial is False and not result.warnings
    assert sorted(Path(s.path).name for s in result.skills) == ["herons", "owls"]


def test_skc_find_over_a_folder_of_more_entries_than_the_bound(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """The installed ``skc``, over a folder of 20,001 files: the answer is partial and its
    warning names the folder, on stderr and in the JSON."""
    write_skill(project / "lib/owls", "owls", "A skill about owls.")
    crowd = project / "lib/crowd"
    crowd.mkdir()
    for number in range(walk.MAX_ENTRIES + 1):
        os.close(os.open(crowd / f"f{number}", os.O_CREAT | os.O_WRONLY, 0o644))
    done = cli("skillc-gateway", script=True)("find", "owls", "--path", "lib", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    told = f"{crowd} holds more than 20,000 entries: not walked past them, the answer is partial"
    assert data["partial"] is True
    assert [skill["path"] for skill in data["skills"]] == [str(project / "lib/owls")]
    assert data["warnings"] == [f"warning: {told}"]
    assert f"warning: {told}" in done.stderr


#: A folder at the depth bound of a ``--path`` walk (``lib`` is level 0, ``a`` level 1).
LEVEL_8 = "lib/a/b/c/d/e/f/g/h"
DEEP_TOLD = "holds folders more than 8 levels deep: only the first 8 levels were searched"


def test_skc_find_past_the_depth_bound_says_the_answer_is_partial(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """``skc find --path lib`` dropped a skill 9 levels down with ``partial: false`` and no
    word, where ``skillc-lint lib`` and ``skc eval --path lib`` warn. It says so in the
    index's words, on stderr and in the JSON, kept in the saved state (a second find says it
    too); only when a folder at the bound holds a folder the walk would enter (files, a
    ``.git`` or a ``node_modules`` there are no cut), and no longer once it holds none."""
    skc = cli("skillc-gateway", script=True)  # this package's own script
    write_skill(project / "lib/owls", "owls", "A skill about owls.")
    level8 = project / LEVEL_8
    (level8 / ".git/objects").mkdir(parents=True)
    (level8 / "node_modules/dep").mkdir(parents=True)
    (level8 / "notes.md").write_text("owls\n", encoding="utf-8")

    def found() -> dict[str, Any]:
        done = skc("find", "owls", "--path", "lib", "--format", "json")
        assert done.returncode == 0, done.stderr
        data: dict[str, Any] = json.loads(done.stdout)
        assert data["warnings"] == [line for line in done.stderr.splitlines() if line], done
        return data

    assert (found()["partial"], found()["warnings"]) == (False, [])
    deeper = write_skill(level8 / "herons", "herons", "A skill about owls too.")  # level 9
    told = f"warning: {project / 'lib'} {DEEP_TOLD}, the answer is partial"
    for _ in range(2):  # walked, then from the saved state
        data = found()
        assert (data["partial"], data["warnings"]) == (True, [told])
        assert [Path(skill["path"]).name for skill in data["skills"]] == ["owls"]
    if importlib.util.find_spec("skillc_lint") is not None:  # where skillc-lint is installed
        lint = cli("skillc-lint", script=True)("lib")
        assert f"lib {DEEP_TOLD}" in lint.stderr  # the same words (lint names it as given)
    shutil.rmtree(deeper)
    assert (found()["partial"], found()["warnings"]) == (False, [])


def test_a_skill_at_the_depth_bound_is_found_and_an_agent_folder_is_never_deep(
    project: Path, layout: Layout, home: Path, write_skill: WriteSkill
) -> None:
    """Near misses: a skill at level 8 is searched (its files are no folders past the
    bound, nor its own subfolders: ``scripts/``); a skill higher up whose own folders go
    past the bound (``references/a/b/c/d``: a library of 2,558 public skills made every
    first find partial) leaves out nothing: no walk for skills enters a skill; an agent
    folder's skills, walked one level deep, hold folders below that level (``scripts/``)
    by design: no cut."""
    skill = write_skill(project / LEVEL_8, "owls", "A skill about owls.")
    (skill / "notes.txt").write_text("x\n", encoding="utf-8")
    (skill / "scripts").mkdir()
    result = find_skills(layout, "owls", paths=["lib"], limit=10)
    assert [Path(found.path).name for found in result.skills] == ["h"]
    assert result.partial is False and not result.warnings
    upper = write_skill(project / "lib/a/b/c/d", "larks", "A skill about larks.")
    (upper / "references/e/f/g/h/i").mkdir(parents=True)
    result = find_skills(layout, "larks", paths=["lib"], limit=10)
    assert [found.path for found in result.skills] == [str(upper)]
    assert result.partial is False and not result.warnings
    installed = write_skill(home / ".claude/skills/herons", "herons", "A skill about herons.")
    (installed / "scripts/deeper").mkdir(parents=True)
    result = find_skills(layout, "herons", limit=10)
    assert [found.path for found in result.skills] == [str(installed)]
    assert result.partial is False and not result.warnings


def test_a_skill_made_or_removed_above_a_deep_folder_changes_the_answer_incrementally(
    project: Path, layout: Layout, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether folders past the depth are a skill's own is judged from the whole saved
    state at each answer, not when the deep folder was listed: a SKILL.md made, then
    removed, in a folder above it (the deep folder itself not listed again) makes the
    answer whole, then partial again, as a walk from nothing would."""
    from skillc_gateway.catalog import engine, indexer

    monkeypatch.setattr(engine, "RACY_NS", 0)  # no folder looked at again for being new
    monkeypatch.setattr(indexer, "RACY_NS", 0)
    write_skill(project / "lib/owls", "owls", "A skill about owls.")
    (project / LEVEL_8 / "i/j").mkdir(parents=True)

    def partial() -> bool:
        return find_skills(layout, "owls", paths=["lib"], limit=10).partial

    assert partial() is True
    above = write_skill(project / "lib/a/b", "larks", "A skill about larks.")
    assert partial() is False
    (above / "SKILL.md").unlink()
    assert partial() is True


def test_a_package_record_in_an_agent_folder_hides_none_of_its_skills(
    project: Path, layout: Layout, home: Path, write_skill: WriteSkill
) -> None:
    """A ``.skillc-package.json`` is project content a stranger can write: in an agent
    folder (what agents load) it named a skill folder as made by ``skc package`` and find
    answered "0 skills searched" while ``skc list`` listed it. Records leave copies out of a
    ``--path`` walk only."""
    skill = write_skill(home / ".claude/skills/xray", "xray", "Zebra xylophone lessons.")
    record = {"version": 1, "files": {}, "made_folders": ["xray"]}
    (skill.parent / ".skillc-package.json").write_text(json.dumps(record), encoding="utf-8")
    result = find_skills(layout, "zebra xylophone", limit=10)
    assert [found.path for found in result.skills] == [str(skill)]
    library = project / "lib"
    copy = write_skill(library / "xray", "xray", "Zebra xylophone lessons.")
    (library / ".skillc-package.json").write_text(json.dumps(record), encoding="utf-8")
    result = find_skills(layout, "zebra xylophone", paths=["lib"], limit=10)
    assert str(copy) not in [found.path for found in result.skills]
