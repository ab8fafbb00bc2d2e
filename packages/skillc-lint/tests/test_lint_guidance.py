"""The authoring guidance rules (SKL520-SKL529, tag ``guidance``): each on a fixture shaped
like what the real skills hold (lint README, "Guidance rules"), with the near miss that must
stay silent."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_lint import LintDiagnostic, lint_skill
from skillc_lint._rules.fields import holds_line_of

Writer = Callable[..., Path]


def found(folder: Path, rule: str) -> list[tuple[str, int | None, str]]:
    diagnostics: list[LintDiagnostic] = list(lint_skill(folder).diagnostics)
    return [(d.file, d.line, d.message) for d in diagnostics if d.rule == rule]


def long_reference(toc: str) -> str:
    body = "".join(f"## Part {n}\n\nText {n}.\n\n" for n in range(110))
    return f"# Reference\n\n{toc}{body}"


def test_skl520_a_long_reference_needs_a_table_of_contents(skill: Writer) -> None:
    folder = skill(
        body="See `references/api.md`, `references/guide.md`, `references/short.md`.\n",
        files={
            "references/api.md": long_reference(""),
            "references/guide.md": long_reference("## Contents\n\n- [Part 1](#part-1)\n\n"),
            "references/short.md": "# Short\n\n" + "line\n" * 200,
        },
    )
    assert [(f, m.split(" and")[0]) for f, _, m in found(folder, "SKL520")] == [
        ("references/api.md", "references/api.md is 442 lines long")
    ]


def test_skl521_bundled_files_are_named_somewhere(skill: Writer) -> None:
    folder = skill(
        body="Fill in `assets/form.pdf`; the schemas are in `schemas/`.\n",
        files={
            "assets/form.pdf": "x",
            "assets/old.png": "x",
            "schemas/a.json": "{}",
            "LICENSE.txt": "MIT",
            "scripts/run.py": "print()\n",  # SKL907's
            # the skill's tests (skc eval --init writes the YAML; agentskills.io's guide the
            # train/validation split), which skc package leaves out: not bundled
            "evals/triggers.yaml": "should_trigger:\n  - fill in a form\n",
            "evals/evals.json": '{"evals": []}',
            "evals/trigger-eval.json": "[]",
            "evals/train_queries.json": "[]",
            "evals/notes.csv": "a,b\n",
            "data/evals/rows.csv": "a,b\n",  # evals/ below the root: content
        },
    )
    assert found(folder, "SKL521") == [
        (
            "assets/old.png",
            None,
            "assets/old.png is bundled but no Markdown file of the skill names it",
        ),
        (
            "data/evals/rows.csv",
            None,
            "data/evals/rows.csv is bundled but no Markdown file of the skill names it",
        ),
    ]


def test_skl522_package_runners_name_a_version(skill: Writer) -> None:
    folder = skill(
        body=(
            "```sh\nuvx ruff check .\nuvx ruff==0.6.9 check .\nuvx --from 'black==24.1' black .\n"
            "npx -y @modelcontextprotocol/server-github\nnpx -y @scope/pkg@1.2.3\n"
            "npx prettier --check .\nbunx remotion render\nnpx -y package-name\n```\n"
        )
    )
    assert [(line, message.split("'")[1]) for _, line, message in found(folder, "SKL522")] == [
        (9, "uvx ruff"),
        (12, "npx -y @modelcontextprotocol/server-github"),
        (15, "bunx remotion"),
    ]


def test_skl522_switches_code_spans_and_error_codes(skill: Writer) -> None:
    """``-y``/``--yes`` took the package as its value (``npx -y create-vite@5.2.0`` was
    unpinned), a match ran past a code span's closing backtick (the message quoted
    ``'npx -y prettier@3.3.3` now.'``), and ``spawn uvx ENOENT`` (an error) named a package."""
    folder = skill(
        body=(
            "```bash\nnpx -y create-vite@5.2.0 my-app\n"
            "npx --yes @modelcontextprotocol/inspector@0.14.0 node build/index.js\n"
            "uvx --python 3.12 ruff==0.6.9 check\nuvx --python 3.12 ruff check\n```\n\n"
            "Run `npx -y prettier@3.3.3` now, not `npx -y prettier` today.\n\n"
            "| `spawn uvx ENOENT` | put `uvx` on PATH |\n"
        )
    )
    assert [(line, message.split("'")[1]) for _, line, message in found(folder, "SKL522")] == [
        (12, "uvx --python 3.12 ruff"),
        (15, "npx -y prettier"),
    ]


def test_skl523_home_paths_but_not_placeholders_or_urls(skill: Writer) -> None:
    folder = skill(
        body=(
            "Open /Users/jesse/project/app.py.\nOr /home/you/x, /Users/myUserName/y, "
            "C:\\Users\\<name>\\z.\nSee https://example.com/home/standards.\n"
        ),
        files={"scripts/s.sh": "cd /home/carol/work\n"},
    )
    assert [(f, line) for f, line, _ in found(folder, "SKL523")] == [
        ("SKILL.md", 8),
        ("scripts/s.sh", 1),
    ]


def test_skl523_elided_and_example_users_and_web_pages(skill: Writer) -> None:
    """``/Users/...`` and ``C:\\Users\\...`` (elided), ``C:\\Users\\john.doe`` (a redaction
    example) and ``'/home/home.jsp'`` (a page's URL path) were reported; a real first.last
    user and a home folder holding a page still are (one finding a line)."""
    folder = skill(
        body=(
            "- never hard-code paths such as `/Users/...` or `C:\\Users\\...`\n"
            "- redact: `C:\\Users\\john.doe\\projects\\` becomes `~/projects/`\n"
            "- `return new PageReference('/home/home.jsp');`\n"
            "- `/Users/jesse.vincent/app`\n- `/home/carol/index.html`\n"
        )
    )
    assert [message.split("'")[1] for _, _, message in found(folder, "SKL523")] == [
        "/Users/jesse.vincent",
        "/home/carol",
    ]


def test_skl524_unclosed_fences_and_list_indented_closers(skill: Writer) -> None:
    closed = skill("closed", body="1. Step\n\n   ```markdown\n   text\n    ```\n\n## After\n")
    assert found(closed, "SKL524") == []
    opened = skill("opened", body="## Why\n```\nBenefits:\n- fast\n\n## Prerequisites\n")
    assert found(opened, "SKL524") == [
        ("SKILL.md", 9, "code fence opened here is never closed: the rest of the file is code")
    ]
    in_item = skill("item", body="1. Run:\n\n   ```sh\n   make\n\n2. Then read it.\n\n## Next\n")
    assert found(in_item, "SKL524") == [
        (
            "SKILL.md",
            10,
            "code fence opened here is never closed: the rest of its list item is code "
            "(to line 12)",
        )
    ]


def test_skl524_a_fence_open_where_the_parse_stopped_is_not_reported(skill: Writer) -> None:
    """A fence closed past the parse limit (1 MiB or 20,000 lines) was "never closed: the
    rest of the file is code" (audit bigskill, item 2), advice that breaks the file: one
    still open where the parse stopped is not reported; one left open before it still is."""
    item = "1. Run:\n\n   ```sh\n   make\n\n2. Then read it.\n\n"
    body = f"{item}```text\n" + "code\n" * 20_100 + "```\n\n## After\n"
    folder = skill("longcode", body=body)
    assert [(line, message.split(":")[-1]) for _, line, message in found(folder, "SKL524")] == [
        (10, " the rest of its list item is code (to line 12)")
    ]


def test_skl525_reserved_words_and_xml_tags(tmp_path: Path, write_skill: Writer) -> None:
    bad = write_skill(
        tmp_path / "claude-helper", "claude-helper", "Sends <TMessage> objects. Use when x."
    )
    assert [m for _, _, m in found(bad, "SKL525")] == [
        "name 'claude-helper' holds the reserved word 'claude': uploads reject it",
        "description holds an XML tag '<TMessage>': uploads reject it",
    ]
    good = write_skill(tmp_path / "helper", "helper", "Compares a < b and b > c. Use when x.")
    assert found(good, "SKL525") == []


def test_skl526_placeholders(tmp_path: Path, write_skill: Writer) -> None:
    template = write_skill(tmp_path / "new", "new", '"TODO: Add skill description"', "# New\n")
    assert [m for _, _, m in found(template, "SKL526")] == [
        "description is a placeholder: 'TODO: Add skill description'"
    ]
    body = (
        "# Done\n\nTODO: write the steps\n\nUnknowns use `[TODO]`; a todo list.\n\n```\nTODO\n```\n"
    )
    written = write_skill(tmp_path / "done", "done", "Does it. Use when x.", body)
    assert [(line, m) for _, line, m in found(written, "SKL526")] == [
        (10, "unfinished text: 'TODO: write the steps'")
    ]


def test_skl527_scripts_that_wait_for_input(skill: Writer) -> None:
    folder = skill(
        body="Run `scripts/ask.py`, `scripts/ask.sh`, `scripts/rp.sh`, `scripts/ok.sh`, "
        "`scripts/ok.py`.\n",
        files={
            "scripts/ask.py": "import sys\nname = input('Name? ')\n",
            "scripts/ask.sh": "#!/bin/sh\nread -r -p 'Continue? ' answer\n",
            "scripts/rp.sh": "#!/bin/sh\nread -d '' -t 5 data\nread -rp 'Name? ' name\n",
            "scripts/ok.sh": 'while read -r line; do echo "$line"; done < list.txt\n',
            "scripts/ok.py": "# input() is not used here\nvalue = sys.argv[1]\n",
        },
    )
    assert [(f, line) for f, line, _ in found(folder, "SKL527")] == [
        ("scripts/ask.py", 2),
        ("scripts/ask.sh", 2),
        ("scripts/rp.sh", 3),  # -p in a group of flags
    ]


def test_skl528_encoded_blobs(skill: Writer) -> None:
    blob = "iVBORw0KGgo" + "A" * 500
    folder = skill(body=f"![logo](data:image/png;base64,{blob})\n\nA normal line.\n")
    assert [(line, m.split(" of")[0]) for _, line, m in found(folder, "SKL528")] == [
        (8, "encoded blob")
    ]


def test_skl528_numbers_lines_as_the_parse_does(skill: Writer) -> None:
    """A form feed, U+2028 or NEL ends no line for the parse (nor for ``show``): a blob
    after them is on their line, and a line they split is one line of 400 characters."""
    blob = "iVBORw0KGgo" + "A" * 500
    folder = skill(body=f"Logo:\x0c\u2028\x85{blob}\n\nA normal line.\n")
    assert [line for _, line, _ in found(folder, "SKL528")] == [8]
    assert holds_line_of("a\u2028" + "b" * 399, 401)
    assert not holds_line_of("a\r\n" + "b" * 399, 401)


def test_skl522_a_run_of_value_flags_lints_in_linear_time(
    skill: Writer, clean_env: dict[str, str]
) -> None:
    """A value-taking flag (``-p``) also parsed as a switch: ``npx -p -p … !`` backtracked
    exponentially (36 of them took 12 s, 40 took 93 s). 200 of them, in a real process that
    a 20 s timeout would kill, then a pinned and an unpinned runner on the next lines."""
    flags = "npx " + "-p " * 200 + "!"
    folder = skill(body=f"```sh\n{flags}\nnpx -y -p x@1 run\nuvx -p -p ruff check\n```\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "skillc_lint",
            str(folder),
            "--select",
            "SKL522",
            "--format",
            "json",
        ],
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr  # warnings only
    hits = json.loads(proc.stdout)["diagnostics"]
    assert [(d["line"], d["message"].split("'")[1]) for d in hits] == [(11, "uvx -p -p ruff")]


def test_skl522_skl523_skl527_number_lines_as_the_parse_does(skill: Writer) -> None:
    """A form feed or U+2028 ends no line: each one before a runner, a home folder or a
    prompt put its finding one line further down (``str.splitlines``)."""
    folder = skill(
        body="Page one.\x0cPage two.\u2028\n\nRun `uvx ruff check .` in /home/carol/data.\n",
        files={"scripts/ask.sh": "#!/bin/sh\n# one\x0c\n# two\x0c\nread -p 'Name? ' n\n"},
    )
    lines = (folder / "SKILL.md").read_text("utf-8").split("\n")
    line = next(n for n, text in enumerate(lines, 1) if text.startswith("Run "))
    assert [line for _, line, _ in found(folder, "SKL522")] == [line]
    assert [line for _, line, _ in found(folder, "SKL523")] == [line]
    assert [(f, line) for f, line, _ in found(folder, "SKL527")] == [("scripts/ask.sh", 4)]


def test_skl529_evals_format(skill: Writer) -> None:
    good = {"skill_name": "x", "evals": [{"id": 1, "prompt": "Do it", "files": ["a.csv"]}]}
    folder = skill(files={"evals/evals.json": json.dumps(good)})
    assert found(folder, "SKL529") == []
    bad = {"evals": [{"prompt": ""}, {"prompt": "p", "files": "a.csv"}, "x"]}
    (folder / "evals" / "evals.json").write_text(json.dumps(bad), encoding="utf-8")
    assert [m for _, _, m in found(folder, "SKL529")] == [
        "evals[0] needs a non-empty 'prompt' string",
        "evals[1] 'files' must be a list of paths",
        "evals[2] is not an object",
    ]
    # a key skc eval does not know (a misspelled should_trigger): it leaves the eval out
    typo = {"evals": [{"prompt": "p", "shouldTrigger": False}], "skill": "x"}
    (folder / "evals" / "evals.json").write_text(json.dumps(typo), encoding="utf-8")
    assert [m for _, _, m in found(folder, "SKL529")] == [
        "evals.json has the unknown key 'skill'",
        "evals[0] has the unknown key 'shouldTrigger': skc eval leaves it out",
    ]
    (folder / "evals" / "evals.json").write_text("{not json", encoding="utf-8")
    assert found(folder, "SKL529")[0][2].startswith("evals.json is not JSON")
    assert stat.S_ISREG((folder / "evals" / "evals.json").stat().st_mode)


def test_skl529_reports_the_ids_skc_eval_warns_of(skill: Writer) -> None:
    """skc eval warned of an id that is no integer or one two evals hold, lint said nothing:
    SKL529 reports them with the same check (skillc_index.evals.id_problems), a line a kind
    in evals.json and a JSON trigger file alike."""
    evals = [{"id": f"e{n}", "prompt": f"p{n}"} for n in range(3)]
    evals += [{"id": 4, "prompt": "q"}, {"id": 4, "prompt": "r"}]
    folder = skill(files={"evals/evals.json": json.dumps({"evals": evals})})
    assert [m for _, _, m in found(folder, "SKL529")] == [
        "evals.json: 3 ids are not integers (first: 'e0')",
        "evals.json: id 4 is held by 2 evals",
    ]
    (folder / "evals" / "evals.json").unlink()
    triggers = [{"id": n % 2, "query": f"q{n}", "should_trigger": True} for n in range(4)]
    (folder / "evals" / "triggers.json").write_text(json.dumps(triggers), encoding="utf-8")
    assert [m for _, _, m in found(folder, "SKL529")] == [
        "triggers.json: 2 ids held by more than one eval (first: 0)"
    ]


def test_skl529_reports_the_keys_skc_eval_drops_in_the_trigger_files(skill: Writer) -> None:
    """SKL529 read evals/evals.json alone: a ``"shouldTrigger"`` in ``triggers.json`` (skc eval
    leaves the entry out) or a ``should_trigge:`` list in ``triggers.yaml`` (skc eval skips
    the file) linted clean. Known keys stay silent."""
    entries = [{"query": "sort it", "should_trigger": True}, {"query": "x", "shouldTrigger": 0}]
    wrapped = {"evals": [{"prompt": "sort it", "expected": "y"}], "skill": "s"}
    folder = skill(
        files={
            "evals/triggers.json": json.dumps(entries),
            "evals/trigger-eval.json": json.dumps(wrapped),
            "evals/triggers.yaml": "should_trigger:\n  - sort it\nshould_trigge:\n  - a csv\n",
        }
    )
    drops, skips = "skc eval leaves it out", "skc eval skips the file"
    assert sorted((f, m) for f, _, m in found(folder, "SKL529")) == [
        ("evals/trigger-eval.json", f"evals[0] has the unknown key 'expected': {drops}"),
        ("evals/trigger-eval.json", "trigger-eval.json has the unknown key 'skill'"),
        ("evals/triggers.json", f"triggers.json[1] has the unknown key 'shouldTrigger': {drops}"),
        ("evals/triggers.yaml", "triggers.yaml has the unknown key 'should_trigge': " + skips),
    ]
    (folder / "evals" / "triggers.json").write_text(json.dumps(entries[:1]), encoding="utf-8")
    (folder / "evals" / "trigger-eval.json").write_text(json.dumps(wrapped["evals"]), "utf-8")
    yaml = "---\n# cases\nshould_trigger: [sort it]\nshould_not_trigger: []\n"
    (folder / "evals" / "triggers.yaml").write_text(yaml, encoding="utf-8")
    assert [m for _, _, m in found(folder, "SKL529")] == [
        f"trigger-eval.json[0] has the unknown key 'expected': {drops}"
    ]


def test_skl529_reports_the_trigger_files_skc_eval_skips(skill: Writer) -> None:
    """A trigger file skc eval cannot read as its format (it skips the whole file, no case
    of it is scored) linted clean, while an unreadable evals.json was SKL529's: now each is
    reported as evals.json is, read by eval's own readers (a JSON 17 levels deep too)."""
    trailing_comma = '[{"query": "sort it", "should_trigger": true},]'
    with pytest.raises(json.JSONDecodeError) as parsed:  # json's own words differ in 3.13
        json.loads(trailing_comma)
    folder = skill(
        files={
            "evals/triggers.json": trailing_comma,
            "evals/trigger-eval.json": '{"evals": "sort it"}',
            "evals/triggers.yaml": 'should_trigger:\n  - "unclosed\nshould_not_trigger: []\n',
        }
    )
    assert sorted((f, m[:40]) for f, _, m in found(folder, "SKL529")) == [
        ("evals/trigger-eval.json", "trigger-eval.json must be a list of case"),
        ("evals/triggers.json", f"triggers.json is not JSON: {parsed.value}"[:40]),
        ("evals/triggers.yaml", "triggers.yaml is not YAML: while scannin"),
    ]
    (folder / "evals" / "triggers.json").write_text("[" * 17 + "]" * 17, encoding="utf-8")
    (folder / "evals" / "trigger-eval.json").unlink()
    (folder / "evals" / "triggers.yaml").write_text("should_trigger: sort it\n", "utf-8")
    assert sorted(m for _, _, m in found(folder, "SKL529")) == [
        "triggers.json is not JSON: nested deeper than 16 levels",
        "triggers.yaml's 'should_trigger' must be a list: skc eval leaves it out",
    ]
    (folder / "evals" / "triggers.yaml").write_text("- sort it\n", encoding="utf-8")
    assert found(folder, "SKL529")[-1][2] == (
        "triggers.yaml must be a mapping with should_trigger and should_not_trigger lists"
    )


def test_skl529_reads_a_case_file_as_skc_eval_does(skill: Writer) -> None:
    """SKL529 read case files through lint's text window (256 KiB): a valid 300 KB
    ``triggers.json`` or ``evals.json``, which skc eval reads whole, was "not JSON". They are
    read with eval's reader and bound (1 MiB); one over it cannot be read, as eval says."""
    cases = [{"query": f"sort table {n} " + "x" * 200, "should_trigger": True} for n in range(5000)]
    many = json.dumps(cases[:1400])  # over 300 KB
    evals = json.dumps({"evals": [{"prompt": "p" * 200}] * 1500})
    folder = skill(files={"evals/triggers.json": many, "evals/evals.json": evals})
    assert len(many) > 300_000 and len(evals) > 300_000
    assert found(folder, "SKL529") == []
    (folder / "evals" / "triggers.json").write_text(json.dumps(cases), encoding="utf-8")
    assert [m for _, _, m in found(folder, "SKL529")] == [
        "triggers.json cannot be read: larger than 1 MiB"
    ]


def test_skl529_reports_a_key_written_twice_a_list_that_is_none_and_bytes_not_utf8(
    skill: Writer,
) -> None:
    """A repeated ``should_trigger:`` or ``"evals"`` kept the second list only, ``no`` under
    ``should_not_trigger`` read as no list, a Latin-1 ``triggers.yaml`` was read with U+FFFD:
    each linted clean while skc eval dropped or mangled cases. Lint reads them as eval does."""
    twice = "should_trigger:\n  - plan a tour\nshould_trigger:\n  - merge two PDFs\n"
    folder = skill(
        files={
            "evals/triggers.yaml": twice,
            "evals/evals.json": '{"evals": [{"prompt": "a"}], "evals": [{"prompt": "b"}]}',
        }
    )
    assert sorted(m for _, _, m in found(folder, "SKL529")) == [
        "evals.json has the key 'evals' written twice: skc eval skips the file",
        "triggers.yaml has the key 'should_trigger' written twice (lines 1 and 3): skc eval "
        "skips the file",
    ]
    (folder / "evals" / "evals.json").unlink()
    (folder / "evals" / "triggers.yaml").write_text("should_not_trigger: no\n", "utf-8")
    assert [m for _, _, m in found(folder, "SKL529")] == [
        "triggers.yaml's 'should_not_trigger' must be a list: skc eval leaves it out"
    ]
    (folder / "evals" / "triggers.yaml").write_bytes(b"should_trigger:\n  - caf\xe9\n")
    assert [m for _, _, m in found(folder, "SKL529")] == [
        "triggers.yaml cannot be read: it is not UTF-8"
    ]
    (folder / "evals" / "triggers.yaml").write_text("should_not_trigger:\n", "utf-8")
    assert found(folder, "SKL529") == []  # a list with nothing in it yet


def test_the_guidance_tag_selects_them(skill: Writer) -> None:
    from skillc_lint import default_registry

    registry = default_registry()
    assert registry.match("guidance") == [f"SKL5{n}" for n in range(20, 31)]


def test_skl530_references_are_one_level_deep(skill: Writer) -> None:
    folder = skill(
        body="See [the API](references/api.md) and the files in `guides/`.\n",
        files={
            "references/api.md": "# API\n\nDetails in [errors](errors.md); `auth.md` too.\n",
            "references/errors.md": "# Errors\n",
            "references/auth.md": "# Auth\n",
            "guides/a.md": "# A\n\nSee [b](b.md).\n",
            "guides/b.md": "# B\n",
            "lost.md": "# Lost\n\n[x](references/x.md)\n",
            "references/x.md": "# X\n",
        },
    )
    assert [(f, m) for f, _, m in found(folder, "SKL530")] == [
        (
            "references/auth.md",
            "references/auth.md is reached only through references/api.md: link or name it "
            "from SKILL.md",
        ),
        (
            "references/errors.md",
            "references/errors.md is reached only through references/api.md: link or name it "
            "from SKILL.md",
        ),
    ]  # guides/b.md: its folder is named; lost.md and x.md: SKL401's


def test_skl530_a_glob_in_skill_md_names_each_file_it_matches(skill: Writer) -> None:
    # claude-api: "the language-agnostic `shared/managed-agents-*.md` concept files"
    folder = skill(
        body=(
            "Read [the README](python/README.md) plus the `shared/managed-agents-*.md` files "
            "and the *.txt ones; models are `claude-*`, packages `com.anthropic.*`.\n"
        ),
        files={
            "python/README.md": (
                "# Python\n\nSee shared/managed-agents-core.md, shared/managed-agents-tools.md,"
                " shared/other.md, claude-x.md and shared/managed-agents-old/deep.md.\n"
            ),
            "shared/managed-agents-core.md": "# Core\n",
            "shared/managed-agents-tools.md": "# Tools\n",
            "shared/other.md": "# Other\n",
            "claude-x.md": "# X\n",
            "shared/managed-agents-old/deep.md": "# Deep\n",
        },
    )
    assert sorted(f for f, _, _ in found(folder, "SKL530")) == [
        "claude-x.md",  # `claude-*` is no path: neither a / nor an extension
        "shared/managed-agents-old/deep.md",  # a * does not stand for a /
        "shared/other.md",
    ]


def test_a_glob_no_file_may_match_compiles_no_expression(
    skill: Writer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A glob pattern of a text is made a regular expression only when a file of the skill
    may match it (as many ``/``, its text before the first wildcard and after the last):
    most patterns match none (``2*np.pi``, ``I/O*``). One expression of all the text's
    patterns was compiled for each text (642 over the corpus, 0.39 s). Matches are as
    before."""
    import re

    from skillc_lint._skill import Skill

    compiled: list[str] = []
    real = re.compile

    def counted(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return real(pattern, flags)

    folder = skill(
        body="Read [the guide](guide.md) and `refs/zq-*.md`; 2*np.pi, I/O* and *.jsx are apart.\n",
        files={
            "guide.md": "# Guide\n\nSee refs/zq-one.md and refs/other.md.\n",
            "refs/zq-one.md": "# One\n",
            "refs/other.md": "# Other\n",
        },
    )
    monkeypatch.setattr(re, "compile", counted)
    assert [f for f, _, _ in found(folder, "SKL530")] == ["refs/other.md"]
    assert [pattern for pattern in compiled if "[^/]" in pattern] == [r"refs/zq\-[^/]*\.md"]
    pieces = Skill(folder)._pieces_of("SKILL.md")  # those a path or a glob may lie in, alone
    assert {"`refs/zq-*.md`;", "2*np.pi,", "I/O*", "*.jsx"} <= pieces
    assert all("." in piece or "/" in piece for piece in pieces)
