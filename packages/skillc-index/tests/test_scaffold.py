"""``init`` (RFC-0006:C-INIT) through the library."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillc_index import InvalidOption, Layout
from skillc_index._git import ignored, tracked
from skillc_index.build.scaffold import (
    default_agent_folders,
    ignore_agent_folders,
    ignore_generated,
    init_project,
    init_skill,
    skill_template,
)
from skillc_index.command_errors import ProjectInSkill, SkillExists

WriteSkill = Callable[..., Path]


def test_template_is_the_rfc_one() -> None:
    text = skill_template("my-skill")
    assert (
        text
        == '---\nname: my-skill\ndescription: "TODO: Add skill description"\n---\n\n# My Skill\n'
    )
    front = yaml.safe_load(text.split("---\n")[1])
    assert front == {"name": "my-skill", "description": "TODO: Add skill description"}


def test_init_project_is_idempotent(tmp_path: Path, env: dict[str, str]) -> None:
    layout = Layout.discover(tmp_path, env)
    first = init_project(layout)
    assert first.created and first.path == tmp_path.resolve() / ".skillc" / "skills"
    assert first.path.is_dir()
    second = init_project(layout)
    assert not second.created and second.path == first.path


def test_init_skill_in_project_store_from_a_subfolder(project: Path, env: dict[str, str]) -> None:
    sub = project / "docs"
    sub.mkdir()
    result = init_skill("rust", Layout.discover(sub, env))
    assert result.path == project.resolve() / ".skillc" / "skills" / "rust"
    assert (result.path / "SKILL.md").read_text(encoding="utf-8") == skill_template("rust")
    assert result.to_dict()["scope"] == "project"


def test_init_skill_without_project_makes_cwd_one(tmp_path: Path, env: dict[str, str]) -> None:
    result = init_skill("solo", Layout.discover(tmp_path, env))
    assert result.path == tmp_path.resolve() / ".skillc" / "skills" / "solo"


def test_init_makes_nothing_where_the_working_folder_is_not_one(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """``Layout.discover`` of a mistyped path (it looks from any path) and ``INIT.run`` made
    the whole chain, ``typo/proj/.skillc/skills`` and a ``.gitignore``; ``init_skill`` was
    E999 ``cannot create .../.gitignore``, a file path E999 ``Not a directory``. Each is E022
    naming the folder, and nothing is made, as the command line says of a working folder that
    is gone."""
    from skillc_index import SkillDirectoryNotFound
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session
    from skillc_index.operations import INIT, InitParams

    afile = tmp_path / "afile"
    afile.write_text("mine\n", encoding="utf-8")
    typo = tmp_path / "typo" / "proj"
    calls: tuple[Callable[[Layout], object], ...] = (
        init_project,
        lambda layout: init_skill("demo", layout),
        lambda layout: INIT.run(Session(layout, AccessLog(print)), InitParams()),
        lambda layout: INIT.run(Session(layout, AccessLog(print)), InitParams("demo")),
    )
    for where, why in ((typo, "no such folder"), (afile, "not a folder")):
        for call in calls:
            with pytest.raises(SkillDirectoryNotFound) as caught:
                call(Layout.discover(where, env))
            said = (caught.value.path, caught.value.diagnostic.detail)
            assert said == (str(where), f"hint: {why}")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["afile", "home"]
    assert afile.read_text(encoding="utf-8") == "mine\n"
    # the global store needs no working folder: its skill is made in the home
    made = init_skill("demo", Layout.discover(typo, env), global_store=True)
    assert (made.scope, made.path.name) == ("global", "demo")


@pytest.mark.parametrize("call", ["project", "skill"])
def test_init_does_not_make_again_a_working_folder_removed_meanwhile(
    call: str, tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The working folder removed after ``init`` checked that it is one (as ``.gitignore``
    is looked at, or written): ``mkdir(parents=True)`` made it again, with ``.skillc/skills``
    (``init NAME``: and the skill). E022 naming it now, and nothing made: ``.skillc`` then
    ``skills`` are made each in the folder before it, never its parents."""
    from skillc_index import SkillDirectoryNotFound
    from skillc_index.build import scaffold

    project = tmp_path / "proj"
    project.mkdir()
    layout = Layout.discover(project, env)
    looked, written = scaffold.check_gitignore, scaffold.ignore_generated

    def look(*args: Any, **kwargs: Any) -> Any:
        found = looked(*args, **kwargs)
        if call == "project":
            shutil.rmtree(project)
        return found

    def write(*args: Any, **kwargs: Any) -> Any:
        added = written(*args, **kwargs)
        if call == "skill":
            shutil.rmtree(project)
        return added

    monkeypatch.setattr(scaffold, "check_gitignore", look)
    monkeypatch.setattr(scaffold, "ignore_generated", write)
    with pytest.raises(SkillDirectoryNotFound) as caught:
        init_project(layout) if call == "project" else init_skill("demo", layout)
    assert (caught.value.path, caught.value.diagnostic.detail) == (
        str(project),
        "hint: no such folder",
    )
    assert not project.exists()


def test_init_skill_global(layout: Layout, home: Path) -> None:
    result = init_skill("cuda", layout, global_store=True)
    assert result.path == home.resolve() / ".skillc" / "skills" / "cuda"
    assert result.scope == "global"
    assert not (layout.cwd / ".skillc" / "skills" / "cuda").exists()


