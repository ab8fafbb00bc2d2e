"""How skillc asks git (``skillc_index._git``): no program a repository's config names is
ever run."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index._git import ignored_below, tracked

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSkill = Callable[..., Path]


def _git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(folder), *args],
        check=True,
        capture_output=True,
    )


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
