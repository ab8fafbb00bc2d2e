"""``lint`` as an operation (skillc_lint.operations), run in process on real folders with a
real access log: what ``skc_lint`` runs, and what ``skc lint`` runs once per skill."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Diagnostic, Layout, Notice, format_diagnostic
from skillc_index.accesslog import AccessLog
from skillc_index.operation import Session
from skillc_lint import UnknownProfile, UnknownRule
from skillc_lint.operations import LINT, LintParams, lint, rule_registry

#: A valid description.
DESCRIPTION = "Formats tables. Use when a table needs it."
WriteSkill = Callable[..., Path]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".skillc" / "skills").mkdir(parents=True)
    return root


def session(project: Path, shown: list[str]) -> Session:
    def warn(diagnostics: Iterable[Diagnostic | Notice]) -> None:
        shown.extend(format_diagnostic(diagnostic) for diagnostic in diagnostics)

    layout = Layout.discover(project, env={"SKILLC_HOME": str(project.parent / "home")})
    return Session(layout, AccessLog(warn))


def logged(project: Path, name: str) -> list[tuple[str, str, dict[str, object]]]:
    log = project / ".skillc" / "runtime" / name / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(log)) as db:
        rows = db.execute("SELECT command, skill_path, args FROM access_log ORDER BY id")
        return [(command, path, json.loads(args)) for command, path, args in rows]


def test_lint_logs_one_row_with_what_it_found(project: Path, write_skill: WriteSkill) -> None:
    folder = write_skill(
        project / ".skillc" / "skills" / "demo", skill_md="---\nname: demo\n---\n# demo\n"
    )
    report = LINT.run(session(project, []), LintParams("demo", select=("SKL1",)))
    assert report.to_dict() == {
        "skill": "demo",
        "path": ".skillc/skills/demo",
        "diagnostics": [
            {
                "rule": "SKL105",
                "severity": "error",
                "file": "SKILL.md",
                "line": 1,
                "column": 1,
                "message": "missing required frontmatter field: description",
            }
        ],
        "error_count": 1,
        "warning_count": 0,
    }
    ((command, path, args),) = logged(project, "demo")
    assert (command, path) == ("lint", str(folder.resolve()))
    assert args == {
        "force": False,
        "profiles": ["agentskills"],
        "select": ["SKL1"],
        "ignore": [],
        "errors": 1,
        "warnings": 0,
        "skipped": None,
    }


def test_a_folder_named_by_path_keeps_its_path(project: Path, write_skill: WriteSkill) -> None:
    """A skill reached through a symlinked folder is shown (and its diagnostics located) as
    named, not as its resolved target: what ``skc lint skills/`` prints for each skill."""
    real = write_skill(project / "elsewhere" / "demo", description=DESCRIPTION)
    (project / "skills").mkdir()
    (project / "skills" / "demo").symlink_to(real)
    report = lint(session(project, []), LintParams(str(project / "skills" / "demo")))
    assert report.to_dict()["path"] == "skills/demo"


def test_bad_selections_are_typed_errors_that_name_the_parameter(project: Path) -> None:
    shown: list[str] = []
    with pytest.raises(UnknownRule) as rule:
        rule_registry(session(project, shown), select=("SKL1",), ignore=("SKL1O8",))
    assert (rule.value.parameter, rule.value.selector) == ("ignore", "SKL1O8")
    assert rule.value.diagnostic.code == "E100"
    with pytest.raises(UnknownProfile) as profile:
        rule_registry(session(project, shown), profile=("claude-code,cursor",))
    assert profile.value.name == "cursor"
    assert "--" not in str(rule.value) + str(profile.value)  # no command-line flag named
    assert shown == []


def test_one_str_is_one_item_not_its_characters(project: Path, write_skill: WriteSkill) -> None:
    """``select="SKL1"`` was the rules ``S``, ``K``... (UnknownRule: ``'K'`` matches no
    rule), ``profile="claude-code"`` the profile ``c``: each is one item, as
    ``default_registry`` reads it (:func:`skillc_index.items.as_items`)."""
    from skillc_lint import configured_registry, profiles_in

    run = session(project, [])
    one = rule_registry(run, profile="claude-code", select="SKL1", ignore="SKL101")
    many = rule_registry(run, profile=("claude-code",), select=("SKL1",), ignore=("SKL101",))
    assert [(r.id, one.is_enabled(r.id)) for r in one] == [
        (r.id, many.is_enabled(r.id)) for r in many
    ]
    assert profiles_in(one) == ("agentskills", "claude-code")
    assert not one.is_enabled("SKL101") and one.is_enabled("SKL102")
    rule_registry(run, target="claude")  # not the target 'c'
    registry, _ = configured_registry({}, profiles="claude-code")
    assert profiles_in(registry) == ("agentskills", "claude-code")
    write_skill(project / ".skillc" / "skills" / "demo", description=DESCRIPTION)
    params = LintParams("demo", profile="claude-code")  # type: ignore[arg-type]
    assert lint(run, params).result.ok


def test_config_problems_are_warned_once_per_registry(
    project: Path, write_skill: WriteSkill
) -> None:
    (project / ".skillc" / "config.toml").write_text('[lint]\nSKL999 = "off"\n', "utf-8")
    write_skill(project / ".skillc" / "skills" / "one", description=DESCRIPTION)
    write_skill(project / ".skillc" / "skills" / "two", description=DESCRIPTION)
    shown: list[str] = []
    run = session(project, shown)
    registry = rule_registry(run)
    for name in ("one", "two"):
        assert lint(run, LintParams(name), registry).result.ok
    assert shown == ["warning: config [lint]: unknown rule 'SKL999'"]


def test_readme_operation_example_runs(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    write_skill: WriteSkill,
) -> None:
    """The README's example of the operation, run on real skills: folders in no store, so
    nothing is written anywhere (no runtime folder in the home)."""
    import ast
    import re

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The `lint` operation", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    write_skill(tmp_path / "skills" / "my-skill", description=DESCRIPTION)
    write_skill(tmp_path / "skills" / "git", skill_md="---\nname: Git\n---\n# git\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SKILLC_HOME", str(tmp_path / "home"))
    exec(compile(block, "README.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert ast.literal_eval(lines[0])["error_count"] == 0
    assert lines[1:] == ["True", "False"]
    assert not (tmp_path / "home").exists()


def test_a_folder_in_no_store_is_linted_without_a_trace(
    project: Path, tmp_path: Path, write_skill: WriteSkill
) -> None:
    """Linting a checkout creates no runtime folder and logs nothing (DECISIONS.md); the
    same skill imported into the store is logged in its runtime (near miss: the first test)."""
    checkout = write_skill(tmp_path / "checkout" / "demo", description=DESCRIPTION)
    outside = Layout.discover(tmp_path, env={"SKILLC_HOME": str(tmp_path / "home")})
    shown: list[str] = []
    for run in (session(project, shown), Session(outside, AccessLog(shown.append))):
        assert lint(run, LintParams(str(checkout))).result.ok
    assert not (tmp_path / "home").exists()
    assert not (project / ".skillc" / "runtime").exists()
    assert shown == []


def test_a_name_lints_the_folder_its_store_copy_was_imported_from(
    project: Path, write_skill: WriteSkill
) -> None:
    """What the MCP server's ``skc_lint`` runs: a skill built from ``skills/demo`` (imported
    into the store), then the folder edited: ``lint("demo")`` checks the folder, what the next
    build by that name imports and deploys, not the older store copy (both the copy, edited
    in place, and the folder unchanged since: the copy, as that build builds it)."""
    from skillc_index.build.skill import build_skill

    folder = write_skill(project / "skills" / "demo", description=DESCRIPTION)
    run = session(project, [])
    build_skill("skills/demo", run.layout, deploys=False)
    copy = project / ".skillc" / "skills" / "demo" / "SKILL.md"
    assert copy.is_file()
    with (folder / "SKILL.md").open("a", encoding="utf-8") as out:
        out.write("\nSee [missing](references/nope.md).\n")
    report = lint(run, LintParams("demo", select=("SKL301",)))
    assert report.result.path == folder
    assert [d.rule for d in report.result.diagnostics] == ["SKL301"]
    build_skill("demo", run.layout, deploys=False)
    with copy.open("a", encoding="utf-8") as out:
        out.write("\nSee [gone](references/gone.md).\n")
    report = lint(run, LintParams("demo", select=("SKL301",)))
    assert report.result.path == copy.parent
    assert len(report.result.diagnostics) == 2


def test_the_command_lines_skills_are_linted_as_the_run_is_iterated(
    project: Path, write_skill: WriteSkill
) -> None:
    """``skills`` (the command line's): the run resolves them at once (a folder of skills,
    a name found nowhere) and lints each skill when it is iterated, in order, a bad target
    in its place; its JSON is what ``--format json`` prints."""
    write_skill(project / "skills" / "one", description=DESCRIPTION)
    write_skill(project / "skills" / "two", skill_md="---\nname: two\n---\n# two\n")
    run = LINT.run(session(project, []), LintParams(None, skills=("skills", "nowhere")))
    assert (run.collections, run.total, run.outcomes) == ([("skills", 2)], 3, [])
    seen = [getattr(outcome, "skill", None) for outcome in run]
    assert seen == ["one", "two", None]
    assert (run.failed, run.ok, run.warnings) == (1, False, ())
    items: Any = run.to_dict()
    assert [item.get("skill", item.get("target")) for item in items] == ["one", "two", "nowhere"]


def test_the_command_lines_skills_and_files_may_be_paths(
    project: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``LintParams(None, skills=(Path("skills"),))`` was E100 ``skills[0] must be a string,
    not an object``: a path field (``skills``, ``write_baseline``, ``sarif_file``) takes an
    ``os.PathLike``, read as its ``str``, as ``baseline`` did."""
    monkeypatch.chdir(project)
    write_skill(project / "skills" / "one", description=DESCRIPTION)
    params = LintParams(
        None,
        skills=(Path("skills"),),  # type: ignore[arg-type]
        write_baseline=Path("b.json"),  # type: ignore[arg-type]
        sarif_file=Path("out.sarif"),  # type: ignore[arg-type]
    )
    run = LINT.run(session(project, []), params)
    assert [result.skill for result in run] == ["one"]
    assert run.collections == [("skills", 1)]
    assert json.loads((project / "b.json").read_text())["findings"] == []