def test_init_in_a_skillc_home_inside_a_project_is_global(project: Path) -> None:
    """With ``$SKILLC_HOME`` in a project (a devcontainer's ``HOME`` under the workspace),
    `skc init` in the home made the global store but `skc init NAME` there a project skill."""
    home = project / "home"
    home.mkdir()
    layout = Layout.discover(home, {"SKILLC_HOME": str(home)})
    assert layout.project_root == project
    assert init_project(layout).kind == "global"
    result = init_skill("g1", layout)
    assert (result.scope, result.path) == ("global", home / ".skillc" / "skills" / "g1")
    assert not (project / ".skillc" / "skills" / "g1").exists()


def test_init_never_makes_a_project_in_a_skill_or_the_homes_skillc(
    home: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """`skc init NAME` in a global skill's folder (or its runtime, where ``~/.claude/skills``
    leads) wrote ``.skillc/`` and a ``.gitignore`` into it: E100, nothing made."""
    env = {"SKILLC_HOME": str(home)}
    skill = write_skill(home / ".skillc" / "skills" / "gx")
    agents_skill = write_skill(tmp_path / ".agents" / "skills" / "ax")
    for cwd in (skill, skill / "references", home / ".skillc" / "skills", agents_skill):
        cwd.mkdir(parents=True, exist_ok=True)
        layout = Layout.discover(cwd, env)
        for name in ("helper", None):
            with pytest.raises(ProjectInSkill) as caught:
                init_project(layout) if name is None else init_skill(name, layout)
            assert caught.value.diagnostic.code == "E100"
            assert not (cwd / ".skillc").exists() and not (cwd / ".gitignore").exists()
    assert "'skc init helper --global'" in str(ProjectInSkill("the skill x", "helper"))
    assert init_skill("helper", Layout.discover(skill, env), global_store=True).scope == "global"
    checkout = write_skill(tmp_path / "src" / "one-skill")  # a repository that is one skill
    assert init_project(Layout.discover(checkout, env)).kind == "project"


def test_e050_never_overwrites(layout: Layout) -> None:
    result = init_skill("rust", layout)
    skill_md = result.path / "SKILL.md"
    skill_md.write_text("my own words", encoding="utf-8")
    with pytest.raises(SkillExists) as caught:
        init_skill("rust", layout)
    assert str(caught.value) == "error[E050]: skill 'rust' already exists"
    assert skill_md.read_text(encoding="utf-8") == "my own words"


def test_existing_folder_without_skill_md_gets_one(layout: Layout) -> None:
    folder = layout.store("project") / "draft"
    folder.mkdir()
    (folder / "notes.md").write_text("keep me", encoding="utf-8")
    init_skill("draft", layout)
    assert (folder / "SKILL.md").is_file()
    assert (folder / "notes.md").read_text(encoding="utf-8") == "keep me"


@pytest.mark.parametrize("killed_at", ["scaffold.skill_template", "os.link"])
def test_init_killed_while_writing_skill_md_leaves_none_and_the_next_run_makes_it(
    layout: Layout, clean_env: dict[str, str], killed_at: str
) -> None:
    """``init`` created SKILL.md (``open("x")``) and then wrote it: a process killed between
    the two (SIGKILL, an OOM kill) left an empty SKILL.md for good (``init`` E050, ``build``
    E011). The file now appears whole or not at all: killed while the text is made, or once
    it is written under a temporary name (right before its link), no SKILL.md; the next run
    makes it, and removes the temporary file the killed one left."""
    code = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from skillc_index import Layout\n"
        "from skillc_index.build import scaffold\n"
        "def killed(*args, **kwargs):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        f"{killed_at} = killed\n"
        "scaffold.init_skill('demo', Layout.discover(Path(sys.argv[1]), dict(os.environ)))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(layout.cwd)], env=clean_env, check=False, timeout=60
    )
    assert run.returncode == -9
    folder = layout.store("project") / "demo"
    assert not (folder / "SKILL.md").exists()  # was there, empty
    init_skill("demo", layout)  # E050 before
    assert os.listdir(folder) == ["SKILL.md"]  # noqa: PTH208
    assert (folder / "SKILL.md").read_text(encoding="utf-8") == skill_template("demo")


