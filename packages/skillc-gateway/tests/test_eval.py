"""``skc eval`` (issue 38): trigger cases scored offline against the listing of a library,
the eval file spellings, collisions, the mutation check, thresholds, ``--init``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway.evaluate.cases import read_cases

PDF = (
    "Fill in PDF forms, merge PDF files and extract text from PDFs. Use when the user "
    "asks about PDF documents."
)


@pytest.fixture
def library(tmp_path: Path, write_skill: Any) -> Path:
    """Four skills, two of them near-identical (pdf-forms and pdf-tools)."""
    lib = tmp_path / "lib"
    write_skill(lib / "pdf-forms", description=PDF)
    write_skill(lib / "pdf-tools", description=PDF.replace("text", "tables"))
    write_skill(
        lib / "docx",
        description="Create and edit Word documents (tracked changes, comments, formatting).",
    )
    write_skill(
        lib / "git-review",
        description="Review a pull request, read the diff, comment on risky changes.",
    )
    return lib


def _yaml(folder: Path, should: list[str], should_not: list[str] = ()) -> None:  # type: ignore[assignment]
    (folder / "evals").mkdir(exist_ok=True)
    lines = ["should_trigger:"] + [f"  - {json.dumps(q)}" for q in should]
    lines += ["should_not_trigger:"] + [f"  - {json.dumps(q)}" for q in should_not]
    if not should_not:
        lines[-1] += " []"
    (folder / "evals" / "triggers.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _skill(data: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [skill for skill in data["skills"] if skill["name"] == name]
    return found


# -- the eval files ------------------------------------------------------------------------


def test_both_evals_json_spellings_and_trigger_sets_load(tmp_path: Path, write_skill: Any) -> None:
    skill = write_skill(tmp_path / "docx")
    (skill / "evals").mkdir()
    agent_skills = {
        "skill_name": "docx",
        "evals": [
            {"id": 1, "prompt": "add a comment to report.docx", "assertions": ["a", "b"]},
            {"id": 2, "prompt": "write a poem", "should_trigger": False, "assertions": []},
        ],
    }
    (skill / "evals" / "evals.json").write_text(json.dumps(agent_skills), encoding="utf-8")
    trigger_set = [
        {"query": "track changes in my Word file", "should_trigger": True},
        {"query": "summarise this PDF", "should_trigger": False},
    ]
    (skill / "evals" / "trigger-eval.json").write_text(json.dumps(trigger_set), encoding="utf-8")
    _yaml(skill, ["format the headings of proposal.docx"], ["review my pull request"])
    cases, problems = read_cases(skill)
    assert problems == ()
    assert [(c.query, c.should_trigger, c.file, c.checks) for c in cases] == [
        ("add a comment to report.docx", True, "evals/evals.json", 2),
        ("write a poem", False, "evals/evals.json", 0),
        ("track changes in my Word file", True, "evals/trigger-eval.json", 0),
        ("summarise this PDF", False, "evals/trigger-eval.json", 0),
        ("format the headings of proposal.docx", True, "evals/triggers.yaml", 0),
        ("review my pull request", False, "evals/triggers.yaml", 0),
    ]
    # skill-creator's spelling: `expectations`, and `{"evals": [{"prompt"...}]}` trigger sets
    creator = {
        "skill_name": "docx",
        "evals": [{"id": 1, "prompt": "edit a .docx", "expectations": ["x"]}],
    }
    (skill / "evals" / "evals.json").write_text(json.dumps(creator), encoding="utf-8")
    (skill / "evals" / "trigger-eval.json").unlink()
    (skill / "evals" / "triggers.yaml").unlink()
    cases, problems = read_cases(skill)
    assert [(c.query, c.should_trigger, c.checks) for c in cases] == [("edit a .docx", True, 1)]


def test_hostile_eval_files_are_skipped_with_a_reason(tmp_path: Path, write_skill: Any) -> None:
    skill = write_skill(tmp_path / "x")
    (skill / "evals").mkdir()
    (skill / "evals" / "evals.json").write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps([{"query": "secret", "should_trigger": True}]), "utf-8")
    (skill / "evals" / "triggers.json").symlink_to(outside)
    # a billion laughs: nine aliases a level, nine levels
    levels = [
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]" for i in range(8)
    ]
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "\n".join(levels) + "\n"
    (skill / "evals" / "triggers.yaml").write_text(bomb, encoding="utf-8")
    cases, problems = read_cases(skill)
    assert cases == ()
    assert len(problems) == 3
    assert "evals/evals.json skipped: nested deeper than 16 levels" in problems[0]
    assert problems[1].startswith("evals/triggers.json skipped")
    assert problems[2].startswith("evals/triggers.yaml skipped")


def test_a_triggers_yaml_is_a_yaml_document_of_its_own(tmp_path: Path, write_skill: Any) -> None:
    """A ``---`` document marker starting the file keeps its cases (it was read as the end of
    a frontmatter block: no case, no warning), and a problem's line is the file's line."""
    skill = write_skill(tmp_path / "pdf")
    (skill / "evals").mkdir()
    target = skill / "evals" / "triggers.yaml"
    target.write_text("---\nshould_trigger:\n  - fill in this PDF form\n", encoding="utf-8")
    cases, problems = read_cases(skill)
    assert problems == () and [c.query for c in cases] == ["fill in this PDF form"]
    target.write_text("# comments only\n", encoding="utf-8")
    assert read_cases(skill) == ((), ())
    target.write_text("should_trigger:\n  - a\n  - b: c: d\n", encoding="utf-8")
    (problem,) = read_cases(skill).problems
    assert "(line 3, column 9)" in problem
    target.write_text("should_trigger: [a, !!python/name:os.system b]\n", encoding="utf-8")
    (problem,) = read_cases(skill).problems
    assert problem.startswith("evals/triggers.yaml skipped: could not determine a constructor")


# -- scoring -------------------------------------------------------------------------------


def test_cases_are_scored_against_the_listing_with_who_took_each_miss(
    eval_json: Any, library: Path
) -> None:
    _yaml(
        library / "docx",
        ["add comments to my Word document", "merge PDF files"],
        ["review this pull request diff"],
    )
    code, data = eval_json("--path", str(library), "--top", "1")
    assert code == 0
    assert data["library"] == 4
    docx = _skill(data, "docx")
    assert docx["cases"] == 3 and docx["recall"] == 0.5 and docx["false_triggers"] == 0
    miss = docx["results"][1]
    assert miss["passed"] is False and miss["taken_by"] in ("pdf-forms", "pdf-tools")
    assert docx["line"] == 3  # the description line of SKILL.md


def test_a_false_trigger_is_reported_and_thresholds_fail_the_run(
    gateway: Any, eval_json: Any, library: Path
) -> None:
    _yaml(library / "git-review", ["review my pull request"], ["show the diff of two config files"])
    code, data = eval_json("--path", str(library), "--max-false-triggers", "0")
    review = _skill(data, "git-review")
    assert review["recall"] == 1.0
    assert review["false_triggers"] == 1
    assert code == 1 and data["breaches"] == ["git-review: 1 false triggers > 0"]
    assert eval_json("--path", str(library), "--max-false-triggers", "1")[0] == 0
    assert eval_json("--path", str(library), "--min-recall", "1")[0] == 0
    done = gateway("eval", "--path", str(library), "--min-recall", "2")
    assert done.returncode == 1 and "error[E100]" in done.stderr


# -- collisions and the mutation check ----------------------------------------------------


def test_two_near_identical_skills_collide_both_ways(
    gateway: Any, eval_json: Any, library: Path
) -> None:
    _yaml(library / "pdf-forms", ["extract text from a PDF"])
    _yaml(library / "pdf-tools", ["extract tables from a PDF", "fill in the PDF form"])
    _, data = eval_json("--path", str(library), "--top", "1")
    (collision,) = [c for c in data["collisions"] if set(c["skills"]) == {"pdf-forms", "pdf-tools"}]
    assert collision["similarity"] >= 0.5
    assert "fill in pdf forms merge pdf files and extract" in collision["phrases"]
    forms, tools = _skill(data, "pdf-forms"), _skill(data, "pdf-tools")
    # each loses a case to the other: the one their descriptions share ("fill in the PDF form")
    assert tools["results"][1]["taken_by"] == "pdf-forms"
    # the table names the pair; the annotations put it on both description lines
    done = gateway("eval", "--path", str(library), "--format", "github")
    lines = [line for line in done.stdout.splitlines() if "eval-collision" in line]
    assert any("pdf-forms/SKILL.md,line=3" in line and "with pdf-tools" in line for line in lines)
    assert any("pdf-tools/SKILL.md,line=3" in line and "with pdf-forms" in line for line in lines)
    assert forms["recall"] == 1.0


def test_collision_by_taken_cases_is_mutual(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """Two skills whose descriptions differ but which take each other's cases."""
    lib = tmp_path / "lib"
    a = write_skill(lib / "alpha", description="Deploy containers to kubernetes clusters.")
    b = write_skill(lib / "beta", description="Roll back kubernetes deployments safely.")
    _yaml(a, ["roll back a kubernetes deployment"])
    _yaml(b, ["deploy containers to the kubernetes cluster"])
    _, data = eval_json("--path", str(lib), "--top", "1")
    (collision,) = data["collisions"]
    assert collision["mutual"] is True and collision["cases_taken"] == [1, 1]
    assert _skill(data, "alpha")["results"][0]["taken_by"] == "beta"
    assert _skill(data, "beta")["results"][0]["taken_by"] == "alpha"


