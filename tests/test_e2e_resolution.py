"""Names and paths end to end (issue 13, DECISIONS "Paths and resolution"): a hostile checkout
cannot take a store skill's name, an imported folder and its store copy are one skill, imported
names follow ``skc init``'s rule, and every command the stub prints works when pasted.

Real ``skc`` subprocesses in real folders: the "checkout" is the working directory holding a
folder named like a trusted store skill.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from e2e_support import access_rows, paste

Run = Callable[..., "subprocess.CompletedProcess[str]"]

FENCE = "```"


def tool_skill(folder: Path, said: str, *, name: str = "gt") -> Path:
    """A gibb.eri.sh skill with one tool ``hello`` that prints ``said``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\nversion: 1.0.0\ndescription: Tools. Use when testing.\n---\n\n"
        f"### hello\n\nSays hello.\n\n#### Parameters\n\nNone.\n\n"
        f"#### Command\n\n{FENCE}bash\necho {said}\n{FENCE}\n",
        encoding="utf-8",
    )
    return folder


def plain_skill(folder: Path, body: str = "Version one.", *, name: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name or folder.name}\ndescription: A skill. Use when testing.\n---\n\n"
        f"# Title\n\n## Usage\n\n{body}\n",
        encoding="utf-8",
    )
    return folder


# -- run: a bare word is a name, looked up in the stores only ---------------------------------


@pytest.fixture
def hostile_checkout(home: Path, project: Path) -> Path:
    """The trusted global skill ``gt`` and, in the working directory, a folder ``gt/`` of a
    checkout whose tool of the same name does something else."""
    tool_skill(home / ".skillc" / "skills" / "gt", "trusted")
    tool_skill(project / "gt", "hostile")
    return project


def test_run_bare_name_takes_the_store_skill_not_the_cwd_folder(
    ok: Run, hostile_checkout: Path
) -> None:
    proc = ok("run", "gt", "hello")
    assert proc.stdout == "trusted\n"
    assert "hostile" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("written", ["./gt", "gt/", "ABS"])
def test_run_takes_a_folder_written_as_a_path(
    ok: Run, hostile_checkout: Path, written: str
) -> None:
    given = str(hostile_checkout / "gt") if written == "ABS" else written
    assert ok("run", given, "hello").stdout == "hostile\n"


def test_run_bare_name_not_in_a_store_is_e001_with_a_hint(skc: Run, project: Path) -> None:
    tool_skill(project / "gt", "hostile")
    proc = skc("run", "gt", "hello")
    assert proc.returncode == 1
    first, *rest = proc.stderr.splitlines()
    assert first == "error[E001]: skill 'gt' not found"
    assert "./gt" in "\n".join(rest)
    assert "hostile" not in proc.stdout


def test_run_in_a_project_store_ignores_the_cwd_folder(ok: Run, project: Path) -> None:
    ok("init")
    tool_skill(project / ".skillc" / "skills" / "gt", "project-store")
    tool_skill(project / "gt", "hostile")
    assert ok("run", "gt", "hello").stdout == "project-store\n"


def test_read_commands_keep_the_folder_first_and_warn(ok: Run, hostile_checkout: Path) -> None:
    for args in (("outline", "gt"), ("tools", "gt"), ("sources", "gt")):
        proc = ok(*args)
        warnings = [line for line in proc.stderr.splitlines() if line.startswith("warning")]
        assert len(warnings) == 1, (args, proc.stderr)
        assert "./gt" in warnings[0] or "'gt'" in warnings[0]
        assert "~/.skillc/skills/gt" in warnings[0], warnings[0]
    assert "echo hostile" in ok("tools", "gt").stdout  # RFC-0007: the folder comes first


def test_no_warning_for_a_path_or_without_a_store_skill(ok: Run, project: Path, home: Path) -> None:
    tool_skill(project / "gt", "local")
    assert ok("outline", "gt").stderr == ""
    tool_skill(home / ".skillc" / "skills" / "gt", "trusted")
    assert ok("outline", "./gt").stderr == ""


# -- an imported folder and its store copy are one skill --------------------------------------


@pytest.fixture
def imported(ok: Run, project: Path) -> Path:
    """``my-skill/`` at the project root, built (so imported into the project store)."""
    ok("init")
    folder = plain_skill(project / "my-skill")
    proc = ok("build", "my-skill", "--format", "json")
    assert json.loads(proc.stdout)["import"] == "copy"
    return folder


