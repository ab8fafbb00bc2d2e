"""``skc build`` in a hostile checkout (issue 13, items 7 and 8): ``--force`` never deletes what
skillc did not make, and the project's own config and symlinks never direct a write outside
the project; through the installed ``skc`` in a temporary project and ``$SKILLC_HOME``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from e2e_support import SmallDisks, tree, write

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def assert_error(proc: subprocess.CompletedProcess[str], code: str) -> str:
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    # warnings (a refused access log, say) may come first; the error is the one error line
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error[")]
    assert len(errors) == 1, proc.stderr
    assert errors[0].startswith(f"error[{code}]: "), proc.stderr
    return errors[0]


@pytest.fixture
def demo(ok: Run, project: Path, write_skill: Callable[..., Path]) -> Path:
    ok("init")
    return write_skill(
        project / ".skillc" / "skills" / "demo",
        description="About it.",
        heading=False,
        body="# Hi\n",
    )


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the project and the home, with something in it to protect."""
    path = tmp_path / "elsewhere"
    write(path / "keep.txt", "not the project's\n")
    return path


def runtime(project: Path) -> Path:
    return project / ".skillc" / "runtime" / "demo"


# -- item 7: --force moves a foreign folder aside, never deletes it ------------------------------


def foreign_folder(dest: Path) -> dict[str, str]:
    write(dest / "SKILL.md", "hand-written\n")
    write(dest / ".env", "TOKEN=secret\n")
    write(dest / ".git" / "config", "[core]\n")
    return tree(dest)


def test_force_moves_a_foreign_folder_aside(ok: Run, demo: Path, project: Path) -> None:
    dest = project / ".claude" / "skills" / "demo"
    before = foreign_folder(dest)
    proc = ok("build", "demo", "--force", "--format", "json")
    assert dest.is_symlink() and dest.resolve() == runtime(project)
    (backup,) = (p for p in dest.parent.iterdir() if p.name != "demo")
    assert backup.name.startswith(".demo.skillc-backup-"), backup
    assert tree(backup) == before  # everything kept, hidden files included
    data = json.loads(proc.stdout)
    assert data["deployments"][0]["backup"] == str(backup)
    assert f"warning: moved {dest} aside to {backup}" in proc.stderr
    assert any(str(backup) in warning for warning in data["warnings"])


def test_force_moves_a_foreign_file_aside(ok: Run, demo: Path, project: Path) -> None:
    dest = write(project / ".claude" / "skills" / "demo", "a file, not a skill\n")
    proc = ok("build", "demo", "--force")
    (backup,) = (p for p in dest.parent.iterdir() if p.name != "demo")
    assert backup.read_text(encoding="utf-8") == "a file, not a skill\n"
    assert str(backup) in proc.stderr


def test_force_into_a_full_agent_folder_leaves_the_users_folder_in_place(
    skc_installed: Run,
    ok: Run,
    demo: Path,
    project: Path,
    small_disk: SmallDisks,
) -> None:
    """``build --copy --force`` on a full disk (a real one) moved the user's folder aside
    before the copy failed, with ``error[E999]: OSError: [Errno 28] ...`` naming skillc's
    staging folder, and the notice of where the folder went lost: agents no longer listed it.
    The copy is made whole first; the failure names the deployment and the folder stays."""
    agents = small_disk(project / ".claude" / "skills")
    dest = agents / "demo"
    before = foreign_folder(dest)
    small_disk.fill(agents)
    line = assert_error(skc_installed("build", "demo", "--copy", "--force"), "E999")
    assert line.startswith(f"error[E999]: cannot create '{dest}': No space left on device")
    assert ".deploy." not in line and "OSError" not in line
    assert sorted(p.name for p in agents.iterdir()) == [".filler", "demo"]
    assert tree(dest) == before
    (agents / ".filler").unlink()
    proc = ok("build", "demo", "--copy", "--force")
    (backup,) = (p for p in agents.iterdir() if p.name != "demo")
    assert tree(backup) == before and f"moved {dest} aside to {backup}" in proc.stderr