def test_a_skill_that_loses_its_only_trigger_phrase_fails_its_cases(
    eval_json: Any, library: Path, write_skill: Any
) -> None:
    invoices = write_skill(library / "ledger", description="Reconcile supplier invoices")
    _yaml(invoices, ["reconcile these supplier invoices"], ["review my pull request"])
    code, data = eval_json("ledger", "--path", str(library), "--top", "1", "--mutate")
    ledger = _skill(data, "ledger")
    assert ledger["recall"] == 1.0
    assert ledger["phrases"] == [
        {"phrase": "Reconcile supplier invoices", "effect": "needed", "cases": 1}
    ]
    # the description without it: the case fails
    write_skill(library / "ledger", description="Bookkeeping helper.")
    _yaml(invoices, ["reconcile these supplier invoices"], ["review my pull request"])
    code, data = eval_json("ledger", "--path", str(library), "--top", "1", "--min-recall", "1")
    assert code == 1 and _skill(data, "ledger")["recall"] == 0.0


def test_mutation_reports_untested_phrases(eval_json: Any, library: Path) -> None:
    _yaml(library / "pdf-forms", ["fill in this PDF form"])
    _, data = eval_json("pdf-forms", "--path", str(library), "--mutate", "--top", "2")
    effects = {c["phrase"]: c["effect"] for c in _skill(data, "pdf-forms")["phrases"]}
    assert effects["Use when the user asks about PDF documents"] == "untested"
    assert effects["Fill in PDF forms"] != "untested"


def test_the_mutation_checks_of_a_run_are_bounded(
    eval_json: Any, library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each skill's check ranks its cases again per phrase (1,000 cases and 32 phrases took
    34 s), and nothing bounded a run of many skills: past ``MAX_MUTATION_RANKS`` ranked
    requests a skill's check is left out with a problem that says so. The bound is one
    skill's largest check, so a skill named alone is always checked."""
    from skillc_gateway.evaluate import overlap
    from skillc_gateway.evaluate.cases import MAX_CASES

    assert overlap.MAX_MUTATION_RANKS == MAX_CASES * (overlap.MAX_PHRASES + 1)
    _yaml(library / "pdf-forms", ["fill in this PDF form"])
    _yaml(library / "pdf-tools", ["extract the tables of this PDF"])
    checked = len(overlap.trigger_phrases(PDF)) + 1  # one case each: the ranks of a check
    monkeypatch.setattr(overlap, "MAX_MUTATION_RANKS", checked + 1)
    _, data = eval_json("--path", str(library), "--mutate")
    forms, tools = _skill(data, "pdf-forms"), _skill(data, "pdf-tools")
    assert forms["phrases"] and not forms["problems"]
    assert tools["phrases"] == []
    assert tools["problems"] == [
        f"mutation check left out: this run's checks reached {checked + 1:,} ranked "
        "requests (name the skill alone)"
    ]
    _, data = eval_json("pdf-tools", "--path", str(library), "--mutate")
    assert _skill(data, "pdf-tools")["phrases"]