def test_show_through_the_imported_folder_uses_the_store_copy(ok: Run, imported: Path) -> None:
    for given in ("my-skill", "./my-skill", str(imported)):
        proc = ok("show", given, "--section", "Usage")
        assert "Version one." in proc.stdout
        assert proc.stderr == "", proc.stderr  # no shadow warning: they are one skill
        search = ok("search", given, "version", "--format", "json")
        assert json.loads(search.stdout)["results"]


def test_build_after_an_edit_reimports_without_force(
    ok: Run, imported: Path, project: Path
) -> None:
    plain_skill(imported, "Version two.")
    proc = ok("build", "my-skill", "--format", "json")
    data = json.loads(proc.stdout)
    assert (data["import"], data["up_to_date"]) == ("replace", False)
    assert "Version two." in ok("show", "my-skill", "--section", "Usage").stdout
    store_copy = project / ".skillc" / "skills" / "my-skill" / "SKILL.md"
    assert "Version two." in store_copy.read_text(encoding="utf-8")
    plain_skill(imported, "Version three.")  # and again: the record follows each import
    ok("build", "./my-skill")
    assert "Version three." in ok("show", "./my-skill", "--section", "Usage").stdout


def test_store_copy_edited_in_place_still_needs_force(
    skc: Run, ok: Run, imported: Path, project: Path
) -> None:
    store_copy = project / ".skillc" / "skills" / "my-skill"
    plain_skill(store_copy, "Edited in the store.", name="my-skill")
    plain_skill(imported, "Version two.")
    proc = skc("build", "my-skill")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error[E050]: skill 'my-skill' already exists")
    assert "Edited in the store." in (store_copy / "SKILL.md").read_text(encoding="utf-8")
    ok("build", "my-skill", "--force")
    assert "Version two." in (store_copy / "SKILL.md").read_text(encoding="utf-8")


def test_store_copy_imported_from_elsewhere_still_needs_force(
    skc: Run, imported: Path, project: Path, tmp_path: Path
) -> None:
    other = plain_skill(tmp_path / "elsewhere" / "my-skill", "Another one.")
    proc = skc("build", str(other))
    assert proc.returncode == 1
    assert proc.stderr.startswith("error[E050]")
    # and the folder that was imported is still the store copy's origin
    plain_skill(imported, "Version two.")
    assert skc("build", "my-skill").returncode == 0


def test_a_copy_imported_before_the_record_existed_is_adopted(
    ok: Run, imported: Path, project: Path
) -> None:
    """A store copy made by an older skillc (no record) that holds exactly the folder's files
    is taken as imported from it on the next build, so reads through the folder work."""
    store_copy = project / ".skillc" / "skills" / "my-skill"
    for hidden in store_copy.glob(".*"):
        hidden.unlink()
    assert json.loads(ok("build", "my-skill", "--format", "json").stdout)["import"] == "unchanged"
    proc = ok("show", "my-skill", "--section", "Usage")
    assert ("Version one." in proc.stdout, proc.stderr) == (True, "")


def test_read_warns_when_the_store_copy_came_from_elsewhere(
    ok: Run, project: Path, tmp_path: Path
) -> None:
    ok("init")
    ok("build", str(plain_skill(tmp_path / "a" / "my-skill", "From a.")))
    plain_skill(project / "my-skill", "From the checkout.")
    proc = ok("outline", "my-skill")
    [warning] = proc.stderr.splitlines()
    assert warning.startswith("warning: ")
    assert "my-skill" in warning and ".skillc/skills/my-skill" in warning


@pytest.fixture
def imported_global(ok: Run, project: Path, home: Path) -> Path:
    """The project's ``.claude/skills/imp/`` imported ``--global``: its copy is
    ``~/.skillc/skills/imp``, its runtime the global one."""
    ok("init")
    folder = plain_skill(project / ".claude" / "skills" / "imp")
    data = json.loads(ok("build", ".claude/skills/imp", "--global", "--format", "json").stdout)
    assert (data["import"], data["source_path"]) == ("copy", str(home / ".skillc/skills/imp"))
    return folder