def test_init_stopped_while_git_is_asked_leaves_no_skill_and_the_next_run_makes_both(
    tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``init NAME`` in a new project wrote SKILL.md, then asked git which lines its
    ``.gitignore`` needs (the slow part): a Ctrl-C there left the skill without the lines,
    and every later run said E050 (the project no longer new). The lines come first now: the
    skill is not made, and the next run makes both."""
    from skillc_index.build import scaffold

    def ctrl_c(*args: Any) -> Any:
        raise KeyboardInterrupt

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.setattr(scaffold, "ignore_generated", ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        init_skill("demo", Layout.discover(tmp_path, env))
    assert not (tmp_path / ".skillc" / "skills" / "demo" / "SKILL.md").exists()
    monkeypatch.undo()
    result = init_skill("demo", Layout.discover(tmp_path, env))
    assert "/.skillc/runtime/" in result.gitignore
    assert "/.skillc/runtime/" in (tmp_path / ".gitignore").read_text(encoding="utf-8")


@pytest.mark.parametrize("new_project", [False, True])
def test_init_on_a_full_disk_leaves_no_folder_it_made(
    tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch, new_project: bool
) -> None:
    """``init NAME`` on a full disk said ``cannot create '<store>/NAME/SKILL.md'`` and left
    the skill's folder, empty (``init`` of a project whose ``.gitignore`` the disk refused:
    ``.skillc/skills/``). The folders the run made are removed; those there before stay."""
    import errno

    import skillc_index.atomic as atomic
    from skillc_index.command_errors import CannotCreate

    if not new_project:
        (tmp_path / ".skillc" / "skills").mkdir(parents=True)
    written = atomic._written

    def full(path: Path, *args: Any, **kwargs: Any) -> Path:
        if path.name in ("SKILL.md", ".gitignore"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return written(path, *args, **kwargs)

    monkeypatch.setattr(atomic, "_written", full)
    with pytest.raises(CannotCreate, match=r"SKILL\.md': No space left on device"):
        init_skill("demo", Layout.discover(tmp_path, env))
    assert (tmp_path / ".skillc").exists() == (not new_project)
    if new_project:
        (tmp_path / ".gitignore").unlink()  # the lines come first: written, not the skill
    else:
        assert os.listdir(tmp_path / ".skillc" / "skills") == []  # noqa: PTH208

    def refused(*args: Any) -> Any:
        raise CannotCreate(str(tmp_path / ".gitignore"), os.strerror(errno.ENOSPC))

    monkeypatch.setattr("skillc_index.build.scaffold.ignore_generated", refused)
    with pytest.raises(CannotCreate, match="gitignore"):
        init_project(Layout.discover(tmp_path, env))
    assert (tmp_path / ".skillc").exists() == (not new_project)


@pytest.mark.parametrize("name", ["Bad", "../escape", "a/b", "", "-x"])
def test_invalid_names_create_nothing(layout: Layout, name: str) -> None:
    before = sorted(p for p in layout.cwd.rglob("*"))
    with pytest.raises(InvalidOption):
        init_skill(name, layout)
    assert sorted(p for p in layout.cwd.rglob("*")) == before


# -- .gitignore (issue 16) -----------------------------------------------------------------

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def test_ignore_generated_without_git(tmp_path: Path, env: dict[str, str]) -> None:
    assert tracked(tmp_path, (".skillc",)) is None  # no work tree
    layout = Layout.discover(tmp_path, env)
    (tmp_path / ".gitignore").write_text("# mine\n/.skillc/logs\n", encoding="utf-8")
    assert ignore_generated(tmp_path, layout) == ("/.skillc/runtime/",)  # '/.skillc/logs' is
    (tmp_path / ".gitignore").unlink()
    assert ignore_generated(tmp_path, layout) == ("/.skillc/runtime/", "/.skillc/logs/")
    assert ignore_generated(tmp_path, layout) == ()
    text = (tmp_path / ".gitignore").read_text(encoding="utf-8")
    assert text == "/.skillc/runtime/\n/.skillc/logs/\n"  # never .skillc/: it holds sources


def test_a_gitignore_that_is_no_regular_file_is_refused_without_waiting(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """A checkout's ``.gitignore`` may be a FIFO (or a link to one): reading it hung
    ``skc build`` and ``skc init`` for ever (found by an adversarial sweep). Only a regular
    file is read, without blocking: CannotCreate (E999) at once, nothing appended."""
    import os
    import threading

    fifo = tmp_path / ".gitignore"
    os.mkfifo(fifo)
    raised: list[BaseException] = []

    def add() -> None:
        try:
            ignore_generated(tmp_path, Layout.discover(tmp_path, env))
        except BaseException as exc:  # what it raised is the answer
            raised.append(exc)

    adding = threading.Thread(target=add, daemon=True)
    adding.start()
    adding.join(5)
    if adding.is_alive():  # unblock the thread (a writer, then gone) before failing
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a FIFO .gitignore blocked")
    assert len(raised) == 1 and "not a regular file" in str(raised[0])


def test_a_gitignore_made_is_the_users_own_and_one_linked_inside_is_followed(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """A ``.gitignore`` skillc makes has the mode any file of the user's has (0666 less the
    umask, not 0600); one that is a symlink to a file inside the project gets the lines."""
    layout = Layout.discover(tmp_path, env)
    umask = os.umask(0o022)
    try:
        assert ignore_generated(tmp_path, layout)
    finally:
        os.umask(umask)
    gitignore = tmp_path / ".gitignore"
    assert gitignore.stat().st_mode & 0o777 == 0o644
    kept = tmp_path / "kept.gitignore"
    gitignore.rename(kept)
    kept.write_text("*.log\n", encoding="utf-8")
    gitignore.symlink_to("kept.gitignore")
    assert ignore_generated(tmp_path, layout)
    assert gitignore.is_symlink() and kept.read_text(encoding="utf-8").startswith("*.log\n/")


@pytest.mark.parametrize("text", [b"node_modules/\r\n", b"node_modules/\r\n*.log"])
def test_a_crlf_gitignore_gets_crlf_lines_and_loses_them_exactly(
    tmp_path: Path, env: dict[str, str], text: bytes
) -> None:
    """Lines added to a ``.gitignore`` whose lines end in CRLF end so too (they ended in LF:
    mixed line endings in the user's file); taken out, the file is as it was."""
    from skillc_index.build.scaffold import ignore_folders, unignore_lines

    gitignore = tmp_path / ".gitignore"
    gitignore.write_bytes(text)
    added = ignore_folders(tmp_path, [], Layout.discover(tmp_path, env), generated=["dist"])
    assert added.lines == ("/dist/",)
    assert gitignore.read_bytes() == text.removesuffix(b"\r\n") + b"\r\n/dist/\r\n"
    unignore_lines(tmp_path, added.lines, newline=added.newline)
    assert gitignore.read_bytes() == text


def test_a_lone_cr_gitignore_gets_the_lines_git_does_not_read_there(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """Git ends a ``.gitignore`` line at ``\\n`` only: an old-Mac file (lone ``\\r``) is one
    pattern to it, but ``init`` read its ``/dist/`` as there and added nothing (the runtime
    showed up untracked). The lines are added; taken out, the file is as it was, the
    author's ``/dist/`` kept."""
    from skillc_index.build.scaffold import ignore_folders, unignore_lines

    text = b"node_modules/\r/dist/\r\f/out/\n"
    gitignore = tmp_path / ".gitignore"
    gitignore.write_bytes(text)
    layout = Layout.discover(tmp_path, env)
    added = ignore_folders(tmp_path, [], layout, generated=["dist", "out"])
    assert added.lines == ("/dist/", "/out/")
    assert gitignore.read_bytes() == text + b"/dist/\n/out/\n"
    unignore_lines(tmp_path, added.lines, newline=added.newline)
    assert gitignore.read_bytes() == text


def test_a_gitignore_that_may_only_be_read_holding_every_line_is_no_error(
    tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is opened to be read and written (under its lock): a read-only one (or file
    system) that needs no line is read and left, as before; one that lacks a line is
    CannotCreate, nothing written; ``unignore_lines`` leaves it."""
    import errno

    from skillc_index.build.scaffold import unignore_lines
    from skillc_index.command_errors import CannotCreate

    gitignore = tmp_path / ".gitignore"
    real_open = os.open

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path) == str(gitignore) and flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    layout = Layout.discover(tmp_path, env)
    gitignore.write_text("/.skillc/runtime/\n/.skillc/logs/\n", encoding="utf-8")
    monkeypatch.setattr(os, "open", read_only)
    assert ignore_generated(tmp_path, layout) == ()
    unignore_lines(tmp_path, ["/.skillc/logs/"])
    assert gitignore.read_text(encoding="utf-8") == "/.skillc/runtime/\n/.skillc/logs/\n"
    monkeypatch.undo()
    gitignore.write_text("/.skillc/runtime/\n", encoding="utf-8")
    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(CannotCreate, match="Permission denied"):
        ignore_generated(tmp_path, layout)
    assert gitignore.read_text(encoding="utf-8") == "/.skillc/runtime/\n"


def test_init_with_a_gitignore_that_may_only_be_read_makes_nothing(
    tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``skc init`` (and ``init NAME`` making a project) with a read-only ``.gitignore`` made
    ``.skillc/skills/`` (the folder a project now), then failed with exit 1: it is
    CannotCreate before anything is made. One holding every line init adds is no error."""
    import errno

    from skillc_index.command_errors import CannotCreate

    folder = tmp_path / "checkout"
    folder.mkdir()
    gitignore = folder / ".gitignore"
    gitignore.write_text("node_modules/\n", encoding="utf-8")
    real_open = os.open

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path) == str(gitignore) and flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    layout = Layout.discover(folder, env)
    said = f"error[E999]: cannot create '{gitignore}': Permission denied"
    for init in (lambda: init_project(layout), lambda: init_skill("demo", layout)):
        with pytest.raises(CannotCreate) as failed:
            init()
        assert str(failed.value) == said
        assert [path.name for path in folder.iterdir()] == [".gitignore"]
    monkeypatch.undo()
    gitignore.write_text("/.skillc/runtime/\n/.skillc/logs/\n", encoding="utf-8")
    monkeypatch.setattr(os, "open", read_only)
    assert init_project(layout).created


@needs_git
def test_init_in_git_asks_of_a_read_only_gitignore_what_it_would_add(
    tmp_path: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a git work tree ``init`` adds the default agent folder's line too: a read-only
    ``.gitignore`` holding both ``.skillc`` lines passed the check, ``.skillc/skills/`` was
    made, then the write failed (E999). The check asks what the write would add: that file is
    refused before anything is made, and one whose ``.skillc/`` line git honours (nothing to
    add) is no error."""
    import errno

    from skillc_index.command_errors import CannotCreate

    folder = tmp_path / "checkout"
    folder.mkdir()
    _git(folder, "init", "-q")
    gitignore = folder / ".gitignore"
    real_open = os.open

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path) == str(gitignore) and flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    layout = Layout.discover(folder, env)
    gitignore.write_text("/.skillc/runtime/\n/.skillc/logs/\n", encoding="utf-8")
    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(CannotCreate, match="Permission denied"):
        init_project(layout)
    assert sorted(path.name for path in folder.iterdir()) == [".git", ".gitignore"]
    monkeypatch.undo()
    gitignore.write_text(".skillc/\n/.claude/skills/\n", encoding="utf-8")
    monkeypatch.setattr(os, "open", read_only)
    assert init_project(layout).gitignore == ()
    assert (folder / ".skillc" / "skills").is_dir()


@needs_git
def test_ignore_generated_asks_git_what_is_tracked(tmp_path: Path, env: dict[str, str]) -> None:
    _git(tmp_path, "init", "-q")
    assert default_agent_folders() == (".claude/skills",)
    assert tracked(tmp_path, (".skillc", ".claude/skills")) == set()
    odd = tmp_path / ".claude" / "skills" / "-n x"  # a name that reads like an option
    odd.mkdir(parents=True)
    (odd / "SKILL.md").write_text("x\n", encoding="utf-8")
    _git(tmp_path, "add", ".claude")
    assert tracked(tmp_path, (".skillc", ".claude/skills", ".claude/skills/-n x")) == {
        ".claude/skills",
        ".claude/skills/-n x",
    }
    assert tracked(tmp_path, (".claude/*", ":(glob).claude/**", ".skillc")) == set()  # literal
    layout = Layout.discover(tmp_path, env)
    assert ignore_generated(tmp_path, layout) == ("/.skillc/runtime/", "/.skillc/logs/")


@needs_git
def test_what_git_ignores_already_gets_no_line(tmp_path: Path, env: dict[str, str]) -> None:
    """A ``.gitignore`` whose ``.skillc/`` line ignores the project's store got
    ``/.skillc/runtime/`` and ``/.skillc/logs/`` appended (a checkout's tracked ``.gitignore``
    left modified by ``skc init``): git is asked (``check-ignore``). Near misses: a folder only
    a rule for another folder names, and a line naming a file, still get theirs."""
    _git(tmp_path, "init", "-q")
    (tmp_path / ".gitignore").write_text(".skillc/\n/.claude/skills\n", encoding="utf-8")
    assert ignored(tmp_path, [".skillc/runtime/", ".skillc/logs/", ".claude/skills/", "x/"]) == {
        ".skillc/runtime/",
        ".skillc/logs/",
        ".claude/skills/",
    }
    layout = Layout.discover(tmp_path, env)
    assert ignore_generated(tmp_path, layout) == ()
    (tmp_path / ".gitignore").write_text("/.skillc/runtime.txt\n", encoding="utf-8")
    added = ("/.skillc/runtime/", "/.skillc/logs/", "/.claude/skills/")
    assert ignore_generated(tmp_path, layout) == added


@needs_git
def test_git_is_never_a_file_of_the_working_folder(
    tmp_path: Path, cli: Callable[..., Any], clean_env: dict[str, str]
) -> None:
    """``PATH=:/usr/bin`` (``PATH=$X:$PATH`` with ``X`` unset) or ``.`` in it: ``skc init``
    ran the ``./git`` a checkout ships. Only absolute ``PATH`` entries are searched
    (:func:`skillc_index.programs.on_path`, which ``skc run`` and ``exec`` use too)."""
    from skillc_index.programs import on_path

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    _git(checkout, "init", "-q")
    ran = tmp_path / "ran.txt"
    (checkout / "git").write_text(f'#!/bin/sh\necho "$*" > {ran}\n', encoding="utf-8")
    (checkout / "git").chmod(0o755)
    real = str(Path(str(shutil.which("git"))).parent)
    for entry in ("", ".", "relative"):
        path = f"{entry}:{real}"
        assert on_path("git", {"PATH": path}) == str(Path(real) / "git")
        assert on_path("git", {"PATH": entry}) is None
        done = cli("skillc-index")("init", cwd=checkout, env_extra={"PATH": path})
        assert done.returncode == 0, done.stderr
        assert not ran.exists()
        shutil.rmtree(checkout / ".skillc")
    (checkout / "relative").mkdir()
    (checkout / "relative" / "git").symlink_to(checkout / "git")
    done = cli("skillc-index")("init", cwd=checkout, env_extra={"PATH": f"relative:{real}"})
    assert done.returncode == 0 and not ran.exists()


@needs_git
def test_init_project_reports_the_lines(tmp_path: Path, env: dict[str, str]) -> None:
    _git(tmp_path, "init", "-q")
    result = init_project(Layout.discover(tmp_path, env))
    lines = ("/.skillc/runtime/", "/.skillc/logs/", "/.claude/skills/")
    assert result.gitignore == lines
    assert result.to_dict()["gitignore"] == list(lines)
    assert init_project(Layout.discover(tmp_path, env)).gitignore == ()


@needs_git
def test_the_skill_sources_of_a_new_repository_are_not_ignored(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """Nothing tracked yet: ``.skillc/skills/`` (the sources) is still not ignored, only what
    skillc generates in ``.skillc/``."""
    _git(tmp_path, "init", "-q")
    init_project(Layout.discover(tmp_path, env))
    init_skill("my-skill", Layout.discover(tmp_path, env))
    for generated in (".skillc/runtime/x/SKILL.md", ".skillc/logs/x.jsonl"):
        _git(tmp_path, "check-ignore", "-q", generated)  # exit 0: ignored
    kept = subprocess.run(
        ["git", "-C", str(tmp_path), "check-ignore", "-q", ".skillc/skills/my-skill/SKILL.md"],
        check=False,
    )
    assert kept.returncode == 1  # not ignored
    status = subprocess.run(
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--ignored", "-uall"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()  # fmt: skip
    assert "?? .skillc/skills/my-skill/SKILL.md" in status
    assert not any(line.startswith("!!") for line in status)


# -- the agent folders a build deploys into (issue 34) ---------------------------------------


@needs_git
def test_ignore_agent_folders_only_inside_the_project(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    init_project(Layout.discover(project, env))
    layout = Layout.discover(project, env)
    root = layout.project_root
    assert root is not None
    deployed = [
        root / ".cursor" / "skills" / "x",
        root / ".agents" / "skills" / "x",
        root / ".cursor" / "skills" / "y",  # the same folder: one line
        root / ".claude" / "skills" / "x",  # there since init
        root / "x",  # the project itself: never
        root / ".skillc" / "custom" / "x",  # skillc's own folder: never
        tmp_path / "elsewhere" / "skills" / "x",  # outside: never
    ]
    assert ignore_agent_folders(layout, deployed) == ("/.cursor/skills/", "/.agents/skills/")
    assert ignore_agent_folders(layout, deployed) == ()
    text = (root / ".gitignore").read_text(encoding="utf-8")
    assert text.endswith("/.claude/skills/\n/.cursor/skills/\n/.agents/skills/\n")
    # a folder git tracks files in is the user's: only the deployments there are ignored,
    # never one git tracks
    kept = root / ".github" / "skills" / "mine"
    kept.mkdir(parents=True)
    (kept / "SKILL.md").write_text("x\n", encoding="utf-8")
    _git(root, "add", ".github")
    github = root / ".github" / "skills"
    assert ignore_agent_folders(layout, [github / "mine", github / "x"]) == ("/.github/skills/x",)


def test_ignore_agent_folders_needs_git_and_a_project(tmp_path: Path, env: dict[str, str]) -> None:
    init_project(Layout.discover(tmp_path, env))
    layout = Layout.discover(tmp_path, env)
    before = (tmp_path / ".gitignore").read_text(encoding="utf-8")
    assert ignore_agent_folders(layout, [tmp_path / ".cursor" / "skills" / "x"]) == ()
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == before
    outside = Layout.discover(tmp_path / "nowhere", env)  # no project there
    assert ignore_agent_folders(outside, [tmp_path / ".cursor" / "skills" / "x"]) == ()


#: Python run with files limited to ``sys.argv[2]`` bytes (``RLIMIT_FSIZE``): a write past it
#: fails (EFBIG) as on a full disk, part of it written first, and again when the file closes.
_LIMITED = (
    "import os, resource, signal, sys\n"
    "from pathlib import Path\n"
    "from skillc_index import Layout, format_diagnostic\n"
    "from skillc_index.diagnostics import SkillcError\n"
    "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
    "hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]\n"
    "resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), hard))\n"
    "layout = Layout.discover(Path(sys.argv[1]), dict(os.environ))\n"
)


@pytest.mark.parametrize("before", [None, "node_modules/\n"])
def test_a_gitignore_the_disk_refuses_is_named_and_left_as_it_was(
    tmp_path: Path, env: dict[str, str], before: str | None
) -> None:
    """``init`` on a full disk said ``error[E999]: OSError: [Errno 28] No space left on
    device`` (the write failed again, unnamed, when the file closed) and left an empty
    ``.gitignore`` it had made (``build --target`` too, failing after its deployment). The
    error names the file; a file made for the lines is removed, one there is cut back to
    what it held (nothing of a line written part way)."""
    gitignore = tmp_path / ".gitignore"
    if before is not None:
        gitignore.write_text(before, encoding="utf-8")
    code = _LIMITED + (
        "from skillc_index.build.scaffold import init_project\n"
        "try:\n    init_project(layout)\n"
        "except SkillcError as exc:\n    print(format_diagnostic(exc.diagnostic))\n"
    )
    limit = str(len(before or "") + 4)
    run = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), limit],
        capture_output=True, text=True, env={**os.environ, **env}, check=False, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    named = f"error[E999]: cannot create '{tmp_path.resolve() / '.gitignore'}'"
    assert run.stdout.startswith(named)
    if before is None:
        assert not gitignore.exists()
    else:
        assert gitignore.read_text(encoding="utf-8") == before


@needs_git
def test_builds_at_once_add_a_line_once(tmp_path: Path, env: dict[str, str]) -> None:
    """Concurrent appenders (a batch build's processes) read the file again under a lock."""
    _git(tmp_path, "init", "-q")
    code = (
        "import os, sys; from pathlib import Path; from skillc_index import Layout; "
        "from skillc_index.build.scaffold import ignore_folders; root = Path(sys.argv[1]); "
        "layout = Layout.discover(root, os.environ); "
        "print(ignore_folders(root, ['.cursor/skills', '.agents/skills'], layout))"
    )
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path)],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, **env},
        )
        for _ in range(6)
    ]
    outputs = [run.communicate(timeout=60)[0] for run in runs]
    assert all(run.returncode == 0 for run in runs)
    text = (tmp_path / ".gitignore").read_text(encoding="utf-8")
    assert text == "/.cursor/skills/\n/.agents/skills/\n"
    assert sum("/.cursor/skills/" in out for out in outputs) == 1


