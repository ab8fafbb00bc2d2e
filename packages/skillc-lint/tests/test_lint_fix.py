"""Autofix: ``--fix``, ``--unsafe-fixes``, ``--diff`` and :func:`skillc_lint.fix_skill`.

Each fix has a triggering case and a near miss where nothing may change; then idempotence,
``--diff`` writing nothing, atomic writes (no temporary file left, mode kept, a read-only
file an error), symlinks, and the fixed-point bound. Real files in a temporary folder.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_lint import Finding, Fix, RuleRegistry, TextEdit, default_registry, fix_skill
from skillc_lint import Rule as LintRule
from skillc_lint._fixes import MAX_ROUNDS, apply_edits

Run = Callable[..., "subprocess.CompletedProcess[str]"]

GOOD = "description: Formats tables. Use when tables need it.\n"


def make(cwd: Path, name: str, skill_md: str, **files: str) -> Path:
    folder = cwd / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_bytes(skill_md.encode("utf-8"))
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    return folder


def skill_md(folder: Path) -> str:
    return (folder / "SKILL.md").read_bytes().decode("utf-8")


def rules(folder: Path, *args: str, cli_lint: Run) -> list[str]:
    data = json.loads(cli_lint(str(folder.name), "--format", "json", *args).stdout)
    return [d["rule"] for d in data["diagnostics"]]


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder``: its bytes and mtime (ns)."""
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


# -- quoting a value YAML cannot read (SKL100) ----------------------------------------------


def test_quotes_a_value_holding_colon_space(lint: Run, cwd: Path) -> None:
    folder = make(
        cwd,
        "tables",
        "---\nname: tables\ndescription: Formats tables. Use when: a table is ragged\n---\n\n"
        "# tables\n",
    )
    proc = lint("tables", "--fix")
    assert proc.returncode == 0, proc.stderr
    assert skill_md(folder).splitlines()[2] == (
        'description: "Formats tables. Use when: a table is ragged"'
    )
    assert proc.stdout.splitlines()[-1] == "applied 1 fix in 1 file"
    assert json.loads(lint("tables", "--format", "json").stdout)["diagnostics"] == []


def test_valid_or_unquotable_yaml_is_left_alone(lint: Run, cwd: Path) -> None:
    quoted = make(
        cwd, "quoted", '---\nname: quoted\ndescription: "Use when: it is quoted"\n---\n\n# quoted\n'
    )
    broken = make(cwd, "broken", "---\nname: broken\ntags: [unclosed\n" + GOOD + "---\n# broken\n")
    before = snapshot(cwd)
    proc = lint("quoted", "broken", "--fix")
    assert snapshot(cwd) == before
    assert proc.returncode == 1  # broken's SKL100 remains, with no fix to offer
    assert "SKL100" in proc.stderr and "quoted" not in proc.stderr
    data = json.loads(lint("broken", "--format", "json").stdout)
    assert [d["rule"] for d in data["diagnostics"]] == ["SKL100"]
    assert "fix" not in data["diagnostics"][0]
    assert skill_md(quoted).count('"') == 2 and skill_md(broken).startswith("---\n")


# -- name case (SKL102) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "fixed"),
    [("Tables", "tables"), ('"TaBles"', '"tables"'), ("'TABLES'", "'tables'")],
)
def test_lower_cases_a_name_whose_only_fault_is_case(
    lint: Run, cwd: Path, written: str, fixed: str
) -> None:
    folder = make(cwd, "tables", f"---\nname: {written}  # the name\n{GOOD}---\n\n# tables\n")
    assert lint("tables", "--fix").returncode == 0
    assert skill_md(folder).splitlines()[1] == f"name: {fixed}  # the name"


def test_a_name_with_more_faults_than_case_needs_unsafe_fixes(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "tables", f"---\nname: My_Tables\n{GOOD}---\n\n# tables\n")
    before = snapshot(folder)
    proc = lint("tables", "--fix")
    assert snapshot(folder) == before
    assert proc.stdout.splitlines()[-1] == "no fixes to apply"
    assert proc.stderr.splitlines()[-1] == "info: 2 fixes available with --unsafe-fixes"
    assert lint("tables", "--unsafe-fixes").returncode == 0
    assert skill_md(folder).splitlines()[1] == "name: tables"  # the folder's name


def test_folder_with_the_old_case_is_named_not_renamed(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "Tables", f"---\nname: Tables\n{GOOD}---\n\n# Tables\n")
    data = json.loads(lint("Tables", "--format", "json").stdout)
    fix = data["diagnostics"][0]["fix"]
    assert fix["safe"] is True
    assert "rename the folder 'Tables' to 'tables' too" in fix["description"]
    proc = lint("Tables", "--fix")
    assert (cwd / "Tables").is_dir() and not (cwd / "tables").exists()
    assert skill_md(folder).splitlines()[1] == "name: tables"
    assert "SKL104 name-match-dir: name 'tables' does not match directory 'Tables'" in proc.stderr
    assert proc.returncode == 1  # SKL104 is an error


