"""Project hygiene (issue 16): ``skc init`` keeps what skillc generates out of git without
hiding the user's sources, a deployment never replaces what git tracks, ``--force`` keeps
every file of a folder it moves aside, and a read-only agent folder is a clear error.

Real git repositories (``git init``/``git add``: the index is what ``git ls-files`` reads)
and the ``skc`` of the kit in a temporary project.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from e2e_support import read_only, tree, write

Run = Callable[..., "subprocess.CompletedProcess[str]"]

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(project: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(project), *args], check=True, capture_output=True)


def error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    (line,) = [line for line in proc.stderr.splitlines() if line.startswith("error[")]
    return line


# -- skc init and .gitignore ---------------------------------------------------------------


def test_init_without_git_ignores_what_skillc_generates_only(ok: Run, project: Path) -> None:
    proc = ok("init")
    assert "Added to .gitignore: /.skillc/runtime/, /.skillc/logs/" in proc.stdout
    lines = "/.skillc/runtime/\n/.skillc/logs/\n"
    assert (project / ".gitignore").read_text(encoding="utf-8") == lines
    again = json.loads(ok("init", "--format", "json").stdout)
    assert again["gitignore"] == [] and again["created"] is False
    assert (project / ".gitignore").read_text(encoding="utf-8") == lines


@needs_git
def test_init_in_a_repository_ignores_skillc_and_the_agent_folder(ok: Run, project: Path) -> None:
    git(project, "init", "-q")
    write(project / ".gitignore", "node_modules")  # no final newline: the lines go after it
    data = json.loads(ok("init", "--format", "json").stdout)
    assert data["gitignore"] == ["/.skillc/runtime/", "/.skillc/logs/", "/.claude/skills/"]
    text = (project / ".gitignore").read_text(encoding="utf-8")
    assert text == "node_modules\n/.skillc/runtime/\n/.skillc/logs/\n/.claude/skills/\n"
    ok("init")
    assert (project / ".gitignore").read_text(encoding="utf-8") == text  # never twice


@needs_git
def test_init_in_a_new_repository_never_ignores_the_sources(ok: Run, project: Path) -> None:
    """Nothing tracked yet (``git init; skc init; skc init my-skill``): the skill is a new
    file for git, not an ignored one."""
    git(project, "init", "-q")
    ok("init")
    ok("init", "my-skill")
    status = subprocess.run(
        ["git", "-C", str(project), "status", "--porcelain", "--ignored", "-uall"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()  # fmt: skip
    assert "?? .skillc/skills/my-skill/SKILL.md" in status
    assert not any(line.startswith("!!") for line in status), status


@needs_git
def test_init_leaves_tracked_sources_out(
    ok: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """Skills kept in .claude/skills and in .skillc/skills are the user's: only what skillc
    generates is ignored, and lines the user wrote (another spelling) count as there."""
    git(project, "init", "-q")
    write_skill(
        project / ".claude" / "skills" / "mine",
        description="About it.",
        heading=False,
        body="# Hi\n",
    )
    write_skill(
        project / ".skillc" / "skills" / "kept",
        description="About it.",
        heading=False,
        body="# Hi\n",
    )
    git(project, "add", ".claude", ".skillc")
    write(project / ".gitignore", ".skillc/logs\n")
    proc = ok("init")
    assert "Added to .gitignore: /.skillc/runtime/" in proc.stdout
    assert (project / ".gitignore").read_text(encoding="utf-8") == (
        ".skillc/logs\n/.skillc/runtime/\n"
    )
    listed = subprocess.run(
        ["git", "-C", str(project), "check-ignore", "-q", ".skillc/skills/kept/SKILL.md"],
        check=False,
    )
    assert listed.returncode == 1  # the tracked sources are not ignored


def test_init_skill_in_a_new_project_updates_gitignore(ok: Run, tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    data = json.loads(ok("init", "my-skill", "--format", "json", cwd=fresh).stdout)
    assert data["gitignore"] == ["/.skillc/runtime/", "/.skillc/logs/"]
    text = (fresh / ".gitignore").read_text(encoding="utf-8")
    assert text == "/.skillc/runtime/\n/.skillc/logs/\n"
    second = json.loads(ok("init", "other", "--format", "json", cwd=fresh).stdout)
    assert second["gitignore"] == []


def test_a_gitignore_symlinked_out_of_the_project_is_not_written(
    skc: Run, project: Path, tmp_path: Path
) -> None:
    outside = write(tmp_path / "elsewhere" / "ignore", "keep\n")
    (project / ".gitignore").symlink_to(outside)
    assert error_line(skc("init")).startswith("error[E012]: ")
    assert outside.read_text(encoding="utf-8") == "keep\n"


# -- deployments never replace what git tracks ---------------------------------------------


@pytest.fixture
def demo(ok: Run, project: Path, write_skill: Callable[..., Path]) -> Path:
    ok("init")
    return write_skill(
        project / ".skillc" / "skills" / "demo",
        description="About it.",
        heading=False,
        body="# Hi\n",
    )


@needs_git
def test_a_tracked_folder_is_never_turned_into_a_symlink(
    skc: Run, demo: Path, project: Path, write_skill: Callable[..., Path]
) -> None:
    git(project, "init", "-q")
    dest = write_skill(
        project / ".claude" / "skills" / "demo",
        description="About it.",
        heading=False,
        body="# Hi\n",
    )
    write(dest / ".hidden", "kept\n")
    git(project, "add", "-f", ".claude")
    before = tree(dest)
    for args in (("build", "demo"), ("build", "demo", "--force"), ("build", "demo", "--copy")):
        line = error_line(skc(*args))
        assert line == "error[E050]: skill 'demo' already exists", line
        assert not dest.is_symlink() and tree(dest) == before
    proc = skc("build", "demo", "--force")
    assert "hint: git tracks .claude/skills/demo" in proc.stderr
    assert sorted(p.name for p in dest.parent.iterdir()) == ["demo"]  # nothing moved aside
    assert not (project / ".skillc" / "runtime" / "demo" / "SKILL.md").exists()  # refused first


@needs_git
def test_a_tracked_deployment_that_stays_the_same_is_fine(
    ok: Run, demo: Path, project: Path
) -> None:
    """A committed symlink already to the runtime, or a committed copy of skillc's own
    rebuilt as a copy, is not replaced by something else: the build goes on."""
    git(project, "init", "-q")
    ok("build", "demo")
    git(project, "add", "-f", ".claude/skills/demo")
    ok("build", "demo", "--force")
    assert (project / ".claude" / "skills" / "demo").is_symlink()
    ok("build", "demo", "-t", "cursor", "--copy")
    git(project, "add", "-f", ".cursor/skills/demo")
    ok("build", "demo", "-t", "cursor", "--copy", "--force")
    ok("build", "demo", "-t", "cursor")  # the committed copy stays a copy
    copy = project / ".cursor" / "skills" / "demo"
    assert copy.is_dir() and not copy.is_symlink()


# -- every agent folder a build deploys into is git-ignored (issue 34) -----------------------


@needs_git
def test_a_build_ignores_each_agent_folder_of_the_project_it_deploys_into(
    ok: Run, demo: Path, project: Path, home: Path, tmp_path: Path
) -> None:
    """`skc init` ignores .claude/skills; a build into other agent folders of the project
    adds each (where git tracks nothing in it), once, and says so; never a folder outside
    the project; in one git tracks files in, the deployment alone."""
    git(project, "init", "-q")
    ok("init")
    assert (project / ".gitignore").read_text(encoding="utf-8").endswith("/.claude/skills/\n")
    kept = write(project / ".github" / "skills" / "mine" / "SKILL.md", "mine\n")
    git(project, "add", "-f", str(kept))
    proc = ok("build", "demo", "-t", "claude,cursor,agents,copilot")
    added = "/.cursor/skills/, /.agents/skills/, /.github/skills/demo"
    assert f"Added to .gitignore: {added}\n" in proc.stdout
    assert (
        (project / ".gitignore")
        .read_text(encoding="utf-8")
        .endswith("/.claude/skills/\n/.cursor/skills/\n/.agents/skills/\n/.github/skills/demo\n")
    )
    again = json.loads(ok("build", "demo", "-t", "cursor,agents", "--format", "json").stdout)
    assert again["gitignore"] == []
    copied = json.loads(ok("build", "demo", "-t", "gemini", "--copy", "--format", "json").stdout)
    assert copied["gitignore"] == ["/.gemini/skills/"]
    status = subprocess.run(
        ["git", "-C", str(project), "status", "--porcelain", "-uall"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    shown = [line[3:] for line in status.splitlines()]
    for folder in (".claude", ".cursor", ".agents", ".gemini"):  # ignored deployments
        assert not any(path.startswith(f"{folder}/") for path in shown), status
    assert ".github/skills/demo" not in shown  # skillc's, in the user's folder
    assert ".github/skills/mine/SKILL.md" in shown  # the user's, committed
    before = (project / ".gitignore").read_text(encoding="utf-8")
    outside = tmp_path / "agents-elsewhere"
    assert (
        json.loads(ok("build", "demo", "-t", str(outside), "--format", "json").stdout)["gitignore"]
        == []
    )
    ok("init", "mine", "--global")
    assert json.loads(ok("build", "mine", "--format", "json").stdout)["gitignore"] == []
    assert (project / ".gitignore").read_text(encoding="utf-8") == before
    assert not (home / ".gitignore").exists()


def test_a_build_outside_git_ignores_no_agent_folder(ok: Run, demo: Path, project: Path) -> None:
    before = (project / ".gitignore").read_text(encoding="utf-8")
    data = json.loads(ok("build", "demo", "-t", "cursor", "--format", "json").stdout)
    assert data["gitignore"] == []
    assert (project / ".gitignore").read_text(encoding="utf-8") == before


# -- --force keeps hidden files; a read-only agent folder ----------------------------------


def test_force_keeps_the_hidden_files_of_a_copy_it_did_not_make(
    ok: Run, skc: Run, demo: Path, project: Path
) -> None:
    """A copy of skillc's own with a hidden file added is not skillc's any more: refused
    without --force, moved aside whole with it (the hidden file included), never deleted."""
    ok("build", "demo", "--copy")
    dest = project / ".claude" / "skills" / "demo"
    write(dest / ".env", "TOKEN=secret\n")
    write(dest / ".skillc-meta" / ".notes", "mine\n")
    before = tree(dest)
    assert error_line(skc("build", "demo", "--copy")).startswith("error[E050]: ")
    assert tree(dest) == before
    ok("build", "demo", "--copy", "--force")
    (backup,) = (p for p in dest.parent.iterdir() if p.name != "demo")
    assert tree(backup) == before


def test_a_read_only_agent_folder_is_a_clear_error(
    demo: Path, project: Path, clean_env: dict[str, str]
) -> None:
    agent_folder = project / ".claude" / "skills"
    agent_folder.mkdir(parents=True)
    command = read_only(agent_folder, [sys.executable, "-m", "skillc", "build", "demo"])
    try:
        proc = subprocess.run(
            command,
            cwd=project,
            env=clean_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        agent_folder.chmod(0o755)
    line = error_line(proc)
    assert line in (
        "error[E999]: agent folder '.claude/skills' is not writable (read-only file system)",
        "error[E999]: agent folder '.claude/skills' is not writable (permission denied)",
    ), line
    assert list(agent_folder.iterdir()) == []
    assert not (project / ".skillc" / "runtime" / "demo" / "SKILL.md").exists()  # found first


@pytest.mark.parametrize("target", ["afile/", "afile/sub"])
def test_a_file_where_the_agent_folder_would_be_is_said_so(
    ok: Run, skc: Run, demo: Path, project: Path, target: str
) -> None:
    """A regular file at the target folder's place (or above it): it said "permission
    denied", which sent the user looking at modes, then E999 (an internal error) for a
    mistake in the user's own path: E100, as `package -o` says it. Nothing is written."""
    (project / "afile").write_text("a file\n", encoding="utf-8")
    proc = skc("build", "demo", "--target", target)
    assert proc.returncode == 1
    afile = project / "afile"
    if target == "afile/":
        said = f"the target '{afile}' is not a folder"
    else:
        said = f"the target '{afile / 'sub'}' cannot be a folder: '{afile}' is not one"
    assert proc.stderr == f"error[E100]: invalid option: '{said}'\n"
    assert (project / "afile").read_text(encoding="utf-8") == "a file\n"