def test_explain_and_list_rules_lint_nothing(project: Path) -> None:
    run = session(project, [])
    doc: Any = LINT.run(run, LintParams(None, explain="name-format")).to_dict()
    assert (doc["id"], doc["profile"]) == ("SKL102", None)
    rules: Any = LINT.run(run, LintParams(None, list_rules=True, ignore=("SKL3",))).to_dict()
    enabled = {rule["id"]: rule["enabled"] for rule in rules}
    assert (enabled["SKL102"], enabled["SKL301"]) == (True, False)


def test_run_errors_name_the_parameter_and_the_command_line_writes_its_option(
    project: Path,
) -> None:
    from skillc_index import CLI_SPELLING
    from skillc_lint import ConflictingParameters

    with pytest.raises(ConflictingParameters) as both:
        LINT.run(session(project, []), LintParams(None, baseline="a", write_baseline="b"))
    with pytest.raises(UnknownRule) as explain:
        LINT.run(session(project, []), LintParams(None, explain="SKL99"))
    assert [format_diagnostic(e.value.diagnostic) for e in (both, explain)] == [
        "error[E100]: invalid option: 'use one of baseline and write_baseline'",
        "error[E100]: invalid option: 'explain: 'SKL99' matches no rule'",
    ]
    assert [format_diagnostic(e.value.spelled(CLI_SPELLING)) for e in (both, explain)] == [
        "error[E100]: invalid option: 'use one of --baseline and --write-baseline'",
        "error[E100]: invalid option: 'Invalid value for --explain: 'SKL99' matches no rule "
        "(see --list-rules)'",
    ]