def test_a_linked_skill_is_named_by_its_link_not_its_target_s_folder(lint: Run, cwd: Path) -> None:
    """``agents/alpha-x -> repo/skill`` is the skill ``alpha-x`` (as ``skc list`` names it
    and agents load it): SKL104 judged it by the target's folder (``name 'alpha-x' does not
    match directory 'skill'``) and ``--unsafe-fixes`` through the link renamed it
    ``skill``. Through the folder or the link, it lints clean and nothing is written; the
    real folder, linted as itself, is still named by its own name."""
    real = make(cwd / "repo", "skill", f"---\nname: alpha-x\n{GOOD}---\n\n# alpha-x\n")
    (cwd / "agents").mkdir()
    (cwd / "agents" / "alpha-x").symlink_to("../repo/skill")
    before = snapshot(real)
    for given in ("agents", "agents/alpha-x"):
        checked = lint(given)
        assert checked.returncode == 0, checked.stderr
        assert "SKL104" not in checked.stderr
        proc = lint(given, "--unsafe-fixes")
        assert proc.returncode == 0, proc.stderr
        assert "alpha-x: 0 errors, 0 warnings" in proc.stdout + proc.stderr
        assert snapshot(real) == before
    proc = lint("repo/skill")
    assert proc.returncode == 1
    assert "SKL104 name-match-dir: name 'alpha-x' does not match directory 'skill'" in proc.stderr


def test_a_name_that_would_read_as_a_boolean_is_quoted(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "true", f"---\nname: TrUe\n{GOOD}---\n\n# true\n")
    assert lint("true", "--fix").returncode == 0
    assert skill_md(folder).splitlines()[1] == 'name: "true"'


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85"])
def test_a_name_line_yaml_breaks_is_not_renamed(lint: Run, cwd: Path, brk: str) -> None:
    # YAML ends a line at NEL, U+2028 and U+2029, skillc's lines do not: the "name line"
    # also holds the description and the license, which a rename must not drop.
    text = f"---\nname: Pdf-Tools{brk}description: Fills forms. Use when x.{brk}license: MIT\n---\n"
    folder = make(cwd, "pdf-tools", text + "# Pdf Tools\n")
    before = snapshot(folder)
    for option in ("--fix", "--unsafe-fixes"):
        lint("pdf-tools", option)
        assert snapshot(folder) == before
    # the same characters on another line do not stop the fix of the name line
    other = make(cwd, "tables", f"---\nname: Tables\ndescription: Formats.{brk}license: MIT\n---\n")
    fixed = lint("tables", "--fix")  # NEL is a C1 control: SKL901's error, the fix applied
    assert fixed.returncode == (1 if brk == "\x85" else 0), fixed.stderr
    assert skill_md(other).splitlines()[1] == "name: tables"
    assert skill_md(other).split("\n")[2] == f"description: Formats.{brk}license: MIT"
    # nor is a value YAML cannot read quoted over the break (the license would join it)
    broken = make(
        cwd, "broken", f"---\nname: broken\ndescription: Use when: x{brk}license: MIT\n---\n"
    )
    before = snapshot(broken)
    lint("broken", "--fix")
    assert snapshot(broken) == before


# -- trailing whitespace in the frontmatter (SKL510) ----------------------------------------


def test_trailing_whitespace_in_frontmatter_is_removed(lint: Run, cwd: Path) -> None:
    text = f"--- \nname: tables\t\n{GOOD}---  \n\n# tables  \n\nBody line with spaces.   \n"
    folder = make(cwd, "tables", text)
    proc = lint("tables")
    assert "SKL510 frontmatter-whitespace: trailing whitespace on frontmatter lines 1, 2, 4" in (
        proc.stderr
    )
    assert lint("tables", "--fix").returncode == 0
    assert skill_md(folder) == (
        f"---\nname: tables\n{GOOD}---\n\n# tables  \n\nBody line with spaces.   \n"
    )  # the body is not the frontmatter: its whitespace stays


def test_whitespace_a_block_scalar_keeps_is_an_unsafe_fix(lint: Run, cwd: Path) -> None:
    text = "---\nname: tables\ndescription: |\n  Use when tables need it.  \n---\n\n# tables\n"
    folder = make(cwd, "tables", text)
    assert lint("tables", "--fix").stdout.splitlines()[-1] == "no fixes to apply"
    assert skill_md(folder) == text
    lint("tables", "--unsafe-fixes")
    assert "Use when tables need it.\n---" in skill_md(folder)


def test_no_trailing_whitespace_no_finding(lint: Run, cwd: Path) -> None:
    make(cwd, "tables", f"---\nname: tables\n{GOOD}---\n\n# tables\n\ntext   \n")
    assert "SKL510" not in lint("tables").stderr


# -- a missing closing --- (SKL100) ---------------------------------------------------------


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_closes_an_unclosed_frontmatter(lint: Run, cwd: Path, eol: str) -> None:
    text = f"---{eol}name: tables{eol}description: Use when tables need it.{eol}{eol}# tables{eol}"
    folder = make(cwd, "tables", text)
    proc = lint("tables", "--fix")
    assert proc.returncode == 0, proc.stderr
    assert skill_md(folder) == (
        f"---{eol}name: tables{eol}description: Use when tables need it.{eol}---{eol}{eol}"
        f"# tables{eol}"
    )


def test_frontmatter_only_file_is_closed_at_its_end(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "tables", "---\nname: tables\ndescription: Use when tables need it.")
    lint("tables", "--fix")
    assert skill_md(folder) == "---\nname: tables\ndescription: Use when tables need it.\n---\n"


