"""``skc eval``'s case files of other shapes and misspelled keys, and the phrases of a
description (``--init``'s starter cases, ``--mutate``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway.evaluate.cases import read_cases


def _write(skill: Path, rel: str, text: str) -> None:
    (skill / "evals").mkdir(exist_ok=True)
    (skill / rel).write_text(text, encoding="utf-8")


def test_a_key_no_shape_has_is_warned_and_its_case_never_scored(
    tmp_path: Path, write_skill: Any
) -> None:
    """Another tool's file or a misspelled key was read in silence: the positive cases under
    ``should_trigge:`` were dropped and the gate passed, promptfoo's ``tests:`` gave no case,
    ``"shouldTrigger": false`` was scored as a should-trigger case, skill-reach's
    ``expected_skill`` as a miss of the skill holding it."""
    skill = write_skill(tmp_path / "ledgers", description="Reconcile ledgers.")
    _write(skill, "evals/triggers.yaml", "should_trigge:\n  - a\nshould_not_trigger:\n  - b\n")
    assert read_cases(skill) == (
        (),
        ("evals/triggers.yaml skipped: unknown key 'should_trigge' (it holds should_trigger "
         "and should_not_trigger lists)",),
    )  # fmt: skip
    _write(skill, "evals/triggers.yaml", "tests:\n  - vars: {query: reconcile ledgers}\n")
    (problem,) = read_cases(skill).problems
    assert problem.startswith("evals/triggers.yaml skipped: unknown key 'tests'")
    (skill / "evals" / "triggers.yaml").unlink()
    trigger_set = [
        {"query": "reconcile my ledgers", "shouldTrigger": False},
        {"query": "balance the books", "shouldTrigger": False},
        {"query": "apply brand colours", "expected_skill": "brand", "acceptable_skills": []},
        {"query": "close the month", "should_trigger": True},
    ]
    _write(skill, "evals/trigger-eval.json", json.dumps(trigger_set))
    evals = {"skill_name": "ledgers", "version": 2, "evals": [{"id": 1, "prompt": "audit"}]}
    _write(skill, "evals/evals.json", json.dumps(evals))
    cases, problems = read_cases(skill)
    assert [(case.query, case.should_trigger) for case in cases] == [
        ("audit", True),
        ("close the month", True),
    ]
    assert problems == (
        "evals/evals.json: unknown key 'version' ignored",
        "evals/trigger-eval.json: an entry with the unknown key 'shouldTrigger' is left out "
        "(2 times)",
        "evals/trigger-eval.json: an entry with the unknown keys 'expected_skill', "
        "'acceptable_skills' is left out",
    )


def test_a_triggers_yaml_request_yaml_reads_as_no_text_is_named_with_why(
    cli: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A request holding ": " (YAML reads a mapping) or a bare ``yes`` was left out with "an
    entry has no 'query' or 'prompt' text (2 times)": keys a ``triggers.yaml`` has not, and
    neither the list nor the entry. The warning names both, and why: quote it."""
    lib = tmp_path / "lib"
    skill = write_skill(lib / "planner", description="Write implementation plans for features.")
    _write(
        skill,
        "evals/triggers.yaml",
        "should_trigger:\n"
        "  - write an implementation plan for the login feature\n"
        "  - plan this feature: password reset by e-mail\n"
        '  - "Note: plan the migration before touching code"\n'
        "  - next step: split the refactor into tasks\n"
        "  - yes\n"
        "should_not_trigger:\n"
        "  - bake: bread\n",
    )
    done = cli("skillc-gateway", script=True)("eval", "--path", str(lib), "--format", "json")
    (report,) = json.loads(done.stdout)["skills"]
    assert report["cases"] == 2
    assert report["problems"] == [
        "evals/triggers.yaml: should_trigger entries 2 and 4 are left out: read as a mapping "
        "(a ': ' in the request); quote it",
        "evals/triggers.yaml: should_trigger entry 5 is left out: read as true or false, not "
        "text; quote it",
        "evals/triggers.yaml: should_not_trigger entry 1 is left out: read as a mapping (a ': ' "
        "in the request); quote it",
    ]