def test_the_tools_lint_is_capped_as_the_command_lines(
    project: Path, write_skill: WriteSkill
) -> None:
    """The tool's lint (``skill``, what MCP's skc_lint runs) reported every finding once the
    cap moved after the suppressions: 150 broken links gave 150 SKL301 and no count; it
    gives the first 100 and one saying how many more, as ``skc lint`` does."""
    body = "".join(f"[link {n}](missing-{n}.md)\n" for n in range(150))
    write_skill(project / ".skillc" / "skills" / "demo", description=DESCRIPTION, body=body)
    report: Any = LINT.run(session(project, []), LintParams("demo", select=("SKL301",)))
    found = report.to_dict()["diagnostics"]
    assert len(found) == 101
    assert [d["rule"] for d in found] == ["SKL301"] * 101
    assert found[-1]["message"].startswith("50 more SKL301 findings in this file")


def test_a_run_writing_a_baseline_counts_the_findings_it_holds_none_of(
    project: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``write_baseline``: each result of the run holds no finding (the file has them all: a
    run of 400,000 findings kept none), but its counts are every finding's, as without it:
    ``error_count`` and ``warning_count``, ``ok`` False with an error (it reported zero and
    ok, once); the run's own ``ok`` (the exit status) is still True."""
    monkeypatch.chdir(project)
    write_skill(project / "skills" / "two", skill_md="---\nname: Two_x\n---\n# two\n")
    write_skill(project / "skills" / "one", description=DESCRIPTION)
    plain = LINT.run(session(project, []), LintParams(None, skills=("skills",))).finish()
    counts = [(r.skill, r.errors, r.warnings, r.ok) for r in plain.results]
    assert counts[0][1:] == (0, 0, True) and counts[1][1] >= 2 and not counts[1][3]
    run = LINT.run(
        session(project, []), LintParams(None, skills=("skills",), write_baseline="b.json")
    )
    results = list(run)
    assert [(r.skill, r.errors, r.warnings, r.ok) for r in results] == counts
    assert all(r.diagnostics == () for r in results)
    assert (run.ok, run.written) == (True, sum(c[1] + c[2] for c in counts))
    items: Any = run.to_dict()
    assert [(i["error_count"], i["warning_count"], i["diagnostics"]) for i in items] == [
        (c[1], c[2], []) for c in counts
    ]
    written = json.loads((project / "b.json").read_text())["findings"]
    assert len(written) == run.written