def _ignored(root: Path, *paths: str) -> set[str]:
    """Which of ``paths`` git ignores (``git check-ignore``)."""
    found = subprocess.run(
        ["git", "-C", str(root), "check-ignore", "--", *paths],
        check=False, capture_output=True, text=True,
    ).stdout.splitlines()  # fmt: skip
    return set(found)


@needs_git
def test_skills_another_tool_installed_are_not_ignored(
    tmp_path: Path, env: dict[str, str], write_skill: WriteSkill
) -> None:
    """``npx skills add`` in a project: a skill in ``.agents/skills``, a link to it and a
    skill folder in ``.claude/skills``. ``init`` and a build git-ignored both agent folders
    whole, so those skills silently dropped out of git: only skillc's deployments are ignored
    there now; an agent folder holding nothing but them still is, whole."""
    from skillc_index.build.skill import build_skill

    _git(tmp_path, "init", "-q")
    write_skill(tmp_path / ".agents" / "skills" / "webapp-testing", "webapp-testing", "Test.")
    claude = tmp_path / ".claude" / "skills"
    claude.mkdir(parents=True)
    (claude / "webapp-testing").symlink_to(Path("../../.agents/skills/webapp-testing"))
    write_skill(claude / "brainstorming", "brainstorming", "Ideas.")
    (tmp_path / "skills-lock.json").write_text("{}\n", encoding="utf-8")
    assert init_project(Layout.discover(tmp_path, env)).gitignore == (
        "/.skillc/runtime/",
        "/.skillc/logs/",
    )
    init_skill("my-skill", Layout.discover(tmp_path, env))
    init_skill("other", Layout.discover(tmp_path, env))
    layout = Layout.discover(tmp_path, env)
    built = build_skill("my-skill", layout, targets=["claude,agents,cursor"])
    assert built.gitignore == (
        "/.claude/skills/my-skill",
        "/.agents/skills/my-skill",
        "/.cursor/skills/",  # only skillc's deployment there
    )
    assert build_skill("other", layout, targets=["cursor"]).gitignore == ()
    theirs = (
        ".agents/skills/webapp-testing/SKILL.md",
        ".claude/skills/webapp-testing",
        ".claude/skills/brainstorming/SKILL.md",
        "skills-lock.json",
    )
    mine = (".claude/skills/my-skill", ".agents/skills/my-skill", ".cursor/skills/other")
    assert _ignored(tmp_path, *theirs, *mine) == set(mine)
    assert build_skill("my-skill", layout, targets=["claude,agents"], force=True).gitignore == ()


