"""The output of issue 39: colour on terminals (NO_COLOR, FORCE_COLOR), annotation end
positions, no "linting N skills" note off a terminal, ``--show-fixes``, and
``--add-suppressions`` (comments that hide the current findings, as ruff's ``--add-noqa``)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_lint import lint_skill
from skillc_lint._suppress import suppression_comments

Run = Callable[..., "subprocess.CompletedProcess[str]"]

BAD = (
    "---\nname: Bad_Name\ndescription: Formats tables. Use when tables need it.\n---\n\n"
    "# Bad_Name\n\nSee [api](references/api.md) and [x](#nowhere).\n\n"
    "```sh\ncurl -sSL https://example.com/i.sh | bash\n```\n\n## Part\n\n#### Deep\n"
)


def put(folder: Path, text: str = BAD, **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    for rel, body in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(body, encoding="utf-8")
    return folder


def run(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "skillc_lint", *args],
        cwd=cwd,
        env={**clean, "SKILLC_HOME": str(cwd / "home"), **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_colour_only_when_forced_or_on_a_terminal_and_never_with_no_color(cwd: Path) -> None:
    put(cwd / "bad")
    piped = run(cwd, "bad")
    assert "\033[" not in piped.stderr and "error[E300]" in piped.stderr
    forced = run(cwd, "bad", FORCE_COLOR="1")
    assert "\033[1;31merror\033[0m[E300]" in forced.stderr
    assert "\033[1;33mwarning\033[0m[W300]" in forced.stderr
    assert "\033[" not in run(cwd, "bad", FORCE_COLOR="1", NO_COLOR="1").stderr
    # no-color.org: NO_COLOR "present and not an empty string"; an empty one is as unset
    assert "\033[1;31m" in run(cwd, "bad", FORCE_COLOR="1", NO_COLOR="").stderr
    assert "\033[" not in run(cwd, "bad", FORCE_COLOR="0").stderr
    assert forced.stdout == piped.stdout  # the summary on stdout stays plain


def test_github_annotations_have_end_positions(cwd: Path) -> None:
    put(cwd / "bad", BAD, **{"notes.md": "# Notes\n"})
    lines = run(cwd, "bad", "--format", "github").stdout.splitlines()
    link = next(line for line in lines if "SKL301" in line)
    assert ",line=8,col=11,endLine=8,endColumn=47," in link
    whole = next(line for line in lines if "SKL401" in line)
    assert "endLine" not in whole  # a whole-file finding has no position


def test_github_annotations_are_utf8_whatever_the_streams_encoding(cwd: Path) -> None:
    """Annotations went through the stream's encoding: under ``PYTHONIOENCODING=cp1252`` (a
    redirected stdout's Windows code page) a heading ``Café ☕`` came out as ``Caf``, the byte
    0xE9 and the text ``\\u2615``, and so did a target's name in its E-error; the runner
    reads UTF-8, as json and sarif are written."""
    put(cwd / "uni", "---\nname: uni\ndescription: Coffee. Use when brewing.\n---\n# Café ☕\n")
    done = subprocess.run(
        [sys.executable, "-m", "skillc_lint", "uni", "nowhere-☕", "--format", "github"],
        cwd=cwd,
        env={**os.environ, "SKILLC_HOME": str(cwd / "home"), "PYTHONIOENCODING": "cp1252"},
        capture_output=True,
        check=False,
    )
    out = done.stdout.decode("utf-8", "replace")
    assert "first H1 'Café ☕'" in out and "'nowhere-☕'" in out, out


def test_show_fixes_prints_each_findings_fix(cwd: Path) -> None:
    put(cwd / "bad")
    plain = run(cwd, "bad").stderr
    shown = run(cwd, "bad", "--show-fixes").stderr
    assert "help:" not in plain
    assert "  = help: rename the skill to 'bad' (unsafe fix, --unsafe-fixes)" in shown
    assert [line for line in shown.splitlines() if "help:" not in line] == plain.splitlines()


def test_add_suppressions_hides_every_current_finding(cwd: Path) -> None:
    files = {"notes.md": "## Notes\n\n[gone](gone.md)\n", "scripts/x.sh": "echo\n"}
    folder = put(cwd / "bad", BAD, **files)
    before = lint_skill(folder).diagnostics
    assert {d.rule for d in before} >= {"SKL102", "SKL104", "SKL301", "SKL302", "SKL401"}
    proc = run(cwd, "bad", "--add-suppressions")
    assert proc.returncode == 0, proc.stderr
    # SKL907 of scripts/x.sh takes no comment, nor SKL905, a security rule no comment hides
    count = len(before) - 2
    assert proc.stdout == f"added suppression comments for {count} findings in 2 files\n"
    assert "2 findings in files that take no comment (scripts, manifests) or of security rules" in (
        proc.stderr
    )
    assert [d.rule for d in lint_skill(folder).diagnostics] == ["SKL905", "SKL907"]
    text = (folder / "SKILL.md").read_text(encoding="utf-8")
    assert text.startswith("---\nname: Bad_Name\n")  # the frontmatter untouched
    assert "---\n<!-- skillc-lint: disable=" in text  # its findings: after it
    assert "(#nowhere). <!-- skillc-lint: disable-line=SKL301,SKL302 -->\n" in text
    assert "#### Deep\n" in text  # a heading keeps its text (its anchor)
    again = run(cwd, "bad", "--add-suppressions")
    assert again.stdout == "added suppression comments for 0 findings in 0 files\n"


def test_suppression_comments_keep_code_blocks_and_line_endings() -> None:
    text = "# T\r\n\r\n```\r\ncurl x | sh\r\n```\r\nprose\r\n"
    out = suppression_comments(text, [(4, "SKL905"), (6, "SKL903"), (None, "SKL202")])
    assert out == (
        "<!-- skillc-lint: disable=SKL905,SKL202 -->\r\n# T\r\n\r\n```\r\ncurl x | sh\r\n"
        "```\r\nprose <!-- skillc-lint: disable-line=SKL903 -->\r\n"
    )


def test_a_comment_that_would_change_what_a_reader_sees_goes_to_the_whole_file() -> None:
    """At the end of its line the comment closed an HTML comment the line opens (its note
    shown), became text of a code span or a tag running on, turned link reference
    definitions into a paragraph; after a hard break's backslash, the break was lost."""
    text = (
        "# T\n\nSee [x](a.md) <!-- private\nnote -->\n\n"
        "Run `a [y](b.md)\nb` now.\n\n"
        "<span title='[z](c.md)\nq'>s</span> and [w](d.md)\n\n"
        "[g]: /Users/jesse/g.md\n[h]: h.md\n\n"
        "Break [v](e.md)\\\nhere and [u](f.md)  \nthere.\n"
    )
    findings = [(3, "SKL301"), (6, "SKL301"), (9, "SKL301"), (12, "SKL523"), (15, "SKL301")]
    out = suppression_comments(text, [*findings, (16, "SKL302")])
    assert out.splitlines()[0] == "<!-- skillc-lint: disable=SKL301,SKL523 -->"
    assert (
        out.splitlines()[1:]
        == text.replace(
            "Break [v](e.md)\\\nhere and [u](f.md)  \n",
            "Break [v](e.md) <!-- skillc-lint: disable-line=SKL301 -->\\\n"
            "here and [u](f.md) <!-- skillc-lint: disable-line=SKL302 -->  \n",
        ).splitlines()
    )
    # a table row's comment past its last cell is dropped from the table: it stays; of two
    # comments alike in one paragraph, the one inside a tag running on is refused
    table = "| a | b |\n|---|---|\n| [x](a.md) | y |\n\n"
    table += "See [x](a.md)\nand <b title='[y](b.md)\nz'>w</b>\n"
    written = suppression_comments(table, [(3, "SKL301"), (5, "SKL301"), (6, "SKL301")])
    assert written.splitlines() == [
        "<!-- skillc-lint: disable=SKL301 -->",
        "| a | b |",
        "|---|---|",
        "| [x](a.md) | y | <!-- skillc-lint: disable-line=SKL301 -->",
        "",
        "See [x](a.md) <!-- skillc-lint: disable-line=SKL301 -->",
        "and <b title='[y](b.md)",
        "z'>w</b>",
    ]
    # a second run merges into the line the first wrote: no second line
    again = suppression_comments(out, [(None, "SKL201")])
    assert again == out.replace("SKL301,SKL523 -->", "SKL301,SKL523,SKL201 -->")


