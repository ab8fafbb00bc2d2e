"""A walk for skills past what ``skc package`` wrote (``.skillc-package.json``, the record of its
output folder): the copies of skills a package holds (``<plugin>/skills/<name>``,
``.well-known/agent-skills/<name>``) are no sources, and ``build .`` refused a name in two folders.
Build's walk (and eval's, find's) leaves them out; lint's walk and the nested agent-folder inventory
never do: a record is project content anyone can write, it must not hide a skill from the linter nor
one an agent loads. Exactly the entries the record names are left out, nothing else of the folder
(it may be the project's root); a record that cannot be read, is too large or a newer skillc wrote
leaves out nothing, silently."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index.inventory.nested import nested_folders
from skillc_index.layout import Layout
from skillc_index.package.make import package_skills
from skillc_index.package.written import made_before, written_entries
from skillc_index.walk import build_walk, find_skill_folders

Run = Callable[..., Any]
WriteSkill = Callable[..., Path]
#: The record skc package writes in its output folder.
PACKAGE_RECORD = ".skillc-package.json"


def _record(folder: Path, files: object, **more: object) -> Path:
    """A record of ``skc package`` in ``folder`` naming ``files`` (path -> digest)."""
    path = folder / PACKAGE_RECORD
    path.write_text(json.dumps({**more, "files": files}), encoding="utf-8")
    return path


def _copies(project: Path, write_skill: WriteSkill) -> None:
    """A source skill and the copies a plugin and a discovery index hold of it, recorded in
    the project's root, beside a folder of the user's (``docs/``, not recorded)."""
    write_skill(project / "skills" / "alpha", "alpha")
    write_skill(project / "docs" / "gamma", "gamma")
    write_skill(project / "office" / "skills" / "alpha", "alpha")
    write_skill(project / ".well-known" / "agent-skills" / "alpha", "alpha")
    _record(
        project,
        {
            "office/skills/alpha/SKILL.md": "0" * 64,
            "office/plugin.json": ["0" * 64, "1" * 64],  # a run stopped while renaming
            ".well-known/agent-skills/alpha/SKILL.md": "0" * 64,
        },
    )


def test_a_walk_leaves_out_what_the_record_names_and_nothing_else(
    project: Path, write_skill: WriteSkill
) -> None:
    _copies(project, write_skill)
    found = build_walk(project)
    assert found == [project / "docs" / "gamma", project / "skills" / "alpha"]
    # a record below the folder walked too: its folder's named entries alone
    (project / "office").rename(project / "dist")
    (project / PACKAGE_RECORD).unlink()
    _record(project / "skills", {"alpha/SKILL.md": "0" * 64})
    assert build_walk(project) == [
        project / ".well-known" / "agent-skills" / "alpha",
        project / "dist" / "skills" / "alpha",
        project / "docs" / "gamma",
    ]


def test_a_record_naming_a_file_leaves_out_that_file_alone(
    project: Path, write_skill: WriteSkill
) -> None:
    """An upload's record names ``alpha.zip``: no folder of the project is left out."""
    write_skill(project / "alpha", "alpha")
    _record(project, {"alpha.zip": "0" * 64, "alpha.zip.d/x": "0" * 64})
    assert build_walk(project) == [project / "alpha"]


@pytest.mark.parametrize(
    "record",
    [
        "not json {",
        json.dumps({"version": 2, "files": {"office/skills/alpha/SKILL.md": "0" * 64}}),
        json.dumps({"version": "1", "files": {"office/skills/alpha/SKILL.md": "0" * 64}}),
        json.dumps({"files": ["office"]}),
        json.dumps({"files": {"office/x": "0" * 64}, "pad": "x" * (1 << 20)}),  # over 1 MiB
        "link",
        "fifo",
    ],
    ids=["not-json", "newer", "odd-version", "no-mapping", "too-large", "link", "fifo"],
)
def test_a_record_that_cannot_be_read_leaves_out_nothing(
    project: Path, write_skill: WriteSkill, record: str
) -> None:
    write_skill(project / "office" / "skills" / "alpha", "alpha")
    path = project / PACKAGE_RECORD
    if record == "link":  # a link to a valid record elsewhere: not followed
        elsewhere = _record(project / "office", {"office/skills/alpha/SKILL.md": "0" * 64})
        path.symlink_to(elsewhere)
    elif record == "fifo":  # never blocks the walk
        os.mkfifo(path)
    else:
        path.write_text(record, encoding="utf-8")
    assert build_walk(project) == [project / "office" / "skills" / "alpha"]