def test_a_symlink_on_a_disk_with_no_inode_left_is_no_copy(
    skc_installed: Run, demo: Path, project: Path, small_disk: SmallDisks
) -> None:
    """A symlink the disk refuses (no inode left) was taken for a file system without
    symlinks: a copy was tried, and failed as ``OSError: [Errno 28] ...`` naming skillc's
    staging folder. It is the disk's failure, named: ``cannot create '<agent folder>/demo'``."""
    agents = small_disk(project / ".claude" / "skills", "size=1m,nr_inodes=16")
    small_disk.fill(agents, inodes=True)
    proc = skc_installed("build", "demo")
    line = assert_error(proc, "E999")
    assert line.startswith(f"error[E999]: cannot create '{agents / 'demo'}': No space left")
    assert line.endswith("no inode free on its device") and "copied instead" not in proc.stderr
    assert not [p for p in agents.iterdir() if not p.name.startswith(".filler-")]


def test_a_folder_that_only_looks_like_a_skillc_copy_is_not_replaced(
    skc: Run, ok: Run, demo: Path, project: Path
) -> None:
    """What counts as skillc's copy is decided from what skillc wrote: the manifest's record of
    the stub, not the names in the folder."""
    ok("build", "demo", "--copy")
    dest = project / ".claude" / "skills" / "demo"
    write(dest / "SKILL.md", "edited by hand\n")
    before = tree(dest)
    assert_error(skc("build", "demo", "--copy"), "E050")
    assert tree(dest) == before
    ok("build", "demo", "--copy", "--force")
    (backup,) = (p for p in dest.parent.iterdir() if p.name != "demo")
    assert tree(backup) == before


def test_skillc_copies_and_symlinks_are_replaced_without_backup(
    ok: Run, demo: Path, project: Path, tmp_path: Path
) -> None:
    dest = project / ".claude" / "skills" / "demo"
    ok("build", "demo", "--copy")
    ok("build", "demo", "--copy", "--force")
    ok("build", "demo")  # skillc's copy stays a copy (a later build keeps the method)
    assert dest.is_dir() and not dest.is_symlink()
    assert sorted(p.name for p in dest.parent.iterdir()) == ["demo"]
    shutil.rmtree(dest)
    ok("build", "demo")
    assert dest.is_symlink()
    linked = write(tmp_path / "linked" / "SKILL.md", "somebody's\n").parent
    dest.unlink()
    dest.symlink_to(linked)  # a symlink: only the link is replaced, never its target
    ok("build", "demo", "--force")
    assert sorted(p.name for p in dest.parent.iterdir()) == ["demo"]
    assert dest.resolve() == runtime(project)
    assert (linked / "SKILL.md").read_text(encoding="utf-8") == "somebody's\n"


# -- item 8: project config and symlinks never lead writes out of the project --------------------


@pytest.mark.parametrize("name", ["claude", "mine"])
def test_project_config_target_outside_the_project_is_refused(
    skc: Run, demo: Path, project: Path, outside: Path, name: str
) -> None:
    write(project / ".skillc" / "config.toml", f'[targets]\n{name} = "{outside}"\n')
    before, project_before = tree(outside), tree(project)
    proc = skc("build", "demo", "--target", name)
    first = assert_error(proc, "E100")
    assert f"target '{name}'" in first and str(outside) in first
    assert tree(outside) == before
    assert tree(project) == project_before  # refused before anything was written


@pytest.mark.parametrize("spec", ["../elsewhere", "~/.claude/skills"])
def test_project_config_relative_and_home_targets_stay_in_the_project(
    skc: Run, demo: Path, project: Path, home: Path, outside: Path, spec: str
) -> None:
    """Even the home's agent folders: a checkout must not put its skills into every session."""
    write(project / ".skillc" / "config.toml", f'[targets]\nclaude = "{spec}"\n')
    assert_error(skc("build", "demo"), "E100")
    assert not (home / ".claude").exists()
    assert not (outside / "demo").exists()