def test_add_suppressions_hides_what_its_own_comment_line_makes(cwd: Path) -> None:
    """A SKILL.md of 500 lines became 501 with the comment line (a new SKL201 finding): a
    run again added another line for it."""
    lines = "".join(f"line {n}\n" for n in range(7, 501))
    put(cwd / "long", "---\nname: long\ndescription: Does x.\n---\n# long\n\n" + lines)
    proc = run(cwd, "long", "--add-suppressions")
    assert proc.stdout == "added suppression comments for 2 findings in 1 file\n"
    text = (cwd / "long" / "SKILL.md").read_text(encoding="utf-8")
    assert "<!-- skillc-lint: disable=SKL108,SKL201 -->\n# long\n" in text
    again = run(cwd, "long", "--add-suppressions")
    assert again.stdout == "added suppression comments for 0 findings in 0 files\n"
    assert run(cwd, "long").stdout == "long: 0 errors, 0 warnings\n"


# -- --add-suppressions writes as --fix writes ----------------------------------------------

GONE = "---\nname: ext\ndescription: Does things. Use when testing.\n---\n# ext\n\n[x](nope.md)\n"


def test_add_suppressions_writes_only_inside_the_folder_given(cwd: Path) -> None:
    outside = put(cwd / "outside" / "ext", GONE)
    (cwd / "proj" / "skills").mkdir(parents=True)
    (cwd / "proj" / "skills" / "ext").symlink_to(outside)
    put(cwd / "proj" / "skills" / "own", GONE.replace("ext", "own"))
    before = (outside / "SKILL.md").read_bytes()
    proc = run(cwd / "proj", "skills", "--add-suppressions")
    assert (outside / "SKILL.md").read_bytes() == before
    assert proc.returncode == 1
    assert "error[E999]: cannot fix 'skills/ext/SKILL.md': it is outside 'skills'" in proc.stderr
    assert proc.stdout == "added suppression comments for 1 finding in 1 file\n"
    assert "disable-line=SKL301" in (cwd / "proj" / "skills" / "own" / "SKILL.md").read_text()