def test_a_folder_imported_globally_is_read_through_its_global_copy(
    ok: Run, imported_global: Path, project: Path, home: Path
) -> None:
    """DECISIONS: a folder imported into a store and its store copy are one skill, the global
    store too. Reads through the folder resolved to the folder itself (the import record was
    looked for in the project store only): logged in the project's runtime, read from the
    folder's files, and ``stats imp`` did not count them."""
    plain_skill(imported_global, "Version one.\n\n## Later\n\nNot imported yet.")
    shown = ok("show", ".claude/skills/imp", "--section", "Usage")
    assert ("Version one." in shown.stdout, shown.stderr) == (True, "")
    outline = json.loads(ok("outline", ".claude/skills/imp", "--format", "json").stdout)
    assert [h["text"] for h in outline["headings"]] == ["Title", "Usage"]  # the copy's index
    copy, runtime = home / ".skillc/skills/imp", home / ".skillc/runtime/imp"
    rows = [(row["command"], row["skill_path"]) for row in access_rows(runtime)]
    assert rows[1:] == [("show", str(copy)), ("outline", str(copy))]
    assert not (project / ".skillc" / "runtime").exists()
    stats = json.loads(ok("stats", "imp", "--format", "json").stdout)
    assert (stats["skill_path"], stats["data"]["uses"]) == (str(copy), 2)


def test_a_folder_imported_globally_is_imported_again_where_its_build_imports(
    ok: Run, imported_global: Path, project: Path, home: Path
) -> None:
    """Built again ``--global`` after an edit, the folder replaces its global copy without
    ``--force``; built without it, it is imported into the project store, as any folder."""
    plain_skill(imported_global, "Version two.")
    data = json.loads(ok("build", ".claude/skills/imp", "--global", "--format", "json").stdout)
    assert (data["import"], data["source_path"]) == ("replace", str(home / ".skillc/skills/imp"))
    assert "Version two." in ok("show", ".claude/skills/imp", "--section", "Usage").stdout
    # (not claude: the folder is the project's .claude/skills/imp, where it would deploy)
    built = ok("build", ".claude/skills/imp", "--target", "cursor", "--format", "json")
    data = json.loads(built.stdout)
    store_copy = project / ".skillc" / "skills" / "imp"
    assert (data["import"], data["source_path"]) == ("copy", str(store_copy))
    assert data["runtime_path"] == str(project / ".skillc" / "runtime" / "imp")


# -- imported names follow skc init's rule; the stub's commands work when pasted --------------


@pytest.mark.parametrize(
    "name",
    ["-x-y", ".hidden", "Upper", "a\n# Injected heading", "tab\there", "x" * 65, "a--b", "ab\n"],
)
def test_import_refuses_an_invalid_folder_name(
    skc: Run, project: Path, tmp_path: Path, name: str
) -> None:
    ok_init = skc("init")
    assert ok_init.returncode == 0
    folder = tmp_path / "src" / name
    plain_skill(folder, name="fine")
    proc = skc("build", str(folder))
    assert proc.returncode == 1, proc.stdout
    assert len(proc.stderr.splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith("error[E100]: invalid option: 'invalid skill name ")
    assert not [p for p in (project / ".skillc" / "skills").iterdir() if p.name != ".gitkeep"]


def test_init_and_import_share_the_rule(skc: Run) -> None:
    proc = skc("init", "Upper")
    assert proc.stderr.startswith("error[E100]: invalid option: 'invalid skill name 'Upper':")


def _stub_commands(stub: str) -> list[str]:
    return re.findall(r"^- `(skc [^`]*)`", stub, flags=re.MULTILINE)


@pytest.mark.parametrize("name", ["-x-y", "a b", "it's", "a\nb", "new\n# Injected", "a`b", "-a\rb"])
def test_every_stub_command_works_when_pasted(
    ok: Run, project: Path, bin_dir: Path, clean_env: dict[str, str], name: str
) -> None:
    """A store folder made by hand (never imported) with a hostile name still gets a stub whose
    lines are its own and whose commands run as printed, in bash."""
    ok("init")
    folder = project / ".skillc" / "skills" / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: odd\ndescription: Odd. Use when testing.\n---\n\n# Title\n\n## Usage\n\nhi\n",
        encoding="utf-8",
    )
    (folder / "ref.md").write_text("# Ref\n", encoding="utf-8")
    proc = ok("build", "--format", "json", "--", name)
    stub = Path(json.loads(proc.stdout)["stub"]).read_text(encoding="utf-8")
    lines = stub.splitlines()
    assert len(lines) == len(stub.split("\n")) - 1 <= 100
    assert [line for line in lines if line.startswith("#")] == ["# odd", "## Top Sections"]
    commands = _stub_commands(stub)
    assert len(commands) == 5, stub
    assert not [command for command in commands if "\n" in command], stub
    fill = {"'<heading>'": "'Usage'", "'<query>'": "hi", "<path>": "ref.md"}
    for command in commands:
        for placeholder, value in fill.items():
            command = command.replace(placeholder, value)
        run = paste(command, project, clean_env, bin_dir)
        assert "error[" not in run.stderr, (command, run.stderr)


