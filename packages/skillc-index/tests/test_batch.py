"""``build`` of several skills, of folders of skills and of ``--all`` (issue 16): one process
pool, one summary, one failure never stopping the others, and the repository layout
(``skills/<name>/`` imported as store copies) rebuilt after an edit without E050."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, find_skill_folders
from skillc_index.build.batch import build_skills
from skillc_index.build.jobs import batch_jobs
from skillc_index.cores import usable_cores

Run = Callable[..., Any]
WriteSkill = Callable[..., Path]


@pytest.fixture
def index(cli: Callable[..., Run]) -> Run:
    """``python -m skillc_index`` (its ``main`` in this process)."""
    return cli("skillc_index")


def statuses(stdout: str) -> dict[str, str]:
    """Skill name -> status, from the text lines of a batch build."""
    found = {}
    for line in stdout.splitlines()[:-1]:
        status = "up to date" if line.startswith("up to date") else line.split()[0]
        found[line[10:].split()[0]] = status
    return found


def test_several_skills_and_the_summary(index: Run, project: Path, write_skill: WriteSkill) -> None:
    store = project / ".skillc" / "skills"
    for name in ("alpha", "beta", "gamma"):
        write_skill(store / name)
    first = index("build", "alpha", "beta", "gamma")
    assert first.returncode == 0, first.stderr
    assert statuses(first.stdout) == {"alpha": "built", "beta": "built", "gamma": "built"}
    assert first.stdout.splitlines()[-1] == "3 skills: 3 built, 0 up to date, 0 failed"
    for name in ("alpha", "beta", "gamma"):
        assert (project / ".claude" / "skills" / name / "SKILL.md").is_file()
        assert (project / ".skillc" / "runtime" / name / ".skillc-meta" / "manifest.json").is_file()
    again = index("build", "alpha", "beta", "gamma", "--format", "json")
    data = json.loads(again.stdout)
    assert data["summary"] == {"skills": 3, "built": 0, "up_to_date": 3, "failed": 0}
    assert [r["skill"] for r in data["results"]] == ["alpha", "beta", "gamma"]
    assert all(r["up_to_date"] and r["deployments"] for r in data["results"])


def test_the_lines_are_aligned_as_a_terminal_shows_them(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    """The name column was padded by ``len``: a CJK name (two columns a character) pushed
    its row's WHERE column 6 columns right of the others'."""
    from skillc_index.columns import display_width

    store = project / ".skillc" / "skills"
    names = ("日本語スキル", "my-skill", "canvas-design")
    for name in names:
        write_skill(store / name)
    done = index("build", *names)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()[:-1]
    assert statuses(done.stdout) == dict.fromkeys(names, "built")
    starts = {display_width(line[: line.index(".skillc/")]) for line in lines}
    assert starts == {len("built       canvas-design  ")}, lines


@pytest.mark.usefixtures("skc_on_path")
def test_a_target_s_warnings_name_their_skill_and_are_said_again_when_up_to_date(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    """A batch's field warnings name the skill, as ``skc package``'s do (they did not: 239
    alike over the corpus); a skill up to date says them again, as ``skc build x`` does."""
    store = project / ".skillc" / "skills"
    for name in ("alpha", "beta"):
        write_skill(store / name, frontmatter=f"name: {name}\ndescription: d\npaths: [x]\n")
    expected = {
        f"warning: {name}: codex (Codex): 'paths' dropped (not read)" for name in ("alpha", "beta")
    }
    for _run in ("built", "up to date"):
        done = index("build", "alpha", "beta", "-t", "codex")
        assert done.returncode == 0, done.stderr
        assert set(done.stderr.splitlines()) == expected
    assert set(statuses(done.stdout).values()) == {"up to date"}
    single = index("build", "alpha", "-t", "codex")  # one skill: the name is the command's
    assert single.stderr.splitlines() == ["warning: codex (Codex): 'paths' dropped (not read)"]
    data = json.loads(index("build", "alpha", "beta", "-t", "codex", "--format", "json").stdout)
    assert set(data["warnings"]) == {text.removeprefix("warning: ") for text in expected}
    assert data["results"][0]["warnings"] == ["codex (Codex): 'paths' dropped (not read)"]


def test_build_says_once_that_skc_is_not_installed(
    index: Run, project: Path, write_skill: WriteSkill, path_without_skc: str
) -> None:
    """skillc-index installed alone: the stub a build deploys tells agents to run ``skc``,
    which is not there; one build or a batch says so once (stderr and the JSON's
    ``warnings``), naming what to install."""
    store = project / ".skillc" / "skills"
    for name in ("alpha", "beta"):
        write_skill(store / name)
    alone = {"PATH": path_without_skc}
    warning = (
        "warning: 'skc' is not on PATH, and the stub tells agents to run it (when they have no "
        "skillc MCP tools): install the skillc distribution, or put the folder holding skc on PATH"
    )
    batch = index("build", "alpha", "beta", env_extra=alone)
    assert batch.returncode == 0 and batch.stderr.splitlines() == [warning]
    single = index("build", "alpha", "--format", "json", env_extra=alone)
    assert single.stderr.splitlines() == [warning]
    assert json.loads(single.stdout)["warnings"] == [warning.removeprefix("warning: ")]
    data = json.loads(index("build", "alpha", "beta", "--format", "json", env_extra=alone).stdout)
    assert data["warnings"] == [warning.removeprefix("warning: ")]  # as a single build's
    assert [r["warnings"] for r in data["results"]] == [[], []]  # the batch's, not a skill's


@pytest.mark.usefixtures("skc_on_path")
def test_a_build_with_skc_on_path_says_nothing_of_it(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    store = project / ".skillc" / "skills"
    for name in ("alpha", "beta"):
        write_skill(store / name)
    assert index("build", "alpha", "beta").stderr == ""


def test_a_folder_of_skills_at_any_depth(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    skills = project / "skills"
    write_skill(skills / "one")
    write_skill(skills / "group" / "two")
    write_skill(skills / "one" / "nested-in-a-skill")  # one of one's files, not a skill
    write_skill(skills / ".hidden" / "three")  # a hidden folder is entered (.curated/...)
    write_skill(skills / "node_modules" / "four")
    expected = [skills / ".hidden" / "three", skills / "group" / "two", skills / "one"]
    assert find_skill_folders(skills) == expected
    result = index("build", "skills/", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert sorted(r["skill"] for r in data["results"]) == ["one", "three", "two"]
    assert {r["import"] for r in data["results"]} == {"copy"}
    stored = sorted(p.name for p in (project / ".skillc" / "skills").iterdir())
    assert stored == ["one", "three", "two"]


def test_a_folder_holding_a_nested_project_builds_its_skills_there(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    """`skc build packages` imported every nested project's store skill into the outer store
    (and deployed it in the outer agent folder)."""
    inner = project / "packages" / "a"
    write_skill(inner / ".skillc" / "skills" / "q")
    result = index("build", "packages", "--format", "json")
    assert result.returncode == 0, result.stderr
    [item] = json.loads(result.stdout)["results"]
    assert (item["skill"], item["import"]) == ("q", None)
    assert item["runtime_path"] == str(inner / ".skillc" / "runtime" / "q")
    assert not any((project / ".skillc" / "skills").iterdir())
    assert (inner / ".claude" / "skills" / "q").is_symlink()
    assert not (project / ".claude").exists()


def test_the_gitignore_lines_are_named_with_the_file_they_went_to(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """A batch building a nested project's skill beside one of the outer project: each
    project's ``.gitignore`` got its own lines, yet the batch said ``Added to .gitignore:
    /.claude/skills/, /.claude/skills/u`` as if both were the outer file's. Each file is
    named, from the working folder, with its lines."""
    write_skill(project / ".claude" / "skills" / "mine")  # the user's: deployments alone
    inner = project / "packages" / "a"
    write_skill(inner / ".skillc" / "skills" / "w")
    write_skill(project / "packages" / "b" / "skills" / "u")
    for repo in (project, inner):  # (outside a work tree no agent folder is added)
        subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=60)
    result = cli("skillc-index", script=True)("build", "packages")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-2:] == [
        "Added to packages/a/.gitignore: /.claude/skills/",
        "Added to .gitignore: /.claude/skills/u",
    ]
    assert "/.claude/skills/\n" in (inner / ".gitignore").read_text(encoding="utf-8")
    outer = (project / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "/.claude/skills/u" in outer
    assert "/.claude/skills/" not in outer


def test_the_json_names_the_gitignore_each_builds_lines_went_to(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """The batch's ``--format json`` listed each build's ``.gitignore`` lines without their
    file (the text says ``Added to packages/a/.gitignore: ...``): ``gitignore_file`` names
    it, from the working folder as the text does; null when no line was added."""
    write_skill(project / ".claude" / "skills" / "mine")
    inner = project / "packages" / "a"
    write_skill(inner / ".skillc" / "skills" / "w")
    write_skill(project / "packages" / "b" / "skills" / "u")
    for repo in (project, inner):
        subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=60)
    skc = cli("skillc-index", script=True)
    expected = {
        "u": (["/.claude/skills/u"], ".gitignore"),
        "w": (["/.claude/skills/"], "packages/a/.gitignore"),
    }
    for added in (expected, {"u": ([], None), "w": ([], None)}):
        result = skc("build", "packages", "--format", "json")
        assert result.returncode == 0, result.stderr
        results = json.loads(result.stdout)["results"]
        assert {r["skill"]: (r["gitignore"], r["gitignore_file"]) for r in results} == added


def openai_shaped(write_skill: WriteSkill, repo: Path) -> list[Path]:
    """A repository shaped like openai/skills (its skills in dot-folders), with SKILL.md
    files where no walk for skills looks; returns the skill folders, in walk order."""
    found = [
        write_skill(repo / "skills" / ".curated" / "curated-one"),
        write_skill(repo / "skills" / ".experimental" / "experimental-one"),
        write_skill(repo / "skills" / ".system" / "system-one"),
    ]
    for folder in (
        ".git/hooks/in-git",
        ".hg/in-hg",
        ".venv/lib/in-venv",
        "venv/in-venv2",
        "node_modules/pkg/in-node-modules",
        "skills/.curated/__pycache__/in-pycache",
        ".mypy_cache/in-cache",
        ".skillc/runtime/in-runtime",  # skillc's own: only .skillc/skills is a source
        ".skillc/logs/in-logs",
        "skills/.curated-one.skillc-backup-20260101T000000Z/moved-aside",  # moved aside
        "skills/.system/.system-one.deploy.123-0123abcd/staging",  # being written
        "skills/.system/system-one-copy/.skillc-meta/in-meta",
    ):
        write_skill(repo / folder)
    return found


def test_skills_in_dot_folders_are_found_and_what_is_not_a_source_is_not(
    index: Run, project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """The whole openai/skills repository was E010 (missing SKILL.md): build, lint and find
    entered no hidden folder. They all walk by skillc_index.skips_folder now."""
    repo = tmp_path / "openai-skills"
    found = openai_shaped(write_skill, repo)
    assert find_skill_folders(repo) == found
    assert find_skill_folders(repo / "skills") == found
    for args in (("build", str(repo)), ("build", str(repo), "--format", "json")):
        result = index(*args)
        assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [r["skill"] for r in data["results"]] == [path.name for path in found]
    assert [r["imported_from"] for r in data["results"]] == [str(path) for path in found]
    assert data["summary"]["up_to_date"] == 3
    text = index("build", str(repo / "skills"))
    assert text.stdout.splitlines()[-1] == "3 skills: 0 built, 3 up to date, 0 failed"


def test_symlinked_folders_below_the_folder_are_not_followed(
    index: Run, project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """``skills/x -> ~`` would walk the home folder, ``skills/evil -> /elsewhere`` build what
    is outside: below the folder named no symlink is followed (the folder itself may be)."""
    outside = tmp_path / "elsewhere"
    write_skill(outside / "group" / "evil")
    write_skill(outside / "single")
    skills = project / "skills"
    write_skill(skills / "one")
    (skills / "evil").symlink_to(outside / "group", target_is_directory=True)
    (skills / "single").symlink_to(outside / "single", target_is_directory=True)
    (skills / "loop").symlink_to(skills, target_is_directory=True)
    assert find_skill_folders(skills) == [skills / "one"]
    result = index("build", "skills/", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert [r["skill"] for r in json.loads(result.stdout)["results"]] == ["one"]
    assert sorted(p.name for p in (project / ".skillc" / "skills").iterdir()) == ["one"]
    (project / "linked").symlink_to(outside, target_is_directory=True)  # named itself: followed
    assert find_skill_folders(project / "linked") == [
        project / "linked" / "group" / "evil",
        project / "linked" / "single",
    ]


def test_a_folder_swapped_for_a_symlink_out_as_it_is_listed_is_not_walked(
    index: Run, project: Path, tmp_path: Path, write_skill: WriteSkill, swap_at: Callable[..., Any]
) -> None:
    """``skills/group`` is swapped for a symlink to a folder outside after the walk found it
    a folder, as its listing begins (the first ``os.open`` or ``os.scandir`` of its path):
    ``build skills/`` imported the skill outside into the store. A folder is listed only
    while its path leads to the folder found, so nothing outside is built."""
    outside = tmp_path / "elsewhere"
    write_skill(outside / "evil")
    skills = project / "skills"
    write_skill(skills / "one")
    write_skill(skills / "group" / "two")
    group = skills / "group"
    swap = swap_at(group, outside)
    result = index("build", "skills/", "--format", "json")
    swap.undo()
    assert swap.swapped == [str(group)]
    assert result.returncode == 0, result.stderr
    assert [r["skill"] for r in json.loads(result.stdout)["results"]] == ["one"]
    assert sorted(p.name for p in (project / ".skillc" / "skills").iterdir()) == ["one"]


def test_a_folder_swapped_for_a_symlink_to_a_skill_outside_is_no_skill_folder(
    index: Run, project: Path, tmp_path: Path, write_skill: WriteSkill, swap_at: Callable[..., Any]
) -> None:
    """``skills/group`` swapped for a symlink to a skill folder outside (``SKILL.md`` at its
    top) after the walk found it a folder, as the walk first looks at it (its ``SKILL.md``
    was looked for by path before the folder was checked to be the one found): it was
    returned as a skill folder and ``build skills/`` imported the skill outside."""
    outside = write_skill(tmp_path / "elsewhere" / "evil")
    skills = project / "skills"
    write_skill(skills / "one")
    write_skill(skills / "group" / "two")
    group = skills / "group"
    swap = swap_at(group, outside, calls=("open", "stat"), also=[group / "SKILL.md"])
    assert find_skill_folders(skills) == [skills / "one"]
    assert swap.swapped
    swap.undo()
    swap.arm()
    result = index("build", "skills/", "--format", "json")
    swap.undo()
    assert swap.swapped
    assert result.returncode == 0, result.stderr
    assert [r["skill"] for r in json.loads(result.stdout)["results"]] == ["one"]
    assert sorted(p.name for p in (project / ".skillc" / "skills").iterdir()) == ["one"]


def test_a_folder_the_user_may_not_search_is_skipped(
    index: Run, project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    """A folder without search permission (mode 000) answers EACCES to a stat of its
    SKILL.md as to a listing: the walk skips it as one it cannot list, and the skills beside
    it are found (``eval --path``, ``lint`` and ``build`` of the library were E999
    PermissionError). The kernel's answer is imitated: root is not refused."""
    import errno

    lib = project / "lib"
    write_skill(lib / "ok")
    locked = lib / "locked"
    locked.mkdir()
    stat, scandir = os.stat, os.scandir

    def refuse(path: Any, *folders: Path) -> None:  # (a descriptor: not a path to refuse)
        if not isinstance(path, int) and Path(os.fsdecode(path)) in folders:
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))

    def stat_(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        refuse(path, locked / "SKILL.md")  # what the walk asks first
        return stat(path, *args, **kwargs)

    def scandir_(path: Any = ".") -> Any:
        refuse(path, locked)
        return scandir(path)

    monkeypatch.setattr(os, "stat", stat_)
    monkeypatch.setattr(os, "scandir", scandir_)
    assert find_skill_folders(lib) == [lib / "ok"]
    assert find_skill_folders(lib, linked_entries=True) == [lib / "ok"]
    result = index("build", "lib/", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert [r["skill"] for r in json.loads(result.stdout)["results"]] == ["ok"]


def test_a_folder_whose_entries_cannot_be_read_is_skipped(
    index: Run, project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    """A folder that opens but whose entries cannot be read (EACCES from the listing itself,
    as ``/proc/1/map_files`` answers) failed the whole walk: ``skc lint /proc/1`` and ``skc
    build /proc/1`` were ``E999 PermissionError``. It is skipped as one that cannot be listed.
    The kernel's answer is imitated (the real one: the test below)."""
    import errno

    from skillc_index import walk

    lib = project / "lib"
    write_skill(lib / "ok")
    write_skill(lib / "locked" / "inside")
    locked = (lib / "locked").stat()
    listing = walk.Listing.__iter__

    def refused(self: walk.Listing) -> Any:
        here = os.fstat(self.fd) if self.fd >= 0 else None
        if here is not None and (here.st_dev, here.st_ino) == (locked.st_dev, locked.st_ino):
            raise PermissionError(errno.EACCES, "Permission denied", self.fd)
        return listing(self)

    monkeypatch.setattr(walk.Listing, "__iter__", refused)
    assert find_skill_folders(lib) == [lib / "ok"]
    assert find_skill_folders(lib / "locked") == []
    result = index("build", "lib/", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert [r["skill"] for r in json.loads(result.stdout)["results"]] == ["ok"]
    refused_alone = index("build", "lib/locked")
    assert refused_alone.returncode == 1
    assert "E999" not in refused_alone.stderr and "Traceback" not in refused_alone.stderr


def test_a_proc_folder_whose_entries_cannot_be_read_is_skipped(cli: Callable[..., Run]) -> None:
    """The real case: ``/proc/1/map_files`` opens, and reading its entries is EACCES (without
    CAP_SYS_ADMIN, root included); skipped where this system answers otherwise."""
    folder = "/proc/1/map_files"
    try:
        os.close(os.open(folder, os.O_RDONLY | os.O_DIRECTORY))
    except OSError:
        pytest.skip(f"{folder} cannot be opened here")
    try:
        next(Path(folder).iterdir(), None)
    except PermissionError:
        pass  # opened, its entries refused: the case
    else:
        pytest.skip(f"{folder} can be listed here")
    assert find_skill_folders(Path(folder)) == []
    result = cli("skillc-index", script=True)("build", folder)  # the installed command
    assert result.returncode == 1
    assert "E999" not in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_the_search_is_bounded(
    project: Path, monkeypatch: pytest.MonkeyPatch, write_skill: WriteSkill
) -> None:
    import skillc_index.walk as batch

    deep = project / "deep"
    write_skill(deep / "a" / "b" / "c" / "three")  # level 4
    write_skill(deep / "a" / "two")  # level 2
    assert find_skill_folders(deep) == [deep / "a" / "b" / "c" / "three", deep / "a" / "two"]
    assert not find_skill_folders(deep).cut_short
    monkeypatch.setattr(batch, "MAX_DEPTH", 3)
    assert find_skill_folders(deep) == [deep / "a" / "two"]
    assert find_skill_folders(deep).cut_short == "depth"  # deep/a/b/c/three is below it
    monkeypatch.setattr(batch, "MAX_DEPTH", 4)  # level 4 is searched: nothing left below
    assert not find_skill_folders(deep).cut_short
    monkeypatch.setattr(batch, "MAX_DEPTH", 8)
    monkeypatch.setattr(batch, "MAX_FOLDERS", 2)  # deep and a: no further
    assert find_skill_folders(deep) == []
    assert find_skill_folders(deep).cut_short == "folders"
    monkeypatch.setattr(batch, "MAX_FOLDERS", 6)  # every folder: nothing left, no cut
    assert not find_skill_folders(deep).cut_short


def _many_folders(lib: Path, write_skill: WriteSkill) -> None:
    write_skill(lib / "z" / "29" / "deep" / "far")
    for number in range(30):
        (lib / "z" / str(number)).mkdir(parents=True, exist_ok=True)


def _deep_skill(lib: Path, write_skill: WriteSkill) -> None:
    write_skill(lib / "l1" / "l2" / "far")  # level 3


@pytest.mark.parametrize(
    ("bound", "value", "fill", "holds", "searched"),
    [
        ("MAX_FOLDERS", 20, _many_folders, "holds more than 20 folders", "only the first were"),
        (
            "MAX_DEPTH",
            2,
            _deep_skill,
            "holds folders more than 2 levels deep",
            "only the first 2 levels were",
        ),
    ],
)
def test_a_walk_cut_short_warns_and_never_says_missing_skill_md(
    index: Run,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    write_skill: WriteSkill,
    bound: str,
    value: int,
    fill: Callable[[Path, WriteSkill], None],
    holds: str,
    searched: str,
) -> None:
    """A folder of more folders, or deeper ones, than the walk looks at was E010 "missing
    SKILL.md", and a walk that found skills before the cut built them silently: the cut is
    said. The walk is breadth first: a skill directly in the folder is found whatever a
    later sibling holds (depth first from the last name, it spent its bound in ``z/`` and
    said E100)."""
    import skillc_index.walk

    monkeypatch.setattr(skillc_index.walk, bound, value)
    lib = project / "lib"
    fill(lib, write_skill)
    result = index("build", "lib")
    assert result.returncode == 1
    assert "E010" not in result.stderr and "missing SKILL.md" not in result.stderr
    assert (
        f"error[E100]: lib: invalid option: 'lib {holds}: the walk for skills stopped before "
        "it found one; name a folder nearer the skills'"
    ) in result.stderr.splitlines()
    write_skill(lib / "a-skill")  # level 1: found before the bound is spent
    result = index("build", "lib")
    assert result.returncode == 0, result.stderr
    assert statuses(result.stdout) == {"a-skill": "built"}
    assert (
        f"warning: lib {holds}: {searched} searched, skills past them are not built"
    ) in result.stderr.splitlines()


def test_one_failure_does_not_stop_the_others(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    skills = project / "skills"
    write_skill(skills / "good")
    write_skill(skills / "broken", description="")  # no description: E011
    write_skill(skills / "fine")
    result = index("build", "skills", "missing-skill")
    assert result.returncode == 1
    assert statuses(result.stdout) == {
        "broken": "failed",
        "fine": "built",
        "good": "built",
        "missing-skill": "failed",
    }
    assert result.stdout.splitlines()[-1] == "4 skills: 2 built, 0 up to date, 2 failed"
    errors = result.stderr.splitlines()
    assert "error[E011]: skills/broken: missing frontmatter field 'description' in SKILL.md" in (
        errors
    )
    assert any(line.startswith("error[E001]: missing-skill: ") for line in errors)
    data = json.loads(index("build", "skills", "--format", "json").stdout)
    assert data["summary"] == {"skills": 3, "built": 0, "up_to_date": 2, "failed": 1}
    (failed,) = [r for r in data["results"] if "error" in r]
    assert failed["skill"] == "broken" and failed["given"] == "skills/broken"
    assert failed["error"] == {
        "code": "E011",
        "message": "missing frontmatter field 'description' in SKILL.md",
    }


@pytest.mark.usefixtures("skc_on_path")  # no warning beside the one error line
def test_a_folder_whose_name_is_not_utf8_is_refused_before_any_work(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    """``list`` skips a store folder named in Latin-1 (``lat\\xe9``); ``build`` of it, by path
    or ``--all``, stopped at the manifest with ``UnicodeEncodeError`` (E999). Both refuse it
    now with list's reason, and the other skills build."""
    store = project / ".skillc" / "skills"
    latin = os.fsdecode(b"lat\xe9")
    write_skill(store / latin, name="latin")
    write_skill(store / "good")
    single = index("build", f".skillc/skills/{latin}")
    assert (single.returncode, single.stdout) == (1, "")
    assert single.stderr == (
        "error[E100]: invalid option: '.skillc/skills/lat\ufffd: a path that is not UTF-8; "
        "rename the folder'\n"
    )
    assert not (project / ".skillc" / "runtime" / latin / ".skillc-meta" / "manifest.json").exists()
    every = index("build", "--all")
    assert every.returncode == 1
    assert statuses(every.stdout) == {"lat\ufffd": "failed", "good": "built"}
    (line,) = every.stderr.splitlines()
    assert line.startswith("error[E100]: .skillc/skills/lat\ufffd: invalid option: '")
    assert line.endswith("lat\ufffd: a path that is not UTF-8; rename the folder'")


@pytest.mark.usefixtures("skc_on_path")
def test_a_failed_skill_fails_the_batch_in_json_too(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / "skills" / "good")
    result = index("build", "skills", "missing-skill", "--format", "json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["summary"] == {"skills": 2, "built": 1, "up_to_date": 0, "failed": 1}
    assert result.stderr.startswith("error[E001]: missing-skill: ")


def test_repository_skills_rebuild_after_an_edit(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    """skills/<name>/ kept in the repository: a batch rebuild after an edit replaces the
    store copy it imported (its import record), without E050 and without --force."""
    skills = project / "skills"
    write_skill(skills / "edited", body="Old text.\n")
    write_skill(skills / "kept")
    assert index("build", "skills/").returncode == 0
    write_skill(skills / "edited", body="New text.\n")
    result = index("build", "skills/", "--format", "json")
    assert result.returncode == 0, result.stderr
    by_name = {r["skill"]: r for r in json.loads(result.stdout)["results"]}
    assert by_name["edited"]["import"] == "replace" and not by_name["edited"]["up_to_date"]
    assert by_name["kept"]["import"] == "unchanged" and by_name["kept"]["up_to_date"]
    copy = project / ".skillc" / "skills" / "edited" / "SKILL.md"
    assert "New text." in copy.read_text()
    # --all finds it through its store copy and imports it again from the folder
    write_skill(skills / "edited", body="Newest text.\n")
    again = json.loads(index("build", "--all", "--format", "json").stdout)
    by_name = {r["skill"]: r for r in again["results"]}
    assert by_name["edited"]["import"] == "replace"
    assert "Newest text." in copy.read_text()


def test_all_and_a_build_by_name_say_a_copy_s_folder_is_gone_as_list_does(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """``skills/pdf-fill`` built, then renamed ``skills/pdf-forms`` (its ``name:`` too):
    ``build --all`` went on building the old name's store copy ("up to date pdf-fill")
    without a word; only ``skc list`` said its folder is gone. The build of that copy (by
    ``--all``, by its name) says what list says, once, and builds it as it is."""
    skc = cli("skillc-index", script=True)
    write_skill(project / "skills" / "pdf-fill")
    assert skc("build", "skills/").returncode == 0
    (project / "skills" / "pdf-fill").rename(project / "skills" / "pdf-forms")
    write_skill(project / "skills" / "pdf-forms")
    assert skc("build", "skills/").returncode == 0
    copy = project / ".skillc" / "skills" / "pdf-fill"
    gone = (
        "warning: skill 'pdf-fill' (.skillc/skills/pdf-fill) was imported from "
        f"skills/pdf-fill, which is gone (to remove it: rm -r {copy}, then its deployments "
        f"(skc list says how); to keep it as it is: rm {copy}/.skillc-import.json)"
    )
    listed = skc("list")
    assert listed.returncode == 0 and listed.stderr.splitlines() == [gone], listed.stderr
    every = skc("build", "--all")
    assert every.returncode == 0, every.stderr
    assert every.stderr.splitlines().count(gone) == 1, every.stderr
    assert statuses(every.stdout) == {"pdf-fill": "up to date", "pdf-forms": "up to date"}
    named = skc("build", "pdf-fill")
    assert named.returncode == 0 and named.stderr.splitlines().count(gone) == 1, named.stderr
    assert "Traceback" not in every.stderr + named.stderr


def test_all_writes_an_older_absolute_import_record_relative(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    """An import record an older skillc wrote (the folder's absolute path) is written
    relative to the project root by one `build --all`, as by a build of the folder: the
    store copy goes through the import again (unchanged, nothing copied)."""
    from skillc_index.import_record import ImportRecord

    for name in ("one", "two"):
        write_skill(project / "skills" / name)
    assert index("build", "skills/").returncode == 0
    store = project / ".skillc" / "skills"
    for name in ("one", "two"):
        record = ImportRecord.read(store / name)
        assert record is not None and record.origin == f"skills/{name}"
        older = record._replace(origin=str((project / "skills" / name).resolve()))
        (store / name / ".skillc-import.json").write_bytes(older.to_bytes())
    result = index("build", "--all", "--format", "json")
    assert result.returncode == 0, result.stderr
    imports = {r["skill"]: r["import"] for r in json.loads(result.stdout)["results"]}
    assert imports == {"one": "unchanged", "two": "unchanged"}
    for name in ("one", "two"):
        record = ImportRecord.read(store / name)
        assert record is not None and record.origin == f"skills/{name}"


def test_all_follows_no_import_record_out_of_the_project(
    index: Run, project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """A checkout may ship a project store copy whose import record names a folder outside
    it (a private one): --all builds the store copy as it is, it copies nothing in."""
    from skillc_index.digests import source_hash

    private = tmp_path / "private" / "secret"
    write_skill(private, body="Private.\n")
    (private / "creds.txt").write_text("API_KEY=secret\n", encoding="utf-8")
    bait = project / ".skillc" / "skills" / "secret"
    write_skill(bait, body="Bait.\n")
    record = {"origin": str(private.resolve()), "source_hash": source_hash(bait)}
    (bait / ".skillc-import.json").write_text(json.dumps(record), encoding="utf-8")
    result = index("build", "--all", "--format", "json")
    assert result.returncode == 0, result.stderr
    (built,) = json.loads(result.stdout)["results"]
    assert built["import"] is None and built["source_path"] == str(bait.resolve())
    assert not (bait / "creds.txt").exists()
    assert "Bait." in (bait / "SKILL.md").read_text()
    # the folder named on the command line is the user's consent: imported from there
    named = index("build", str(private), "--format", "json")
    assert named.returncode == 0, named.stderr
    assert (bait / "creds.txt").is_file()


@pytest.mark.usefixtures("skc_on_path")
def test_a_named_or_walked_skill_whose_import_folder_cannot_be_read_fails_alone(
    index: Run, project: Path, write_skill: WriteSkill, unreadable: Callable[[Path], None]
) -> None:
    """A store skill imported from a folder that then cannot be searched (another team's,
    mode 000): ``--all`` failed it alone, but ``build secret-skill alpha`` (by name) and
    ``build .skillc/skills`` (a folder of skills) stopped at that one E999 and built
    nothing. Each fails that skill alone, with an error line naming it."""
    write_skill(project / "packages" / "team-a" / "skills" / "alpha")
    write_skill(project / "packages" / "secret" / "skills" / "secret-skill")
    assert index("init").returncode == 0
    assert index("build", "packages").returncode == 0
    secret = project / "packages" / "secret"
    origin = secret / "skills" / "secret-skill"
    unreadable(secret)
    for args, label in (
        (("secret-skill", "alpha"), "secret-skill"),
        ((".skillc/skills",), ".skillc/skills/secret-skill"),
    ):
        result = index("build", *args)
        assert result.returncode == 1
        assert result.stderr.splitlines() == [
            f"error[E999]: {label}: cannot read '{origin}': Permission denied"
        ]
        assert statuses(result.stdout) == {"alpha": "up to date", "secret-skill": "failed"}


@pytest.mark.parametrize("workers", [1, 2])
def test_all_fails_alone_a_skill_deployed_nowhere_whose_outside_folder_cannot_be_read(
    project: Path,
    home: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
    unreadable: Callable[[Path], None],
    workers: int,
) -> None:
    """A skill imported from a folder outside the project, deployed nowhere, that folder
    then mode 000: the worker asking where it was imported from (to choose its targets)
    raised UnreadableFile outside its try, which did not unpickle in the parent (the pool
    broken: ``error[E999]: BrokenProcessPool``), or, built here, stopped the batch. It
    fails alone, in a pool or not."""
    from skillc_index.build.skill import build_skill

    write_skill(project / ".skillc" / "skills" / "alpha")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    outside = tmp_path / "outside" / "sk"
    build_skill(str(write_skill(outside / "ext-skill")), layout)
    (project / ".claude" / "skills" / "ext-skill").unlink()  # deployed nowhere
    unreadable(outside)
    result = build_skills(batch_jobs([], layout, all_skills=True), layout, workers=workers)
    assert result.summary() == {"skills": 2, "built": 1, "up_to_date": 0, "failed": 1}
    (failed,) = [item for item in result.items if item.error is not None]
    assert failed.job.name == "ext-skill"
    assert failed.error is not None
    assert failed.error.message == f"cannot read '{outside / 'ext-skill'}': Permission denied"


def test_all_builds_both_stores(
    index: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / ".skillc" / "skills" / "local")
    write_skill(home / ".skillc" / "skills" / "shared")
    write_skill(home / ".skillc" / "skills" / "local")  # same name, the other scope
    result = index("build", "--all", "--format", "json")
    assert result.returncode == 0, result.stderr
    scopes = sorted((r["skill"], r["scope"]) for r in json.loads(result.stdout)["results"])
    assert scopes == [("local", "global"), ("local", "project"), ("shared", "global")]
    assert (home / ".claude" / "skills" / "shared" / "SKILL.md").is_file()
    assert (project / ".claude" / "skills" / "local" / "SKILL.md").is_file()


def test_all_keeps_a_copy_a_copy_and_says_what_it_redeployed(
    index: Run, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """``build mine --copy`` (an agent that does not follow symlinks), then ``build --all``:
    the copy was a symlink again, and the line said ``up to date``. A deployment keeps its
    method (a copy is refreshed as a copy when the skill changed), a project's and a
    ``--global --copy`` one alike; a deployment an up-to-date skill's build changes all the
    same (``--copy`` over a symlink) is on its line and in the summary."""
    mine = write_skill(project / ".skillc" / "skills" / "mine", description="Format tables.")
    write_skill(home / ".skillc" / "skills" / "theirs", description="Parse logs.")
    assert index("build", "mine", "--copy").returncode == 0
    assert index("build", "theirs", "--global", "--copy").returncode == 0
    copies = [project / ".claude" / "skills" / "mine", home / ".claude" / "skills" / "theirs"]
    done = index("build", "--all", "--format", "json")
    assert done.returncode == 0, done.stderr
    deployed = {
        (r["skill"], d["path"], d["method"], d["action"])
        for r in json.loads(done.stdout)["results"]
        for d in r["deployments"]
    }
    assert deployed == {
        ("mine", str(copies[0]), "copy", "unchanged"),
        ("theirs", str(copies[1]), "copy", "unchanged"),
    }
    write_skill(mine, description="Format ragged tables.")
    done = index("build", "--all")
    assert statuses(done.stdout) == {"mine": "built", "theirs": "up to date"}, done.stdout
    assert all(copy.is_dir() and not copy.is_symlink() for copy in copies)
    assert "description: Format ragged tables." in (copies[0] / "SKILL.md").read_text("utf-8")
    shutil.rmtree(copies[0])  # the way back to a symlink
    assert index("build", "mine").returncode == 0 and copies[0].is_symlink()
    done = index("build", "--all", "--copy")
    lines = done.stdout.splitlines()
    assert lines[0].endswith(
        ".skillc/runtime/mine; deployed: claude -> .claude/skills/mine (copy, replaced)"
    ), lines
    assert lines[-1] == "2 skills: 0 built, 2 up to date (1 redeployed), 0 failed"
    assert not copies[0].is_symlink()


def test_all_builds_each_skill_for_the_targets_it_is_deployed_to(
    cli: Callable[..., Run], project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """``skc build ~/.claude/skills/mine -t cursor`` (an agent folder's own skill, imported),
    then ``build --all``: it deployed to ``claude`` by default, over the folder it was imported
    from, and failed with E050 on every run (whose hint offered ``--force``, which moved that
    folder aside). ``--all`` given no target builds each store skill for the targets it is
    deployed to (a link, a copy), the default one only for a skill deployed nowhere; a build
    by name over the origin is refused, ``--force`` or not, and leaves it as it was."""
    skc = cli("skillc-index", script=True)
    mine = write_skill(home / ".claude" / "skills" / "mine")
    before = sorted(p.name for p in mine.iterdir()), (mine / "SKILL.md").read_bytes()
    assert skc("build", str(mine), "--global", "-t", "cursor").returncode == 0
    copied = write_skill(project / ".skillc" / "skills" / "copied")
    assert skc("build", "copied", "-t", "cursor", "--copy").returncode == 0
    write_skill(project / ".skillc" / "skills" / "fresh")  # deployed nowhere yet
    for _ in range(2):
        done = skc("build", "--all", "--format", "json")
        assert done.returncode == 0, done.stderr
        deployed = {
            (r["skill"], d["target"], d["method"])
            for r in json.loads(done.stdout)["results"]
            for d in r["deployments"]
        }
        assert deployed == {
            ("copied", "cursor", "copy"),
            ("fresh", "claude", "symlink"),
            ("mine", "cursor", "symlink"),
        }
    assert not (project / ".claude" / "skills" / copied.name).exists()
    assert (sorted(p.name for p in mine.iterdir()), (mine / "SKILL.md").read_bytes()) == before
    for force in ((), ("--force",)):
        refused = skc("build", "mine", "--global", *force)
        assert (refused.returncode, refused.stdout) == (1, ""), refused.stderr
        assert "~/.claude/skills/mine is the folder being built" in refused.stderr
    assert sorted(p.name for p in mine.parent.iterdir()) == ["mine"]
    assert (sorted(p.name for p in mine.iterdir()), (mine / "SKILL.md").read_bytes()) == before
    named = skc("build", "--all", "-t", "claude")  # a target given: the user's, as before
    assert named.returncode == 1 and "is the folder being built" in named.stderr


def test_all_builds_a_skill_imported_from_the_default_targets_folder_deployed_nowhere(
    cli: Callable[..., Run], home: Path, write_skill: WriteSkill
) -> None:
    """``skc build ~/.claude/skills/mine -t cursor``, then its cursor link removed: ``--all``
    fell back to the default ``claude``, whose folder is the one it was imported from, and
    failed with E050 on every run. The skill is there already (its own source): built and
    deployed nowhere, the folder left as it was."""
    skc = cli("skillc-index", script=True)
    mine = write_skill(home / ".claude" / "skills" / "mine")
    before = sorted(p.name for p in mine.iterdir()), (mine / "SKILL.md").read_bytes()
    assert skc("build", str(mine), "--global", "-t", "cursor").returncode == 0
    (home / ".cursor" / "skills" / "mine").unlink()
    (mine / "SKILL.md").write_text(  # edited where its author edits it: imported again
        (mine / "SKILL.md").read_text("utf-8") + "\nMore.\n", "utf-8"
    )
    edited = (mine / "SKILL.md").read_bytes()
    for status in ("built", "up to date"):
        done = skc("build", "--all", "--format", "json")
        assert done.returncode == 0, done.stderr
        (result,) = json.loads(done.stdout)["results"]
        assert (result["skill"], result["deployments"]) == ("mine", [])
        assert result["up_to_date"] is (status == "up to date")
    assert "More." in (home / ".skillc" / "skills" / "mine" / "SKILL.md").read_text("utf-8")
    assert sorted(p.name for p in mine.parent.iterdir()) == ["mine"]
    assert (sorted(p.name for p in mine.iterdir()), (mine / "SKILL.md").read_bytes()) == (
        before[0],
        edited,
    )
    assert not (home / ".cursor" / "skills" / "mine").exists()


def test_all_says_a_skill_it_deployed_nowhere_is_so_and_why(
    cli: Callable[..., Run], home: Path, write_skill: WriteSkill
) -> None:
    """The skill ``--all`` builds and deploys nowhere (its default target's folder is the
    one it was imported from): its line just lacked the ``deployed`` part, the JSON said
    nothing. Its line says it and why, and so does its JSON (``deployed_nowhere``); a skill
    deployed as asked says nothing of it (null)."""
    skc = cli("skillc-index", script=True)
    mine = write_skill(home / ".claude" / "skills" / "mine")
    assert skc("build", str(mine), "--global", "-t", "cursor").returncode == 0
    (home / ".cursor" / "skills" / "mine").unlink()
    write_skill(home / ".skillc" / "skills" / "other")  # deployed to the default target
    why = "its default target's folder is the one it was imported from"
    for _ in range(2):  # other built, then up to date
        done = skc("build", "--all")
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0].startswith("up to date  mine   ~/.skillc/runtime/mine; "), lines
        assert lines[0].endswith(f"; deployed nowhere: {why}"), lines
        assert "other" in lines[1] and "deployed nowhere" not in lines[1], lines
    data = json.loads(skc("build", "--all", "--format", "json").stdout)
    assert {r["skill"]: r["deployed_nowhere"] for r in data["results"]} == {
        "mine": why,
        "other": None,
    }


@pytest.mark.usefixtures("skc_on_path")
def test_all_says_it_imported_a_folder_again_that_left_the_runtime_up_to_date(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """``build drafts/mine``, then a script of the folder made executable: ``build --all``
    imported the folder again (the store copy's script is executable now) and said ``up to
    date`` as if it had read nothing, the JSON saying ``"import": "replace"``. Its line and
    the summary say the import; the next ``--all``, with nothing to import, says neither."""
    skc = cli("skillc_index", process=True)
    folder = write_skill(project / "drafts" / "mine", files={"scripts/run.sh": "echo hi\n"})
    assert skc("build", "drafts/mine").returncode == 0
    (folder / "scripts" / "run.sh").chmod(0o755)
    done = skc("build", "--all")
    assert done.returncode == 0, done.stderr
    copied = project / ".skillc" / "skills" / "mine" / "scripts" / "run.sh"
    assert os.access(copied, os.X_OK)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("up to date  mine  .skillc/runtime/mine"), lines
    assert lines[0].endswith("; imported again from drafts/mine"), lines
    assert lines[-1] == "1 skill: 0 built, 1 up to date (1 imported again), 0 failed"
    again = skc("build", "--all").stdout.splitlines()
    assert again == [
        "up to date  mine  .skillc/runtime/mine",
        "1 skill: 0 built, 1 up to date, 0 failed",
    ]


def test_all_with_nothing_to_build_is_a_usage_error(index: Run) -> None:
    result = index("build", "--all")
    assert result.returncode == 1
    assert result.stderr.startswith("error[E100]: invalid option: 'no skills to build")


def test_no_skill_is_a_usage_error(index: Run) -> None:
    """As click says a missing argument: with its "Try ... --help" line (so for package)."""
    result = index("build")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "error[E100]: invalid option: 'Missing argument \"SKILL...\".'",
        "Try 'skillc-index build --help' for help.",
    ]
    result = index("package")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "error[E100]: invalid option: 'name at least one skill to package'",
        "Try 'skillc-index package --help' for help.",
    ]


def test_an_unknown_target_stops_the_batch_first(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    write_skill(project / "skills" / "one")
    write_skill(project / "skills" / "two")
    result = index("build", "skills", "--target", "nosuchagent")
    assert result.returncode == 1
    assert result.stderr.startswith("error[E100]")
    assert not (project / ".skillc" / "skills" / "one").exists()


def test_same_folder_twice_is_built_once_and_one_name_from_two_folders_never(
    index: Run, project: Path, write_skill: WriteSkill
) -> None:
    """``a/twin`` and ``b/twin``: the first was built and the second failed E050 (with
    ``--force`` it replaced the first): whichever folder the walk met first won. Neither is
    built; one error names the name and both folders, the other skills are built."""
    write_skill(project / "a" / "twin", body="From a.\n")
    write_skill(project / "b" / "twin", body="From b.\n")
    for number in range(6):
        write_skill(project / "a" / f"other-{number}")
    result = index("build", "a", "a/twin", "b", "--format", "json")
    data = json.loads(result.stdout)
    twins = [r for r in data["results"] if r["skill"] == "twin"]
    assert twins == [
        {
            "skill": "twin",
            "given": "twin",
            "error": {
                "code": "E100",
                "message": (
                    "invalid option: 'the skill name 'twin' is in 2 folders: a/twin, b/twin'"
                ),
                "detail": "hint: build the one you mean by its path",
            },
        }
    ]
    assert data["summary"] == {"skills": 7, "built": 6, "up_to_date": 0, "failed": 1}
    assert result.returncode == 1
    assert not (project / ".skillc" / "skills" / "twin").exists()
    assert not (project / ".claude" / "skills" / "twin").exists()
    forced = index("build", "a", "b", "--force")
    assert forced.returncode == 1
    assert not (project / ".skillc" / "skills" / "twin").exists()
    alone = index("build", "b/twin")  # the one meant, by its path
    assert alone.returncode == 0, alone.stderr


@pytest.mark.usefixtures("skc_on_path")
def test_a_stale_bundler_copy_beside_the_source_builds_neither(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """``packages/app/dist/skills/demo``, a gitignored bundler's copy of last week, sorts
    before ``packages/app/skills/demo``: ``skc build packages`` imported the stale copy and
    refused the source (E050, hinting --force). The installed ``skc``, in a process."""
    skc = cli("skillc-index", script=True)
    assert skc("init").returncode == 0
    write_skill(project / "packages" / "app" / "skills" / "demo", body="Edited today.\n")
    write_skill(project / "packages" / "app" / "dist" / "skills" / "demo", body="Stale.\n")
    write_skill(project / "packages" / "app" / "skills" / "other")
    result = skc("build", "packages")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "error[E100]: demo: invalid option: 'the skill name 'demo' is in 2 folders: "
        "packages/app/dist/skills/demo, packages/app/skills/demo'",
        "hint: build the one you mean by its path",
    ]
    assert statuses(result.stdout) == {"demo": "failed", "other": "built"}
    assert not (project / ".skillc" / "skills" / "demo").exists()
    assert (project / ".skillc" / "skills" / "other" / "SKILL.md").is_file()


def test_skc_package_output_beside_the_source_is_left_out_of_build(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """After ``skc package demo --to plugin``, ``skc build .`` found ``dist/office/skills/demo``
    too and failed it E050, then E100 as one name in two folders: build's walk leaves out
    what ``dist/.skillc-package.json`` records (the copies skc package made), so the source is
    built alone. The store copy (``.skillc/skills/demo``, imported from ``skills/demo``) is
    that folder's skill, not a second folder; the store copy stays the source's."""
    skc = cli("skillc-index", script=True)
    assert skc("init").returncode == 0
    write_skill(project / "skills" / "demo", body="The source.\n")
    assert skc("build", "skills/demo").returncode == 0
    packaged = skc("package", "demo", "--to", "plugin", "--name", "office")
    assert packaged.returncode == 0, packaged.stderr
    assert (project / "dist" / "office" / "skills" / "demo" / "SKILL.md").is_file()
    result = skc("build", ".")
    assert result.returncode == 0, result.stderr
    assert set(statuses(result.stdout)) == {"demo"}
    record = json.loads(
        (project / ".skillc" / "skills" / "demo" / ".skillc-import.json").read_text()
    )
    assert record["origin"] == "skills/demo"
    alone = skc("build", ".skillc/skills/demo", "skills/demo")  # one skill, two names of it
    assert alone.returncode == 0, alone.stderr


def test_the_library_builds_in_a_process_pool(
    project: Path, home: Path, write_skill: WriteSkill
) -> None:
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    for number in range(5):
        write_skill(project / "skills" / f"s{number}")
    seen: list[tuple[int, int]] = []
    jobs = batch_jobs(["skills"], layout)
    result = build_skills(
        jobs, layout, workers=2, progress=lambda done, total: seen.append((done, total))
    )
    assert result.summary() == {"skills": 5, "built": 5, "up_to_date": 0, "failed": 0}
    assert seen[0] == (0, 5) and seen[-1] == (5, 5)
    assert [item.job.name for item in result.items] == [f"s{n}" for n in range(5)]


def test_one_str_is_one_argument_never_its_characters(
    project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """``batch_jobs("demo", layout)`` was the jobs ``d``, ``e``, ``m``, ``o`` (each E001):
    one ``str`` is one argument (``items.as_items``), as a list of it is."""
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    write_skill(project / ".skillc" / "skills" / "demo")
    for name in ("s0", "s1"):
        write_skill(project / "skills" / name)
    one = batch_jobs("demo", layout)
    assert [(job.given, job.name, job.error) for job in one] == [("demo", "demo", None)]
    assert [job.given for job in one] == [job.given for job in batch_jobs(["demo"], layout)]
    assert [(job.name, job.error) for job in batch_jobs("skills", layout)] == [
        ("s0", None),
        ("s1", None),
    ]


def test_find_skill_folders_takes_a_str(project: Path, write_skill: WriteSkill) -> None:
    """``find_skill_folders("skills")`` failed on a bare TypeError (``str / str``): a
    ``str`` is the folder, as a ``Path`` is; the skills found are ``Path``s all the same."""
    for name in ("s0", "s1"):
        write_skill(project / "skills" / name)
    found = find_skill_folders(str(project / "skills"))
    assert found == find_skill_folders(project / "skills")
    assert found == [project / "skills" / "s0", project / "skills" / "s1"]


def test_with_no_semaphores_the_batch_is_built_here_and_says_why(
    index: Run, project: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No shared semaphore (a read-only ``/dev/shm``: tests/test_e2e_batch.py has the real
    one): the pool's ``OSError`` was a bare E999; the skills are built one at a time in this
    process, with one warning (the JSON's ``warnings`` too)."""
    import errno
    import multiprocessing.synchronize

    def refused(self: Any, *args: Any, **kwargs: Any) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(multiprocessing.synchronize.SemLock, "__init__", refused)
    monkeypatch.setattr("skillc_index.build.batch.usable_cores", lambda: 2)
    for name in ("r1", "r2", "r3"):
        write_skill(project / ".skillc" / "skills" / name)
    said = "no process pool (Read-only file system): building one at a time"
    result = index("build", "--all")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "3 skills: 3 built, 0 up to date, 0 failed"
    assert [line for line in result.stderr.splitlines() if "process pool" in line] == [
        f"warning: {said}"
    ]
    again = index("build", "--all", "--force", "--format", "json")
    data = json.loads(again.stdout)
    assert data["summary"]["built"] == 3 and said in data["warnings"]


def test_a_folder_of_skills_is_walked_once(
    index: Run, project: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``build skills/``: the progress bar's choice, the batch's and its jobs' are one walk
    (three of up to 250,000 folders before); the next command walks again."""
    import skillc_index.walk as walk_module

    for number in range(3):
        write_skill(project / "skills" / f"w{number}")
    walks: list[Path] = []

    def walk(folder: Path, **kwargs: Any) -> Any:
        walks.append(folder)
        return find_skill_folders(folder, **kwargs)

    monkeypatch.setattr(walk_module, "find_skill_folders", walk)
    result = index("build", "skills/")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "3 skills: 3 built, 0 up to date, 0 failed"
    assert walks == [project / "skills"]
    write_skill(project / "skills" / "w3")
    again = index("build", "skills/")
    assert again.stdout.splitlines()[-1] == "4 skills: 1 built, 3 up to date, 0 failed"
    assert len(walks) == 2


def test_batch_build_in_a_real_process(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    for number in range(4):
        write_skill(project / "skills" / f"p{number}")
    result = cli("skillc_index", process=True)("build", "skills/")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "4 skills: 4 built, 0 up to date, 0 failed"


def test_a_batch_that_fails_ends_its_own_workers_only(
    layout: Layout, project: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that could not start (here: the second submit fails) ends the batch with its
    error and the pool's workers with it; a process the embedder started lives on."""
    import multiprocessing
    import time
    from concurrent.futures import ProcessPoolExecutor

    for name in ("a1", "a2", "a3"):
        write_skill(project / ".skillc" / "skills" / name)
    jobs = batch_jobs([], layout, all_skills=True)
    before = set(multiprocessing.active_children())
    mine = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
    mine.start()
    submit, calls = ProcessPoolExecutor.submit, []

    def failing(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) > 1:
            raise OSError(24, "Too many open files")
        return submit(self, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", failing)
    try:
        with pytest.raises(OSError, match="Too many open files"):
            build_skills(jobs, layout, workers=2)
        assert mine.is_alive()
        left = set(multiprocessing.active_children()) - before
        assert left == {mine}  # the pool's workers are gone, the embedder's is not
    finally:
        mine.terminate()
        mine.join()


def test_a_batch_that_fails_ends_its_workers_whatever_sigterm_does_there(
    project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """An embedder's SIGTERM handler (a server's graceful stop), inherited by the forked
    workers, kept them alive when a second worker could not start: the pool had no thread to
    send them its end, and the batch waited for them for ever. They are killed."""
    for name in ("a1", "a2", "a3"):
        write_skill(project / ".skillc" / "skills" / name)
    code = (
        "import signal, sys\n"
        "from pathlib import Path\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from skillc_index import Layout\n"
        "from skillc_index.build.batch import build_skills\n"
        "from skillc_index.build.jobs import batch_jobs\n"
        "signal.signal(signal.SIGTERM, lambda *_: None)\n"
        "spawn, calls = ProcessPoolExecutor._spawn_process, []\n"
        "def failing(self):\n"
        "    calls.append(1)\n"
        "    if len(calls) > 1:\n"
        "        raise OSError(24, 'Too many open files')\n"
        "    spawn(self)\n"
        "ProcessPoolExecutor._spawn_process = failing\n"
        f"layout = Layout.discover(Path({str(project)!r}), {{'SKILLC_HOME': {str(home)!r}}})\n"
        "try:\n"
        "    build_skills(batch_jobs([], layout, all_skills=True), layout, workers=2)\n"
        "except OSError as exc:\n"
        "    print('ended:', exc)\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # the workers in its group: all ended if it hangs
    )
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("the batch waited for ever for a worker that outlived SIGTERM")
    assert (process.returncode, out) == (0, "ended: [Errno 24] Too many open files\n"), err


def test_a_batch_killed_leaves_no_worker(
    project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """``skc build --all`` killed (SIGKILL; SIGTERM ends it the same way): its pool's workers,
    idle, stayed alive for ever, reparented to init. They end with it."""
    from .test_cores import workers_left

    for name in ("k1", "k2", "k3", "k4"):
        write_skill(project / ".skillc" / "skills" / name)
    code = (
        "import multiprocessing, time\n"
        "from pathlib import Path\n"
        "from skillc_index import Layout\n"
        "from skillc_index.build.batch import build_skills\n"
        "from skillc_index.build.jobs import batch_jobs\n"
        f"layout = Layout.discover(Path({str(project)!r}), {{'SKILLC_HOME': {str(home)!r}}})\n"
        "def progress(done, total):\n"
        "    if done:  # one built: the workers' pids, then the parent waits to be killed\n"
        "        print(*(p.pid for p in multiprocessing.active_children()), flush=True)\n"
        "        time.sleep(120)\n"
        "jobs = batch_jobs([], layout, all_skills=True)\n"
        "build_skills(jobs, layout, workers=2, progress=progress)\n"
    )
    assert workers_left(code) == []


def test_a_skill_moved_away_while_it_is_built_fails_as_a_missing_skill(
    project: Path, home: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``skc route install`` moves a store's skill away while ``build --all`` builds it: the
    skill fails as a missing one does (E001), not as the file it missed (E999)."""
    import shutil

    import skillc_index.build.skill as skill_module

    write_skill(project / ".skillc" / "skills" / "demo")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    compile_skill = skill_module.compile_skill

    def moved_away_meanwhile(skill: Any, **options: Any) -> Any:
        shutil.move(skill.source, project / "elsewhere")
        return compile_skill(skill, **options)

    monkeypatch.setattr(skill_module, "compile_skill", moved_away_meanwhile)
    result = build_skills(batch_jobs([], layout, all_skills=True), layout, workers=1)
    [item] = result.items
    assert item.error is not None and item.error.code == "E001", item.error


def test_one_skill_moved_away_while_it_is_built_fails_as_a_missing_skill(
    project: Path, home: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for one skill built alone (``skc build demo``): it was E999, the batch
    alone turned it into E001."""
    import shutil

    import skillc_index.build.skill as skill_module
    from skillc_index.diagnostics import SkillNotFound

    write_skill(project / ".skillc" / "skills" / "demo")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    compile_skill = skill_module.compile_skill

    def moved_away_meanwhile(skill: Any, **options: Any) -> Any:
        shutil.move(skill.source, project / "elsewhere")
        return compile_skill(skill, **options)

    monkeypatch.setattr(skill_module, "compile_skill", moved_away_meanwhile)
    with pytest.raises(SkillNotFound):
        skill_module.build_skill("demo", layout)


def test_ctrl_c_lets_the_running_builds_finish_and_starts_no_other(
    clean_env: dict[str, str],
    project: Path,
    home: Path,
    write_skill: WriteSkill,
    line_within: Callable[..., Any],
) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during ``skc build
    skills/``: the builds running finish, no other starts, and the command prints the lines
    of the skills built and the summary marked interrupted (it printed nothing: a log of a
    long build stopped so said nothing of what was built), then ends with 130, leaving no
    staging folder nor store copy moved aside (the workers were SIGKILLed mid-build:
    ``.<name>.build.<pid>-<hex>`` was left in the runtime). Each build here waits, just before
    its manifest is written into its staging folder, until the test lets it go on."""
    names = [f"s{number}" for number in range(usable_cores() + 3)]  # more than the workers
    for name in names:
        write_skill(project / "skills" / name)
    go_on = project.parent / "go-on"
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "import skillc_index.build.batch as batch\n"
        "import skillc_index.build.compiler as compiler\n"
        "from skillc_index.cli import main\n"
        "manifest_bytes = compiler.manifest_bytes\n"
        "def paused(manifest):\n"
        "    print('building', flush=True)\n"
        "    stop = batch._worker.get('stop')  # a worker's: set once the batch took Ctrl-C\n"
        f"    while not (Path({str(go_on)!r}).exists() and (stop is None or stop.is_set())):\n"
        "        time.sleep(0.01)\n"
        "    return manifest_bytes(manifest)\n"
        "compiler.manifest_bytes = paused\n"
        "raise SystemExit(main(['build', 'skills/']))\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=project,
        env=clean_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a terminal's foreground job
    )
    try:
        assert line_within(process) == "building\n"  # a worker is inside a build
        os.killpg(process.pid, signal.SIGINT)
        go_on.touch()
        out, err = process.communicate(timeout=120)
    finally:
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    left = [
        path
        for path in project.rglob(".*")
        if any(part in path.name for part in (".build.", ".import.", ".old."))
    ]
    assert left == []
    runtime = project / ".skillc" / "runtime"
    built = [name for name in names if (runtime / name / "SKILL.md").is_file()]
    # those the workers (one a core) were building, no other (one core: the build in the
    # process stops)
    assert len(built) <= usable_cores() < len(names) and (built or usable_cores() == 1)
    printed = "".join(line for line in out.splitlines(keepends=True) if line != "building\n")
    assert statuses(printed) == dict.fromkeys(built, "built")
    assert printed.splitlines()[-1] == (
        f"{len(built)} of {len(names)} skills: {len(built)} built, 0 up to date, 0 failed; "
        "interrupted (the rest not built)"
    )


#: Where a worker gets SIGINT: the moment it is forked (an at-fork hook), or as its initializer
#: makes it end with its parent (``end_with_parent``, which imports ctypes).
SIGINT_IN_WORKER = {
    "forked": "os.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGINT))\n",
    "initializer": (
        "end_with_parent = batch.end_with_parent\n"
        "def interrupted():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    end_with_parent()\n"
        "batch.end_with_parent = interrupted\n"
    ),
}


@pytest.mark.parametrize("when", sorted(SIGINT_IN_WORKER))
def test_a_ctrl_c_reaching_a_worker_as_it_starts_neither_prints_nor_breaks_the_pool(
    clean_env: dict[str, str], project: Path, write_skill: WriteSkill, when: str
) -> None:
    """Ctrl-C reaches the whole process group: one that reached a worker between its fork and
    its initializer's ``signal(SIGINT, SIG_IGN)`` (which came after ``end_with_parent``'s
    slow import of ctypes) printed its ``KeyboardInterrupt`` traceback, and the pool broke:
    ``error[E999]: BrokenProcessPool``, exit 1 (2 of 55 ``skc build --all`` interrupted as
    it started). The workers start with SIGINT held, then ignore it: here each worker gets
    SIGINT (:data:`SIGINT_IN_WORKER`), this process none, and the batch builds every skill
    as if nothing happened."""
    names = [f"s{number}" for number in range(4)]
    for name in names:
        write_skill(project / "skills" / name)
    code = (
        "import os, signal\n"
        "import skillc_index.build.batch as batch\n"
        "from skillc_index.cli import main\n"
        "batch.usable_cores = lambda: 2  # a pool, whatever the machine\n"
        f"{SIGINT_IN_WORKER[when]}"
        "raise SystemExit(main(['build', 'skills/']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=project,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr
    assert statuses(done.stdout) == dict.fromkeys(names, "built")


#: Where the batch is when the second Ctrl-C comes, said by a line it prints: setting the
#: handler that takes it (the first Ctrl-C caught, the ``signal.signal`` of the batch's own
#: handler held before it is set until the test sent the second Ctrl-C, as a loaded machine
#: may hold it), telling its workers to stop (the parent's ``stop.set()``, held there so),
#: or waiting for the running builds (the pool's join of its thread, in the main thread).
SECOND_CTRL_C_WHILE = {
    "setting": (
        "import signal\n"
        "set_handler = signal.signal\n"
        "def setting(signum, handler):\n"
        "    if 'build_skills' in getattr(handler, '__qualname__', ''):\n"
        "        print('setting', flush=True)\n"
        "        while not os.path.exists('second-sent'):\n"
        "            time.sleep(0.01)\n"
        "    return set_handler(signum, handler)\n"
        "signal.signal = setting\n"
    ),
    "telling": (
        "import multiprocessing.synchronize as synchronize\n"
        "set_event = synchronize.Event.set\n"
        "def told(event):\n"
        "    set_event(event)\n"
        "    print('telling', flush=True)\n"
        "    while not os.path.exists('second-sent'):\n"
        "        time.sleep(0.01)\n"
        "synchronize.Event.set = told\n"
    ),
    "joining": (
        "join = threading.Thread.join\n"
        "def join_told(thread, *args):\n"
        "    if threading.current_thread() is threading.main_thread():\n"
        "        print('joining', flush=True)\n"
        "    try:\n"
        "        return join(thread, *args)\n"
        "    except KeyboardInterrupt:\n"
        "        print('join interrupted', file=sys.stderr, flush=True)\n"
        "        raise\n"
        "threading.Thread.join = join_told\n"
    ),
}


def line_until(
    process: subprocess.Popen[str], wanted: str, line_within: Callable[..., Any]
) -> None:
    """Read ``process``'s lines until ``wanted``; the test fails when its output ends first
    (each line waited for within :func:`line_within`'s bound)."""
    while (line := line_within(process)) != wanted:
        if line == "":
            process.kill()
            pytest.fail(f"the output ended before {wanted!r}: {process.communicate()[1]}")


@pytest.mark.parametrize("when", sorted(SECOND_CTRL_C_WHILE))
def test_a_second_ctrl_c_kills_the_running_builds_and_prints_no_traceback(
    clean_env: dict[str, str],
    skc_on_path: None,  # else the build warns that skc is not on PATH (this env lacks it)
    project: Path,
    write_skill: WriteSkill,
    line_within: Callable[..., Any],
    when: str,
) -> None:
    """A second Ctrl-C while the batch waits for the running builds (here: builds that
    never end) kills them; the command ends with 130 and prints nothing. It was raised in
    the pool's join of its thread, which took the thread for ended (CPython before 3.13):
    the pool closed its pipes under the running thread, which printed "Exception in thread
    ... OSError: handle is closed" when a build's result came in then (`timeout -s INT`,
    which sends SIGINT twice). One that came as the batch told its workers to stop, before
    it took the second Ctrl-C as its own, was raised there: the process waited for its
    never-ending builds at exit (a test that sent it 0.2 s after a worker stopped hung on a
    loaded machine); so did one raised in the ``except KeyboardInterrupt`` clause before the
    handler was set (its sibling ``except BaseException``, which ends the workers, never
    caught it). Each second Ctrl-C is sent once the batch says it is there
    (:data:`SECOND_CTRL_C_WHILE`), never after a sleep."""
    for number in range(4):
        write_skill(project / "skills" / f"s{number}")
    code = (
        "import os, sys, threading, time\n"
        "import skillc_index.build.batch as batch\n"
        "import skillc_index.build.compiler as compiler\n"
        "from skillc_index.cli import main\n"
        "def never_ends(manifest):\n"
        "    print('building', flush=True)\n"
        "    time.sleep(3600)\n"
        "compiler.manifest_bytes = never_ends\n"
        "batch.usable_cores = lambda: 2\n"
        f"{SECOND_CTRL_C_WHILE[when]}"
        "raise SystemExit(main(['build', 'skills/']))\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=project,
        env=clean_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert line_within(process) == "building\n"
        os.killpg(process.pid, signal.SIGINT)
        line_until(process, f"{when}\n", line_within)
        os.killpg(process.pid, signal.SIGINT)
        (project / "second-sent").touch()
        _, err = process.communicate(timeout=120)
    finally:
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, err
    assert err.strip() == "", err


def test_ctrl_c_in_a_batch_built_in_this_process_says_what_was_built_in_json(
    index: Run, project: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One worker (the batch built in this process): Ctrl-C during the second skill's build
    stops it; ``--format json`` gives the first skill's result, ``interrupted`` true, and
    the command ends with 130 (it printed nothing)."""
    import skillc_index.operations as operations

    for name in ("alpha", "beta", "gamma"):
        write_skill(project / "skills" / name)
    build_one = operations.build_one
    calls: list[object] = []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return build_one(*args, **kwargs)

    monkeypatch.setattr("skillc_index.build.batch.usable_cores", lambda: 1)
    monkeypatch.setattr(operations, "build_one", interrupted)
    done = index("build", "skills/", "--format", "json")
    assert done.returncode == 130, done.stderr
    data = json.loads(done.stdout)
    assert [result["skill"] for result in data["results"]] == ["alpha"]
    assert data["summary"] == {"skills": 1, "built": 1, "up_to_date": 0, "failed": 0}
    assert data["interrupted"] is True
    text = index("build", "skills/")  # up to date: nothing interrupted
    assert text.returncode == 0 and "interrupted" not in text.stdout
    assert json.loads(index("build", "skills/", "--format", "json").stdout)["interrupted"] is False


def test_a_batch_lists_each_store_once_whatever_it_holds(
    project: Path, home: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each folder skill of a batch looked in the store for what a killed import left four
    times (resolved, the import planned, its two kinds of leftovers, its staging folder),
    each a listing of the whole store: 1,000 folder skills took twice as long beside a store
    of 20,000 skills. The batch lists each store once; a killed import's staging folder is
    still removed."""
    store = project / ".skillc" / "skills"
    for i in range(30):
        write_skill(store / f"stored-{i:02d}")
    for i in range(5):
        write_skill(project / "skills" / f"folder-{i}")
    child = subprocess.Popen(["true"])
    child.wait()
    left = store / f".folder-3.import.{child.pid}-0badc0de"
    left.mkdir()
    past = time.time() - 3600
    os.utime(store, (past, past))
    time.sleep(0.3)  # its change time (which utime cannot set back) settles too
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    listed: list[str] = []
    listdir = os.listdir

    def counting(path: Any = ".") -> list[str]:
        listed.append(str(path))
        return listdir(path)

    monkeypatch.setattr(os, "listdir", counting)
    result = build_skills(batch_jobs(["skills"], layout), layout, workers=1)
    assert [str(item.error) for item in result.items if item.error] == []
    assert result.summary() == {"skills": 5, "built": 5, "up_to_date": 0, "failed": 0}
    assert sorted(p.name for p in store.iterdir() if p.name.startswith("folder-")) == [
        f"folder-{i}" for i in range(5)
    ]
    assert not left.exists()
    assert listed.count(str(store)) <= 2  # the arguments resolved, the batch
    from skillc_index import hidden_entries

    assert not hidden_entries._held  # released with the batch


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="names descriptors by /proc")
def test_a_no_op_batch_lists_each_runtime_store_once_and_sweeps_every_skills_leftovers(
    project: Path, home: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each skill up to date swept its runtime store: a listing of the whole store per
    skill made a no-op ``build --all`` quadratic (31 s added at 5,000 skills). A batch lists
    each store once, and sweeps there what killed builds of any of its skills left; a
    running build's folder stays. A build alone after the batch sweeps again."""
    import fcntl

    from skillc_index import atomic, cores

    names = [f"skill-{n}" for n in range(6)]
    for name in names:
        write_skill(project / ".skillc" / "skills" / name)
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    held_before = dict(cores._HELD)  # another test of this worker may have left its own
    build_skills(batch_jobs([], layout, all_skills=True), layout, workers=1)
    assert held_before == cores._HELD  # the builds' staging folders: let go once renamed in
    runtimes = project / ".skillc" / "runtime"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    left = [runtimes / f".{name}.build.{dead.pid}-0badc0de" for name in names[:3]]
    running = runtimes / f".{names[4]}.build.{os.getppid()}-0badc0de"
    for folder in (*left, running):
        folder.mkdir()
    listings: list[object] = []
    listed = os.listdir

    def counted(path: Any = ".") -> list[str]:
        where = Path(f"/proc/self/fd/{path}").readlink() if isinstance(path, int) else path
        if Path(where) == runtimes.resolve():
            listings.append(path)
        return listed(path)

    monkeypatch.setattr(atomic.os, "listdir", counted)
    held = os.open(running, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a running build's
        result = build_skills(batch_jobs([], layout, all_skills=True), layout, workers=1)
    finally:
        os.close(held)
    assert [item.status for item in result.items] == ["up-to-date"] * len(names)
    assert len(listings) == 1, listings
    assert held_before == cores._HELD  # every staging folder made was let go (no descriptor)
    assert sorted(path.name for path in runtimes.iterdir()) == sorted([*names, running.name])
    later = runtimes / f".{names[5]}.build.{dead.pid}-0badc0de"
    later.mkdir()
    build_skills(batch_jobs([names[5]], layout), layout, workers=1)
    assert not later.exists()