@needs_git
def test_a_copy_another_build_is_writing_is_not_the_users(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """A batch's builds run at once: one looked at the agent folder while another's copy was
    half written in its staging folder (``.<name>.deploy.<pid>-<hex>``, a SKILL.md and no
    manifest yet), took it for a skill of the user's and added a line for its own
    deployment beside the folder's (``/.agents/skills/zarr-python``, ``/.agents/skills/``).
    skillc's temporary names are passed over; a folder of the user's, hidden or not, is not."""
    from skillc_index.build.skill import build_skill

    _git(tmp_path, "init", "-q")
    init_skill("my-skill", Layout.discover(tmp_path, env))
    layout = Layout.discover(tmp_path, env)
    agents = tmp_path / ".agents" / "skills"
    staging = agents / f".other.deploy.{os.getpid()}-0123abcd"
    staging.mkdir(parents=True)
    (staging / "SKILL.md").write_text("---\nname: other\n---\n", encoding="utf-8")
    built = build_skill("my-skill", layout, targets=["codex"], copy=True)
    assert built.gitignore == ("/.agents/skills/",)
    (tmp_path / ".gitignore").write_text("", encoding="utf-8")
    (agents / ".mine.deploy.1-xyz").mkdir()  # not a name skillc makes: the user's
    built = build_skill("my-skill", layout, targets=["codex"], copy=True, force=True)
    assert built.gitignore == ("/.agents/skills/my-skill",)


@needs_git
def test_a_line_already_there_is_kept_when_the_folder_gains_a_skill(
    tmp_path: Path, env: dict[str, str], write_skill: WriteSkill
) -> None:
    """An agent folder ignored whole (it held only skillc's deployments) that later gains a
    skill of the user's keeps its line (skillc never removes one: it may be the user's);
    without it, the next build ignores its deployment alone."""
    from skillc_index.build.skill import build_skill

    _git(tmp_path, "init", "-q")
    init_skill("my-skill", Layout.discover(tmp_path, env))
    layout = Layout.discover(tmp_path, env)
    assert build_skill("my-skill", layout).gitignore == ()  # init added /.claude/skills/
    write_skill(tmp_path / ".claude" / "skills" / "mine", "mine", "Mine.")
    assert build_skill("my-skill", layout, force=True).gitignore == ()
    gitignore = tmp_path / ".gitignore"
    text = gitignore.read_text(encoding="utf-8")
    assert text.endswith("/.claude/skills/\n")
    gitignore.write_text(text.replace("/.claude/skills/\n", ""), encoding="utf-8")
    assert build_skill("my-skill", layout, force=True).gitignore == ("/.claude/skills/my-skill",)
    assert _ignored(tmp_path, ".claude/skills/mine/SKILL.md") == set()


@needs_git
def test_an_agent_folder_is_looked_at_only_in_git_and_a_users_folder_first(
    tmp_path: Path, env: dict[str, str], write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every build of a batch asked of each entry of the agent folder whether skillc
    deployed it, whole (a `realpath` each): 581 unchanged skills took 25 s of CPU, outside
    git too, where no agent folder gets a line. Outside a work tree no entry is looked at; in
    one, a folder (a user's skill, most often) is looked at before the links."""
    from skillc_index.build import scaffold
    from skillc_index.inventory import deployed

    looked: list[str] = []
    real = deployed.deployed_source

    def counted(path: str, *args: object, **kwargs: object) -> object:
        looked.append(Path(path).name)  # the entry's real path: a link's target
        if Path(path).name.startswith("dep-"):  # stands for one of skillc's deployments
            return path
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(deployed, "deployed_source", counted)
    claude = tmp_path / ".claude" / "skills"
    for n in range(30):
        (tmp_path / "targets" / f"dep-{n}").mkdir(parents=True)
        (claude / f"link-{n}").parent.mkdir(parents=True, exist_ok=True)
        (claude / f"link-{n}").symlink_to(tmp_path / "targets" / f"dep-{n}")
    write_skill(claude / "users-own", "users-own", "Mine.")
    layout = Layout.discover(tmp_path, env)
    assert scaffold.ignore_folders(tmp_path, [".claude/skills"], layout) == scaffold.Appended()
    assert looked == []  # no git: agent folders get no line, so none is looked at
    _git(tmp_path, "init", "-q")
    assert scaffold.ignore_folders(tmp_path, [".claude/skills"], layout) == scaffold.Appended()
    assert looked == ["users-own"]  # the folder first: the look ends there, no link asked


_HOLD = (
    "import fcntl, os, sys, time\n"
    "fd = os.open(sys.argv[1], os.O_RDONLY)\n"  # read-only: what any reader of it may do
    "fcntl.flock(fd, fcntl.LOCK_EX)\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)


def test_a_lock_another_process_holds_on_the_gitignore_is_waited_for_a_bounded_time(
    cli: Callable[..., Any],
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    line_within: Callable[..., Any],
) -> None:
    """Any user who may read a project's ``.gitignore`` may ``flock`` it: ``skc init`` and
    ``skc build`` waited for that lock for ever (a blocking ``flock``). They wait at most
    ``GITIGNORE_LOCK_WAIT_S``: ``init`` is then E999 naming the file and saying another
    process holds it, with nothing added; ``build`` builds and warns. Near miss: released,
    ``init`` adds its lines."""
    import time

    from skillc_index.build import scaffold

    monkeypatch.setattr(scaffold, "GITIGNORE_LOCK_WAIT_S", 0.5)
    skc = cli("skillc_index")
    assert skc("init", "held").returncode == 0
    gitignore = project / ".gitignore"
    before = "*.log\n"
    gitignore.write_text(before, encoding="utf-8")
    with subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(gitignore)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        assert holder.stdin is not None
        assert line_within(holder) == "held\n"
        start = time.monotonic()
        init = skc("init")
        waited = time.monotonic() - start
        build = skc("build", "held")
        holder.stdin.close()
    assert init.returncode == 1 and init.stdout == ""
    assert init.stderr.startswith(f"error[E999]: cannot create '{gitignore}': another process")
    assert "holds a lock on it (waited 0.5 s)" in init.stderr and "Traceback" not in init.stderr
    assert 0.5 <= waited < 10
    assert build.returncode == 0, build.stderr
    assert f"warning: .gitignore not updated: error[E999]: cannot create '{gitignore}'" in (
        build.stderr
    )
    assert gitignore.read_text(encoding="utf-8") == before
    assert skc("init").returncode == 0  # released: the lines go in
    assert gitignore.read_text(encoding="utf-8").startswith(before + "/.skillc/runtime/\n")


def test_the_result_s_layout_holds_what_init_made(tmp_path: Path) -> None:
    """``init_skill`` in a folder with no project makes it one, but the layout given still
    has none (the README's example then failed with E001 at ``resolve_skill``): the result's
    ``layout`` is the one ``Layout.discover`` finds there now; the layout given where nothing
    changed (a project already there, the global store); ``init_project`` in a folder
    below a project makes that folder the project."""
    from skillc_index import resolve_skill

    env = {"SKILLC_HOME": str(tmp_path / "home")}
    new = tmp_path / "new"
    new.mkdir()
    given = Layout.discover(new, env)
    made = init_skill("my-skill", given)
    assert given.project_root is None and made.layout.project_root == new
    assert made.layout == Layout.discover(new, env)
    assert resolve_skill("my-skill", made.layout).source == new / ".skillc/skills/my-skill"
    again = init_skill("other", made.layout)
    assert again.layout is made.layout  # a project already: the layout given
    home = init_skill("mine", made.layout, global_store=True)
    assert home.layout is made.layout and home.scope == "global"
    below = new / "sub"
    below.mkdir()
    inner = Layout.discover(below, env)
    assert inner.project_root == new
    assert init_project(inner).layout == Layout.discover(below, env)
    assert init_project(inner).layout.project_root == below