def test_usage_of_a_read_only_runtime_is_read_and_its_prune_fails_loudly(
    ok: Run, demo: Path, project: Path, clean_env: dict[str, str]
) -> None:
    """A runtime nobody may write (a sandbox, a read-only mount): its logs are in WAL mode,
    and SQLite could not make the shared-memory file a read needs, so ``stats`` was E999
    ("attempt to write a readonly database"), ``stats --all`` listed used skills as never
    used, and ``prune`` deleted nothing and exited 0. Now the logs are read (as immutable:
    nothing can write there), and a log that cannot be pruned is the exit status 1."""
    import time

    ok("build", "demo")
    ok("show", "demo", "--section", "Hi")
    time.sleep(1.1)  # the rows are older than prune's --before below (now)
    runtime = project / ".skillc" / "runtime"
    for name in ("logs.db-wal", "logs.db-shm"):  # the last writer's: gone, as it ends
        assert not (runtime / "demo" / ".skillc-meta" / name).exists()

    meta = runtime / "demo" / ".skillc-meta"  # the log's own folder: read-only for a user too

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = read_only(meta, [sys.executable, "-m", "skillc", *args])
        return subprocess.run(
            command, cwd=project, env=clean_env, capture_output=True, text=True, timeout=120,
            check=False,
        )  # fmt: skip

    try:
        stats = run("stats", "demo", "--format", "json")
        assert stats.returncode == 0, stats.stderr
        assert json.loads(stats.stdout)["data"]["total_accesses"] == 2  # build and show
        every = run("stats", "--all", "--format", "json")
        assert [s["uses"] for s in json.loads(every.stdout)["data"]] == [1], every.stdout
        pruned = run(
            "stats", "prune", "--before", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        )
        assert pruned.returncode == 1, pruned.stdout + pruned.stderr
        assert "cannot prune it" in pruned.stdout
    finally:
        runtime.chmod(0o755)