def test_project_config_target_inside_the_project_works(ok: Run, demo: Path, project: Path) -> None:
    write(project / ".skillc" / "config.toml", '[targets]\nclaude = "agents/skills"\n')
    ok("build", "demo")
    assert (project / "agents" / "skills" / "demo").resolve() == runtime(project)


def test_a_folder_given_on_the_command_line_is_consent(
    ok: Run, demo: Path, project: Path, outside: Path
) -> None:
    write(project / ".skillc" / "config.toml", f'[targets]\nclaude = "{outside}"\n')
    ok("build", "demo", "--target", str(outside))
    assert (outside / "demo").resolve() == runtime(project)


def test_home_config_target_outside_the_project_is_trusted(
    ok: Run, demo: Path, home: Path, outside: Path
) -> None:
    write(home / ".skillc" / "config.toml", f'[targets]\nshared = "{outside}"\n')
    ok("build", "demo", "--target", "shared")
    assert (outside / "demo").is_symlink()


@pytest.mark.parametrize("target", [None, ".claude/skills"])
def test_agent_folder_symlinked_out_of_the_project_is_refused(
    skc: Run, ok: Run, demo: Path, project: Path, outside: Path, target: str | None
) -> None:
    """``.claude`` in the checkout is a symlink to somewhere else: neither the built-in target
    nor the same folder written as a path follows it; the real folder given as a path does."""
    (project / ".claude").symlink_to(outside, target_is_directory=True)
    before = tree(outside)
    args = ("build", "demo") if target is None else ("build", "demo", "--target", target)
    first = assert_error(skc(*args), "E100")
    assert str(outside / "skills") in first
    assert tree(outside) == before
    assert not (runtime(project) / "SKILL.md").exists()  # refused before building
    ok("build", "demo", "--target", str(outside / "skills"))
    assert (outside / "skills" / "demo").is_symlink()


@pytest.mark.parametrize(
    "link", [".skillc/runtime", ".skillc/runtime/demo", ".skillc/runtime/demo/.skillc-meta"]
)
def test_runtime_symlinked_out_of_the_project_is_refused(
    skc: Run, demo: Path, project: Path, outside: Path, link: str
) -> None:
    path = project / link
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(outside, target_is_directory=True)
    before = tree(outside)
    first = assert_error(skc("build", "demo"), "E012")
    assert f"'{link}'" in first, first
    assert tree(outside) == before
    assert not (project / ".claude").exists()


def test_store_symlinked_out_of_the_project_refuses_an_import(
    skc: Run, ok: Run, project: Path, outside: Path, write_skill: Callable[..., Path]
) -> None:
    ok("init")
    store = project / ".skillc" / "skills"
    store.rmdir()
    store.symlink_to(outside, target_is_directory=True)
    write_skill(project / "drafts" / "demo", description="About it.", heading=False, body="# Hi\n")
    before = tree(outside)
    first = assert_error(skc("build", "drafts/demo"), "E012")
    assert "'.skillc/skills'" in first
    assert tree(outside) == before


def test_global_runtime_in_the_home_is_trusted(
    ok: Run, demo: Path, home: Path, outside: Path
) -> None:
    """The home is the user's: a global runtime that the user linked elsewhere is used."""
    (home / ".skillc").mkdir()
    (home / ".skillc" / "runtime").symlink_to(outside, target_is_directory=True)
    ok("build", "demo", "--global")
    assert (outside / "demo" / "SKILL.md").is_file()


def test_init_into_a_store_symlinked_out_of_the_project_is_refused(
    skc: Run, ok: Run, project: Path, outside: Path
) -> None:
    """The same rule for ``skc init <name>``: the new skill goes into the project store only
    when that store is really inside the project."""
    ok("init")
    store = project / ".skillc" / "skills"
    store.rmdir()
    store.symlink_to(outside, target_is_directory=True)
    before = tree(outside)
    first = assert_error(skc("init", "newskill"), "E012")
    assert "'.skillc/skills/newskill'" in first, first
    assert tree(outside) == before
