"""Deployment safety (issue 13): what ``force`` may remove, and where a project may deploy,
through ``plan_deployments``/``deploy``/``build_skill`` on real folders."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_index import InvalidOption, Layout, PathEscapesRoot
from skillc_index.build.deploy import deploy, plan_deployments
from skillc_index.build.skill import build_skill
from skillc_index.command_errors import ForeignFolder, TrackedDestination
from skillc_index.config import load_config
from skillc_index.files import within

WriteSkill = Callable[..., Path]


def test_within_follows_symlinks(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "in").mkdir(parents=True)
    (tmp_path / "out").mkdir()
    (root / "link").symlink_to(tmp_path / "out")
    (root / "back").symlink_to(root / "in")
    assert within(root, root)
    assert within(root / "in" / "not-yet" / "deeper", root)
    assert within(root / "back" / "x", root)
    assert not within(root / "link", root)
    assert not within(root / "link" / "x", root)
    assert not within(root / ".." / "out", root)
    assert not within(tmp_path / "rootx", root)  # a prefix of the name is not inside
    (root / "dangling").symlink_to(tmp_path / "nowhere")
    assert not within(root / "dangling" / "x", root)


def test_project_targets_are_those_the_project_config_sets(
    layout: Layout, project: Path, home: Path
) -> None:
    (home / ".skillc").mkdir()
    (home / ".skillc" / "config.toml").write_text(
        '[targets]\nmine = "/a"\nboth = "/b"\n', encoding="utf-8"
    )
    (project / ".skillc" / "config.toml").write_text(
        '[targets]\nboth = "x"\ntheirs = "y"\n', encoding="utf-8"
    )
    config = load_config(layout, env={})
    assert config.project_targets == frozenset({"both", "theirs"})


def _plan(layout: Layout, runtime: Path, source: Path, **options: object) -> list:  # type: ignore[type-arg]
    return plan_deployments(
        ["claude"],
        skill="demo",
        scope="project",
        runtime=runtime,
        source=source,
        layout=layout,
        **options,  # type: ignore[arg-type]
    )


def test_a_folder_made_after_planning_is_never_deleted(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """The destination is looked at again when deploying: a folder that appeared since the
    plan is refused (E050) without force and moved aside with it, never removed."""
    source = write_skill(project / ".skillc" / "skills" / "demo")
    runtime = project / ".skillc" / "runtime" / "demo"
    runtime.mkdir(parents=True)
    dest = project / ".claude" / "skills" / "demo"
    for force in (False, True):
        (plan,) = _plan(layout, runtime, source, force=force)
        assert plan.existing == "nothing"
        dest.mkdir(parents=True)
        (dest / "mine.txt").write_text("mine\n", encoding="utf-8")
        if not force:
            with pytest.raises(ForeignFolder) as caught:
                deploy(plan, runtime)
            assert caught.value.path == str(dest)
            assert (dest / "mine.txt").is_file()
            shutil.rmtree(dest)
            continue
        deployment, notices = deploy(plan, runtime)
        assert dest.is_symlink()
        assert deployment.backup is not None
        assert (deployment.backup / "mine.txt").read_text(encoding="utf-8") == "mine\n"
        assert [str(deployment.backup) in n.text for n in notices] == [True]


def test_two_forced_builds_in_one_second_keep_both_folders(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    source = write_skill(project / ".skillc" / "skills" / "demo")
    runtime = project / ".skillc" / "runtime" / "demo"
    runtime.mkdir(parents=True)
    dest = project / ".claude" / "skills" / "demo"
    backups = []
    for text in ("one\n", "two\n"):
        if dest.is_symlink():
            dest.unlink()
        dest.mkdir(parents=True)
        (dest / "f").write_text(text, encoding="utf-8")
        (plan,) = _plan(layout, runtime, source, force=True)
        backups.append(deploy(plan, runtime)[0].backup)
    assert len(set(backups)) == 2
    assert sorted((b / "f").read_text(encoding="utf-8") for b in backups if b) == [
        "one\n",
        "two\n",
    ]


def test_library_errors_name_no_flag(
    layout: Layout, project: Path, write_skill: WriteSkill, tmp_path: Path
) -> None:
    write_skill(project / ".skillc" / "skills" / "demo")
    (project / ".skillc" / "config.toml").write_text(
        f'[targets]\nclaude = "{tmp_path / "out"}"\n', encoding="utf-8"
    )
    config = load_config(layout, env={})
    with pytest.raises(InvalidOption) as caught:
        build_skill("demo", layout, config=config)
    assert "--" not in str(caught.value)
    assert not (project / ".skillc" / "runtime").exists()


def test_runtime_store_symlinked_out_is_refused_before_writing(
    layout: Layout, project: Path, write_skill: WriteSkill, tmp_path: Path
) -> None:
    write_skill(project / ".skillc" / "skills" / "demo")
    out = tmp_path / "out"
    out.mkdir()
    (project / ".skillc" / "runtime").symlink_to(out)
    with pytest.raises(PathEscapesRoot) as caught:
        build_skill("demo", layout, config=load_config(layout, env={}))
    assert caught.value.path == ".skillc/runtime"
    assert "outside the project" in str(caught.value)
    assert list(out.iterdir()) == []


def swap_for_a_link(folder: Path, to: Path) -> Path:
    """``folder`` renamed aside (returned) and a symlink to ``to`` put in its place."""
    aside = folder.with_name(f"{folder.name}.real")
    folder.rename(aside)
    folder.symlink_to(to, target_is_directory=True)
    return aside


def swap_after(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, folder: Path, to: Path
) -> None:
    """``owner.name`` (for the test) swaps ``folder`` for a link to ``to`` once it returned."""
    real = getattr(owner, name)

    def swapping(*args: Any, **kwargs: Any) -> Any:
        done = real(*args, **kwargs)
        swap_for_a_link(folder, to)
        return done

    monkeypatch.setattr(owner, name, swapping)


def test_a_link_goes_into_the_agent_folder_checked_when_it_is_swapped_as_it_is_written(
    cli: Callable[..., Any],
    project: Path,
    write_skill: WriteSkill,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``.claude/skills`` swapped for a symlink out of the project as the deployment's link is
    written (its temporary name chosen): the link was made and renamed by path, so it went
    outside. The agent folder is opened once over the real path checked: the link is there."""
    from skillc_index.build import deploy as deploy_module

    write_skill(project / ".skillc" / "skills" / "demo")
    agent = project / ".claude" / "skills"
    agent.mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    temporary_path, swapped = deploy_module.temporary_path, []

    def swapping(parent: Path, prefix: str) -> Path:
        swapped.append(swap_for_a_link(agent, outside))
        return temporary_path(parent, prefix)

    monkeypatch.setattr(deploy_module, "temporary_path", swapping)
    result = cli("skillc_index")("build", "demo")
    assert result.returncode == 0, result.stderr
    assert len(swapped) == 1 and list(outside.iterdir()) == []
    link = swapped[0] / "demo"
    assert link.is_symlink() and (link / "SKILL.md").is_file()
    assert [path.name for path in swapped[0].iterdir()] == ["demo"]