# -- relative links (issue 34) ---------------------------------------------------------------


def test_a_moved_project_still_reads_through_its_deployment(
    ok: Run, demo: Path, project: Path, tmp_path: Path
) -> None:
    """The deployed link is relative to the project (it and its runtime share it): after the
    project folder moves, the link leads to the runtime and `skc show` reads through it."""
    ok("build", "demo")
    link = project / ".claude" / "skills" / "demo"
    assert str(Path(link).readlink()) == "../../.skillc/runtime/demo"
    moved = tmp_path / "renamed"
    project.rename(moved)
    link = moved / ".claude" / "skills" / "demo"
    assert link.resolve() == (moved / ".skillc" / "runtime" / "demo").resolve()
    assert (link / "SKILL.md").read_text(encoding="utf-8").startswith("---\nname: demo\n")
    outline = ok("outline", "./.claude/skills/demo", cwd=moved).stdout
    assert outline == "SKILL.md\n  # Hi\n"
    # the build there finds its deployment in place (the index is made again: the source
    # path it records moved)
    data = json.loads(ok("build", "demo", "--format", "json", cwd=moved).stdout)
    assert data["deployments"][0]["action"] == "unchanged"
    shown = ok("show", "./.claude/skills/demo", "--section", "Hi", cwd=moved)
    assert shown.stdout.startswith("# Hi")


def test_an_absolute_link_of_an_earlier_build_in_a_read_only_folder_stays(
    ok: Run, demo: Path, project: Path, clean_env: dict[str, str]
) -> None:
    """A deployment link earlier versions wrote (absolute, to this runtime) is skillc's: a
    build rewrites it relative where it can, and leaves it (exit 0) where it cannot."""
    ok("build", "demo")
    link = project / ".claude" / "skills" / "demo"
    runtime = project / ".skillc" / "runtime" / "demo"
    link.unlink()
    link.symlink_to(runtime)
    agent_folder = link.parent
    command = read_only(agent_folder, [sys.executable, "-m", "skillc", "build", "demo"])
    try:
        proc = subprocess.run(
            command,
            cwd=project,
            env=clean_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        agent_folder.chmod(0o755)
    assert proc.returncode == 0, proc.stderr
    assert str(Path(link).readlink()) == str(runtime)
    assert "(symlink, unchanged)" in proc.stdout
    ok("build", "demo")  # writable again: made relative
    assert str(Path(link).readlink()) == "../../.skillc/runtime/demo"
