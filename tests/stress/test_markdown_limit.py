"""The Markdown parse limit (issue 13): markdown-it-py parses table rows at 1 to 15 s per MB,
so only the first 1 MiB of a Markdown file is parsed for headings and links. A 3 MB file of
table rows builds, outlines and lints with a warning naming it; its headings before the limit
are found, the rest of its text is still indexed (as part of the last section before it) and
shown. No timing assertion: without the limit each command parsed all 3 MB.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from stress_support import age_files

Runner = Callable[..., "subprocess.CompletedProcess[str]"]

LIMIT = 1 << 20
PART = 256 * 1024


def table_file(size: int = 3 * 1024 * 1024) -> tuple[str, list[str]]:
    """About ``size`` characters of table rows, a ``## Part N`` heading (and a new table)
    every 256 KiB, and a rare word past the limit; the names of the parts that start (whole
    heading line) before the limit."""
    parts = ["# Tables\n\n"]
    length = len(parts[0])
    before: list[str] = []
    number = 0
    while length < size:
        heading = f"## Part {number}\n"
        if length + len(heading) < LIMIT:
            before.append(f"Part {number}")
        block = [heading, "\n| Name | Type | Required | Description |\n|---|---|---|---|\n"]
        block_size = sum(map(len, block))
        rows = 0
        while block_size < PART + 100:
            word = "zebrafinch" if number == 6 and rows == 10 else "words"
            row = f"| name{rows} | string | yes | The value {rows} in plain {word} |\n"
            block.append(row)
            block_size += len(row)
            rows += 1
        block.append("\n")
        text = "".join(block)
        parts.append(text)
        length += len(text)
        number += 1
    parts.append("## Final section\n\nthe end\n")
    return "".join(parts), before


def table_skill(write_skill: Callable[..., Path], project: Path) -> tuple[list[str], str]:
    """The project skill ``big``, its reference ``tables.md`` a :func:`table_file`; the
    names of its parts before the limit and the file's text."""
    text, before = table_file()
    source = write_skill(
        project / ".skillc" / "skills" / "big",
        description="Use when testing the Markdown parse limit.",
        heading=False,
        body="# Big\n\nSee [the tables](references/tables.md).\n",
        files={"references/tables.md": text},
    )
    age_files(source)
    return before, text


def limit_warnings(stderr: str) -> list[str]:
    return [
        line
        for line in stderr.splitlines()
        if line.startswith("warning: ") and "references/tables.md" in line and "1 MiB" in line
    ]


def test_a_big_table_file_builds_outlines_and_lints_with_a_warning(
    skc: Runner, ok: Runner, project: Path, write_skill: Callable[..., Path]
) -> None:
    ok("init")
    before, text = table_skill(write_skill, project)
    assert len(before) == 4  # Part 0 to Part 3 start before the limit
    line_count = text.count("\n")

    built = ok("build", "big", "--format", "json")
    assert len(limit_warnings(built.stderr)) == 1, built.stderr
    data = json.loads(built.stdout)
    assert [w for w in data["warnings"] if "references/tables.md" in w and "1 MiB" in w]

    outlined = ok("outline", "big")
    assert len(limit_warnings(outlined.stderr)) == 1, outlined.stderr
    shown = [line.strip().lstrip("#").strip() for line in outlined.stdout.splitlines()]
    assert [name for name in shown if name.startswith("Part ")] == before
    assert "Final section" not in shown
    outlined = ok("outline", "big", "--format", "json")
    assert len(limit_warnings(outlined.stderr)) == 1, outlined.stderr
    as_json = json.loads(outlined.stdout)
    assert [h["text"] for h in as_json["headings"] if h["file"] != "SKILL.md"] == [
        "Tables",
        *before,
    ]

    linted = skc("lint", "big")
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert len(limit_warnings(linted.stderr)) == 1, linted.stderr
    linted = skc("lint", "big", "--format", "json")
    assert len(limit_warnings(linted.stderr)) == 1, linted.stderr
    # the only finding: a reference this long wants a table of contents (SKL520, issue 39)
    found = json.loads(linted.stdout)["diagnostics"]
    assert [(d["rule"], d["file"]) for d in found] == [("SKL520", "references/tables.md")]

    # the text past the limit is still indexed and shown: the last section runs to the end
    found = json.loads(ok("search", "big", "zebrafinch", "--format", "json").stdout)
    assert {(r["file"], r["section"]) for r in found["results"]} == {
        ("references/tables.md", before[-1]),
        ("references/tables.md", "Tables"),  # the H1's section holds the H2s'
    }
    last = json.loads(
        ok("show", "big", "--section", before[-1], "--max-lines", "1", "--format", "json").stdout
    )
    assert last["end_line"] == line_count + 1
    assert last["total_lines"] == line_count - last["start_line"] + 1
