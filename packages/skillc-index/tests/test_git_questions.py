"""How skillc asks git (``skillc_index._git``): three answers (no work tree, git's answer, git
could not answer), the last refused where something git might track would be replaced,
moved or copied (fail closed); and no program a repository's config names is ever run."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index._git import ignored, ignored_below, tracked

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

NO_GIT = "git is not on PATH"
Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSkill = Callable[..., Path]


def _git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(folder), *args],
        check=True,
        capture_output=True,
    )


def _committed(folder: Path) -> Path:
    _git(folder, "init", "-q")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-qm", "init")
    return folder


@pytest.fixture
def no_git(tmp_path: Path) -> dict[str, str]:
    """A ``PATH`` without git (a container image that copied a checkout's ``.git``)."""
    folder = tmp_path / "bin-without-git"
    folder.mkdir()
    return {"PATH": str(folder)}


def _refused(done: subprocess.CompletedProcess[str], code: str, words: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"error[{code}]"), done.stderr
    assert words in done.stderr and "Traceback" not in done.stderr


# -- three answers ---------------------------------------------------------------------------


def test_git_answers_none_for_no_work_tree_and_refuses_to_guess_where_it_cannot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillc_index._git import GitUnanswered

    outside = tmp_path / "outside"
    outside.mkdir()
    repo = tmp_path / "repo"
    (repo / "kept").mkdir(parents=True)
    (repo / "kept" / "a.txt").write_text("a", encoding="utf-8")
    (repo / ".gitignore").write_text("secret.env\n", encoding="utf-8")
    _committed(repo)
    assert tracked(outside, ["x"]) is None and ignored(outside, ["x"]) == set()
    assert tracked(repo, ["kept", "other"]) == {"kept"}
    assert ignored(repo, ["secret.env", "kept"]) == {"secret.env"}
    monkeypatch.setenv("PATH", str(outside))  # no git there
    assert tracked(outside, ["x"]) is None  # no .git: git is not even looked for
    for ask in (lambda: tracked(repo, ["kept"]), lambda: ignored_below(repo, ["secret.env"])):
        with pytest.raises(GitUnanswered) as caught:
            ask()
        assert caught.value.reason == NO_GIT and caught.value.top == str(repo.resolve())
    monkeypatch.undo()
    (repo / ".git" / "index").write_bytes(b"garbage")  # git fails there
    with pytest.raises(GitUnanswered) as caught:
        tracked(repo, ["kept"])
    assert caught.value.reason == ".git/index: index file smaller than expected"
    assert caught.value.hint.startswith(f"git fails there: repair {repo.resolve()}/.git (")
    assert "safe.directory" not in caught.value.hint  # only for "dubious ownership"
    gone = tmp_path / "worktree"
    gone.mkdir()
    (gone / ".git").write_text(f"gitdir: {tmp_path}/gone\n", encoding="utf-8")  # moved away
    with pytest.raises(GitUnanswered, match="not a git repository: ") as caught:
        tracked(gone, ["x"])
    assert "remove it if the folder is no checkout" in caught.value.hint
    assert "safe.directory" not in caught.value.hint
    bogus = tmp_path / "bogus"  # a .git that is no repository: git's answer is "none here"
    (bogus / ".git").mkdir(parents=True)
    assert tracked(bogus, ["x"]) is None and ignored_below(bogus, ["x"]) == set()


def test_git_s_whole_reason_and_the_hint_s_path_stay_one_line_each(
    project: Path, tmp_path: Path, write_skill: WriteSkill, cli: Callable[..., Run]
) -> None:
    """A copied submodule whose ``.git`` file names a repository that is gone, in a folder
    whose name holds a space and a newline: git's reason (which quotes the path) is whole,
    the hint's path one shell word, and neither makes up lines of its own."""
    odd = tmp_path / "dl a\nerror[E001]: forged"
    sub = write_skill(odd / "my-sub", files={"notes.md": "mine\n"})
    (sub / ".git").write_text(f"gitdir: {odd}/.git/modules/my-sub\n", encoding="utf-8")
    done = cli("skillc-index", script=True)("build", str(sub))
    _refused(done, "E070", "cannot ask git what it ignores: not a git repository: ")
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and lines[1].startswith("hint: git fails there: repair "), lines
    assert lines[0].endswith("/dl a\\nerror[E001]: forged/.git/modules/my-sub"), lines[0]
    word = "$'" + str(sub).replace("\n", "\\x0a") + "/.git'"
    assert lines[1].startswith(f"hint: git fails there: repair {word} (`git -C $'"), lines[1]
    assert not (project / ".skillc" / "skills" / "my-sub").exists()


@pytest.mark.parametrize("name", ["evil-skill", "evil sk'ill\nx"])
def test_a_skill_folder_shaped_like_a_bare_repository_is_not_asked(
    tmp_path: Path, name: str
) -> None:
    """A folder holding ``HEAD``, ``objects/``, ``refs/`` and a ``config`` naming another
    work tree, in a checkout whose ``.gitignore`` leaves out ``secrets.env``: git is not
    asked there (``safe.bareRepository=explicit``), so it cannot answer for the other
    folder (where nothing is ignored: the secret would have been copied). Git's reason
    names the folder (a newline in it escaped) and the hint says only what to do: the
    refusal's one line names the folder once, not twice."""
    from skillc_index._git import GitUnanswered

    other = tmp_path / "other"
    other.mkdir()
    outer = tmp_path / "outer"
    outer.mkdir()
    (outer / ".gitignore").write_text("secrets.env\n", encoding="utf-8")
    _git(outer, "init", "-q")
    evil = outer / name
    _git(tmp_path, "init", "-q", "--bare", str(evil))
    _git(evil, "config", "core.bare", "false")
    _git(evil, "config", "core.worktree", str(other))
    (evil / "secrets.env").write_text("API_TOKEN=s3cr3t\n", encoding="utf-8")
    with pytest.raises(GitUnanswered, match="cannot use bare repository") as caught:
        ignored_below(evil, ["secrets.env"])
    assert caught.value.bare == str(evil)
    assert caught.value.hint == "move it out of the skill, or remove it"
    line = caught.value.asking("what is ignored")
    assert "\n" not in line
    assert line.count(name.split("\n")[0]) == 1, line


# -- git cannot answer: fail closed ----------------------------------------------------------


def test_build_force_over_a_folder_git_may_track_is_refused_without_git(
    project: Path, write_skill: WriteSkill, cli: Callable[..., Run], no_git: dict[str, str]
) -> None:
    write_skill(project / ".skillc" / "skills" / "my-skill")
    mine = write_skill(project / ".claude" / "skills" / "my-skill", body="hand-written\n")
    _committed(project)
    done = cli("skillc-index", script=True)("build", "my-skill", "--force", env_extra=no_git)
    _refused(
        done,
        "E050",
        "hint: cannot ask git whether it tracks .claude/skills/my-skill: git is not on PATH; "
        "install git, or put it on PATH",
    )
    assert sorted(p.name for p in mine.parent.iterdir()) == ["my-skill"]  # nothing moved aside
    assert not mine.is_symlink() and "hand-written" in (mine / "SKILL.md").read_text("utf-8")


def test_route_install_moves_no_skill_git_may_track_without_git(
    project: Path, write_skill: WriteSkill, cli: Callable[..., Run], no_git: dict[str, str]
) -> None:
    team = write_skill(project / ".claude" / "skills" / "team-skill")
    _committed(project)
    run = cli("skillc-index", script=True)
    assert run("init").returncode == 0
    for dry in ((), ("--dry-run",)):
        done = run("route", "install", *dry, env_extra=no_git)
        _refused(done, "E050", "cannot ask git whether it tracks .claude/skills/team-skill")
    assert (team / "SKILL.md").is_file() and not team.is_symlink()
    assert not (project / ".skillc" / "skills" / "team-skill").exists()


def test_an_import_copies_nothing_git_ignores_when_git_cannot_say(
    project: Path,
    tmp_path: Path,
    write_skill: WriteSkill,
    cli: Callable[..., Run],
    no_git: dict[str, str],
) -> None:
    repo = tmp_path / "repo"
    tool = write_skill(repo / "my-tool", files={"secrets.env": "API_TOKEN=s3cr3t\n"})
    (repo / ".gitignore").write_text("secrets.env\n", encoding="utf-8")
    _committed(repo)
    run = cli("skillc-index", script=True)
    done = run("build", str(tool), env_extra=no_git)
    _refused(done, "E070", f"cannot import '{tool}': cannot ask git what it ignores: {NO_GIT}")
    assert not (project / ".skillc" / "skills" / "my-tool").exists()
    done = run("build", str(tool))  # git answers: imported without what it ignores
    assert done.returncode == 0, done.stderr
    assert not (project / ".skillc" / "skills" / "my-tool" / "secrets.env").exists()


def test_init_goes_on_with_a_warning_when_git_cannot_say(
    project: Path, write_skill: WriteSkill, cli: Callable[..., Run], no_git: dict[str, str]
) -> None:
    write_skill(project / ".claude" / "skills" / "team-skill")
    _committed(project)
    done = cli("skillc-index", script=True)("init", env_extra=no_git)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(
        f"warning: cannot ask git what it tracks in {project}: {NO_GIT}; install git"
    )
    lines = (project / ".gitignore").read_text("utf-8").splitlines()
    assert lines == ["/.skillc/runtime/", "/.skillc/logs/"]  # no agent folder


def test_build_and_route_install_warn_when_git_cannot_say_what_it_tracks(
    project: Path, write_skill: WriteSkill, cli: Callable[..., Run], no_git: dict[str, str]
) -> None:
    """As ``init`` does: the lines left out of ``.gitignore`` are said, not dropped."""
    write_skill(project / ".skillc" / "skills" / "my-skill")
    run = cli("skillc-index", script=True)
    assert run("init", cwd=_committed(project)).returncode == 0
    warning = f"warning: cannot ask git what it tracks in {project}: {NO_GIT}; install git"
    done = run("build", "my-skill", "-t", "cursor", env_extra=no_git)
    assert done.returncode == 0, done.stderr
    assert warning in done.stderr and "only skillc's own folders" in done.stderr
    assert "/.cursor/skills/" not in (project / ".gitignore").read_text("utf-8")
    assert run("build", "my-skill").returncode == 0  # into .claude/skills: one to route
    assert run("route", "install").returncode == 0  # git answers: the router's lines added
    (project / ".gitignore").write_text("/.skillc/runtime/\n/.skillc/logs/\n", "utf-8")
    done = run("route", "install", env_extra=no_git)  # routed already: nothing to move
    assert done.returncode == 0, done.stderr
    assert warning in done.stderr
    assert "/.skillc/router/" in (project / ".gitignore").read_text("utf-8")


@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another uid needs root")
def test_a_checkout_of_another_user_is_refused_with_the_safe_directory_hint(
    project: Path, tmp_path: Path, write_skill: WriteSkill, cli: Callable[..., Run]
) -> None:
    """A CI container running as root over a checkout of uid 1001: git exits 128 ("detected
    dubious ownership") unless ``safe.directory`` names it."""
    write_skill(project / ".skillc" / "skills" / "my-skill")
    mine = write_skill(project / ".claude" / "skills" / "my-skill")
    repo = tmp_path / "repo"
    tool = write_skill(repo / "my-tool", files={"secrets.env": "API_TOKEN=s3cr3t\n"})
    (repo / ".gitignore").write_text("secrets.env\n", encoding="utf-8")
    for folder in (_committed(project), _committed(repo)):
        subprocess.run(["chown", "-R", "12345:12345", str(folder)], check=True)
    run = cli("skillc-index", script=True)
    hint = f"`git config --global --add safe.directory {project}` or run as the checkout's owner"
    _refused(run("build", "my-skill", "--force"), "E050", hint)
    assert not mine.is_symlink() and [p.name for p in mine.parent.iterdir()] == ["my-skill"]
    done = run("build", str(tool))
    _refused(done, "E070", "detected dubious ownership")
    assert f"safe.directory {repo}`" in done.stderr
    assert not (project / ".skillc" / "skills" / "my-tool").exists()


# -- nothing a repository's config names is run ----------------------------------------------


def test_a_skill_with_its_own_git_config_runs_nothing_when_imported(
    project: Path, tmp_path: Path, write_skill: WriteSkill, cli: Callable[..., Run]
) -> None:
    """A downloaded skill folder shipping a ``.git`` whose config names commands (fsmonitor,
    hooks, filters, pagers, ssh, askpass, credential helper, an included config turning
    fsmonitor on again): importing it runs none of them."""
    marks = tmp_path / "marks"
    marks.mkdir()
    skill = write_skill(tmp_path / "dl" / "evil-skill", files={"notes.txt": "hi\n"})
    (skill / ".gitattributes").write_text("* filter=evil diff=evil\n", encoding="utf-8")
    _git(skill, "init", "-q")
    (skill / ".git" / "info" / "exclude").write_text("notes.txt\n", encoding="utf-8")
    _git(skill, "add", "SKILL.md", ".gitattributes")
    _git(skill, "commit", "-qm", "init")
    hooks = skill / ".git" / "evil-hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "pre-commit", "post-checkout", "reference-transaction"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {marks}/hook-{hook}\n", encoding="utf-8")
        (hooks / hook).chmod(0o755)
    included = tmp_path / "included.config"
    included.write_text(f'[core]\n\tfsmonitor = "touch {marks}/included; false"\n', "utf-8")
    settings = {
        "core.fsmonitor": f"touch {marks}/fsmonitor; false",
        "core.hooksPath": str(hooks),
        "filter.evil.clean": f"touch {marks}/clean; cat",
        "filter.evil.smudge": f"touch {marks}/smudge; cat",
        "filter.evil.process": f"touch {marks}/process",
        "diff.evil.textconv": f"touch {marks}/textconv; cat",
        "diff.external": f"touch {marks}/external",
        "core.pager": f"touch {marks}/pager; cat",
        "pager.ls-files": f"touch {marks}/pager-ls; cat",
        "core.sshCommand": f"touch {marks}/ssh",
        "core.askPass": f"touch {marks}/askpass",
        "credential.helper": f"!touch {marks}/credential",
        "core.editor": f"touch {marks}/editor",
    }
    for key, value in settings.items():
        _git(skill, "config", key, value)
    _git(skill, "config", "include.path", str(included))
    _git(skill, "config", "--unset", "core.fsmonitor")  # the included one only, then both
    for both in (False, True):
        if both:
            _git(skill, "config", "core.fsmonitor", settings["core.fsmonitor"])
        assert tracked(skill, ["SKILL.md"]) == {"SKILL.md"}
        assert ignored_below(skill, ["notes.txt", "SKILL.md"]) == {"notes.txt"}
        done = cli("skillc-index", script=True)("build", str(skill))
        assert done.returncode == 0, done.stderr
        assert list(marks.iterdir()) == []
    copy = project / ".skillc" / "skills" / "evil-skill"
    assert (copy / "SKILL.md").is_file() and not (copy / "notes.txt").exists()  # git answered