def test_an_agent_folder_swapped_for_a_symlink_after_the_plan_gets_nothing(
    cli: Callable[..., Any],
    project: Path,
    write_skill: WriteSkill,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``.claude/skills`` swapped for a symlink out of the project once the plan checked it
    (as the skill compiles): the build linked the skill outside. The folder is opened by the
    real path checked: E022, the folder changed, and nothing is written outside."""
    from skillc_index.build import skill as skill_module

    write_skill(project / ".skillc" / "skills" / "demo")
    agent = project / ".claude" / "skills"
    agent.mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    swap_after(monkeypatch, skill_module, "compile_skill", agent, outside)
    result = cli("skillc_index")("build", "demo")
    assert (result.returncode, result.stderr) == (
        1,
        f"error[E022]: directory not found: '{agent}'\n"
        "hint: it changed on disk while it was read; run the command again\n",
    )
    assert list(outside.iterdir()) == []


def test_a_runtime_store_swapped_for_a_symlink_after_its_check_gets_nothing(
    cli: Callable[..., Any],
    project: Path,
    write_skill: WriteSkill,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``.skillc/runtime`` swapped for a symlink out of the project once the build checked it
    (before it compiles): the runtime was written outside. It is written in the folder
    checked, opened over its real path: E022, and nothing outside."""
    from skillc_index.build import skill as skill_module

    write_skill(project / ".skillc" / "skills" / "demo")
    runtimes = project / ".skillc" / "runtime"
    runtimes.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    swap_after(monkeypatch, skill_module, "_refuse_writes_outside", runtimes, outside)
    result = cli("skillc_index")("build", "demo")
    assert result.returncode == 1
    assert result.stderr.endswith(
        f"error[E022]: directory not found: '{runtimes}'\n"
        "hint: it changed on disk while it was read; run the command again\n"
    )
    assert list(outside.iterdir()) == []


def test_the_runtime_is_written_in_the_store_checked_when_it_is_swapped_as_it_is_built(
    cli: Callable[..., Any],
    project: Path,
    write_skill: WriteSkill,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``.skillc/runtime`` swapped for a symlink out of the project as the manifest is
    written in the temporary folder (its bytes made): the manifest and the renames went by
    path (outside, where no such folder is: the build failed). They are made and renamed in
    the runtime store opened once: the runtime is built there, and nothing is written
    outside. (A swap while SQLite writes the index, by its path, is E022: the index is
    looked for in the folder opened, nothing kept.)"""
    from skillc_index.build import compiler, manifest

    write_skill(project / ".skillc" / "skills" / "demo")
    runtimes = project / ".skillc" / "runtime"
    runtimes.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    manifest_bytes, swapped = manifest.manifest_bytes, []

    def swapping(*args: Any) -> bytes:
        if not swapped:
            swapped.append(swap_for_a_link(runtimes, outside))
        return manifest_bytes(*args)

    monkeypatch.setattr(manifest, "manifest_bytes", swapping)
    monkeypatch.setattr(compiler, "manifest_bytes", swapping, raising=False)
    result = cli("skillc_index")("build", "demo")
    assert result.returncode == 0, result.stderr
    assert len(swapped) == 1 and list(outside.iterdir()) == []
    built = swapped[0] / "demo"
    assert sorted(path.name for path in built.iterdir()) == [".skillc-meta", "SKILL.md"]
    assert (built / ".skillc-meta" / "manifest.json").is_file()
    assert [path.name for path in swapped[0].iterdir()] == ["demo"]  # no temporary folder


def _outside_with_the_staging_names(runtimes: Path, outside: Path) -> Path:
    """``runtimes`` swapped for a symlink to ``outside``, which is given the build's
    temporary folder (its name, found in ``runtimes``) first: a write by path lands there."""
    (staging,) = (p.name for p in runtimes.iterdir() if p.name.startswith(".demo.build"))
    (outside / staging / ".skillc-meta").mkdir(parents=True)
    return swap_for_a_link(runtimes, outside)


def _built_in(store: Path) -> None:
    built = store / "demo" / ".skillc-meta"  # its logs.db too where it was not swapped
    names = sorted((p.name for p in built.iterdir() if p.name != "logs.db"), key=lambda n: n[-3:])
    assert [Path(name).suffix for name in names] == [".db", ".json"], names
    index = built / names[0]
    with closing(sqlite3.connect(index)) as db:  # the whole index, written there
        assert db.execute("SELECT count(*) FROM sections").fetchone()[0] > 0


@pytest.mark.parametrize("in_memory", [True, False], ids=["in-memory", "by-path"])
def test_the_index_is_written_in_the_store_checked_when_it_is_swapped_as_sqlite_writes(
    cli: Callable[..., Any],
    project: Path,
    write_skill: WriteSkill,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    in_memory: bool,
) -> None:
    """``.skillc/runtime`` swapped for a symlink to a folder outside holding the temporary
    folder's names (made there as the swap is) just as the index is written: SQLite wrote it
    by path, outside, then it was refused (E022) and left there. Built in memory and written
    in the folder opened (Python 3.11 and later), the runtime is built in the store checked,
    nothing is written outside; by path (Python 3.10) the index written outside is removed
    and the build is E022."""
    from skillc_index.build import compiler

    if in_memory and not compiler._SERIALIZE:  # pragma: no cover
        pytest.skip("Connection.serialize is Python 3.11's")
    monkeypatch.setattr(compiler, "_SERIALIZE", in_memory)
    write_skill(project / ".skillc" / "skills" / "demo")
    runtimes = project / ".skillc" / "runtime"
    runtimes.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    write_index, swapped = compiler.write_index, []

    def swapping(path: Any, **kwargs: Any) -> Any:
        if not swapped:
            swapped.append(_outside_with_the_staging_names(runtimes, outside))
        return write_index(path, **kwargs)

    monkeypatch.setattr(compiler, "write_index", swapping)
    result = cli("skillc_index")("build", "demo")
    assert len(swapped) == 1
    assert [p for p in outside.rglob("*") if not p.is_dir()] == []  # nothing written outside
    if not in_memory:  # by path, then checked: refused, what SQLite wrote outside taken back
        assert result.returncode == 1 and "error[E022]" in result.stderr
        return
    assert result.returncode == 0, result.stderr
    _built_in(swapped[0])


def test_no_index_is_opened_by_a_path_a_swap_can_lead_elsewhere(
    cli: Callable[..., Any],
    project: Path,
    write_skill: WriteSkill,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SQLite resolves the symlinks of a path it opens, then opens the path it found: the
    index written through ``/proc/self/fd/<fd>/<name>`` (the folder's descriptor) was opened
    by the folder's path after all, so a swap between the two still led it outside (and the
    E022's clean-up removed nothing there). Here the opener does the same with the store
    swapped in between: the index is written in the folder opened, never by a path."""
    import os

    from skillc_index.build import compiler
    from skillc_index.index import writer

    if not getattr(compiler, "_SERIALIZE", True):  # pragma: no cover
        pytest.skip("Connection.serialize is Python 3.11's")
    write_skill(project / ".skillc" / "skills" / "demo")
    runtimes = project / ".skillc" / "runtime"
    runtimes.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    connect, swapped = writer.connect, []

    def as_sqlite_opens(path: Path, **kwargs: Any) -> sqlite3.Connection:
        resolved = os.path.realpath(path)  # SQLite's unixFullPathname
        if not swapped:
            swapped.append(_outside_with_the_staging_names(runtimes, outside))
        return connect(Path(resolved), **kwargs)

    monkeypatch.setattr(writer, "connect", as_sqlite_opens)
    result = cli("skillc_index")("build", "demo")
    assert [p for p in outside.rglob("*") if not p.is_dir()] == []  # nothing written outside
    assert result.returncode == 0, result.stderr
    assert swapped == []  # no index opened by a path at all
    _built_in(runtimes)


def test_a_read_only_agent_folder_is_said_before_force_is_offered(
    cli: Callable[..., Any],
    project: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A team folder linked in and mounted read-only, holding its own ``demo``: the build
    offered ``--force`` to move it aside (E050), which then failed "not writable". The
    folder that cannot be written is said first, as the link it is, with or without
    ``--force``, and nothing is changed (the permission faked: root may write anywhere)."""
    write_skill(project / ".skillc" / "skills" / "demo")
    team = project / "team"
    theirs = write_skill(team / "demo")
    (project / ".claude").mkdir()
    (project / ".claude" / "skills").symlink_to("../team")
    real, access = os.path.realpath(team), os.access
    monkeypatch.setattr(
        os, "access", lambda path, mode: os.path.realpath(path) != real and access(path, mode)
    )
    before = sorted(p.name for p in team.iterdir()), (theirs / "SKILL.md").read_bytes()
    for args in ((), ("--force",)):
        done = cli("skillc_index")("build", "demo", *args)
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr == (
            "error[E999]: agent folder '.claude/skills' is not writable (permission denied; "
            "it is a link to team)\n"
        )
        assert (sorted(p.name for p in team.iterdir()), (theirs / "SKILL.md").read_bytes()) == (
            before
        )


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_destination_git_tracks_is_refused_even_with_force(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    subprocess.run(["git", "-C", str(project), "init", "-q"], check=True, capture_output=True)
    source = write_skill(project / ".skillc" / "skills" / "demo")
    runtime = project / ".skillc" / "runtime" / "demo"
    runtime.mkdir(parents=True)
    dest = write_skill(project / ".claude" / "skills" / "demo")
    (plan,) = _plan(layout, runtime, source, force=True)  # not tracked yet: may move aside
    assert plan.existing == "other"
    subprocess.run(["git", "-C", str(project), "add", "-f", ".claude"], check=True)
    for force in (False, True):
        with pytest.raises(TrackedDestination) as caught:
            _plan(layout, runtime, source, force=force)
        assert caught.value.code == "E050" and caught.value.path == ".claude/skills/demo"
        assert "git tracks .claude/skills/demo" in str(caught.value)
    assert (dest / "SKILL.md").is_file() and not dest.is_symlink()


# -- relative links (issue 34) ---------------------------------------------------------------


def test_a_project_moved_after_a_build_still_reads_through_its_links(
    project: Path, home: Path, write_skill: WriteSkill, tmp_path: Path
) -> None:
    """The link and its runtime share the project: the link is relative, so moving the
    project (a rename, a container mounting it elsewhere, a checkout of a commit) keeps it."""
    write_skill(project / ".skillc" / "skills" / "demo")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    (deployment,) = build_skill("demo", layout, targets=["claude"]).deployments
    assert deployment.method == "symlink"
    assert str(deployment.path.readlink()) == "../../.skillc/runtime/demo"
    moved = tmp_path / "moved" / "elsewhere"
    moved.parent.mkdir()
    project.rename(moved)
    link = moved / ".claude" / "skills" / "demo"
    assert link.resolve() == (moved / ".skillc" / "runtime" / "demo").resolve()
    assert (link / "SKILL.md").read_text(encoding="utf-8").startswith("---\n")
    # and the next build there finds the link in place
    again = Layout.discover(moved, {"SKILLC_HOME": str(home)})
    assert build_skill("demo", again).deployments[0].action == "unchanged"


def test_a_global_link_is_relative_within_the_home(
    layout: Layout, home: Path, write_skill: WriteSkill
) -> None:
    write_skill(home / ".skillc" / "skills" / "mine")
    (deployment,) = build_skill("mine", layout).deployments
    assert deployment.path == home / ".claude" / "skills" / "mine"
    assert str(deployment.path.readlink()) == "../../.skillc/runtime/mine"


def test_a_link_leaving_its_root_is_absolute(
    layout: Layout, project: Path, write_skill: WriteSkill, tmp_path: Path
) -> None:
    """A folder outside the project (a path target the user wrote) shares no root with the
    project's runtime: the link holds the runtime's absolute path."""
    write_skill(project / ".skillc" / "skills" / "demo")
    outside = tmp_path / "agents"
    (deployment,) = build_skill("demo", layout, targets=[str(outside)]).deployments
    runtime = project / ".skillc" / "runtime" / "demo"
    assert str(deployment.path.readlink()) == str(runtime)
    assert build_skill("demo", layout, targets=[str(outside)]).deployments[0].action == (
        "unchanged"
    )


def test_an_absolute_link_skillc_wrote_before_is_rewritten_relative(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """A link of earlier versions (absolute, to this runtime) is skillc's deployment: the
    next build, without --force, makes it relative."""
    write_skill(project / ".skillc" / "skills" / "demo")
    build_skill("demo", layout)
    link = project / ".claude" / "skills" / "demo"
    runtime = project / ".skillc" / "runtime" / "demo"
    link.unlink()
    link.symlink_to(runtime)
    (deployment,) = build_skill("demo", layout).deployments
    assert (deployment.method, deployment.action) == ("symlink", "replaced")
    assert str(Path(link).readlink()) == "../../.skillc/runtime/demo"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_an_absolute_link_git_tracks_is_left_as_it_is(
    layout: Layout, project: Path, write_skill: WriteSkill
) -> None:
    """A committed absolute link to this runtime is no change to make (E050 would stop every
    build of a project that committed one): left as it is."""
    subprocess.run(["git", "-C", str(project), "init", "-q"], check=True, capture_output=True)
    write_skill(project / ".skillc" / "skills" / "demo")
    build_skill("demo", layout)
    link = project / ".claude" / "skills" / "demo"
    runtime = project / ".skillc" / "runtime" / "demo"
    link.unlink()
    link.symlink_to(runtime)
    subprocess.run(["git", "-C", str(project), "add", "-f", ".claude"], check=True)
    (deployment,) = build_skill("demo", layout).deployments
    assert deployment.action == "unchanged" and str(Path(link).readlink()) == str(runtime)


@pytest.mark.parametrize(("before", "copy"), [("copy", False), ("symlink", True)])
def test_a_folder_put_in_place_after_the_last_look_is_never_deleted(
    layout: Layout,
    project: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
    before: str,
    copy: bool,
) -> None:
    """``route uninstall`` may put a user's folder back at the destination right after
    ``deploy`` looked at it (a copy or a link of skillc's there): what goes is checked at the
    moment it goes, so the folder is refused (E050), left where it is, whole."""
    from skillc_index.build import deploy as deploy_module

    source = write_skill(project / ".skillc" / "skills" / "demo")
    build_skill("demo", layout, copy=before == "copy")
    runtime = project / ".skillc" / "runtime" / "demo"
    dest = project / ".claude" / "skills" / "demo"
    (plan,) = _plan(layout, runtime, source, copy=copy)
    looked = deploy_module._existing

    def then_uninstall_puts_the_folder_back(path: Path, skill: str, *folder: Any) -> str:
        found = looked(path, skill, *folder)
        if dest.is_symlink():
            dest.unlink()
        else:
            shutil.rmtree(dest)
        write_skill(dest, skill_md="mine\n")
        return found

    monkeypatch.setattr(deploy_module, "_existing", then_uninstall_puts_the_folder_back)
    with pytest.raises(ForeignFolder):
        deploy(plan, runtime)
    assert not dest.is_symlink()
    assert (dest / "SKILL.md").read_text(encoding="utf-8") == "mine\n"
    assert [p.name for p in dest.parent.iterdir()] == ["demo"]


@pytest.mark.parametrize("copy", [True, False])
def test_a_copy_replaced_is_removed_once_its_replacement_is_in(
    layout: Layout,
    project: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
    copy: bool,
) -> None:
    """A copy deployment replaced (by a new copy, or by a link) is set aside and removed
    after the new deployment is renamed in: it was removed first, and a build killed then
    left the skill missing from the agent folder until the next build."""
    import skillc_index.build.deploy as deploy_module

    write_skill(project / ".skillc" / "skills" / "demo", description="First.")
    build_skill("demo", layout, copy=True)
    deployed = project / ".claude" / "skills" / "demo"
    assert deployed.is_dir() and not deployed.is_symlink()
    write_skill(project / ".skillc" / "skills" / "demo", description="Second.")
    remove, seen = deploy_module._remove, []

    def remove_seeing(folder: Any, name: str) -> None:
        seen.append((name, (deployed / "SKILL.md").read_text(encoding="utf-8")))
        remove(folder, name)

    monkeypatch.setattr(deploy_module, "_remove", remove_seeing)
    (deployment,) = build_skill("demo", layout, copy=copy).deployments
    assert deployment.action == "replaced"
    ((name, text),) = seen
    assert name.startswith(".demo.skillc-backup-") and "Second." in text
    assert [path.name for path in deployed.parent.iterdir()] == ["demo"]


@pytest.mark.parametrize("taken", [False, True])
def test_a_forced_deployment_that_cannot_be_renamed_in_puts_the_folder_back(
    layout: Layout,
    project: Path,
    write_skill: WriteSkill,
    monkeypatch: pytest.MonkeyPatch,
    taken: bool,
) -> None:
    """``--force`` moved the user's folder aside before the copy was made: a copy the disk
    refused left the folder at its backup name, the warning saying where lost with the
    error. It is moved aside only once the copy is whole, and put back when the copy cannot
    be renamed in; where its place was taken meanwhile, the error says where it is."""
    import errno

    from skillc_index.command_errors import CannotCreate

    write_skill(project / ".skillc" / "skills" / "demo")
    build_skill("demo", layout)
    runtime = project / ".skillc" / "runtime" / "demo"
    dest = project / ".claude" / "skills" / "demo"
    dest.unlink()
    write_skill(dest, skill_md="mine\n")
    source = project / ".skillc" / "skills" / "demo"
    (plan,) = _plan(layout, runtime, source, force=True, copy=True)
    from skillc_index.pinned import Pinned

    rename = Pinned.rename

    def failing(self: Pinned, name: str, to: Pinned, new: str, **kwargs: bool) -> None:
        if not name.startswith(".demo.deploy."):
            return rename(self, name, to, new, **kwargs)
        if taken:  # another process made the folder meanwhile
            write_skill(dest, skill_md="theirs\n")
        raise OSError(errno.EIO, "Input/output error", str(self.path / name))

    monkeypatch.setattr(Pinned, "rename", failing)
    with pytest.raises(CannotCreate) as failed:
        deploy(plan, runtime)
    message = str(failed.value)
    assert message.startswith(f"error[E999]: cannot create '{dest}': Input/output error")
    names = sorted(path.name for path in dest.parent.iterdir())
    if not taken:
        assert (dest / "SKILL.md").read_text(encoding="utf-8") == "mine\n"
        assert names == ["demo"]
        return
    (backup,) = (dest.parent / name for name in names if name != "demo")
    assert message.endswith(f"; what was there is at {backup}")
    assert (backup / "SKILL.md").read_text(encoding="utf-8") == "mine\n"


def test_a_copy_refresh_the_disk_refuses_is_a_warning(
    layout: Layout, project: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy made before that a build refreshes (not asked for) and the disk refuses is a
    warning naming the reason, as a refresh refused otherwise is; the build goes on."""
    import errno

    write_skill(project / ".skillc" / "skills" / "demo", description="First.")
    build_skill("demo", layout, targets=["codex"], copy=True)
    copy = project / ".agents" / "skills" / "demo"
    before = (copy / "SKILL.md").read_bytes()
    write_skill(project / ".skillc" / "skills" / "demo", description="Second.")

    from skillc_index.pinned import Pinned

    write = Pinned.write

    def no_space(self: Pinned, *args: Any) -> None:
        if not self.path.name.startswith(".demo.deploy."):  # a copy's staging folder
            return write(self, *args)
        raise OSError(errno.ENOSPC, "No space left on device", str(self.path / "SKILL.md"))

    monkeypatch.setattr(Pinned, "write", no_space)
    result = build_skill("demo", layout)
    (warning,) = (n.text for n in result.notices if "not refreshed" in n.text)
    assert warning == "copy .agents/skills/demo not refreshed: No space left on device"
    assert (copy / "SKILL.md").read_bytes() == before
    assert [d.target for d in result.deployments] == ["claude"]


@pytest.mark.usefixtures("skc_on_path")
def test_a_targets_entry_that_cannot_be_a_folder_is_e100_naming_it(
    cli: Callable[..., Any], project: Path, write_skill: WriteSkill
) -> None:
    """``[targets] t = "<300 characters>"`` was ``E999: cannot create ...: File name too
    long``, ``t = ".skillc/config.toml"`` ``E999: agent folder ... is not writable``: the
    unexpected-failure code for a mistake of the config. Both are E100 naming the entry,
    nothing deployed."""
    write_skill(project / ".skillc" / "skills" / "demo")
    config = project / ".skillc" / "config.toml"
    long = "a" * 300
    cases = {
        f't = "{long}"\n': f"cannot be created: '{project / long}': File name too long",
        't = ".skillc/config.toml"\n': "is '.skillc/config.toml', which is not a folder",
        't = ".skillc/config.toml/x"\n': (
            "is '.skillc/config.toml/x', which cannot be a folder: '.skillc/config.toml' is not one"
        ),
    }
    for entry, why in cases.items():
        config.write_text(f"[targets]\n{entry}", encoding="utf-8")
        done = cli("skillc-index")("build", "demo", "-t", "t")
        assert (done.returncode, done.stdout) == (1, ""), done.stderr
        message = f"the target 't' of the config's [targets] {why}"
        if len(message) > 200:  # a message quotes at most 200 characters of a value
            assert done.stderr.startswith("error[E100]: invalid option: 'the target 't' of the")
            assert done.stderr.rstrip().endswith("File name too long'"), done.stderr
        else:
            assert done.stderr == f"error[E100]: invalid option: '{message}'\n"
        assert "Traceback" not in done.stderr
        assert sorted(p.name for p in project.iterdir()) == [".skillc"]