@pytest.mark.parametrize("version", ["1", True, 1.0, None])
def test_a_run_and_a_walk_read_a_records_version_alike(project: Path, version: object) -> None:
    """One reading of ``version``: the package run took ``"1"`` (or ``true``, ``1.0``) for
    version 1 and trusted the record's digests, where every walk took it for no record; now
    neither reads one (a record without ``version``, written before it, is version 1 to
    both)."""
    more = {} if version is None else {"version": version}
    (project / "office").mkdir()
    _record(project, {"office/x": "0" * 64}, made_folders=["office"], **more)
    earlier = made_before(project)
    left_out = written_entries(str(project))
    if version is None:
        assert (earlier.files, earlier.folders) == ({"office/x": ("0" * 64,)}, {"office"})
        assert left_out == {"office"}
    else:
        assert (earlier.files, earlier.folders, left_out) == ({}, None, frozenset())


def test_a_record_a_package_run_writes_is_read_by_the_walk(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """The record as ``skc package`` writes it (its version, each file) is the one the walk
    reads: a plugin and a discovery index made in the project's root are left out."""
    write_skill(project / "skills" / "alpha", "alpha")
    source = str(project / "skills" / "alpha")
    package_skills([source], layout, fmt="plugin", output=project)
    package_skills([source], layout, fmt="well-known", output=project)
    record = json.loads((project / PACKAGE_RECORD).read_text(encoding="utf-8"))
    assert record["version"] == 1
    assert "alpha/skills/alpha/SKILL.md" in record["files"]
    assert (project / "alpha" / "skills" / "alpha" / "SKILL.md").is_file()
    assert build_walk(project) == [project / "skills" / "alpha"]


def test_a_folder_of_the_users_a_package_run_wrote_into_is_walked(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """A plugin named as the project's ``skills`` folder, made in the root, writes into the
    user's ``skills/``: the record named it and the walk left it out whole, the user's
    source skills with it. The record lists the top-level folders the runs made (``office``,
    kept by a later run), and the walk leaves out those alone: the user's folder is walked,
    its packaged copy with it (``build .`` then says the name is in two folders)."""
    for name in ("alpha", "beta"):
        write_skill(project / "skills" / name, name)
    source = str(project / "skills" / "alpha")
    package_skills([source], layout, fmt="plugin", output=project, name="office")
    package_skills([source], layout, fmt="plugin", output=project, name="skills")
    package_skills([source], layout, fmt="upload", output=project)
    record = json.loads((project / PACKAGE_RECORD).read_text(encoding="utf-8"))
    assert record["made_folders"] == ["office"]
    assert "skills/skills/alpha/SKILL.md" in record["files"]
    assert build_walk(project) == [
        project / "skills" / "alpha",
        project / "skills" / "beta",
        project / "skills" / "skills" / "alpha",
    ]
    # the folder made by the first run, gone since, is no longer listed; made again, it is
    shutil.rmtree(project / "office")
    package_skills([source], layout, fmt="upload", output=project)
    assert json.loads((project / PACKAGE_RECORD).read_text())["made_folders"] == []
    package_skills([source], layout, fmt="plugin", output=project, name="office")
    assert json.loads((project / PACKAGE_RECORD).read_text())["made_folders"] == ["office"]


@pytest.mark.parametrize(
    ("made", "left_out"),
    [
        (None, ["office", "skills"]),  # written before the list: each folder its files make
        ([], []),
        (["office", "../x", "a/b", "", 5], ["office"]),
        ("office", []),  # no list: no folder
    ],
    ids=["no-list", "none-made", "office-made", "not-a-list"],
)
def test_a_record_leaves_out_the_folders_it_says_were_made(
    project: Path, write_skill: WriteSkill, made: object, left_out: list[str]
) -> None:
    for folder in ("office", "skills"):
        write_skill(project / folder / "skills" / "alpha", "alpha")
    write_skill(project / "alpha.zip", "zipped")  # a folder of a name the record's file has
    files = {"office/skills/alpha/SKILL.md": "0" * 64, "skills/skills/alpha/SKILL.md": "0" * 64}
    more = {} if made is None else {"made_folders": made}
    _record(project, {**files, "alpha.zip": "0" * 64}, **more)
    assert build_walk(project) == [
        project / folder / "skills" / "alpha"
        for folder in ("office", "skills")
        if folder not in left_out
    ]


def test_a_run_over_a_record_without_the_list_makes_it_of_the_folders_holding_its_files_alone(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """A record written before the list (a folder of the user's a run wrote into left out
    whole): the next run lists as made each folder holding nothing but the record's files,
    not one holding the user's too, even when it writes nothing new."""
    for name in ("alpha", "beta"):
        write_skill(project / "skills" / name, name)
    source = str(project / "skills" / "alpha")
    package_skills([source], layout, fmt="plugin", output=project, name="office")
    package_skills([source], layout, fmt="plugin", output=project, name="skills")
    path = project / PACKAGE_RECORD
    record = json.loads(path.read_text(encoding="utf-8"))
    del record["made_folders"]
    path.write_text(json.dumps(record), encoding="utf-8")
    assert build_walk(project) == []  # each folder its files make: as it was
    result = package_skills([source], layout, fmt="plugin", output=project, name="office")
    assert {f.action for f in result.files} == {"unchanged"}
    assert json.loads(path.read_text(encoding="utf-8"))["made_folders"] == ["office"]
    assert build_walk(project) == [
        project / "skills" / "alpha",
        project / "skills" / "beta",
        project / "skills" / "skills" / "alpha",
    ]


def test_the_nested_agent_folder_search_lists_what_a_record_names_all_the_same(
    project: Path,
) -> None:
    """Claude Code loads ``pkg/.claude/skills`` whoever wrote a record naming it: the
    inventory lists it (the record left it out, hiding a skill an agent loads)."""
    for folder in ("pkg", "web"):
        (project / folder / ".claude" / "skills").mkdir(parents=True)
    _record(project, {"pkg/.claude/skills/x/SKILL.md": "0" * 64}, made_folders=["pkg"])
    _record(project / "pkg", {".claude/skills/x/SKILL.md": "0" * 64}, made_folders=[".claude"])
    assert [root.path for root in nested_folders(project)] == [
        project / "pkg" / ".claude" / "skills",
        project / "web" / ".claude" / "skills",
    ]


def test_skc_list_lists_a_nested_agent_folders_skill_a_record_names(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """``list`` (the installed command, in a process) lists ``pkg/.claude/skills/x`` whatever
    a record in ``pkg`` says."""
    write_skill(project / "pkg" / ".claude" / "skills" / "x", "x")
    _record(project / "pkg", {".claude/skills/x/SKILL.md": "0" * 64}, made_folders=[".claude"])
    listed = cli("skillc-index", script=True)("list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert "pkg/.claude/skills/x" in listed.stdout


def test_lints_walk_reads_no_record(project: Path, write_skill: WriteSkill) -> None:
    """The walk lint calls (no ``package_records``) finds every copy a record names."""
    _copies(project, write_skill)
    assert find_skill_folders(project) == [
        project / ".well-known" / "agent-skills" / "alpha",
        project / "docs" / "gamma",
        project / "office" / "skills" / "alpha",
        project / "skills" / "alpha",
    ]


@pytest.mark.usefixtures("skc_on_path")
def test_build_of_a_project_holding_a_package_builds_each_skill_once(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """``skc build .`` refused ``alpha``: 'the skill name is in 3 folders' (the installed
    command, in a process); a record it cannot read leaves the copies in, and says nothing."""
    _copies(project, write_skill)
    run = cli("skillc-index", script=True)
    assert run("init").returncode == 0
    built = run("build", ".", "--format", "json")
    assert built.returncode == 0, built.stderr
    assert sorted(r["skill"] for r in json.loads(built.stdout)["results"]) == ["alpha", "gamma"]
    assert built.stderr == ""
    out = project.parent / "out"  # a record not JSON: its plugin's skill is walked, quietly
    write_skill(out / "office" / "skills" / "delta", "delta")
    (out / PACKAGE_RECORD).write_text("{", encoding="utf-8")
    built = run("build", str(out), "--format", "json")
    assert built.returncode == 0, built.stderr
    assert [r["skill"] for r in json.loads(built.stdout)["results"]] == ["delta"]
    assert built.stderr == ""


def test_lint_of_a_project_lints_what_a_record_names(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """``skillc-lint .`` (the installed command, in a process; where skillc-lint is installed)
    lints a skill a record names (``.claude``, ``docs``): a record a stranger wrote must not
    hide a prompt-injection skill from the linter; a package's copies are what ships."""
    pytest.importorskip("skillc_lint")
    write_skill(project / "docs" / "evil", "evil")
    write_skill(project / ".claude" / "skills" / "hidden", "hidden")
    write_skill(project / "skills" / "alpha", "alpha")
    _record(project, {"docs/evil/SKILL.md": "0" * 64}, made_folders=["docs", ".claude"])
    linted = cli("skillc-lint", script=True)(".", "--format", "json")
    assert sorted(item["skill"] for item in json.loads(linted.stdout)) == [
        "alpha",
        "evil",
        "hidden",
    ]


@pytest.mark.usefixtures("skc_on_path")
def test_build_of_a_packages_output_folder_says_the_record_left_its_copies_out(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """``skc build dist`` of the folder ``skc package -o dist`` wrote said only ``not a valid
    skill: 'dist' (missing SKILL.md)``, though ``dist/office/skills/alpha/SKILL.md`` is there:
    its hint names the folder whose record left the copies out (the folder named, or one
    below it). The record still applies to the folder named (it may be a project ``-o .``
    filled); a copy's own folder, named, is built."""
    write_skill(project / "skills" / "alpha", "alpha")
    run = cli("skillc-index", script=True)
    assert run("init").returncode == 0
    made = run("package", "skills/alpha", "--to", "plugin", "--name", "office", "-o", "dist")
    assert made.returncode == 0, made.stderr
    assert (project / "dist" / "office" / "skills" / "alpha" / "SKILL.md").is_file()
    (project / "outer").mkdir()
    hint = "holds what 'skc package' wrote (its .skillc-package.json lists it), not built"
    for named, where in (("dist", "./dist"), ("outer", "./outer/dist")):
        if named == "outer":
            (project / "dist").rename(project / "outer" / "dist")
        built = run("build", named)
        assert built.returncode == 1
        assert built.stderr.splitlines() == [
            f"error[E010]: {named}: not a valid skill: '{named}' (missing SKILL.md)",
            f"hint: {where} {hint}: build the skills' sources, or a copy's folder",
        ]
        assert not (project / ".skillc" / "skills" / "alpha").exists()  # nothing imported
    plain = project / "empty" / "docs"  # no record: E010 alone, as before
    plain.mkdir(parents=True)
    built = run("build", "empty")
    assert (built.returncode, built.stderr.splitlines()[1:]) == (1, [])
    assert "'empty' (missing SKILL.md)" in built.stderr
    copy = run("build", "outer/dist/office", "--format", "json")
    assert copy.returncode == 0, copy.stderr
    assert [r["skill"] for r in json.loads(copy.stdout)["results"]] == ["alpha"]


@pytest.mark.usefixtures("skc_on_path")
def test_the_hint_names_a_package_folder_with_a_newline_as_one_escaped_word(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill
) -> None:
    """The hint of ``skc build outer`` printed the name of the folder ``skc package -o`` wrote
    as it was: a newline in it forged a line of its own (``hint: forged ...``), a space went
    unquoted. It names it as W001 does, one shell word a shell pastes, escapes and all."""
    write_skill(project / "skills" / "alpha", "alpha")
    run = cli("skillc-index", script=True)
    assert run("init").returncode == 0
    (project / "outer").mkdir()
    odd = "my x\x1b[31mRED\nhint: forged"
    made = run(
        "package", "skills/alpha", "--to", "plugin", "--name", "office", "-o", f"outer/{odd}"
    )
    assert made.returncode == 0, made.stderr
    assert (project / "outer" / odd / "office" / "skills" / "alpha" / "SKILL.md").is_file()
    built = run("build", "outer")
    assert built.returncode == 1
    assert built.stderr.splitlines() == [
        "error[E010]: outer: not a valid skill: 'outer' (missing SKILL.md)",
        "hint: $'./outer/my x\\x1b[31mRED\\x0ahint: forged' holds what 'skc package' wrote"
        " (its .skillc-package.json lists it), not built: build the skills' sources, or a"
        " copy's folder",
    ]
    assert "\x1b" not in built.stderr + built.stdout
    assert not (project / ".skillc" / "skills" / "alpha").exists()  # nothing imported
    (project / "outer" / odd).rename(project / "outer" / "my dist")  # a space alone: quoted
    built = run("build", "outer")
    assert built.stderr.splitlines()[1].startswith("hint: './outer/my dist' holds what ")