def test_no_opening_or_no_yaml_is_not_closed(lint: Run, cwd: Path) -> None:
    make(cwd, "plain", "# plain\n\nname: plain\n")
    make(cwd, "prose", "---\nThis is not YAML at all.\n\n# prose\n")
    before = snapshot(cwd)
    proc = lint("plain", "prose", "--fix")
    assert snapshot(cwd) == before
    assert proc.returncode == 1


# -- a link's case (SKL301) -------------------------------------------------------------------


def test_link_case_is_rewritten_to_the_file_name(lint: Run, cwd: Path) -> None:
    folder = make(
        cwd,
        "tables",
        f"---\nname: tables\n{GOOD}---\n\n# tables\n\nSee [API](References/API.md#top) and "
        "[again](<./References/API.md>).\n",
        **{"references/api.md": "# Top\n", "references/guide.md": "# Guide\n\n[up](../SKILL.MD)\n"},
    )
    proc = lint("tables", "--fix")
    assert "SKL301" not in proc.stderr
    assert skill_md(folder).endswith(
        "See [API](references/api.md#top) and [again](<./references/api.md>).\n"
    )
    assert (folder / "references/guide.md").read_text() == "# Guide\n\n[up](../SKILL.md)\n"


def test_link_case_fix_leaves_code_spans_alone(lint: Run, cwd: Path) -> None:
    line = "See [api](References/API.md); written as `[api](References/API.md)` it fails."
    folder = make(
        cwd,
        "tables",
        f"---\nname: tables\n{GOOD}---\n\n# tables\n\n{line}\n",
        **{"references/api.md": "# API\n"},
    )
    assert lint("tables", "--fix").returncode == 0
    assert skill_md(folder).splitlines()[-1] == line.replace("(Ref", "(ref", 1).replace(
        "/API.md)", "/api.md)", 1
    )
    # backticks that do not pair on the line (a code span over lines): no fix
    odd = make(
        cwd,
        "odd",
        f"---\nname: odd\n{GOOD}---\n\n# odd\n\nSee [api](References/API.md) and `a\nb`.\n",
        **{"references/api.md": "# API\n"},
    )
    before = snapshot(odd)
    lint("odd", "--fix")
    assert snapshot(odd) == before


def test_missing_or_ambiguous_link_target_is_not_guessed(lint: Run, cwd: Path) -> None:
    folder = make(
        cwd,
        "tables",
        f"---\nname: tables\n{GOOD}---\n\n# tables\n\n[gone](missing.md) [which](NOTES.md)\n",
        **{"notes.md": "# a\n", "Notes.md": "# b\n"},
    )
    before = snapshot(folder)
    proc = lint("tables", "--fix")
    assert snapshot(folder) == before
    assert proc.stderr.count("SKL301") == 2


# -- unsafe fixes -----------------------------------------------------------------------------


def test_renaming_to_the_folder_is_unsafe(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "tables", f"---\nname: table-formatter\n{GOOD}---\n\n# tables\n")
    before = snapshot(folder)
    assert lint("tables", "--fix").stdout.splitlines()[-1] == "no fixes to apply"
    assert snapshot(folder) == before
    proc = lint("tables", "--unsafe-fixes")
    assert proc.stdout.splitlines()[-1] == "applied 1 fix in 1 file"
    assert skill_md(folder).splitlines()[1] == "name: tables"


# -- the run: idempotence, --diff, summary, formats ------------------------------------------

BROKEN = (
    "---  \nname: Tables\ndescription: Use when: tables are ragged\n\n# tables\n\n[api](API.md)\n"
)


def test_second_fix_changes_nothing(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "tables", BROKEN, **{"api.md": "# API\n"})
    first = lint("tables", "--fix")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[-1].startswith("applied ")
    before = snapshot(folder)
    second = lint("tables", "--fix")
    assert second.stdout.splitlines()[-1] == "no fixes to apply"
    assert snapshot(folder) == before  # not even rewritten with the same bytes


def test_diff_writes_nothing_and_exits_as_fix_would(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "tables", BROKEN, **{"api.md": "# API\n"})
    make(cwd, "broken", "---\nname: broken\ntags: [x\n" + GOOD + "---\n# broken\n")
    before = snapshot(cwd)
    diff = lint("tables", "broken", "--diff")
    assert snapshot(cwd) == before
    assert diff.stdout.startswith("--- a/tables/SKILL.md\n+++ b/tables/SKILL.md\n@@ ")
    assert "+---\n" in diff.stdout and '+description: "Use when: tables are ragged"' in diff.stdout
    assert "would be applied in 1 file (--diff: nothing written)" in diff.stdout
    assert not [p for p in cwd.rglob(".*") if ".tmp." in p.name]
    fixed = lint("tables", "broken", "--fix")
    assert diff.returncode == fixed.returncode == 1  # broken stays broken either way
    # what --diff showed is what --fix wrote
    patched = diff.stdout.split("--- a/tables/SKILL.md", 1)[1]
    added = [line[1:] for line in patched.splitlines() if line[:1] == "+" and line[:3] != "+++"]
    assert added and all(line in skill_md(folder) for line in added)