# -- an import killed between its two renames -------------------------------------------------


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_store_copy_stranded_by_a_kill_is_restored(ok: Run, imported: Path, project: Path) -> None:
    """Killed after moving the old copy aside and before renaming the new one into place:
    the store holds ``.my-skill.old.<pid>-<hex>/my-skill`` and a complete staging folder."""
    store = project / ".skillc" / "skills"
    pid = _dead_pid()
    old = store / f".my-skill.old.{pid}-0badc0de"
    old.mkdir()
    (store / "my-skill").replace(old / "my-skill")
    staging = store / f".my-skill.import.{pid}-0badc0df"
    shutil.copytree(old / "my-skill", staging)
    assert not (store / "my-skill").exists()
    proc = ok("show", "my-skill", "--section", "Usage")
    assert "Version one." in proc.stdout
    assert (store / "my-skill" / "SKILL.md").is_file()
    assert sorted(p.name for p in store.iterdir()) == ["my-skill"]


def test_old_copy_left_after_a_complete_import_is_swept(
    ok: Run, imported: Path, project: Path
) -> None:
    store = project / ".skillc" / "skills"
    pid = _dead_pid()
    old = store / f".my-skill.old.{pid}-0badc0de"
    shutil.copytree(store / "my-skill", old / "my-skill")
    data = json.loads(ok("list", "--format", "json").stdout)
    assert [s["name"] for s in data["skills"]] == ["my-skill"]
    assert sorted(p.name for p in store.iterdir()) == ["my-skill"]


def test_old_copy_of_a_running_import_is_left_alone(ok: Run, imported: Path, project: Path) -> None:
    """A running import holds an ``flock`` on its folder (``cores.mkdir_held``): kept. Near
    miss: the same folder of a live pid that nobody holds (a pid taken again) is swept."""
    import fcntl

    store = project / ".skillc" / "skills"
    with subprocess.Popen(["sleep", "60"]) as alive:
        try:
            old = store / f".my-skill.old.{alive.pid}-0badc0de"
            shutil.copytree(store / "my-skill", old / "my-skill")
            fd = os.open(old, os.O_RDONLY | os.O_DIRECTORY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as the import holds it
                ok("list")
                assert old.is_dir()
            finally:
                os.close(fd)
            ok("list")
            assert not old.exists()
        finally:
            alive.kill()


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("outline", "x" * 300), "E001"),
        (("open", "x" * 100_000, "SKILL.md"), "E001"),
        (("show", "a/" * 3000, "--section", "s"), "E001"),
        (("find", "paint", "--path", "/tmp/" + "y" * 300), "E022"),
        (("stats", "--all", "--project", "/" + "y" * 300), "E031"),
        (("lint", "x" * 300), "E001"),
        (("exec", "x" * 300, "--", "true"), "E001"),
        (("run", "x" * 300, "t"), "E001"),
        (("eval", "x" * 300), "E001"),
    ],
)
def test_a_name_no_file_can_have_is_an_error_of_its_own(
    skc: Run, args: tuple[str, ...], code: str
) -> None:
    """A skill or folder whose name is longer than the file system allows (a model's 100 KB
    argument) is the error for a missing one, never E999, and the message quotes at most
    200 characters of it."""
    proc = skc(*args, env_extra={"SKILLC_FIND_SERVER": "0"})
    assert proc.returncode == 1, proc.stdout
    (line,) = [line for line in proc.stderr.splitlines() if line.startswith("error[")]
    assert line.startswith(f"error[{code}]"), line
    if code == "E001":
        assert len(line) < 300, line


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_lint_goes_on_past_a_name_no_file_can_have(
    skc: Run, project: Path, write_skill: Callable[..., Path], fmt: str
) -> None:
    """A lint target too long for the file system stopped the whole run (E999, the other
    targets' results lost, in every format): it is its E001 in its place, as a missing one."""
    write_skill(project / "good")
    proc = skc("lint", "good", "x" * 300, "--format", fmt)
    assert proc.returncode == 1, proc.stderr
    assert "E999" not in proc.stdout + proc.stderr
    if fmt == "json":
        good, bad = json.loads(proc.stdout)
        assert good["skill"] == "good" and good["error_count"] == 0
        assert bad["error"]["code"] == "E001"
    elif fmt == "sarif":
        (run,) = json.loads(proc.stdout)["runs"]
        notes = run["invocations"][0]["toolExecutionNotifications"]
        assert [note["descriptor"]["id"] for note in notes] == ["E001"]
    else:
        assert "good: 0 errors" in proc.stdout + proc.stderr
        assert "error[E001]: skill 'xxx" in proc.stderr


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("outline", "~nouser-skillc/x"), "E001"),
        (("build", "~nouser-skillc"), "E001"),
        (("lint", "~nouser-skillc"), "E001"),
        (("stats", "~nouser-skillc"), "E001"),
        (("find", "x", "--path", "~nouser-skillc"), "E022"),
        (("package", "--output", "~nouser-skillc/dist", "nothere"), "E001"),
    ],
)
def test_a_path_of_an_unknown_users_home_is_not_found(
    skc: Run, args: tuple[str, ...], code: str
) -> None:
    """``~name`` of no user: ``Path.expanduser`` raised ("Could not determine home
    directory", E999); as a shell does, the path is left as it is, and not found."""
    proc = skc(*args)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error[{code}]: "), proc.stderr