def test_add_suppressions_leaves_a_read_only_file(cwd: Path) -> None:
    folder = put(cwd / "ext", GONE)
    (folder / "SKILL.md").chmod(0o444)
    proc = run(cwd, "ext", "--add-suppressions")
    assert (folder / "SKILL.md").read_text() == GONE
    assert proc.returncode == 1
    assert "error[E999]: cannot fix 'ext/SKILL.md': the file is read-only" in proc.stderr


def test_add_suppressions_leaves_a_file_changed_since_the_lint(cwd: Path) -> None:
    from skillc_lint._engine import lint_with_texts
    from skillc_lint._suppress import add_suppressions

    folder = put(cwd / "ext", GONE)
    result, texts = lint_with_texts(folder)
    saved = GONE.replace("# ext\n", "# ext\n\nA new paragraph.\n")
    (folder / "SKILL.md").write_text(saved)  # an editor saves after the lint read it
    outcome, left = add_suppressions(result, texts)
    assert (folder / "SKILL.md").read_text() == saved
    [problem] = outcome.problems
    assert problem.diagnostic.message.endswith("it changed on disk while fixing; lint it again")
    assert (outcome.changes, left) == ((), 0)


def test_add_suppressions_writes_a_file_with_two_names_once(cwd: Path) -> None:
    body = "---\nname: s\ndescription: Does x. Use when y.\n---\n# S\n\nSee [a](a.md).\n"
    folder = put(cwd / "s", body, **{"a.md": "## A\n\nfirst\nbroken [x](gone.md)\nlast\n"})
    (folder / "b.md").symlink_to("a.md")
    proc = run(cwd, "s", "--add-suppressions")
    assert proc.returncode == 0, proc.stderr
    assert (folder / "b.md").is_symlink()
    # b.md's own findings (no link to it) join a.md's in one set of comments, on their lines
    assert (folder / "a.md").read_text() == (
        "<!-- skillc-lint: disable=SKL204,SKL401 -->\n## A\n\nfirst\n"
        "broken [x](gone.md) <!-- skillc-lint: disable-line=SKL301 -->\nlast\n"
    )
    assert run(cwd, "s").returncode == 0


def test_add_suppressions_reports_a_file_it_cannot_write_and_goes_on(
    cwd: Path, lint: Callable[..., subprocess.CompletedProcess[str]], monkeypatch: Any
) -> None:
    """One file that cannot be written (the disk full as it is written) is an E999 line; the
    others are written."""
    import errno

    import skillc_index

    written = skillc_index.write_file_atomic

    def full(path: Path, *args: Any, **kwargs: Any) -> None:
        if Path(path).name == "notes.md":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written(path, *args, **kwargs)

    monkeypatch.setattr(skillc_index, "write_file_atomic", full)
    body = GONE + "[y](notes.md)\n"
    folder = put(cwd / "s", body.replace("name: ext", "name: s"), **{"notes.md": "## N\n"})
    proc = lint("s", "--add-suppressions")
    assert proc.returncode == 1
    assert "error[E999]: cannot fix 's/notes.md': No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr and "OSError" not in proc.stderr
    assert "disable-line=SKL301" in (folder / "SKILL.md").read_text()  # the other file
    assert proc.stdout.startswith("added suppression comments for ")