def test_diff_needs_the_text_format(lint: Run, cwd: Path) -> None:
    make(cwd, "tables", BROKEN)
    proc = lint("tables", "--diff", "--format", "json")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error[E100]: invalid option: ")
    assert "--diff" in proc.stderr


def test_json_reports_fixes_and_what_remains(lint: Run, cwd: Path) -> None:
    make(cwd, "tables", BROKEN, **{"api.md": "# API\n"})
    before = json.loads(lint("tables", "--format", "json").stdout)
    fixes = [d["fix"] for d in before["diagnostics"] if "fix" in d]
    assert fixes and all(f["safe"] for f in fixes)
    assert "fixed" not in before
    after = json.loads(lint("tables", "--fix", "--format", "json").stdout)
    assert after["fixed"] >= 3  # closing ---, then the quote, whitespace, case, link
    assert [d["rule"] for d in after["diagnostics"]] == []


def test_sarif_carries_fixes(lint: Run, cwd: Path) -> None:
    make(cwd, "tables", f"---\nname: Tables\n{GOOD}---\n\n# tables\n")
    sarif = json.loads(lint("tables", "--format", "sarif").stdout)
    run = sarif["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    [result] = [r for r in run["results"] if r["ruleId"] == "SKL102"]
    [fix] = result["fixes"]
    change = fix["artifactChanges"][0]
    assert change["artifactLocation"] == {"uri": "tables/SKILL.md", "uriBaseId": "%SRCROOT%"}
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 2, "startColumn": 7, "endLine": 2, "endColumn": 13},
            "insertedContent": {"text": "tables"},
        }
    ]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert rules["SKL102"]["properties"]["fixable"] == "safe"
    assert "fixable" not in rules["SKL201"]["properties"]


# -- how files are written --------------------------------------------------------------------


def test_write_keeps_mode_bom_and_leaves_no_temporary_file(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "tables", "")
    (folder / "SKILL.md").write_bytes(
        b"\xef\xbb\xbf---\r\nname: Tables\r\n" + GOOD.replace("\n", "\r\n").encode() + b"---\r\n"
    )
    (folder / "SKILL.md").chmod(0o640)
    fixed = lint("tables", "--fix")  # the BOM it keeps is what remains: an SKL100 error
    assert (fixed.returncode, fixed.stderr.count("error[")) == (1, 1), fixed.stderr
    assert "SKL100 frontmatter-valid: SKILL.md starts with a UTF-8 BOM" in fixed.stderr
    data = (folder / "SKILL.md").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf---\r\nname: tables\r\n")
    assert stat.S_IMODE((folder / "SKILL.md").stat().st_mode) == 0o640
    assert sorted(p.name for p in folder.iterdir()) == ["SKILL.md"]


def test_a_read_only_file_is_an_error_not_a_crash(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "tables", f"---\nname: Tables\n{GOOD}---\n\n# tables\n")
    other = make(cwd, "other", f"---\nname: Other\n{GOOD}---\n\n# other\n")
    (folder / "SKILL.md").chmod(0o444)
    before = skill_md(folder)
    proc = lint("tables", "other", "--fix")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "error[E999]: cannot fix 'tables/SKILL.md': the file is read-only" in proc.stderr
    assert skill_md(folder) == before
    assert skill_md(other).splitlines()[1] == "name: other"  # the other skill is fixed
    assert sorted(p.name for p in folder.iterdir()) == ["SKILL.md"]
    last = "applied 1 fix in 1 file; 1 file could not be fixed (see the errors)"
    assert proc.stdout.splitlines()[-1] == last


