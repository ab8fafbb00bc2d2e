"""``skc init`` end to end (RFC-0006:C-INIT)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]

TEMPLATE = '---\nname: my-skill\ndescription: "TODO: Add skill description"\n---\n\n# My Skill\n'


def tree(root: Path) -> list[str]:
    """Every path under ``root``, relative, sorted: to check that nothing was created."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


def assert_e100(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 1, proc
    assert proc.stdout == ""
    first = proc.stderr.splitlines()[0]
    assert first.startswith("error[E100]: invalid option: '"), first
    assert first.endswith("'"), first


# -- project ------------------------------------------------------------------------------------


def test_init_creates_the_project_structure(skc: Run, project: Path) -> None:
    proc = skc("init")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.strip(), "init must print a confirmation"
    assert (project / ".skillc").is_dir()
    assert (project / ".skillc" / "skills").is_dir()
    assert tree(project) == [".gitignore", ".skillc", ".skillc/skills"]


def test_init_is_idempotent(skc: Run, project: Path) -> None:
    assert skc("init").returncode == 0
    (project / ".skillc" / "skills" / "keep").mkdir()
    (project / ".skillc" / "config.toml").write_text('[search]\ntokenizer = "cjk"\n')
    proc = skc("init")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
    assert "error" not in proc.stderr
    # nothing existing was removed or rewritten
    assert (project / ".skillc" / "skills" / "keep").is_dir()
    assert (project / ".skillc" / "config.toml").read_text() == '[search]\ntokenizer = "cjk"\n'


@pytest.mark.parametrize("kind", ["folder", "fifo", "link out"])
@pytest.mark.parametrize("args", [(), ("demo",)], ids=["project", "skill"])
def test_init_that_cannot_write_gitignore_makes_nothing(
    skc: Run, project: Path, tmp_path: Path, kind: str, args: tuple[str, ...]
) -> None:
    """A ``.gitignore`` that is a folder, a FIFO or a link out of the project: E999 or E012
    before anything is made (a FIFO or a link made `.skillc/skills/`, and with a name the
    skill, before the error)."""
    gitignore = project / ".gitignore"
    if kind == "folder":
        gitignore.mkdir()
    elif kind == "fifo":
        os.mkfifo(gitignore)
    else:
        gitignore.symlink_to(tmp_path / "outside")
    result = skc("init", *args)
    assert result.returncode == 1
    code = "E012" if kind == "link out" else "E999"
    assert result.stderr.startswith(f"error[{code}]: "), result.stderr
    assert sorted(p.name for p in project.iterdir()) == [".gitignore"]


def test_init_through_a_checkouts_skillc_link_out_of_the_project_makes_nothing(
    skc: Run, project: Path, tmp_path: Path
) -> None:
    """A checkout's ``.skillc`` linking out of the project never directs init's writes."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / ".skillc").symlink_to(elsewhere)
    result = skc("init")
    assert result.returncode == 1
    assert result.stderr.startswith("error[E012]: ")
    assert list(elsewhere.iterdir()) == []
    assert not (project / ".gitignore").exists()


def test_init_in_the_skillc_home_is_the_global_store(skc: Run, home: Path) -> None:
    """The skillc home is never a project: init there makes the global store, writes no
    .gitignore into the home folder, and a skill made there is global."""
    result = skc("init", cwd=home)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("This is the skillc home, not a project")
    assert (home / ".skillc" / "skills").is_dir()
    assert not (home / ".gitignore").exists()
    data = json.loads(skc("init", "foo", "--format", "json", cwd=home).stdout)
    assert data["scope"] == "global" and data["path"] == str(home / ".skillc" / "skills" / "foo")
    assert json.loads(skc("init", "--format", "json", cwd=home).stdout)["kind"] == "global"
    assert not (home / ".gitignore").exists()


def test_init_json(skc: Run, project: Path) -> None:
    first = skc("init", "--format", "json")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["kind"] == "project"
    assert data["created"] is True
    assert Path(data["path"]) == project / ".skillc" / "skills"
    again = json.loads(skc("init", "--format", "json").stdout)
    assert again["created"] is False
    assert again["kind"] == "project"


# -- skill --------------------------------------------------------------------------------------


def test_init_skill_writes_the_rfc_template(skc: Run, project: Path) -> None:
    proc = skc("init", "my-skill")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "my-skill" in proc.stdout
    skill_file = project / ".skillc" / "skills" / "my-skill" / "SKILL.md"
    assert skill_file.read_bytes().decode("utf-8") == TEMPLATE


@pytest.mark.parametrize(
    ("name", "title"),
    [("pdf", "Pdf"), ("data-2-csv", "Data 2 Csv"), ("a-b-c", "A B C")],
)
def test_init_skill_title_cases_the_heading(skc: Run, project: Path, name: str, title: str) -> None:
    assert skc("init", name).returncode == 0
    text = (project / ".skillc" / "skills" / name / "SKILL.md").read_text(encoding="utf-8")
    assert text.startswith(f"---\nname: {name}\n")
    assert text.splitlines()[-1] == f"# {title}"


def test_init_skill_from_a_subfolder_uses_the_project_root(skc: Run, project: Path) -> None:
    assert skc("init").returncode == 0
    deep = project / "src" / "pkg"
    deep.mkdir(parents=True)
    proc = skc("init", "my-skill", cwd=deep)
    assert proc.returncode == 0, proc.stderr
    assert (project / ".skillc" / "skills" / "my-skill" / "SKILL.md").read_text() == TEMPLATE
    assert not (deep / ".skillc").exists()
    assert not (project / "src" / ".skillc").exists()


def test_init_existing_skill_is_e050_and_leaves_the_file_alone(skc: Run, project: Path) -> None:
    assert skc("init", "my-skill").returncode == 0
    skill_file = project / ".skillc" / "skills" / "my-skill" / "SKILL.md"
    edited = "---\nname: my-skill\ndescription: Mine, hands off.\n---\n\n# Mine\n"
    skill_file.write_text(edited, encoding="utf-8")
    (project / "sub").mkdir()
    for cwd in (project, project / "sub"):
        proc = skc("init", "my-skill", cwd=cwd)
        assert proc.returncode == 1, proc
        assert proc.stdout == ""
        assert proc.stderr.splitlines()[0] == "error[E050]: skill 'my-skill' already exists"
        assert skill_file.read_text(encoding="utf-8") == edited


def test_init_skill_json(skc: Run, project: Path) -> None:
    proc = skc("init", "my-skill", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data == {
        "kind": "skill",
        "name": "my-skill",
        "scope": "project",
        "path": str(project / ".skillc" / "skills" / "my-skill"),
        "created": True,
        # the folder became a project (no git: what skillc generates in .skillc/ only)
        "gitignore": ["/.skillc/runtime/", "/.skillc/logs/"],
    }


def test_init_global_skill(skc: Run, project: Path, home: Path, tmp_path: Path) -> None:
    real_skill = Path.home() / ".skillc" / "skills" / "my-skill"
    existed_before = real_skill.exists()
    fake_os_home = tmp_path / "os-home"
    fake_os_home.mkdir()
    proc = skc("init", "my-skill", "--global", env_extra={"HOME": str(fake_os_home)})
    assert proc.returncode == 0, proc.stderr
    assert "my-skill" in proc.stdout
    skill_file = home / ".skillc" / "skills" / "my-skill" / "SKILL.md"
    assert skill_file.read_text(encoding="utf-8") == TEMPLATE
    # $SKILLC_HOME replaced the home folder: nothing in the OS home, nothing in the project
    assert tree(fake_os_home) == []
    assert tree(project) == []
    assert real_skill.exists() == existed_before
    # a second --global init of the same name is refused like a project one
    again = skc("init", "my-skill", "--global")
    assert again.returncode == 1
    assert again.stderr.splitlines()[0] == "error[E050]: skill 'my-skill' already exists"


def test_init_global_json(skc: Run, home: Path) -> None:
    proc = skc("init", "--global", "g-skill", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["scope"] == "global"
    assert data["name"] == "g-skill"
    assert data["kind"] == "skill"
    assert data["created"] is True
    assert Path(data["path"]) == home / ".skillc" / "skills" / "g-skill"


def test_init_global_without_a_name_is_e100(skc: Run, project: Path, home: Path) -> None:
    assert_e100(skc("init", "--global"))
    assert tree(home) == []
    assert tree(project) == []


@pytest.mark.parametrize(
    "name",
    ["Bad_Name", "../escape", "MySkill", "trailing-", "double--hyphen", "a" * 65, "sub/dir"],
)
def test_init_invalid_name_is_e100_and_creates_nothing(
    skc: Run, project: Path, home: Path, tmp_path: Path, name: str
) -> None:
    proc = skc("init", name)
    assert_e100(proc)
    assert tree(project) == []
    assert tree(home) == []
    assert not (tmp_path / "escape").exists()
    # the same inside an existing project, and for the global store
    assert skc("init").returncode == 0
    assert_e100(skc("init", name))
    assert_e100(skc("init", name, "--global"))
    assert tree(project) == [".gitignore", ".skillc", ".skillc/skills"]
    assert tree(home) == []
    assert not (tmp_path / "escape").exists()


def test_a_file_where_the_skill_folder_would_be_is_no_skill_that_exists(
    ok: Run, skc: Run, project: Path
) -> None:
    """A regular file named as the skill in the store: E050 "skill 'x' already exists" said
    a skill was there. It is E999 "cannot create", as any folder that cannot be made."""
    ok("init")
    (project / ".skillc" / "skills" / "filex").write_text("notes\n", encoding="utf-8")
    proc = skc("init", "filex")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error[E999]: cannot create "), proc.stderr
    assert (project / ".skillc" / "skills" / "filex").read_text(encoding="utf-8") == "notes\n"