def test_add_suppressions_keeps_lone_carriage_returns(cwd: Path) -> None:
    folder = put(cwd / "lonecr")
    (folder / "SKILL.md").write_bytes(b"---\rname: Lonecr\rdescription: Does x.\r---\r# Lonecr\r")
    assert run(cwd, "lonecr", "--add-suppressions").returncode == 0
    assert b"\n" not in (folder / "SKILL.md").read_bytes()


CODE = """---
name: notes
description: Takes notes. Use when taking notes.
---
# notes

- Setup:
  - Install:

    ```bash
    uvx ruff check
    ```

Or:

    uvx black .

> ```sh
> uvx mypy .
> ```

<!--
TODO: finish
-->

See [gone](gone.md).
"""


def test_add_suppressions_writes_no_comment_into_code_or_an_html_block(cwd: Path) -> None:
    # a fence in a list item (indented 4), an indented code block, a fence in a blockquote,
    # a multi-line HTML comment (an added comment's --> would close it early); findings of
    # rules a comment hides (SKL522, SKL526: no security rule's, which none hides)
    folder = put(cwd / "notes", CODE)
    before = {(d.rule, d.line) for d in lint_skill(folder).diagnostics}
    assert {line for _, line in before} >= {11, 16, 19, 23, 26}
    proc = run(cwd, "notes", "--add-suppressions")
    assert proc.returncode == 0, proc.stderr
    text = (folder / "SKILL.md").read_text()
    lines = text.splitlines()
    assert lines[4].startswith("<!-- skillc-lint: disable=")  # after the frontmatter
    assert sum("skillc-lint" in line for line in lines) == 2
    assert lines[-1] == "See [gone](gone.md). <!-- skillc-lint: disable-line=SKL301 -->"
    assert text.replace(lines[4] + "\n", "").replace(lines[-1], "See [gone](gone.md).") == CODE
    assert lint_skill(folder).diagnostics == ()


def test_comments_in_indented_and_nested_code_are_examples(tmp_path: Path) -> None:
    example = "<!-- skillc-lint: disable=SKL301 -->"
    body = (
        f"# s\n\n- Item:\n\n    ```md\n    {example}\n    ```\n\n"  # a fence in a list item
        f"Indented:\n\n    {example}\n\n"  # an indented code block
        f"> ```md\n> {example}\n> ```\n\n"  # a fence in a blockquote
        "See [gone](gone.md).\n"
    )
    folder = put(tmp_path / "s", "---\nname: s\ndescription: Does x. Use when y.\n---\n" + body)
    assert [(d.rule, d.line) for d in lint_skill(folder).diagnostics] == [("SKL301", 21)]