def test_a_skill_whose_only_file_has_a_misspelled_key_breaks_the_gate(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    lib = tmp_path / "lib"
    write_skill(lib / "bread", description="Bake sourdough bread.")
    skill = write_skill(lib / "ledgers", description="Reconcile ledgers.")
    _write(skill, "evals/triggers.yaml", "should_trigge:\n  - reconcile my ledgers\n")
    code, data = eval_json("--path", str(lib), "--min-recall", "1")
    assert code == 1 and data["breaches"] == ["ledgers: no trigger case to score"]
    (report,) = data["skills"]
    assert report["problems"][0].startswith("evals/triggers.yaml skipped: unknown key")


def test_a_dot_inside_a_word_splits_no_phrase(
    gateway: Any, eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """``--init``'s starter cases and ``--mutate``'s phrases were split at every dot:
    "Scaffold Node", "js and Next", "js apps". A clause ends at a dot that ends a sentence."""
    lib = tmp_path / "lib"
    description = (
        "Scaffold Node.js and Next.js apps (e.g. an Express API) with TypeScript. "
        "Edit package.json, bump v1.2."
    )
    skill = write_skill(lib / "nodejs", description=description)
    write_skill(lib / "bread", description="Bake sourdough bread.")
    done = gateway("eval", "--init", str(skill), "--path", str(lib))
    assert done.returncode == 0, done.stderr
    phrases = [
        "Scaffold Node.js and Next.js apps",
        "an Express API",
        "with TypeScript",
        "Edit package.json",
        "bump v1.2",
    ]
    assert [case.query for case in read_cases(skill).cases] == phrases
    _, data = eval_json("--path", str(lib), "--mutate")
    (report,) = data["skills"]
    assert [check["phrase"] for check in report["phrases"]] == phrases


def test_an_apostrophe_inside_a_word_opens_no_quoted_phrase(
    gateway: Any, eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """``--init`` and ``--mutate`` read the apostrophe of "Anthropic's" as a quotation mark:
    "s brand colors ... from Anthropic" was a should-trigger request, and "I'm stuck" in
    quotes gave "m stuck". A quotation mark inside a word is none; an apostrophe inside a
    word is part of a quoted phrase."""
    lib = tmp_path / "lib"
    description = (
        "Applies Anthropic's brand colors to any artifact that may benefit from Anthropic's "
        'look. Triggers: "I\'m stuck", "I don\'t understand".'
    )
    skill = write_skill(
        lib / "brand", frontmatter=f"name: brand\ndescription: {json.dumps(description)}\n"
    )
    write_skill(lib / "bread", description="Bake sourdough bread.")
    done = gateway("eval", "--init", str(skill), "--path", str(lib))
    assert done.returncode == 0, done.stderr
    phrases = [
        "I'm stuck",
        "I don't understand",
        "Applies Anthropic's brand colors to any artifact that may benefit from Anthropic's look",
        "Triggers",
    ]
    assert [case.query for case in read_cases(skill).cases] == phrases
    _, data = eval_json("--path", str(lib), "--mutate")
    (report,) = data["skills"]
    assert [check["phrase"] for check in report["phrases"]] == phrases


def test_a_phrase_is_removed_where_it_stands_not_inside_another_word(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """``--mutate`` removed a phrase's first occurrence as text: "read" out of "spreadsheets"
    ("Handle sp sheets, read, and merge."), so the description checked still said "read" and
    the phrase the only case depends on was called ``untested``."""
    lib = tmp_path / "lib"
    sheets = write_skill(lib / "sheets", description="Handle spreadsheets, read, and merge.")
    write_skill(lib / "charts", description="Plot numbers as charts.")
    _write(sheets, "evals/triggers.yaml", "should_trigger:\n  - read the numbers\n")
    _, data = eval_json("--path", str(lib), "sheets", "--top", "2", "--mutate")
    (report,) = data["skills"]
    assert report["phrases"] == [
        {"phrase": "Handle spreadsheets", "effect": "untested", "cases": 0},
        {"phrase": "read", "effect": "needed", "cases": 1},
        {"phrase": "and merge", "effect": "untested", "cases": 0},
    ]


def test_init_names_the_path_that_leads_out_of_the_skill(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A ``triggers.yaml`` linked out of the skill was refused as "``.../evals`` leads outside
    the skill", though ``evals`` is a folder of the skill: the message names the link."""
    skill = write_skill(tmp_path / "lib" / "docx", description="Edit Word documents.")
    elsewhere = tmp_path / "elsewhere.yaml"
    elsewhere.write_text("should_trigger: [mine]\n", encoding="utf-8")
    (skill / "evals").mkdir()
    (skill / "evals" / "triggers.yaml").symlink_to(elsewhere)
    done = gateway("eval", "--init", str(skill), "--force")
    assert done.returncode == 1, done.stderr
    assert f"{skill / 'evals' / 'triggers.yaml'} leads outside the skill" in done.stderr
    assert elsewhere.read_text("utf-8") == "should_trigger: [mine]\n"


def test_an_evals_link_out_of_the_skill_is_one_warning_naming_it(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """An ``evals`` folder linked out of the skill, holding one case file, was warned of
    five times, once per name eval looks for (``evals/evals.json skipped: error[E012]``...
    ``evals/triggers.yaml skipped``), files that are not there included: one warning names
    the link; nothing of it is read. A link that stays in the skill is read."""
    outside = tmp_path / "outevals"
    outside.mkdir()
    (outside / "trigger-eval.json").write_text('[{"query": "edit my Word file"}]', "utf-8")
    lib = tmp_path / "lib"
    skill = write_skill(lib / "docx", description="Edit Word documents.")
    (skill / "evals").symlink_to(outside)
    cases = read_cases(skill)
    assert cases.cases == ()
    assert cases.problems == ("evals skipped: error[E012]: path escapes skill root: 'evals'",)
    done = gateway("eval", "--path", str(lib))
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        "warning: docx: evals skipped: error[E012]: path escapes skill root: 'evals'"
    ], done.stderr
    (skill / "evals").unlink()  # a link within the skill
    (skill / "tests").mkdir()
    (skill / "tests" / "trigger-eval.json").write_text('[{"query": "edit my Word file"}]', "utf-8")
    (skill / "evals").symlink_to("tests")
    inside = read_cases(skill)
    assert ([case.query for case in inside.cases], inside.problems) == (["edit my Word file"], ())


def test_a_request_counts_once_and_one_marked_both_ways_is_left_out(
    tmp_path: Path, write_skill: Any
) -> None:
    """The same request was a case per copy (twice in ``evals.json``, again in a trigger set
    and in ``triggers.yaml``): recall weighed by how often it was copied; and a request
    marked both should and should not trigger was scored both ways, in silence."""
    skill = write_skill(tmp_path / "tour", description="Create a CodeTour of a repository.")
    tour = {"id": 1, "prompt": "create a tour of this repo", "assertions": ["a", "b"]}
    _write(skill, "evals/evals.json", json.dumps({"skill_name": "tour", "evals": [tour] * 2}))
    trigger_set = [
        {"query": "Create a  tour of this repo", "should_trigger": True},
        {"query": "plan a trip", "should_trigger": False},
        {"query": "make a code tour", "should_trigger": True},
        {"query": "make a code tour", "should_trigger": False},
    ]
    _write(skill, "evals/trigger-eval.json", json.dumps(trigger_set))
    _write(
        skill,
        "evals/triggers.yaml",
        "should_trigger:\n  - create a tour of this repo\n  - make a code tour\n"
        "should_not_trigger:\n  - plan a trip\n",
    )
    cases, problems = read_cases(skill)
    assert [(case.query, case.should_trigger, case.file) for case in cases] == [
        ("create a tour of this repo", True, "evals/evals.json"),
        ("plan a trip", False, "evals/trigger-eval.json"),
    ]
    assert problems == (
        "evals/evals.json: id 1 is held by 2 evals",  # the copy holds its id too
        "'make a code tour' is marked should trigger (evals/trigger-eval.json) and should "
        "not (evals/trigger-eval.json): left out",
        "evals/evals.json: a query already in evals/evals.json is counted once",
        "evals/trigger-eval.json: a query already in evals/evals.json is counted once",
        "evals/triggers.yaml: a query already in evals/evals.json is counted once",
        "evals/triggers.yaml: a query already in evals/trigger-eval.json is counted once",
    )


def test_requests_marked_both_ways_are_one_warning_for_two_files(
    tmp_path: Path, write_skill: Any
) -> None:
    """A warning for each request marked both ways: a file of 1 MiB made thousands of lines."""
    skill = write_skill(tmp_path / "tour", description="Create a CodeTour of a repository.")
    both = [{"query": f"tour {i}", "should_trigger": should} for i in range(500)
            for should in (True, False)]  # fmt: skip
    _write(skill, "evals/trigger-eval.json", json.dumps(both))
    assert read_cases(skill) == (
        (),
        ("'tour 0' is marked should trigger (evals/trigger-eval.json) and should not "
         "(evals/trigger-eval.json): left out (and 499 other queries)",),
    )  # fmt: skip


def test_the_case_cap_is_the_skills_and_names_the_cases_left_out(
    tmp_path: Path, write_skill: Any
) -> None:
    """Past 1,000 cases across files, the warning named the file being read, as if that file
    of 3 cases held more than 1,000."""
    skill = write_skill(tmp_path / "pdf", description="Merge PDF files.")
    many = [{"query": f"merge pdf {i}", "should_trigger": True} for i in range(999)]
    _write(skill, "evals/triggers.json", json.dumps(many))
    _write(skill, "evals/triggers.yaml", "should_trigger: [rotate, split, crop]\n")
    cases, problems = read_cases(skill)
    assert len(cases) == 1000 and cases[-1].query == "rotate"
    assert problems == ("more than 1,000 cases for the skill: 2 cases of evals/triggers.yaml "
                        "left out",)  # fmt: skip


def test_each_case_of_the_json_says_how_many_checks_its_eval_has(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """The README said an eval's checks are counted, not run; no output showed the count."""
    lib = tmp_path / "lib"
    write_skill(lib / "bread", description="Bake sourdough bread.")
    skill = write_skill(lib / "docx", description="Edit Word documents.")
    evals = [
        {"id": 1, "prompt": "edit report.docx", "assertions": ["a", "b"]},
        {"id": 2, "prompt": "fix the headings of my Word file", "expectations": ["c"]},
        {"id": 3, "prompt": "bake a loaf", "should_trigger": False},
    ]
    _write(skill, "evals/evals.json", json.dumps({"skill_name": "docx", "evals": evals}))
    _, data = eval_json("--path", str(lib), "docx")
    (report,) = data["skills"]
    assert [case["checks"] for case in report["results"]] == [2, 1, 0]


def test_a_phrase_that_draws_a_near_miss_toward_the_skill_hurts(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """``--mutate`` called a phrase ``helps`` when all its removal did was move a
    should-NOT-trigger case away from the skill: a phrase worth keeping, by the report."""
    lib = tmp_path / "lib"
    x = write_skill(lib / "x", description="Fill in PDF forms, rotate scanned photos")
    write_skill(lib / "y", description="Rotate photos and crop images")
    write_skill(lib / "z", description="Merge PDF files")
    _write(x, "evals/triggers.yaml", "should_trigger: [fill in this PDF form]\n"
                                     "should_not_trigger: [rotate these photos]\n")  # fmt: skip
    _, data = eval_json("--path", str(lib), "x", "--mutate")
    (report,) = data["skills"]
    assert [(case["place"], case["passed"]) for case in report["results"]] == [(1, True), (2, True)]
    hurts = {"phrase": "rotate scanned photos", "effect": "hurts", "cases": 1}
    assert report["phrases"][1] == hurts


def test_agentskills_io_trigger_set_names_are_read(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A trigger set saved as agentskills.io's guide names it (``eval_queries.json``) was
    never read nor mentioned: "No trigger cases found", and a gated run passed green. Its
    split (``train_queries.json``/``validation_queries.json``) holds the same queries again:
    not read (each query would be a warning of every run)."""
    lib = tmp_path / "lib"
    write_skill(lib / "bread", description="Bake sourdough bread.")
    skill = write_skill(lib / "xlsx", description="Edit Excel spreadsheets and formulas.")
    queries = [
        {"query": "add a column to my Excel spreadsheet", "should_trigger": True},
        {"query": "bake a sourdough loaf", "should_trigger": False},
    ]
    _write(skill, "evals/eval_queries.json", json.dumps(queries))
    _write(skill, "evals/train_queries.json", json.dumps(queries[:1]))
    _write(skill, "evals/validation_queries.json", json.dumps(queries[1:]))
    cases, problems = read_cases(skill)
    assert [case.file for case in cases] == ["evals/eval_queries.json"] * 2
    assert problems == ()
    code, data = eval_json("--path", str(lib), "--min-recall", "1", "--max-false-triggers", "0")
    (report,) = data["skills"]
    assert (code, report["name"], report["cases"], report["recall"]) == (0, "xlsx", 2, 1.0)


def test_the_readme_documents_every_key_of_the_json(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """``--format json``'s shape was documented nowhere, and the MCP tool's output schema
    typed its skills and collisions as bare objects: the README's example holds the keys
    emitted, at every level, and the schema the same."""
    import re

    import jsonschema

    from skillc_gateway._eval_op import EVAL
    from skillc_gateway.evaluate.live import LiveCase

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*The JSON\*\* \(`--format json`, and `skc_eval`.*?```json\n(.*?)```",
                      readme, re.DOTALL)  # fmt: skip
    assert found, "no JSON example under eval's 'Output and CI'"
    shown = json.loads(found.group(1))
    lib = tmp_path / "lib"
    write_skill(lib / "pdf-forms", description="Fill in PDF forms and merge PDF files.")
    write_skill(lib / "pdf-tools", description="Merge PDF files and fill in PDF forms.")
    skill = write_skill(lib / "docx", description="Edit Word documents, tracked changes.")
    _write(skill, "evals/triggers.yaml", "should_trigger: [edit my Word document, merge PDF "
                                         "files]\nshould_not_trigger: [bake]\n")  # fmt: skip
    _write(skill, "evals/evals.json", "{")
    _, data = eval_json("--path", str(lib), "--mutate")
    (emitted,) = [one for one in data["skills"] if one["name"] == "docx"]
    live = LiveCase(3, 1, False, False).to_dict()
    emitted["results"][0]["live"] = live
    jsonschema.validate(data, EVAL.output_schema())
    (example,) = shown["skills"]
    pairs = [
        (shown, data),
        (example, emitted),
        (example["results"][0], emitted["results"][0]),
        (example["results"][0]["live"], live),
        (example["phrases"][0], emitted["phrases"][0]),
        (shown["collisions"][0], data["collisions"][0]),
    ]
    for documented, real in pairs:
        assert list(documented) == list(real)
    schema = EVAL.output_schema()["properties"]
    skill_schema = schema["skills"]["items"]["properties"]
    assert set(skill_schema) == set(example)
    assert set(skill_schema["results"]["items"]["properties"]) == set(example["results"][0])
    assert set(schema["collisions"]["items"]["properties"]) == set(shown["collisions"][0])


def test_a_file_skipped_or_an_entry_left_out_is_in_sarif_and_the_annotations(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A malformed ``evals.json`` and a skill-reach entry left out showed only on stderr and
    in the JSON: ``--format github`` printed nothing, SARIF no result, a clean run for CI."""
    lib = tmp_path / "lib"
    write_skill(lib / "bread", description="Bake sourdough bread.")
    pdf = write_skill(lib / "pdf", description="Fill in PDF forms.")
    malformed = '{"evals": [{"prompt": "fill the form", }]}'
    _write(pdf, "evals/evals.json", malformed)
    xlsx = write_skill(lib / "xlsx", description="Edit Excel spreadsheets.")
    _write(xlsx, "evals/triggers.json", '[{"query": "sum column C", "expected_skill": "x"}]')
    done = gateway("eval", "--path", str(lib), "--format", "github")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split("::")[1] for line in lines] == [
        f"warning file={pdf / 'SKILL.md'},line=3,title=eval-skipped",
        f"warning file={xlsx / 'SKILL.md'},line=3,title=eval-skipped",
    ]
    # json's own words (3.13 says "Illegal trailing comma ...", 3.11 "Expecting property ...")
    with pytest.raises(json.JSONDecodeError) as parsed:
        json.loads(malformed)
    assert "line 1 column" in str(parsed.value)
    assert lines[0].endswith(f"::pdf: evals/evals.json skipped: {parsed.value}")
    assert lines[1].endswith("::xlsx: evals/triggers.json: an entry with the unknown key "
                             "'expected_skill' is left out")  # fmt: skip
    sarif = json.loads(gateway("eval", "--path", str(lib), "--format", "sarif").stdout)
    (run,) = sarif["runs"]
    assert [(r["ruleId"], r["level"]) for r in run["results"]] == [("eval-skipped", "warning")] * 2
    assert "eval-skipped" in [rule["id"] for rule in run["tool"]["driver"]["rules"]]


def test_inits_placeholder_is_no_case_to_score(
    gateway: Any, eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """For a description with no phrase to start from, ``--init`` wrote ``"TODO: a request"``
    as a should-trigger case: the next run scored it as the user's request (``miss: 'TODO: a
    request'``, recall 0%) and a gate failed on it as on a description's fault."""
    lib = tmp_path / "lib"
    write_skill(lib / "bread", description="Bake sourdough bread.")
    skill = write_skill(lib / "urlonly", description="https://example.com/docs/urlonly")
    assert gateway("eval", "--path", str(lib), "--init", "urlonly").returncode == 0
    starter = (skill / "evals" / "triggers.yaml").read_text(encoding="utf-8")
    assert '# - "a request a user would type"' in starter
    assert read_cases(skill) == ((), ())
    done = gateway("eval", "--path", str(lib), "urlonly")
    assert "  no trigger case to score\n" in done.stdout and "miss" not in done.stdout
    code, data = eval_json("--path", str(lib), "--min-recall", "0.5")
    (report,) = data["skills"]
    assert (code, report["cases"], data["breaches"]) == (
        1,
        0,
        ["urlonly: no trigger case to score"],
    )


def test_an_evals_json_of_another_skill_is_scored_with_a_warning_naming_both(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """An ``evals.json`` carried over with a copied skill folder (``"skill_name":
    "pdf-forms"`` in ``skname``) was scored as this skill's in silence: a miss "taken by
    pdf-forms", recall 0%, and no word that the file names another skill."""
    lib = tmp_path / "lib"
    write_skill(lib / "pdf-forms", description="Fill in PDF forms.")
    skill = write_skill(lib / "skname", description="Reconcile ledgers.")
    evals = {"skill_name": "pdf-forms", "evals": [{"id": 1, "prompt": "fill in this PDF form"}]}
    _write(skill, "evals/evals.json", json.dumps(evals))
    _, data = eval_json("--path", str(lib))
    (report,) = data["skills"]
    assert report["cases"] == 1
    assert report["problems"] == [
        "evals/evals.json: skill_name 'pdf-forms' is not this skill's name 'skname': its cases "
        "are scored as this skill's"
    ]
    for name in ("skname", "folder-name"):  # its name, or its folder's: no warning
        evals["skill_name"] = name
        _write(skill, "evals/evals.json", json.dumps(evals))
        assert read_cases(skill, ("skname", "folder-name")).problems == ()


def test_an_older_inits_placeholder_is_no_case_and_its_file_is_replaced(
    gateway: Any, eval_json: Any, tmp_path: Path, write_skill: Any, monkeypatch: Any
) -> None:
    """The starter an older ``--init`` wrote (``"TODO: a request"`` as a should-trigger case)
    still failed the gate after the upgrade, and ``--init`` refused to replace it (E050)
    though unedited. Its placeholder is no case (a warning says so), and ``--init`` replaces
    that older starter text as it keeps its own (the file read once, to compare with both);
    an edited one is still E050."""
    import skillc_index.files

    lib = tmp_path / "lib"
    write_skill(lib / "bread", description="Bake sourdough bread.")
    skill = write_skill(lib / "urlonly", description="https://example.com/docs/urlonly")
    assert gateway("eval", "--path", str(lib), "--init", "urlonly").returncode == 0
    file = skill / "evals" / "triggers.yaml"
    starter = file.read_text(encoding="utf-8")
    older = starter.replace(
        '  # - "a request a user would type" (the description has no phrase to start from)\n',
        '  - "TODO: a request"\n',
    )  # the text of skillc before 661f8460
    assert older != starter
    file.write_text(older, encoding="utf-8")
    cases, problems = read_cases(skill)
    assert cases == () and [p.split(":")[0] for p in problems] == ["evals/triggers.yaml"]
    code, data = eval_json("--path", str(lib), "--min-recall", "0.5")
    (report,) = data["skills"]
    assert (code, report["cases"], data["breaches"]) == (
        1,
        0,
        ["urlonly: no trigger case to score"],
    )
    opened: list[str] = []
    regular_fd = skillc_index.files.regular_fd

    def counted(name: str, *args: Any, **kwargs: Any) -> int:
        opened.append(name)
        return regular_fd(name, *args, **kwargs)

    monkeypatch.setattr(skillc_index.files, "regular_fd", counted)
    done = gateway("eval", "--path", str(lib), "--init", "urlonly")
    assert done.returncode == 0 and f"wrote {file}" in done.stdout
    assert file.read_text(encoding="utf-8") == starter
    assert opened.count(str(file)) == 1
    file.write_text(older.replace("should_not_trigger: []", "should_not_trigger: [x]"))
    refused = gateway("eval", "--path", str(lib), "--init", "urlonly")
    assert refused.returncode == 1 and "error[E050]" in refused.stderr


def test_an_evals_ids_are_checked_and_carried_in_its_result(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """skill-creator's ``evals[].id`` is a unique integer: a repeated id and an id ``"one"``
    were accepted in silence, and no result said which eval it was."""
    lib = tmp_path / "lib"
    write_skill(lib / "bread", description="Bake sourdough bread.")
    pdf = write_skill(lib / "pdf", description="Fill in PDF forms and merge PDF files.")
    evals = [
        {"id": 1, "prompt": "fill in the PDF form"},
        {"id": 1, "prompt": "merge these PDF files"},
        {"id": "one", "prompt": "split this PDF"},
        {"id": True, "prompt": "rotate this PDF"},
        {"prompt": "compress this PDF"},
        {"id": 7, "prompt": "sign this PDF"},
    ]
    _write(pdf, "evals/evals.json", json.dumps({"skill_name": "pdf", "evals": evals}))
    _, data = eval_json("--path", str(lib), "pdf")
    (report,) = data["skills"]
    assert [case["id"] for case in report["results"]] == [1, 1, None, None, None, 7]
    assert report["cases"] == 6
    assert report["problems"] == [
        "evals/evals.json: 2 ids are not integers (first: 'one')",
        "evals/evals.json: id 1 is held by 2 evals",
    ]
    # one line a kind whatever the count: 5,000 ids "e<N>" printed 5,000 warnings
    evals = [{"id": f"e{n}", "prompt": f"fill in PDF form {n}"} for n in range(5000)]
    evals += [{"id": n % 3, "prompt": f"merge PDF files {n}"} for n in range(9)]
    _write(pdf, "evals/evals.json", json.dumps({"evals": evals}))
    _, data = eval_json("--path", str(lib), "pdf")
    problems = [p for p in data["skills"][0]["problems"] if "id" in p]
    assert problems == [
        "evals/evals.json: 5,000 ids are not integers (first: 'e0')",
        "evals/evals.json: 3 ids held by more than one eval (first: 0)",
    ]


def test_live_sends_the_request_as_written_its_lines_kept(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A multi-line ``evals.json`` prompt (a CSV block) reached the agent on one line, its
    white space collapsed: the agent answered another request. The JSON's ``query`` is
    collapsed, as documented; the agent gets the prompt as written, argument and variable."""
    import sys

    lib = tmp_path / "lib"
    write_skill(lib / "pdf", description="Fill in PDF forms.")
    csv = write_skill(lib / "csv", description="Analyze CSV files and plot charts.")
    prompt = "Here is my CSV:\n```\nmonth,revenue\njan,10\nfeb,20\n```\nPlot revenue by month."
    _write(csv, "evals/evals.json", json.dumps({"evals": [{"id": 1, "prompt": prompt}]}))
    log = tmp_path / "got.json"
    agent = tmp_path / "agent.py"
    agent.write_text(
        "import json, os, sys\n"
        "got = [sys.argv[1:], os.environ['SKC_EVAL_QUERY']]\n"
        f"open({str(log)!r}, 'w').write(json.dumps(got))\n",
        encoding="utf-8",
    )
    done = gateway("eval", "csv", "--path", str(lib), "--live", f"{sys.executable} {agent}",
                   "--runs", "1", "--format", "json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(log.read_text("utf-8")) == [[prompt], prompt]
    (result,) = json.loads(done.stdout)["skills"][0]["results"]
    assert result["query"] == " ".join(prompt.split())


def test_a_key_written_twice_or_a_list_that_is_none_is_never_read_in_silence(
    tmp_path: Path, write_skill: Any
) -> None:
    """A ``triggers.yaml`` with ``should_trigger:`` twice kept the second list, an
    ``evals.json`` with ``"evals"`` twice the second, ``should_not_trigger: no`` read as an
    empty list: cases written went unread, with no warning, and the run was clean."""
    skill = write_skill(tmp_path / "tour", description="Plan a guided city tour.")
    twice = "should_trigger: [plan a tour]\nshould_not_trigger: [a PDF]\nshould_trigger: [merge]\n"
    _write(skill, "evals/triggers.yaml", twice)
    assert read_cases(skill) == (
        (),
        ("evals/triggers.yaml skipped: key 'should_trigger' written twice (lines 1 and 3)",),
    )
    _write(skill, "evals/triggers.yaml", "should_trigger: [plan a tour]\nshould_not_trigger: no\n")
    cases, problems = read_cases(skill)
    assert [case.query for case in cases] == ["plan a tour"]
    assert problems == (
        "evals/triggers.yaml: 'should_not_trigger' is not a list: none of its cases is read",
    )
    _write(skill, "evals/triggers.yaml", "should_trigger: [plan a tour]\nshould_not_trigger:\n")
    assert read_cases(skill).problems == ()  # a list with nothing in it yet
    (skill / "evals" / "triggers.yaml").unlink()
    pasted = (
        '{"evals": [{"id": 1, "prompt": "plan a tour"}],\n "evals": [{"id": 2, "prompt": "b"}]}'
    )
    _write(skill, "evals/evals.json", pasted)
    assert read_cases(skill) == ((), ("evals/evals.json skipped: key 'evals' written twice",))
    _write(skill, "evals/evals.json", '{"evals": [{"prompt": "plan a tour", "prompt": "x"}]}')
    assert read_cases(skill).problems == ("evals/evals.json skipped: key 'prompt' written twice",)


def test_a_case_file_not_utf8_is_skipped_as_such_whichever_its_format(
    tmp_path: Path, write_skill: Any
) -> None:
    """A Latin-1 ``triggers.yaml`` was scored with U+FFFD in its requests, in silence; the
    same bytes in ``evals.json`` were skipped with the codec's message. Both are skipped,
    saying so; UTF-16 with its BOM is still read."""
    skill = write_skill(tmp_path / "cafe", description="Find a café near you.")
    (skill / "evals").mkdir()
    (skill / "evals" / "triggers.yaml").write_bytes(
        b"should_trigger:\n  - r\xe9server au caf\xe9\n"
    )
    (skill / "evals" / "evals.json").write_bytes(b'{"evals": [{"prompt": "caf\xe9"}]}')
    assert read_cases(skill) == (
        (),
        (
            "evals/evals.json skipped: it is not UTF-8",
            "evals/triggers.yaml skipped: it is not UTF-8",
        ),
    )
    (skill / "evals" / "evals.json").unlink()
    text = "should_trigger:\n  - réserver au café\n"
    (skill / "evals" / "triggers.yaml").write_bytes(text.encode("utf-16"))
    assert [case.query for case in read_cases(skill).cases] == ["réserver au café"]


def test_a_case_file_skipped_for_a_repeated_key_fails_the_gate_in_ci(
    gateway_process: Any, tmp_path: Path, write_skill: Any
) -> None:
    """The installed command, as CI runs it: the file skipped is an ``eval-skipped`` result
    and the skill, left with no case, breaks the gate."""
    lib = tmp_path / "lib"
    write_skill(lib / "pdf", description="Fill in PDF forms and merge PDF files.")
    tour = write_skill(lib / "tour", description="Plan a guided city tour with stops.")
    _write(tour, "evals/triggers.yaml", "should_trigger: [plan a city tour]\n"
                                        "should_trigger: [merge two PDF files]\n")  # fmt: skip
    done = gateway_process("eval", "--path", str(lib), "--format", "sarif", "--min-recall", "0")
    assert done.returncode == 1, done.stderr
    (run,) = json.loads(done.stdout)["runs"]
    assert [(r["ruleId"], r["message"]["text"]) for r in run["results"]] == [
        ("eval-skipped", "tour: evals/triggers.yaml skipped: key 'should_trigger' written "
                         "twice (lines 1 and 2)"),
        ("eval-threshold", "tour: threshold breached: no trigger case to score"),
    ]  # fmt: skip


def test_one_description_under_two_names_is_a_collision_of_1(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """The cosine mixed the names' words in: one description under two long names was 0.55
    alike in a library of 40 (0.55-0.59 whatever the library), never reported as 1.00."""
    lib = tmp_path / "lib"
    for name in ("acrobat-filler-toolkit-pro", "office-document-assistant-helper"):
        write_skill(lib / name, description="Fill in PDF forms.")
    for i in range(12):
        write_skill(lib / f"other-{i}", description=f"Handle topic {i}: widgets for team {i}.")
    _, data = eval_json("--path", str(lib))
    assert [(c["skills"], c["similarity"]) for c in data["collisions"]] == [
        (["acrobat-filler-toolkit-pro", "office-document-assistant-helper"], 1.0)
    ]


def test_frontmatter_that_cannot_be_read_is_said_not_a_listing_budget(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A description holding ``: `` unquoted is invalid YAML: eval said "listed name-only",
    line 1, as if the budget had dropped it, and never named the error."""
    lib = tmp_path / "lib"
    write_skill(lib / "pdf", description="Fill in PDF forms.")
    docx = write_skill(
        lib / "docx",
        skill_md="---\nname: docx\ndescription: Edit Word files (.docx): tracked changes.\n"
        "---\n# docx\n",
    )
    _write(docx, "evals/triggers.yaml", "should_trigger: [add tracked changes to my file]\n")
    done = gateway("eval", "--path", str(lib), "--format", "github")
    error = (
        "SKILL.md: invalid frontmatter YAML: mapping values are not allowed in this context "
        "(line 3, column 37): so it is listed name-only"
    )
    skipped = f"::warning file={docx / 'SKILL.md'},line=3,title=eval-skipped::docx: {error}"
    assert skipped in done.stdout.splitlines(), done.stdout
    table = gateway("eval", "--path", str(lib))
    assert f"  {error}" in table.stdout.splitlines()


def test_a_key_or_id_of_hidden_characters_is_quoted_within_40_each_escape_whole(
    tmp_path: Path, write_skill: Any
) -> None:
    """A case file's key or id was cut to 40 characters, then escaped: one of zero-width
    spaces and escape characters was quoted as up to 240, and one cut at the bound as half
    an escape (``\\u20…``). Escaped first, then cut: at most 40, each escape whole."""
    import ast

    skill = write_skill(tmp_path / "ledgers", description="Reconcile ledgers.")
    key = "\u200b\x1b" * 30
    evals = {"evals": [{"id": key, "prompt": "audit"}], key: 1}
    _write(skill, "evals/evals.json", json.dumps(evals))
    unknown, odd_id = read_cases(skill).problems
    _write(skill, "evals/evals.json", json.dumps(evals)[:-1] + f", {json.dumps(key)}: 2}}")
    (twice,) = read_cases(skill).problems
    (skill / "evals" / "evals.json").unlink()
    _write(skill, "evals/triggers.yaml", f'"{key}": 1\n"{key}": 2\n'.replace("\x1b", "\\e"))
    (yaml_twice,) = read_cases(skill).problems
    assert odd_id.startswith("evals/evals.json: an id is not an integer: "), odd_id
    shown = [odd_id.partition(": an id is not an integer: ")[2]]  # repr's quote, cut
    for problem in (unknown, twice, yaml_twice):  # each key quoted by repr
        shown.append(ast.literal_eval(problem[problem.index("'") : problem.rindex("'") + 1]))
    for quoted in shown:
        assert len(quoted) <= 40 and quoted.endswith("\u2026"), quoted
        whole = quoted.removeprefix("'")[:-1].replace("\\u200b", "").replace("\\x1b", "")
        assert whole == "", quoted