def test_e001_says_when_there_is_no_home_folder_to_search(
    skc_installed: Run, project: Path, tmp_path: Path, clean_env: dict[str, str]
) -> None:
    """A sandbox without a home folder (``HOME=/nonexistent``; a uid with no passwd entry):
    ``skc show`` of a skill of the home's agent folders was a bare E001, as for a name
    installed nowhere. It says the home's skills were not searched, and what to set. Near
    miss: a home that is there (the skill not in it) gets no such hint."""
    nowhere = tmp_path / "gone"
    env = {"HOME": str(nowhere), "SKILLC_HOME": ""}
    proc = skc_installed("show", "writing-plans", "--section", "Overview", env_extra=env)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == (
        "error[E001]: skill 'writing-plans' not found\n"
        f"hint: no home folder ({nowhere}): the skills under it were not searched; set HOME "
        "to the home folder (or SKILLC_HOME to the skillc home)\n"
    )
    nowhere.mkdir()
    there = skc_installed("show", "writing-plans", "--section", "Overview", env_extra=env)
    assert there.returncode == 1
    assert there.stderr == "error[E001]: skill 'writing-plans' not found\n"


def test_a_home_whose_symlinks_loop_is_no_home_with_one_warning(
    skc_installed: Run, project: Path, tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """``HOME`` or ``SKILLC_HOME`` a symlink loop broke every command with ``error[E999]:
    RuntimeError: Symlink loop from ...``. It is no home (as ``HOME=/nonexistent``): one
    warning naming the variable, and what needs only the project works; nothing is made
    through the loop."""
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    loop = str(tmp_path / "loop1")
    assert skc_installed("init").returncode == 0
    write_skill(project / ".skillc" / "skills" / "alpha")
    for variable, env in (
        ("HOME", {"HOME": loop, "SKILLC_HOME": "", "SKILLC_CACHE_DIR": "", "XDG_CACHE_HOME": ""}),
        ("SKILLC_HOME", {"SKILLC_HOME": loop}),
    ):
        said = (
            f"warning: environment variable {variable}={loop!r} is a symlink loop; no home"
            " folder is used: set it to a folder of your own\n"
        )
        built = skc_installed("build", "alpha", "--force", env_extra=env)
        assert built.returncode == 0, built.stderr
        assert built.stderr.startswith(said), built.stderr
        listed = skc_installed("list", env_extra=env)
        assert listed.returncode == 0 and listed.stderr == said, listed.stderr
        assert "alpha" in listed.stdout
        linted = skc_installed("lint", "alpha", env_extra=env)  # no cache, said by no more
        assert linted.returncode == 0 and linted.stderr.startswith(said), linted.stderr
        assert "lint cache" not in linted.stderr, linted.stderr
        assert "Traceback" not in built.stderr + listed.stderr + linted.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("loop")) == [
        "loop1",
        "loop2",
    ]