def _block_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The bodies given to ``block_tokens`` (markdown-it's whole parse, the suppression
    comments' own) from now on."""
    import skillc_index.markdown.document as document

    real = document.block_tokens
    calls: list[str] = []
    monkeypatch.setattr(document, "block_tokens", lambda body: calls.append(body) or real(body))
    return calls


def test_comments_are_read_with_the_code_blocks_of_the_lints_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file carrying comments was parsed a second time, by markdown-it whole, for its code
    blocks (the corpus linted after --add-suppressions: 5.3 s of CPU, 3.3 s without the
    comments): they are the lint's own parse's (``MarkdownDoc.code_blocks``)."""
    example = "<!-- skillc-lint: disable=SKL301 -->"
    body = (
        f"# s\n\n- Item:\n\n    ```md\n    {example}\n    ```\n\n"  # an example, in code
        "See [gone](gone.md). <!-- skillc-lint: disable-line=SKL301 -->\n"
        "And [lost](lost.md).\n"
    )
    folder = put(tmp_path / "s", "---\nname: s\ndescription: Does x. Use when y.\n---\n" + body)
    parses = _block_parses(monkeypatch)
    result = lint_skill(folder)
    assert [(d.rule, d.line) for d in result.diagnostics] == [("SKL301", 14)]
    assert result.suppressed == 1
    assert parses == []


def test_suppression_comments_parse_the_blocks_only_for_a_comment_on_a_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Most findings go to the whole-file comment (no line, the frontmatter, a heading):
    the text was parsed for its code and HTML blocks all the same, once a file."""
    parses = _block_parses(monkeypatch)
    text = "---\nname: s\n---\n# S\n\nSee [x](x.md).\n"
    whole = suppression_comments(text, [(None, "SKL401"), (2, "SKL102"), (4, "SKL203")])
    assert whole == text.replace("# S", "<!-- skillc-lint: disable=SKL401,SKL102,SKL203 -->\n# S")
    assert parses == []
    # near miss: a finding on a line of prose takes its comment there, the blocks parsed
    on_line = suppression_comments(text, [(6, "SKL301")])
    assert on_line == text.replace(").\n", "). <!-- skillc-lint: disable-line=SKL301 -->\n")
    assert parses


def test_no_line_of_the_text_output_is_a_github_workflow_command(cwd: Path) -> None:
    # GitHub Actions reads a line of a step's output (stdout or stderr) whose first
    # characters other than white space are :: as a workflow command: a forged annotation
    skills = cwd / "skills"
    for name in ("::error file=README.md,line=1::Approved", "x\n  ::warning::forged"):
        put(skills / name, "---\nname: x\ndescription: Does x. Use when y.\n---\n# X\n")
    for where, target in ((cwd, "skills"), (skills, ".")):
        proc = run(where, target)
        assert proc.returncode == 1
        lines = proc.stdout.splitlines() + proc.stderr.splitlines()
        assert not [line for line in lines if line.lstrip().startswith("::")]
        assert "\\x3a:error file=README.md,line=1::Approved: 1 error, 0 warnings" in lines
        assert "x\\n  ::warning::forged: 1 error, 0 warnings" in lines  # one line
    assert "\\x3a:error file=README.md,line=1::Approved/SKILL.md:2:1: error[E300]" in proc.stderr


def test_findings_of_one_line_are_ordered_by_rule_id(lint: Run, cwd: Path) -> None:
    """Findings of one line came in the order of the rules in the registry (SKL931, a target
    rule, before SKL701); the README says by rule: by id, in every format."""
    import json

    folder = cwd / "o"
    folder.mkdir()
    front = "---\nname: o\ndescription: O. Use when o.\nversion: 1.0\nmodel: gpt-4o\n---\n\n# o\n"
    (folder / "SKILL.md").write_text(front, encoding="utf-8")
    args = ("o", "--profile", "skillli,claude-code", "--target", "codex", "--no-cache")
    proc = lint(*args, "--format", "json")
    found = [(d["line"], d["rule"]) for d in json.loads(proc.stdout)["diagnostics"]]
    assert found == sorted(found)
    assert (4, "SKL701") in found and (4, "SKL931") in found
    sarif = json.loads(lint(*args, "--format", "sarif").stdout)
    results = sarif["runs"][0]["results"]
    lines = [
        (r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"]) for r in results
    ]
    assert lines == found


def test_the_rendered_check_of_a_comment_reads_tables_within_the_cell_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whether a comment leaves a block rendered as before is judged by skillc-index's
    bounded parser: a block whose tables hold more cells than a parse reads is not judged
    (the whole-file comment), never rendered cell by cell (wide tables took gigabytes)."""
    from skillc_index.markdown import table_rule
    from skillc_lint._suppress import _renders_alike

    header = "|" + "|".join(f" c{n} " for n in range(10)) + "|\n"
    block = [header, "|---" * 10 + "|\n", *["| x " * 10 + "|\n"] * 20]  # 210 cells
    comment = "<!-- skillc-lint: disable-line=SKL301 -->"
    new_line = block[5].rstrip("\n") + f" {comment}\n"
    assert _renders_alike(block, 5, new_line, comment)  # a row's cell past the header's
    monkeypatch.setattr(table_rule, "MAX_TABLE_CELLS", 100)
    assert not _renders_alike(block, 5, new_line, comment)


def test_to_dict_is_the_json_object_without_path_and_counts(lint: Run, cwd: Path) -> None:
    """The README said ``LintResult.to_dict()`` is "the JSON shape above (without path)",
    but ``skillc-lint --format json`` also has ``error_count`` and ``warning_count``: the
    README names the three keys the report adds, and this checks them against the console
    script's output."""
    import json
    import re

    put(cwd / "bad")
    printed = lint("bad", "--format", "json", script=True)
    assert printed.returncode == 1, printed.stderr
    whole = json.loads(printed.stdout)
    result = lint_skill(cwd / "bad")
    own = result.to_dict()
    added = {key: value for key, value in whole.items() if key not in own}
    assert {key: whole[key] for key in own} == own
    counts = {"error_count": result.errors, "warning_count": result.warnings}
    assert added == {"path": "bad", **counts} and all(counts.values())
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    said = re.search(r"`result\.to_dict\(\)` is the object `--format json`.*?adds", readme, re.S)
    assert said is not None
    assert all(f"`{key}`" in said.group() for key in added)