def test_the_cases_a_run_scores_are_bounded(
    eval_json: Any, gateway: Any, library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing bounded the cases of a run (100 skills of 1,000 cases took 2 min 33 s; one
    ``skc_eval`` held the MCP server 22.8 s): past ``MAX_RUN_CASES`` a skill's other cases,
    and the skills after it, are left out with a warning that says how many, which is an
    ``eval-skipped`` finding (never a clean run in CI)."""
    from skillc_gateway.evaluate import run

    assert run.MAX_RUN_CASES == 20_000
    _yaml(library / "docx", ["edit my Word document", "add tracked changes to a docx"])
    _yaml(library / "pdf-forms", ["fill in this PDF form", "merge PDF files", "PDF text"])
    _yaml(library / "pdf-tools", ["extract the tables of this PDF"])
    monkeypatch.setattr(run, "MAX_RUN_CASES", 3)
    _, data = eval_json("--path", str(library))
    docx, forms, tools = (_skill(data, n) for n in ("docx", "pdf-forms", "pdf-tools"))
    assert (docx["cases"], docx["problems"]) == (2, [])
    assert (forms["cases"], tools["cases"]) == (1, 0)
    assert forms["problems"] == [
        "2 cases left out: this run scores at most 3 cases (name fewer skills)"
    ]
    assert tools["problems"] == [
        "1 case left out: this run scores at most 3 cases (name fewer skills)"
    ]
    done = gateway("eval", "--path", str(library), "--format", "github")
    assert done.returncode == 0
    assert (
        "title=eval-skipped::pdf-tools: 1 case left out: this run scores at most 3" in done.stdout
    )
    done = gateway("eval", "--path", str(library), "--min-recall", "0")
    assert done.returncode == 1 and "pdf-tools: no trigger case to score" in done.stdout
    assert "warning: pdf-forms: 2 cases left out" in done.stderr


def test_a_skill_s_phrases_are_found_once_for_its_mutation_check(
    eval_json: Any, library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound of the mutation checks and the check itself each found the phrases of the
    description (``trigger_phrases``); found once, the check is given them."""
    from skillc_gateway.evaluate import overlap

    _yaml(library / "pdf-forms", ["fill in this PDF form"])
    found: list[str] = []
    trigger_phrases = overlap.trigger_phrases

    def counted(description: str) -> list[str]:
        found.append(description)
        return trigger_phrases(description)

    monkeypatch.setattr(overlap, "trigger_phrases", counted)
    _, data = eval_json("pdf-forms", "--path", str(library), "--mutate")
    assert _skill(data, "pdf-forms")["phrases"]
    assert found == [PDF]


# -- formats, --init ------------------------------------------------------------------------


def test_a_skill_name_never_drives_the_terminal(
    gateway: Any, library: Path, write_skill: Any
) -> None:
    """Escape sequences in a skill's name reached the terminal raw in the text report (the
    skill's heading, who took a case, the collisions) and the GitHub annotations."""
    name = "evil\x1b]0;PWNED\x07\x1b[2J\x1b[31mRED"
    description = PDF + " Zebra quokka."
    evil = write_skill(
        library / "evil", frontmatter=f"name: {json.dumps(name)}\ndescription: {description}\n"
    )
    _yaml(evil, ["review my pull request"])
    _yaml(library / "docx", ["zebra quokka"])
    text = gateway("eval", "--path", str(library)).stdout
    shown = "evil ]0;PWNED [2J [31mRED"
    assert f"\n{shown}:\n" in text and f"taken by {shown}" in text
    assert f"  {shown} <-> pdf-forms: " in text
    annotations = gateway("eval", "--path", str(library), "--format", "github").stdout
    assert "evil\\x1b]0;PWNED\\x07\\x1b[2J" in annotations
    for output in (text, annotations):
        assert "\x1b" not in output and "\x07" not in output


def test_the_text_report_shows_each_control_of_a_request_as_an_escape(
    cli: Any, tmp_path: Path, write_skill: Any
) -> None:
    """The table's lines of a request (a miss, a false trigger, a live outcome, a dry run's
    refused case) and of a phrase went through ``one_line`` before ``repr``: an escape
    character or a backspace became a space or nothing (``'[8mdelete the repo [0m'``), where
    the JSON and the annotations show ``\\x1b``. Each is one escape, never raw nor dropped."""
    lib = tmp_path / "lib"
    description = json.dumps("Write poems and sonnets. Rhyme\u200bwell.")
    skill = write_skill(lib / "w", frontmatter=f"name: w\ndescription: {description}\n")
    _yaml(skill, ["\x1b[8mdelete the repo\x1b[0m", "merge\bPDF files"], ["write poems\u200b"])
    run = cli("skillc-gateway", script=True)
    text = run("eval", "--path", str(lib), "--mutate").stdout
    assert text.splitlines()[4:] == [
        "  miss: '\\x1b[8mdelete the repo\\x1b[0m' -> no skill ranks it",
        "  miss: 'merge\\x08PDF files' -> no skill ranks it",
        "  false trigger: 'write poems\\u200b'",
        "  phrase hurts: 'Write poems and sonnets'",
        "  phrase untested: 'Rhyme\\u200bwell'",
    ]
    _yaml(skill, ["\x1b[8mdelete the repo\x1b[0m"], ["--\x07x"])
    agent = f"{sys.executable} -c pass"
    text = run("eval", "--path", str(lib), "--live", agent, "--runs", "1").stdout
    assert "    '\\x1b[8mdelete the repo\\x1b[0m': offline FAIL, live FAIL (invoked 0/1)" in text
    assert "    '--\\x07x': offline pass, live not run: " in text
    text += run("eval", "--path", str(lib), "--live", agent, "--dry-run").stdout
    assert "  w refused: '--\\x07x': the request starts with '-'" in text
    assert "\x1b" not in text and "\x07" not in text


def test_github_file_of_a_folder_named_with_a_newline_is_escaped_as_github_decodes_it(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A folder ``cake<newline>x``: ``file=`` said ``cake\\nx`` (printable's escape, a
    backslash and ``n``: a path that does not exist), where skillc-lint writes ``%0A``, which
    GitHub decodes to the real name; an escape character is still never written raw."""
    lib = tmp_path / "lib"
    _yaml(write_skill(lib / "cake\nx\x1b", description="Bake cakes. Use when baking."), ["a pdf"])
    write_skill(lib / "pdf", description=PDF)
    done = gateway("eval", "--path", str(lib), "--format", "github")
    assert "/lib/cake%0Ax\\x1b/SKILL.md,line=1," in done.stdout, done.stdout + done.stderr
    assert "\x1b" not in done.stdout


def test_github_annotations_are_utf8_whatever_the_streams_encoding(
    gateway_process: Any, tmp_path: Path, write_skill: Any
) -> None:
    """The annotations went through the stream's encoding: under ``PYTHONIOENCODING=cp1252``
    (a redirected stdout's Windows code page) a case ``brew a café ☕`` came out as ``caf``,
    the byte 0xE9 and the text ``\\u2615``; the runner reads UTF-8, as json and sarif are."""
    lib = tmp_path / "lib"
    write_skill(lib / "uni", description="Café drinks and coffee. Use when brewing café.")
    _yaml(write_skill(lib / "pdf", description=PDF), ["brew a café ☕"])
    env = {"PYTHONIOENCODING": "cp1252"}
    done = gateway_process("eval", "--path", str(lib), "--format", "github", env_extra=env)
    assert "miss 'brew a café ☕'" in done.stdout, done.stdout + done.stderr


def test_sarif_points_at_the_description_line(gateway: Any, library: Path) -> None:
    _yaml(library / "docx", ["merge PDF files"])
    done = gateway("eval", "--path", str(library), "--top", "1", "--format", "sarif")
    log = json.loads(done.stdout)
    results = log["runs"][0]["results"]
    (miss,) = [r for r in results if r["ruleId"] == "eval-miss"]
    where = miss["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"].endswith("docx/SKILL.md")
    assert where["region"]["startLine"] == 3
    assert log["version"] == "2.1.0"


def test_a_failed_run_is_carried_by_every_machine_format_as_lint_does(
    gateway: Any, library: Path, tmp_path: Path
) -> None:
    """A run that stops (a skill not found, a folder missing, a bad option) still prints a
    document in the machine format asked for (DECISIONS: never an empty file): SARIF with
    the error as a notification of an unsuccessful invocation, an ``::error`` annotation,
    JSON ``{"error": {"code", "message"}}`` (it printed nothing);
    the error line on stderr and exit 1 as for any command. A successful run's invocation
    is successful."""
    runs = [
        (["nowhere"], "E001", "skill 'nowhere' not found"),
        (["--path", str(tmp_path / "missing")], "E022", "directory not found: "),
        (["--path", str(library), "--min-recall", "2"], "E100", "invalid option: "),
    ]
    for args, code, message in runs:
        done = gateway("eval", *args, "--format", "sarif")
        assert done.returncode == 1 and done.stderr.startswith(f"error[{code}]: "), done.stderr
        (run,) = json.loads(done.stdout)["runs"]
        assert run["results"] == []
        (invocation,) = run["invocations"]
        assert invocation["executionSuccessful"] is False
        (note,) = invocation["toolExecutionNotifications"]
        assert note["descriptor"] == {"id": code} and note["level"] == "error"
        assert note["message"]["text"].startswith(message)
        done = gateway("eval", *args, "--format", "github")
        assert done.returncode == 1
        assert done.stdout.startswith(f"::error title={code}::{message}"), done.stdout
        done = gateway("eval", *args, "--format", "json")  # printed nothing: an empty file
        assert done.returncode == 1
        (error,) = json.loads(done.stdout).values()  # {"error": ...}, lint's whole-run error
        assert error["code"] == code and error["message"].startswith(message), error
    done = gateway("eval", "--path", str(library), "--format", "sarif")
    assert json.loads(done.stdout)["runs"][0]["invocations"] == [
        {"executionSuccessful": True, "toolExecutionNotifications": []}
    ]


def test_a_usage_error_is_carried_by_every_machine_format_as_lint_does(gateway: Any) -> None:
    """A command line click refuses (an unknown option, a value out of range) is E100 in the
    machine format the command line asks for too, as skillc-lint's (the same command
    class): not only on stderr, with stdout empty."""
    for bad in (["--bogus"], ["--runs", "0"]):
        done = gateway("eval", "x", "--format", "sarif", *bad)
        assert done.returncode == 1 and done.stderr.startswith("error[E100]: "), done.stderr
        (run,) = json.loads(done.stdout)["runs"]
        (note,) = run["invocations"][0]["toolExecutionNotifications"]
        assert note["descriptor"] == {"id": "E100"}
        assert note["message"]["text"].startswith("invalid option: ")
        done = gateway("eval", "x", *bad, "--format=github")
        assert done.returncode == 1
        assert done.stdout.startswith("::error title=E100::invalid option: "), done.stdout
        done = gateway("eval", "x", "--format", "json", *bad)
        assert done.returncode == 1
        assert json.loads(done.stdout)["error"]["code"] == "E100", done.stdout


def test_sarif_file_uris_are_uris_as_lint_writes_them(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A path went into SARIF raw (``my skills/c#1/SKILL.md``: a space, and a ``#`` that
    starts a fragment), outside the working folder as an absolute path: it is percent-encoded
    relative to ``%SRCROOT%``, else a ``file:`` URI, as skillc-lint writes it."""
    lib = tmp_path / "project" / "my skills"
    skill = write_skill(lib / "c#1", description="Parse apache logs.")
    _yaml(skill, ["bake bread"])

    def uri(cwd: Path) -> tuple[dict[str, str], dict[str, Any]]:
        done = gateway("eval", "--path", str(lib), "--format", "sarif", cwd=cwd)
        (run,) = json.loads(done.stdout)["runs"]
        (miss,) = [r for r in run["results"] if r["ruleId"] == "eval-miss"]
        return miss["locations"][0]["physicalLocation"]["artifactLocation"], run

    location, run = uri(tmp_path / "project")
    assert location == {"uri": "my%20skills/c%231/SKILL.md", "uriBaseId": "%SRCROOT%"}
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == (tmp_path / "project").as_uri() + "/"
    (tmp_path / "elsewhere").mkdir()
    location, _ = uri(tmp_path / "elsewhere")
    assert location == {"uri": (skill / "SKILL.md").as_uri()}  # percent-encoded: as_uri's


def test_init_writes_a_starter_that_loads_and_never_overwrites(gateway: Any, library: Path) -> None:
    done = gateway("eval", "--init", str(library / "pdf-forms"), "--path", str(library))
    assert done.returncode == 0, done.stderr
    target = library / "pdf-forms" / "evals" / "triggers.yaml"
    text = target.read_text("utf-8")
    assert "pdf-tools" in text  # the nearest skill, for near misses
    cases, problems = read_cases(library / "pdf-forms")
    assert problems == () and [c.query for c in cases][:2] == [
        "Fill in PDF forms",
        "merge PDF files and extract text from PDFs",
    ]
    target.write_text("should_trigger: [mine]\n", "utf-8")
    again = gateway("eval", "--init", str(library / "pdf-forms"), "--path", str(library))
    assert again.returncode == 1 and "error[E050]" in again.stderr and "--force" in again.stderr
    assert target.read_text("utf-8") == "should_trigger: [mine]\n"
    forced = gateway("eval", "--init", "pdf-forms", "--force", "--path", str(library))
    assert forced.returncode == 0 and target.read_text("utf-8") == text


def test_init_writes_a_starter_that_loads_whatever_characters_the_description_holds(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A DEL or a C1 control in the description (or the name) went into the starter file raw,
    and YAML refuses the whole file for one: ``skc eval`` then skipped it. They are escapes
    (in a comment, as the name is shown), the cases the description's text."""
    lib = tmp_path / "lib"
    front = (
        'name: "x\\x7fy"\ndescription: "Fill in PDF\\x7f forms, merge \\x9b files \\u2028 now"\n'
    )
    skill = write_skill(lib / "x", frontmatter=front)
    done = gateway("eval", "--init", str(skill), "--path", str(lib))
    assert done.returncode == 0, done.stderr
    cases, problems = read_cases(skill)
    assert problems == ()
    assert [c.query for c in cases] == ["Fill in PDF\x7f forms", "merge \x9b files now"]
    text = (skill / "evals" / "triggers.yaml").read_text("utf-8")
    assert "# Trigger cases of x\\x7fy " in text and "\x7f" not in text


def test_the_starter_escapes_what_yaml_may_not_hold_raw() -> None:
    """The starter's ``_escaped`` (s50 unicode3: skillc-index's ``code_escape``, one home):
    each character YAML may not hold raw (DEL and the C1 controls, a line or paragraph
    separator, a lone surrogate, U+FFFE/U+FFFF) is its escape, which a double-quoted scalar
    reads back as that character; what YAML holds raw (an accent, an emoji, a tag character
    past U+FFFF) is left as it is. s50 reva2: the test before went through the command,
    where ``printable`` had escaped its tag character already; it could not fail."""
    from skillc_gateway.evaluate.cases import _escaped, _quoted
    from skillc_index.evals import load_yaml

    raw = "a\x7fb\x85c\x9fd\u2028e\u2029f\ufffeg\uffffh"
    assert _escaped(raw) == "a\\u007fb\\u0085c\\u009fd\\u2028e\\u2029f\\ufffeg\\uffffh"
    assert _escaped("x\ud800y") == "x\\ud800y"  # a lone surrogate: no UTF-8 file holds it
    kept = "R\u00e9sum\u00e9 \U0001f680 x\U000e0041y"
    assert _escaped(kept) == kept
    for text in (raw, kept):
        assert load_yaml(f"q: {_quoted(text)}\n") == {"q": text}


def test_init_makes_no_case_of_a_url_an_address_or_a_path(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """The corpus's gitmoji skill says "the gitmoji convention (https://gitmoji.dev)": the
    starter split the URL at its ``:`` and ``.`` into three cases, "https", "//gitmoji" and
    "dev", which counted toward recall. No user types a URL, an e-mail address or a path as a
    request: each separates the phrases around it."""
    lib = tmp_path / "lib"
    description = (
        "Generates commit messages following the gitmoji convention (https://gitmoji.dev) — "
        "picks the right emoji for the intent of the change and writes a well-formed message. "
        'Use when asked to "write a gitmoji commit", "add an emoji to my commit message". '
        "Reads ~/.config/gitmoji.json or ./gitmoji.json; mail help@gitmoji.dev for a new emoji"
    )
    skill = write_skill(
        lib / "gitmoji", frontmatter=f"name: gitmoji\ndescription: {description!r}\n"
    )
    done = gateway("eval", "--init", str(skill), "--path", str(lib))
    assert done.returncode == 0, done.stderr
    cases, problems = read_cases(skill)
    assert problems == ()
    assert [c.query for c in cases] == [
        "write a gitmoji commit",
        "add an emoji to my commit message",
        "Generates commit messages following the gitmoji convention",
        "picks the right emoji for the intent of the change and writes a well-formed message",
        "Use when asked to",
        "Reads",
        "mail",
        "for a new emoji",
    ]


def test_init_of_several_skills_checks_them_all_before_writing_any(
    gateway: Any, library: Path
) -> None:
    """``--init A B`` wrote A's file, then failed on B's (exists) with "skill 'B' already
    exists": nothing is written when one is refused, and the E050 names the file."""
    existing = library / "pdf-tools" / "evals" / "triggers.yaml"
    existing.parent.mkdir()
    existing.write_text("should_trigger: [mine]\n", encoding="utf-8")
    done = gateway("eval", "--init", "docx", "pdf-tools", "--path", str(library))
    assert done.returncode == 1 and done.stdout == ""
    assert not (library / "docx" / "evals").exists()
    assert done.stderr.startswith(f"error[E050]: '{existing}' already exists\n")
    done = gateway("eval", "--init", "docx", "pdf-tools", "--path", str(library), "--force")
    assert done.returncode == 0 and done.stdout.count("wrote ") == 2
    assert "should_trigger: [mine]" not in existing.read_text("utf-8")


def test_init_stopped_part_way_is_finished_by_the_same_command(
    gateway: Any, library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--init A B C`` stopped after A's file (Ctrl-C during the renames that put the files
    in place, all written): the same command refused A's file as existing (E050) and wrote
    none of the rest. A file holding the very starter text is done: the rerun writes the
    others and keeps it (it was written again, its mtime changed, listed as "wrote"); one
    the user changed is still E050."""
    replace, calls = Path.replace, []

    def stopped(self: Path, target: Any) -> Any:
        if Path(target).name == "triggers.yaml":
            calls.append(1)
            if len(calls) > 1:
                raise KeyboardInterrupt
        return replace(self, target)

    names = ("docx", "pdf-tools", "git-review")
    monkeypatch.setattr(Path, "replace", stopped)
    assert gateway("eval", "--init", *names, "--path", str(library)).returncode == 130
    monkeypatch.undo()
    files = [library / name / "evals" / "triggers.yaml" for name in names]
    assert [file.exists() for file in files] == [True, False, False]
    first, stat = files[0].read_text("utf-8"), files[0].stat()
    done = gateway("eval", "--init", *names, "--path", str(library))
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("wrote ") == 2 and all(file.exists() for file in files)
    assert f"kept {files[0]}: it holds the starter text already\n" in done.stdout
    assert files[0].read_text("utf-8") == first
    assert (files[0].stat().st_mtime_ns, files[0].stat().st_ino) == (stat.st_mtime_ns, stat.st_ino)
    again = gateway("eval", "--init", *names, "--path", str(library), "--format", "json")
    assert json.loads(again.stdout)["kept"] == [str(file) for file in files]
    files[1].write_text(files[1].read_text("utf-8") + "# mine\n", "utf-8")
    again = gateway("eval", "--init", *names, "--path", str(library))
    assert again.returncode == 1 and "error[E050]" in again.stderr
    assert files[1].read_text("utf-8").endswith("# mine\n")


def test_init_on_a_full_disk_writes_none_and_leaves_no_evals_folder(
    gateway: Any, library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--init`` on a full disk said ``cannot create '<skill>/evals/triggers.yaml'`` and
    left the ``evals`` folder it made, empty, in the skill (which git and ``skc package`` then
    see); with several skills, those written before it stayed. None is written, and no
    folder made for them is left."""
    import errno
    import os

    import skillc_index.atomic

    written, calls = skillc_index.atomic._written, []

    def full(path: Path, *args: Any, **kwargs: Any) -> Path:
        calls.append(path)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))  # as it names
        return written(path, *args, **kwargs)

    monkeypatch.setattr(skillc_index.atomic, "_written", full)
    done = gateway("eval", "--init", "docx", "pdf-tools", "--path", str(library))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"error[E999]: cannot create '{calls[1]}': No space left on device\n"
    assert not (library / "docx" / "evals").exists()
    assert not (library / "pdf-tools" / "evals").exists()


def test_init_into_a_skill_folder_that_cannot_be_written_is_cannot_create(
    gateway: Any, library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--init`` of a skill whose folder is read-only (mode 555) was ``error[E999]:
    PermissionError: [Errno 13] ...: '<skill>/evals'``; it is ``cannot create
    '<skill>/evals/triggers.yaml': Permission denied``, found for every skill before any file
    is written (the permission faked for root, who writes through it)."""
    import os

    locked = library / "pdf-tools"
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda path, mode: os.fspath(path) != str(locked) and real_access(path, mode)
    )
    done = gateway("eval", "--init", "docx", "pdf-tools", "--path", str(library))
    target = locked / "evals" / "triggers.yaml"
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"error[E999]: cannot create '{target}': Permission denied\n"
    assert not (library / "docx" / "evals").exists() and not target.parent.exists()


def test_init_never_writes_through_an_evals_symlink_out_of_the_skill(
    gateway: Any, library: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (library / "docx" / "evals").symlink_to(elsewhere)
    done = gateway("eval", "--init", "docx", "--path", str(library))
    assert done.returncode == 1 and "leads outside the skill" in done.stderr
    assert list(elsewhere.iterdir()) == []
    # an `evals` that is a file (or a link to nothing) was E999 FileExistsError
    (library / "docx" / "evals").unlink()
    (library / "docx" / "evals").write_text("not a folder\n", encoding="utf-8")
    done = gateway("eval", "--init", "docx", "--path", str(library))
    assert done.returncode == 1 and done.stderr.startswith("error[E100]")
    assert "is not a folder" in done.stderr


def test_init_never_writes_out_of_the_project_through_an_agent_folder_entry(
    gateway: Any, library: Path, project: Path
) -> None:
    """A project's agent-folder entry that is a symlink to a skill outside the project and
    the skillc home had ``eval --init NAME`` write its ``evals/triggers.yaml`` there (found by
    an adversarial sweep): a project's files direct no write outside it (E012, nothing
    written). Near miss: the same skill's folder given on the command line is written."""
    skills = project / ".claude" / "skills"
    skills.mkdir(parents=True)
    (skills / "docx").symlink_to(library / "docx", target_is_directory=True)
    done = gateway("eval", "--init", "docx")
    assert done.returncode == 1 and done.stderr.startswith("error[E012]"), done.stderr
    assert not (library / "docx" / "evals").exists()
    done = gateway("eval", "--init", str(library / "docx"))
    assert done.returncode == 0, done.stderr
    assert (library / "docx" / "evals" / "triggers.yaml").is_file()


def test_an_agent_folder_is_a_library_of_its_linked_entries(
    cli: Any, gateway: Any, eval_json: Any, library: Path, project: Path, write_skill: Any
) -> None:
    """``skc build`` deploys ``.claude/skills/<name>`` as a link: ``eval --path .claude/skills``
    saw no skill (``find --path`` sees them). Each deployed skill stands for its store skill,
    whose ``evals/`` the build leaves out; a linked entry to a skill elsewhere is read, never
    written through by ``--init NAME`` (E012)."""
    store = project / ".skillc" / "skills"
    pdf = write_skill(store / "pdf", description="Fill in PDF forms and merge PDF files.")
    write_skill(store / "xlsx", description="Excel spreadsheets, formulas and charts.")
    _yaml(pdf, ["fill in this PDF form"])
    built = cli("skillc_index")("build", "pdf", "xlsx")
    assert built.returncode == 0, built.stderr
    agent_folder = project / ".claude" / "skills"
    assert (agent_folder / "pdf").is_symlink()
    (agent_folder / "docx").symlink_to(library / "docx", target_is_directory=True)
    code, data = eval_json("--path", ".claude/skills")
    assert code == 0 and data["library"] == 3
    (skill,) = data["skills"]
    assert skill["name"] == "pdf" and skill["recall"] == 1.0
    assert skill["skill_file"] == str(pdf / "SKILL.md")  # where the description is edited
    done = gateway("eval", "--init", "docx", "--path", ".claude/skills")
    assert done.returncode == 1 and done.stderr.startswith("error[E012]"), done.stderr
    assert not (library / "docx" / "evals").exists()


def test_a_path_folders_link_out_of_it_is_a_skill_of_the_library(
    gateway_process: Any, library: Path, project: Path, write_skill: Any
) -> None:
    """``skc eval --path`` is the user's choice, as ``find --path``: a linked entry of the
    folder leading out of it (``vendor/docx -> <library>/docx``) is a skill of the library,
    said nowhere (this sitting's change left it out with a warning, and every skill of
    another project's ``.claude/skills``, deployed as links into its ``.skillc/runtime``).
    Only a model's ``path`` is confined (skillc-mcp's ``test_wire_limits``)."""
    vendor = project / "vendor"
    write_skill(vendor / "own", description="Own vendor skill.")
    write_skill(vendor / "node_modules" / "kept", description="Kept in the vendor folder.")
    (vendor / "kept").symlink_to(vendor / "node_modules" / "kept", target_is_directory=True)
    (vendor / "docx").symlink_to(library / "docx", target_is_directory=True)
    done = gateway_process("eval", "--path", "vendor", "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["library"] == 3, done.stderr
    assert "warning" not in done.stderr, done.stderr


def test_the_corpus_evaluates_without_a_crash(eval_json: Any) -> None:
    custom = os.environ.get("SKILLC_CORPUS")
    corpus = Path(custom) if custom else Path(__file__).resolve().parents[4] / "shared" / "corpus"
    if not corpus.is_dir():
        pytest.skip(f"corpus not found at {corpus} (set SKILLC_CORPUS to use another)")
    code, data = eval_json("--path", str(corpus))
    assert code == 0 and data["library"] > 500
    assert data["collisions"] and all(len(c["skills"]) == 2 for c in data["collisions"])


def test_a_bounded_reply_keeps_every_summary_and_cuts_results_passed_first(
    library: Path, project: Path, home: Path
) -> None:
    """The MCP tool's reply had no bound (20 skills of 1,000 cases made 43 MB): within a
    session's ``reply_chars`` every skill's summary stays whole, and the cases' ``results``
    are listed while they fit, the failed ones first, one of each skill's in turn, with a
    warning; the command line (no bound) lists them all."""
    from skillc_gateway._eval_op import EVAL, EvalParams
    from skillc_index import Layout
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session

    for name in ("pdf-forms", "docx"):
        passing = [f"fill in PDF form {n}" if name == "pdf-forms" else f"edit Word doc {n}"
                   for n in range(20)]  # fmt: skip
        _yaml(library / name, passing + [f"bake sourdough bread {n}" for n in range(5)])
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    params = EvalParams(path=(str(library),))
    whole = EVAL.run(Session(layout, AccessLog(print)), params)
    assert whole.warnings == ()
    full = whole.to_dict()
    size = len(json.dumps(full, ensure_ascii=False))
    bounded = EVAL.run(Session(layout, AccessLog(print), reply_chars=size // 2), params)
    data = bounded.to_dict()
    assert len(json.dumps(data, ensure_ascii=False)) <= size // 2
    summary = ("name", "cases", "recall", "false_triggers", "problems", "phrases")
    assert [{k: s[k] for k in summary} for s in data["skills"]] == [
        {k: s[k] for k in summary} for s in full["skills"]
    ]
    assert data["collisions"] == full["collisions"]
    shown = [r for s in data["skills"] for r in s["results"]]
    assert 10 <= len(shown) < 50
    for skill in data["skills"]:  # every failed case (5 a skill) first, then passed ones
        assert [r["query"] for r in skill["results"] if not r["passed"]] == [
            f"bake sourdough bread {n}" for n in range(5)
        ]
        assert len(skill["results"]) > 5
    [warning] = bounded.warnings
    assert warning.text.startswith(
        f"eval cut at {len(shown)} of 50 case results (the reply's limit of "
    )
    assert "run `skc eval --format json` for every result" in warning.text


def test_a_bounded_reply_cuts_summaries_collisions_and_breaches_too(
    library: Path, project: Path, home: Path
) -> None:
    """The summaries and collisions were never cut (562 skills: 172,566 characters against
    a bound of 100,000, every case result left out): when they alone are over the bound,
    the last-ranked of the longest list go first (a skill breaching a threshold or failing
    a case is ranked first), the breaches too, and the warning says so; the reply keeps to
    the bound with its warnings (added after the fitting, they went over it)."""
    from skillc_gateway._eval_op import EVAL, EvalParams
    from skillc_index import Layout, format_diagnostic
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session

    _yaml(library / "pdf-forms", ["fill in a PDF form"])
    _yaml(library / "docx", ["edit a Word document"])
    _yaml(library / "git-review", ["bake sourdough bread"])  # fails: breaches min_recall
    _yaml(library / "pdf-tools", ["extract tables from a PDF"])
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    params = EvalParams(path=(str(library),), min_recall=1.0)
    full = EVAL.run(Session(layout, AccessLog(print)), params).to_dict()
    assert len(full["skills"]) == 4 and full["breaches"] and full["collisions"]
    bound = len(json.dumps(full, ensure_ascii=False)) * 2 // 5
    bounded = EVAL.run(Session(layout, AccessLog(print), reply_chars=bound), params)
    data = bounded.to_dict()
    warnings = [format_diagnostic(warning) for warning in bounded.warnings]
    assert len(json.dumps({**data, "warnings": warnings}, ensure_ascii=False)) <= bound
    names = [skill["name"] for skill in data["skills"]]
    assert "git-review" in names and len(names) < 4
    text = bounded.warnings[0].text
    assert text.startswith(f"eval cut at {len(names)} of 4 skills")
    assert "run `skc eval --format json` for every skill" in text


# -- live mode -----------------------------------------------------------------------------

FAKE_AGENT = """\
import json, os, sys
query = sys.argv[-1]
runs = os.path.join(os.environ["FAKE_AGENT_DIR"], "runs")
with open(runs, "a", encoding="utf-8") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
count = sum(1 for _ in open(runs, encoding="utf-8"))
if "pdf" in query.lower() and not ("flaky" in query and count % 3 != 1):
    print(json.dumps({"type": "tool_use", "name": "Skill", "input": {"skill": "pdf-forms"}}))
print("done")
"""


def test_live_mode_drives_an_agent_command_only_when_asked(
    gateway: Any, library: Path, tmp_path: Path
) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(FAKE_AGENT, encoding="utf-8")
    runs = tmp_path / "runs"
    env = {"FAKE_AGENT_DIR": str(tmp_path)}
    _yaml(
        library / "pdf-forms",
        ["fill in this PDF form", "flaky PDF request; touch pwned"],
        ["review my pull request"],
    )
    # never without --live
    done = gateway("eval", "--path", str(library), "--format", "json", env_extra=env)
    assert done.returncode == 0 and not runs.exists()
    assert "live" not in json.loads(done.stdout)["skills"][0]["results"][0]
    command = f"{sys.executable} {agent} --print"
    done = gateway(
        "eval", "pdf-forms", "--path", str(library), "--live", command, "--runs", "3",
        "--format", "json", env_extra=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lives = [case["live"] for case in _skill(json.loads(done.stdout), "pdf-forms")["results"]]
    assert [(live["invoked"], live["triggered"], live["passed"]) for live in lives] == [
        (3, True, True),  # invoked every run
        (1, False, False),  # invoked 1 run of 3: under the 0.5 threshold
        (0, False, True),  # a should-not case that never invoked it
    ]
    argvs = [json.loads(line) for line in runs.read_text("utf-8").splitlines()]
    assert len(argvs) == 9
    # the request is one argument, never given to a shell
    assert argvs[3] == ["--print", "flaky PDF request; touch pwned"]
    assert not (library.parent / "pwned").exists() and not Path("pwned").exists()
    # a lower threshold: 1 run of 3 is enough; and the table puts both side by side
    runs.unlink()
    done = gateway(
        "eval", "pdf-forms", "--path", str(library), "--live", command, "--threshold", "0.3",
        env_extra=env,
    )  # fmt: skip
    assert "live: 3 of 3 cases agree with offline" in done.stdout
    assert "'flaky PDF request; touch pwned': offline pass, live pass (invoked 1/3)" in done.stdout


def test_live_mode_placeholders_and_a_missing_command(
    gateway: Any, library: Path, tmp_path: Path
) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(FAKE_AGENT, encoding="utf-8")
    _yaml(library / "pdf-forms", ["fill in this PDF form"])
    env = {"FAKE_AGENT_DIR": str(tmp_path)}
    command = f"{sys.executable} {agent} --skill {{skill}} --ask {{query}} --json"
    done = gateway(
        "eval", "pdf-forms", "--path", str(library), "--live", command, "--runs", "1",
        env_extra=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (argv,) = [json.loads(line) for line in (tmp_path / "runs").read_text("utf-8").splitlines()]
    assert argv == ["--skill", "pdf-forms", "--ask", "fill in this PDF form", "--json"]
    done = gateway(
        "eval", "pdf-forms", "--path", str(library), "--live", str(tmp_path / "no-such-agent"),
        "--runs", "1", "--format", "json",
    )  # fmt: skip
    (case,) = _skill(json.loads(done.stdout), "pdf-forms")["results"]
    assert case["live"]["invoked"] == 0 and "No such file" in case["live"]["errors"][0]


def test_the_mcp_tool_can_neither_run_an_agent_nor_write() -> None:
    from skillc_gateway.operations import EVAL

    properties = set(EVAL.input_schema()["properties"])
    assert properties == {
        "skills", "path", "library", "agent", "top", "mutate", "min_recall",
        "max_false_triggers",
    }  # fmt: skip


def test_the_mcp_tools_output_schema_says_the_live_fields_are_the_command_lines() -> None:
    """``skc_eval``'s output schema listed ``planned`` as "``--live --dry-run`` only", which
    its tool can never fill (it takes neither): the live mode's fields are not required, and
    each says it is the command line's alone."""
    from skillc_gateway.operations import EVAL

    schema = EVAL.tool()["outputSchema"]
    cases = schema["properties"]["skills"]["items"]["properties"]["results"]["items"]
    for owner, key in ((schema, "planned"), (cases, "live")):
        assert key not in owner["required"]
        description = owner["properties"][key]["description"]
        assert description.startswith("Command line only (`skc eval --live CMD"), description


# -- the listing budget: names only, in listing order ----------------------------------------


def test_the_budget_drops_descriptions_in_listing_order_whatever_the_recorded_uses(
    gateway: Any, eval_json: Any, project: Path, home: Path, write_skill: Any
) -> None:
    """``list --budget`` keeps the descriptions of the skills used most (the uses recorded on
    this machine); eval prices every skill as never used, so its verdict is the same on every
    machine and every day: one ``skc outline`` turned a failing CI gate into a passing one."""
    from skillc_index import Layout, load_config
    from skillc_index.listing.budget import listing_budgets

    claude = project / ".claude" / "skills"
    words = {
        "alpha": "astronomy telescopes",
        "beta": "baking sourdough",
        "gamma": "gardening roses",
    }
    for name, topic in words.items():
        write_skill(claude / name, description=f"Everything about {topic}. " + "x" * 70)
    _yaml(claude / "alpha", ["help with astronomy telescopes"])
    _yaml(claude / "gamma", ["help with gardening roses"])
    # 180 characters: the three names (24) and one description (~97) fit, not two
    (project / ".skillc" / "config.toml").write_text(
        "[budget]\ncontext_tokens = 1000\npercent = 4.5\n", encoding="utf-8"
    )
    gated = ("gamma", "--min-recall", "1")
    before = eval_json(*gated)
    assert before[0] == 1 and _skill(before[1], "gamma")["listed"] == "name-only"
    for _ in range(2):
        assert gateway("outline", "gamma").returncode == 0  # recorded uses: gamma's the most
    env = {"SKILLC_HOME": str(home)}
    layout = Layout.discover(project, env)
    (folder,) = [f for f in listing_budgets(layout, load_config(layout, env=env)) if f.entries]
    assert [folder.state(i) for i in range(3)] == ["name-only", "name-only", "full"]
    assert folder.named("name-only") == ("beta", "alpha")  # the first dropped first
    assert eval_json(*gated) == before  # the uses do not move eval's verdict
    _, data = eval_json()
    alpha, gamma = _skill(data, "alpha"), _skill(data, "gamma")
    assert (alpha["listed"], alpha["untriggerable"], alpha["recall"]) == ("full", False, 1.0)
    assert (gamma["listed"], gamma["untriggerable"]) == ("name-only", True)
    annotations = gateway("eval", "--format", "github").stdout
    assert "title=eval-untriggerable::gamma: listed name-only by claude" in annotations


def test_codex_lists_the_description_alone_and_refuses_a_long_one(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    lib = tmp_path / "lib"
    when = "when_to_use: Use when the user mentions sourdough.\n"
    bread = write_skill(lib / "bread", frontmatter=f"name: bread\ndescription: Bake bread.\n{when}")
    write_skill(lib / "essay", description="Write essays. " + "y" * 1020)
    _yaml(bread, ["help with my sourdough"])
    _, claude = eval_json("--path", str(lib), "--top", "1")
    _, codex = eval_json("--path", str(lib), "--top", "1", "--agent", "codex")
    assert claude["library"] == codex["library"] == 2
    # Claude Code appends when_to_use; Codex lists the description alone
    assert _skill(claude, "bread")["recall"] == 1.0
    assert _skill(codex, "bread")["results"][0]["place"] is None


def test_a_skill_the_agent_does_not_list_is_scored_untriggerable_not_dropped(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """Codex refuses a description over 1,024 characters, Claude Code lists no skill with
    ``disable-model-invocation``: their cases were left out of the run (the CI gate passed
    on them) and, named, they were E001 "not found". They are in the library, listed by the
    agent at none: each case a miss, the skill untriggerable."""
    lib = tmp_path / "lib"
    essay = write_skill(lib / "essay", description="Write essays. " + "y" * 1020)
    quiet = write_skill(
        lib / "quiet",
        frontmatter="name: quiet\ndescription: Tidy notes.\ndisable-model-invocation: true\n",
    )
    write_skill(lib / "other", description="Bake bread.")
    _yaml(essay, ["write an essay"])
    _yaml(quiet, ["tidy my notes"])
    for agent, skill in (("codex", "essay"), ("claude", "quiet")):
        code, data = eval_json("--path", str(lib), "--agent", agent, "--min-recall", "1")
        assert code == 1  # the gate fails on the skill's misses
        report = _skill(data, skill)
        assert (report["listed"], report["untriggerable"], report["recall"]) == (
            "omitted", True, 0.0
        )  # fmt: skip
        _, alone = eval_json(str(lib / skill), "--path", str(lib), "--agent", agent)
        assert [s["name"] for s in alone["skills"]] == [skill]  # was E001


def test_a_path_that_is_no_folder_is_an_error_not_an_empty_library(
    gateway: Any, library: Path, tmp_path: Path
) -> None:
    """``--path ./skilsl`` (a typo), a file or a FIFO was a library of no skill: exit 0, the CI
    gate passed. It is E022, as ``find --path`` says."""
    import os

    (tmp_path / "file").write_text("x", encoding="utf-8")
    os.mkfifo(tmp_path / "fifo")
    for given in ("skilsl", "file", "fifo"):
        done = gateway(
            "eval", "--path", str(library), "--path", str(tmp_path / given),
            "--min-recall", "1", "--format", "github",
        )  # fmt: skip
        message = f"directory not found: '{tmp_path / given}'"
        assert done.returncode == 1 and done.stdout == f"::error title=E022::{message}\n"
        assert done.stderr == f"error[E022]: {message}\n"


def test_a_named_library_of_the_configuration(
    gateway: Any, eval_json: Any, library: Path, project: Path, home: Path, write_skill: Any
) -> None:
    """``[libraries]`` names sets of folders (a project's relative paths from its root);
    ``--library NAME`` scores against one; an unknown name is E100 naming the known ones."""
    write_skill(project / "vendor" / "skills" / "slides", description="Make slide decks.")
    config = project / ".skillc" / "config.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text('[libraries]\nlocal = ["vendor/skills"]\n', encoding="utf-8")
    mine = home / ".skillc" / "config.toml"  # the user's own config: any folder
    mine.parent.mkdir(exist_ok=True)
    mine.write_text(f"[libraries]\nteam = [{json.dumps(str(library))}]\n", encoding="utf-8")
    assert eval_json("--library", "team")[1]["library"] == 4
    assert eval_json("--library", "local")[1]["library"] == 1
    done = gateway("eval", "--library", "nosuch")  # a bad value: a usage error
    assert (done.returncode, done.stderr.splitlines()) == (
        1,
        [
            "error[E100]: invalid option: 'no library named \"nosuch\" (known: local, team)'",
            "Try 'skillc-gateway eval --help' for help.",
        ],
    )
    both = gateway("eval", "--library", "team", "--path", str(library))
    assert both.returncode == 1 and "not both" in both.stderr


def test_a_projects_library_stays_inside_the_project(
    gateway: Any, library: Path, project: Path, write_skill: Any
) -> None:
    """A checkout's ``[libraries] team = ["/"]`` made ``eval --library team`` walk the whole
    disk (the MCP server confined it, the command line did not): a project's folder outside
    the project is left out with a warning naming it, as its ``[targets]`` are; none left is
    E100. ``--path`` takes any folder the user gives."""
    write_skill(project / "vendor" / "skills" / "slides", description="Make slide decks.")
    config = project / ".skillc" / "config.toml"
    config.parent.mkdir(exist_ok=True)
    far = json.dumps(str(library))
    config.write_text(
        f'[libraries]\nteam = ["vendor/skills", {far}, "../.."]\ndisk = ["/"]\n',
        encoding="utf-8",
    )
    done = gateway("eval", "--library", "team", "--format", "json")
    assert json.loads(done.stdout)["library"] == 1  # vendor/skills alone
    said = "is not inside the project; left out (a project's library stays in it"
    assert [line for line in done.stderr.splitlines() if said in line] == [
        f"warning: config [libraries] team: {folder!r} {said}: 'skc eval --path DIR' takes "
        "any folder)"
        for folder in (str(library), "../..")
    ]
    done = gateway("eval", "--library", "disk")
    assert done.returncode == 1 and done.stderr.startswith(
        "error[E100]: invalid option: 'library 'disk' of the project's config has no folder "
        "inside the project ('/': 'skc eval --path DIR' takes any folder)'"
    )
    done = gateway("eval", "--path", str(library), "--format", "json")
    assert json.loads(done.stdout)["library"] == 4


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (("--force",), "--force goes with --init"),
        (("--runs", "2"), "--runs goes with --live"),
        (("--threshold", "0.7"), "--threshold goes with --live"),
        (("--live-timeout", "5"), "--live-timeout goes with --live"),
        (("--live-pattern", "x"), "--live-pattern goes with --live"),
        # the default's value given is given all the same
        (("--runs", "3"), "--runs goes with --live"),
        (("--threshold", "0.5"), "--threshold goes with --live"),
        (("--live-timeout", "300"), "--live-timeout goes with --live"),
        # --init writes cases, it scores none
        (("--init", "docx", "--live", "agent"), "--live does not go with --init"),
        (("--init", "docx", "--mutate"), "--mutate does not go with --init"),
        (("--init", "docx", "--min-recall", "1"), "--min-recall does not go with --init"),
        (
            ("--init", "docx", "--max-false-triggers", "0"),
            "--max-false-triggers does not go with --init",
        ),
        (("--min-recall", "5"), "--min-recall must be between 0 and 1, not 5.0"),
        (("--threshold", "2"), "--threshold must be between 0 and 1, not 2.0"),
    ],
)
def test_a_parameter_that_needs_another_one_or_a_ratio_out_of_range_is_e100(
    gateway: Any, library: Path, given: tuple[str, ...], said: str
) -> None:
    """``--force`` without ``--init``, the live mode's options without ``--live`` (a value
    equal to the default passed) and the scoring options with ``--init`` were taken in
    silence and did nothing; a bad ratio named ``min_recall``, the API's name. Nothing is
    written."""
    done = gateway("eval", "--path", str(library), *given)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"error[E100]: invalid option: '{said}'",
        "Try 'skillc-gateway eval --help' for help.",
    ]
    assert not (library / "docx" / "evals").exists()