def test_fixes_a_full_disk_refuses_are_not_called_none_to_apply(
    lint: Run, cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a full disk stderr said ``cannot fix 'tables/SKILL.md': No space left on device``
    and stdout's summary ``no fixes to apply``, which is false (a CI log shows both). The
    summary says none was applied and how many files could not be fixed."""
    import errno

    import skillc_index.atomic

    def full(path: Path, *args: object, **kwargs: object) -> Path:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    folder = make(cwd, "tables", f"---\nname: Tables   \n{GOOD}---\n\n# tables\n")
    before = skill_md(folder)
    monkeypatch.setattr(skillc_index.atomic, "_written", full)
    proc = lint("tables", "--fix")
    assert proc.returncode == 1
    assert "error[E999]: cannot fix 'tables/SKILL.md': No space left on device" in proc.stderr
    last = "no fixes applied; 1 file could not be fixed (see the errors)"
    assert proc.stdout.splitlines()[-1] == last
    assert skill_md(folder) == before


def test_a_file_that_is_not_utf8_is_not_rewritten(lint: Run, cwd: Path) -> None:
    folder = make(cwd, "tables", "")
    data = f"---\nname: Tables\n{GOOD}---\n\n# tables \xe9\n".encode("latin-1")
    (folder / "SKILL.md").write_bytes(data)
    proc = lint("tables", "--fix")
    assert "error[E999]: cannot fix 'tables/SKILL.md': not UTF-8 text" in proc.stderr
    assert (folder / "SKILL.md").read_bytes() == data
    assert proc.returncode == 1


def test_symlink_inside_the_skill_is_written_through(lint: Run, cwd: Path) -> None:
    folder = make(
        cwd,
        "tables",
        f"---\nname: tables\n{GOOD}---\n\n# tables\n\n[guide](guide.md)\n",
        **{"docs/real.md": "# Real\n\n[back](../Skill.md)\n"},
    )
    (folder / "guide.md").symlink_to("docs/real.md")
    lint("tables", "--fix")
    assert (folder / "guide.md").is_symlink()  # the link stays a link
    assert (folder / "docs/real.md").read_text() == "# Real\n\n[back](../SKILL.md)\n"


def test_symlink_leaving_the_skill_is_never_written(lint: Run, cwd: Path) -> None:
    outside = cwd / "outside.md"
    outside.write_text("# Outside\n\n[x](Skill.md)\n", encoding="utf-8")
    folder = make(cwd, "tables", f"---\nname: tables\n{GOOD}---\n\n# tables\n\n[o](out.md)\n")
    (folder / "out.md").symlink_to(outside)
    before = outside.read_bytes()
    proc = lint("tables", "--unsafe-fixes")
    assert outside.read_bytes() == before
    assert "SKL303" in proc.stderr  # the symlink itself is reported, never followed


# -- the machinery ----------------------------------------------------------------------------


def test_overlapping_edits_are_resolved_in_order(tmp_path: Path) -> None:
    edits = (TextEdit(1, 1, 1, 4, "x"), TextEdit(1, 3, 1, 5, "y"))
    assert apply_edits("abcdef\n", edits) is None  # one fix may not hold overlapping edits
    assert apply_edits("abcdef\n", (TextEdit(1, 1, 1, 3, "X"), TextEdit(1, 3, 1, 3, "!"))) == (
        "X!cdef\n"
    )
    assert apply_edits("ab\ncd\n", (TextEdit(1, 1, 2, 1, ""),)) == "cd\n"  # a whole line
    assert apply_edits("ab\n", (TextEdit(3, 1, 3, 1, "x"),)) is None  # past the end
    assert apply_edits("ab\n", (TextEdit(1, 9, 1, 9, "x"),)) is None

    def two_fixes(skill: object, options: object) -> list[Finding]:
        return [
            Finding("first", line=1, fix=Fix("x", (TextEdit(2, 1, 2, 5, "NAME"),))),
            Finding("second", line=1, fix=Fix("y", (TextEdit(2, 3, 2, 5, "ZZ"),))),
        ]

    registry = RuleRegistry([LintRule("X001", "two", "warning", two_fixes, "two", fixable="safe")])
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: s\n---\n", encoding="utf-8")
    outcome = fix_skill(folder, registry=registry, write=False)
    # round 1 applies "first" only (they overlap, it comes first); round 2 finds both again,
    # applies "first" again, which changes nothing, and stops: "second" never applies
    [change] = outcome.changes
    assert change.after == "---\nNAME: s\n---\n"
    assert change.fixes == 1


def test_the_rounds_are_bounded(tmp_path: Path) -> None:
    def grow(skill: object, options: object) -> list[Finding]:
        return [Finding("grow", line=1, fix=Fix("grow", (TextEdit(2, 1, 2, 1, "x"),)))]

    registry = RuleRegistry([LintRule("X002", "grow", "warning", grow, "grow", fixable="safe")])
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: s\n---\n", encoding="utf-8")
    outcome = fix_skill(folder, registry=registry)
    assert outcome.applied == MAX_ROUNDS
    assert (folder / "SKILL.md").read_text() == f"---\n{'x' * MAX_ROUNDS}name: s\n---\n"


def test_a_file_saved_while_the_first_lint_runs_is_not_fixed(tmp_path: Path) -> None:
    # An editor saves SKILL.md while the first lint runs (here: while its rule runs): the
    # fix was made for the text the lint read, so the file is left and reported.
    folder = tmp_path / "s"
    folder.mkdir()
    saved = "---\ndescription: Does x.\nname: s\n---\n"

    def save_then_fix(skill: object, options: object) -> list[Finding]:
        if (folder / "SKILL.md").read_text() != saved:
            (folder / "SKILL.md").write_text(saved, encoding="utf-8")
        return [Finding("fix", line=2, fix=Fix("upper", (TextEdit(2, 1, 2, 5, "NAME"),)))]

    rule = LintRule("X003", "save", "warning", save_then_fix, "save", fixable="safe")
    (folder / "SKILL.md").write_text("---\nname: s\ndescription: Does x.\n---\n")
    outcome = fix_skill(folder, registry=RuleRegistry([rule]))
    assert (folder / "SKILL.md").read_text() == saved  # not "NAMEription: Does x."
    [problem] = outcome.problems
    assert problem.diagnostic.message.endswith("it changed on disk while fixing; lint it again")
    assert outcome.applied == 0


def test_fix_skill_api(tmp_path: Path) -> None:
    folder = make(tmp_path, "tables", f"---\nname: Tables\n{GOOD}---\n\n# tables\n")
    outcome = fix_skill(folder, registry=default_registry(), write=False)
    [change] = outcome.changes
    assert (change.file, change.fixes) == ("SKILL.md", 1)
    assert "name: tables" in change.after and "name: Tables" in change.before
    assert outcome.result.fixed == 1 and outcome.result.ok
    assert skill_md(folder).splitlines()[1] == "name: Tables"  # write=False


def test_a_file_with_two_names_is_written_once(lint: Run, cwd: Path) -> None:
    folder = make(
        cwd,
        "tables",
        f"---\nname: tables\n{GOOD}---\n\n# tables\n\n[a](a.md) [b](b.md)\n",
        **{"a.md": "# A\n\n[home](Skill.md)\n"},
    )
    (folder / "b.md").symlink_to("a.md")
    proc = lint("tables", "--fix")
    assert "error[" not in proc.stderr, proc.stderr
    assert proc.returncode == 0
    assert (folder / "b.md").is_symlink()
    assert (folder / "a.md").read_text() == "# A\n\n[home](SKILL.md)\n"


# -- writes stay inside the folder given (issue 32) -------------------------------------------

BAD_CASE = f"---\nname: Tables\n{GOOD}---\n\n# tables\n"


def test_a_linked_skill_leading_out_of_the_folder_given_is_read_not_rewritten(
    lint: Run, cwd: Path
) -> None:
    """An agent folder of links is linted (the links are read), but ``--fix skills/`` writes
    only inside ``skills/``: the linked skill outside is left as it is, and the run says so
    (text on stderr, exit 1); the skill inside the folder is still fixed."""
    outside = make(cwd.parent, "elsewhere/tables", BAD_CASE)
    (cwd / "skills").mkdir()
    (cwd / "skills/tables").symlink_to(outside)
    inside = make(cwd, "skills/other", f"---\nname: Other\n{GOOD}---\n\n# other\n")
    before = skill_md(outside)
    proc = lint("skills", "--fix")
    assert skill_md(outside) == before
    assert skill_md(inside).splitlines()[1] == "name: other"
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert (
        "error[E999]: cannot fix 'skills/tables/SKILL.md': it is outside 'skills', the "
        "folder being fixed (its real path is '" in proc.stderr
    )
    assert "skills/tables/SKILL.md:2:1: error[E300]: SKL102" in proc.stderr  # still linted
    assert "applied 1 fix in 1 file" in proc.stdout
    assert sorted(p.name for p in outside.iterdir()) == ["SKILL.md"]  # no temporary file


def test_the_json_report_names_what_was_not_fixed(lint: Run, cwd: Path) -> None:
    outside = make(cwd.parent, "elsewhere/tables", BAD_CASE)
    (cwd / "skills").mkdir()
    (cwd / "skills/tables").symlink_to(outside)
    before = skill_md(outside)
    proc = lint("skills", "--fix", "--format", "json")
    assert skill_md(outside) == before
    [item] = json.loads(proc.stdout)
    assert item["fixed"] == 0
    [problem] = item["not_fixed"]
    assert problem["code"] == "E999"
    assert problem["message"].startswith(
        "cannot fix 'skills/tables/SKILL.md': it is outside 'skills'"
    )
    assert "SKL102" in [d["rule"] for d in item["diagnostics"]]
    assert proc.returncode == 1


def test_diff_shows_no_change_it_would_not_write(lint: Run, cwd: Path) -> None:
    outside = make(cwd.parent, "elsewhere/tables", BAD_CASE)
    (cwd / "skills").mkdir()
    (cwd / "skills/tables").symlink_to(outside)
    proc = lint("skills", "--diff")
    last = "no fixes would be applied; 1 file could not be fixed (see the errors)"
    assert proc.stdout.splitlines()[-1] == last
    assert "+++" not in proc.stdout
    assert "cannot fix 'skills/tables/SKILL.md': it is outside 'skills'" in proc.stderr


def test_a_skill_md_linking_out_of_the_folder_given_is_not_rewritten(lint: Run, cwd: Path) -> None:
    """A skill inside the folder whose SKILL.md is a symlink to a file outside it: that
    SKILL.md leaves its skill too, so it is never read (E012), let alone written."""
    elsewhere = cwd.parent / "elsewhere.md"
    elsewhere.write_text(BAD_CASE, encoding="utf-8")
    (cwd / "skills/tables").mkdir(parents=True)
    (cwd / "skills/tables/SKILL.md").symlink_to(elsewhere)
    proc = lint("skills", "--unsafe-fixes")
    assert elsewhere.read_text(encoding="utf-8") == BAD_CASE
    assert "error[E012]: path escapes skill root: " in proc.stderr
    assert "/skills/tables/SKILL.md'" in proc.stderr
    assert proc.returncode == 1


def test_links_that_stay_inside_the_folder_given_are_written_through(lint: Run, cwd: Path) -> None:
    """What really is inside the folder is fixed however it is reached: a linked entry
    leading to a skill elsewhere in the folder, the folder itself named through a symlink; a
    second link to a skill's subfolder is left as it is (links through it are SKL301: no
    part of the skill, never packaged)."""
    real = make(
        cwd,
        "skills/group/tables",
        f"{BAD_CASE}\n[guide](docs/guide.md)\n",
        **{"docs/guide.md": "# Guide\n\n[home](../Skill.md)\n"},
    )
    (real / "references").symlink_to("docs")
    (cwd / "skills/tables").symlink_to("group/tables")
    (cwd / "named").symlink_to("skills")
    proc = lint("named", "--fix")
    assert proc.returncode == 0, proc.stderr
    assert "error[" not in proc.stderr
    assert skill_md(real).splitlines()[1] == "name: tables"
    assert (real / "docs/guide.md").read_text() == "# Guide\n\n[home](../SKILL.md)\n"
    assert (real / "references").is_symlink()


def test_a_linked_skill_named_itself_is_its_own_folder(lint: Run, cwd: Path) -> None:
    """Naming the link (not a folder holding it) gives that skill as the folder to fix."""
    outside = make(cwd.parent, "elsewhere/tables", BAD_CASE)
    (cwd / "tables").symlink_to(outside)
    proc = lint("tables", "--fix")
    assert proc.returncode == 0, proc.stderr
    assert skill_md(outside).splitlines()[1] == "name: tables"


@pytest.mark.parametrize("option", ["--fix", "--unsafe-fixes", "--add-suppressions"])
@pytest.mark.parametrize("folder", [".skillc/skills", ".claude/skills"])
def test_a_skill_found_by_name_through_a_link_out_of_the_project_is_not_rewritten(
    lint: Run, cwd: Path, option: str, folder: str
) -> None:
    """A project's store or agent folder entry linking out of the project and the skillc
    home: the skill named by its name is linted, but nothing is written through the link
    (E012, DECISIONS: the project's files direct no write out of it); its folder given on
    the command line is fixed, the user named it."""
    outside = make(cwd.parent, "elsewhere/tables", BAD_CASE)
    (cwd / ".skillc").mkdir()
    (cwd / folder).mkdir(parents=True, exist_ok=True)
    (cwd / folder / "tables").symlink_to(outside)
    proc = lint(option, "tables")
    assert skill_md(outside) == BAD_CASE
    assert proc.returncode == 1
    assert f"error[E012]: path escapes skill root: '{outside.resolve()}/SKILL.md'" in proc.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["SKILL.md"]  # no temporary file
    proc = lint(option, f"{folder}/tables")
    assert "error[" not in proc.stderr, proc.stderr
    assert skill_md(outside) != BAD_CASE


def test_a_skill_found_by_name_in_the_home_is_fixed(lint: Run, cwd: Path, home: Path) -> None:
    """A store entry linking to a folder in the skillc home: a place a write may go."""
    real = make(home, "dev/tables", BAD_CASE)
    (cwd / ".skillc/skills").mkdir(parents=True)
    (cwd / ".skillc/skills/tables").symlink_to(real)
    proc = lint("--fix", "tables")
    assert proc.returncode == 0, proc.stderr
    assert skill_md(real).splitlines()[1] == "name: tables"


@pytest.mark.parametrize("option", ["--fix", "--add-suppressions"])
def test_the_whole_project_is_fixed_as_each_skill_by_its_name(
    lint: Run, cwd: Path, home: Path, option: str
) -> None:
    """With no skill named (every skill of the project store), a store entry linking out of
    the project and the skillc home was E999 "cannot fix ... outside '.skillc/skills'" where
    naming it was E012: the same condition is the same check, E012, and an entry linking
    into the skillc home is fixed, as when it is named."""
    outside = make(cwd.parent, "elsewhere/tables", BAD_CASE)
    charts = f"---\nname: Charts\n{GOOD}---\n\n# charts\n"
    in_home = make(home, "dev/charts", charts)
    (cwd / ".skillc/skills").mkdir(parents=True)
    (cwd / ".skillc/skills/tables").symlink_to(outside)
    (cwd / ".skillc/skills/charts").symlink_to(in_home)
    for args in (("tables",), ()):
        proc = lint(option, *args)
        assert skill_md(outside) == BAD_CASE
        assert proc.returncode == 1
        assert "error[E012]: path escapes skill root: '" in proc.stderr, proc.stderr
        assert "E999" not in proc.stderr
    assert skill_md(in_home) != charts


def test_fix_skill_writes_only_inside_its_tree(tmp_path: Path) -> None:
    from skillc_lint import FixOutsideTree

    folder = make(tmp_path, "outside/tables", BAD_CASE)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "tables").symlink_to(folder)
    outcome = fix_skill(tree / "tables", registry=default_registry(), tree=tree)
    [problem] = outcome.problems
    assert isinstance(problem, FixOutsideTree)
    assert (problem.real, problem.tree) == (
        str((folder / "SKILL.md").resolve()),
        str(tree),
    )
    assert outcome.changes == () and outcome.result.fixed == 0
    assert "SKL102" in [d.rule for d in outcome.result.diagnostics]
    assert [d.code for d in outcome.result.not_fixed] == ["E999"]
    assert outcome.result.to_dict()["not_fixed"][0]["code"] == "E999"
    assert skill_md(folder) == BAD_CASE
    # the default tree is the skill's own folder: the same call without it fixes
    assert fix_skill(tree / "tables", registry=default_registry()).applied == 1
    assert skill_md(folder).splitlines()[1] == "name: tables"


def test_a_file_saved_while_the_fix_is_written_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An editor saves SKILL.md while the fixed text is written to its temporary file (here:
    # at its fsync): the file is compared again once that is done, right before the rename.
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: s\ndescription: Does x.\n---\n")
    saved = "---\ndescription: Does x.\nname: s\n---\n"
    fsync = os.fsync

    def editor_saves_meanwhile(fd: int) -> None:
        (folder / "SKILL.md").write_text(saved, encoding="utf-8")
        fsync(fd)

    def fix(skill: object, options: object) -> list[Finding]:
        return [Finding("fix", line=2, fix=Fix("upper", (TextEdit(2, 1, 2, 5, "NAME"),)))]

    rule = LintRule("X003", "save", "warning", fix, "save", fixable="safe")
    monkeypatch.setattr(os, "fsync", editor_saves_meanwhile)
    outcome = fix_skill(folder, registry=RuleRegistry([rule]))
    assert (folder / "SKILL.md").read_text() == saved  # not "NAME: s"
    [problem] = outcome.problems
    assert problem.diagnostic.message.endswith("it changed on disk while fixing; lint it again")
    assert sorted(p.name for p in folder.iterdir()) == ["SKILL.md"]  # no temporary file left


def test_a_skill_folder_swapped_for_a_symlink_out_gets_no_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The skill folder swapped for a symlink to a folder outside once the fix's checks
    passed (and back before the last one): the temporary copy of the fixed file was made,
    and left, outside. The write walks the checked real path without following a symlink:
    the file is reported as changed and nothing is written outside."""
    import skillc_index

    folder = make(tmp_path, "s", "---\nname: s\ndescription: Does x.\n---\n")
    before = skill_md(folder)
    outside, aside = tmp_path / "outside", tmp_path / "s.real"
    outside.mkdir()
    (outside / "SKILL.md").write_text("VICTIM\n", encoding="utf-8")
    write = skillc_index.write_file_atomic

    def swapped(path: Path, data: bytes, **options: Any) -> None:
        folder.rename(aside)
        folder.symlink_to(outside)
        check = options["before_rename"]

        def back() -> None:
            folder.unlink()
            aside.rename(folder)
            check()

        write(path, data, **{**options, "before_rename": back})

    def fix(skill: object, options: object) -> list[Finding]:
        return [Finding("fix", line=2, fix=Fix("upper", (TextEdit(2, 1, 2, 5, "NAME"),)))]

    rule = LintRule("X004", "swap", "warning", fix, "swap", fixable="safe")
    monkeypatch.setattr(skillc_index, "write_file_atomic", swapped)
    outcome = fix_skill(folder, registry=RuleRegistry([rule]))
    assert sorted(p.name for p in outside.iterdir()) == ["SKILL.md"]
    assert (outside / "SKILL.md").read_text(encoding="utf-8") == "VICTIM\n"
    [problem] = outcome.problems
    assert problem.diagnostic.message.endswith("it changed on disk while fixing; lint it again")
    assert skill_md(aside if aside.exists() else folder) == before


@pytest.mark.parametrize("option", ["--fix", "--unsafe-fixes", "--add-suppressions"])
def test_an_installed_plugins_copy_is_not_rewritten(
    lint: Run, cwd: Path, home: Path, option: str
) -> None:
    """``lint devkit:tables --fix`` rewrote Claude Code's cached copy of the plugin
    (``~/.claude/plugins/cache/...``, in the home, a write place) with no word of it: the
    plugin's next update replaces it. Refused (E100), by its name or its folder, nothing
    written; the other skills of the command are fixed; ``--diff`` still shows the fixes."""
    import json

    plugin = home / ".claude/plugins/cache/acme/devkit/1.2.0"
    cached = make(plugin, "skills/tables", BAD_CASE)
    records = {"version": 2, "plugins": {"devkit@acme": [{"installPath": str(plugin)}]}}
    (home / ".claude/plugins/installed_plugins.json").write_text(json.dumps(records))
    (home / ".claude/settings.json").write_text('{"enabledPlugins": {"devkit@acme": true}}')
    charts = f"---\nname: Charts\n{GOOD}---\n\n# charts\n"
    own = make(cwd, "charts", charts)
    before = snapshot(cached)
    for given in ("devkit:tables", str(cached)):
        proc = lint(option, given, str(own), script=True)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        where = "'~/.claude/plugins/cache/acme/devkit/1.2.0/skills/tables is an installed"
        assert f"error[E100]: invalid option: {where} Claude Code plugin's copy, " in proc.stderr
        assert snapshot(cached) == before
    assert skill_md(own) != charts  # the other skill given is fixed
    proc = lint("--fix", "--diff", "devkit:tables")
    assert "+name: tables" in proc.stdout and snapshot(cached) == before


def test_a_users_own_codex_plugin_source_is_fixed(lint: Run, cwd: Path, home: Path) -> None:
    """A plugin the user keeps in ``~/.codex/plugins/my-plugin`` (Codex's docs: listed in
    ``~/.agents/plugins/marketplace.json``) is their own source, not Codex's copy: ``--fix``
    rewrites it (it was E100: the refusal covered all of ``$CODEX_HOME/plugins``); only
    ``plugins/cache/`` is refused."""
    own = make(home / ".codex/plugins/my-plugin/skills", "tables", BAD_CASE)
    proc = lint("--fix", str(own), script=True)
    assert "E100" not in proc.stderr and "Traceback" not in proc.stderr
    assert "name: tables" in skill_md(own)
    cached = make(home / ".codex/plugins/cache/mk/my-plugin/1.0.0/skills", "tables", BAD_CASE)
    proc = lint("--fix", str(cached), script=True)
    assert proc.returncode == 1 and "Codex plugin's copy" in proc.stderr
    assert skill_md(cached) == BAD_CASE
