"""``skc eval``: which skills are the library and which are scored (the agent's own listing,
a skill named by a folder skillc imported or deployed, an ambiguous name), the gate over a
skill without a scorable case, and where ``--init`` may write."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest


def _triggers(folder: Path, *queries: str) -> None:
    (folder / "evals").mkdir(exist_ok=True)
    lines = ["should_trigger:", *(f"  - {json.dumps(query)}" for query in queries)]
    (folder / "evals" / "triggers.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_library_is_the_listing_of_the_agent_asked_for(
    eval_json: Any, project: Path, write_skill: Any
) -> None:
    """Every installed skill was in ``claude``'s listing, a skill only Cursor reads included:
    it took the case of a Claude Code skill (exit 1), and 100 of them priced claude's listing
    past its budget. The library is what the agent lists, as ``skc list --agent`` sees it; a
    skill of another agent named joins it, as a folder given does."""
    invoices = write_skill(
        project / ".claude" / "skills" / "invoices",
        description="Create invoices and billing exports for clients.",
    )
    _triggers(invoices, "billing exports for accounting")
    write_skill(
        project / ".cursor" / "skills" / "cursor-billing",
        description="Billing exports for accounting teams.",
    )
    code, data = eval_json("--top", "1", "--min-recall", "1")
    assert code == 0 and data["library"] == 1, data
    assert data["skills"][0]["recall"] == 1.0
    _, named = eval_json("cursor-billing")
    assert named["library"] == 2 and [s["name"] for s in named["skills"]] == ["cursor-billing"]


def test_a_skill_named_by_its_imported_or_deployed_folder_is_one_skill(
    cli: Any, eval_json: Any, project: Path, write_skill: Any
) -> None:
    """``skc build src/mine`` imports the folder into the store and deploys a link to its
    runtime. ``eval src/mine`` scored the folder against its own store copy (a listing of 2,
    "taken by mine", a collision of mine with mine: exit 1), and ``eval .claude/skills/mine``
    the runtime's stub (no case: the gate passed). Each is the one skill."""
    mine = write_skill(project / "src" / "mine", description="Parse apache access logs.")
    (mine / "evals").mkdir()
    (mine / "evals" / "triggers.json").write_text('[{"query": "parse apache access logs"}]')
    built = cli("skillc_index")("build", "src/mine")
    assert built.returncode == 0, built.stderr
    for given in ("src/mine", ".claude/skills/mine", "mine"):
        code, data = eval_json(given, "--top", "1", "--min-recall", "1")
        assert code == 0 and data["library"] == 1 and data["collisions"] == [], (given, data)
        (skill,) = data["skills"]
        assert (skill["cases"], skill["recall"]) == (1, 1.0), given
    # the imported folder is read where its description is edited
    _, data = eval_json("src/mine")
    assert data["skills"][0]["skill_file"] == str(mine / "SKILL.md")
    _, data = eval_json("--path", "src", "--path", ".claude/skills")
    assert data["library"] == 1


def test_init_of_an_imported_skill_writes_in_the_folder_the_next_import_copies(
    cli: Any, gateway: Any, eval_json: Any, project: Path, tmp_path: Path, write_skill: Any
) -> None:
    """``eval --init mine`` of a skill ``skc build src/mine`` imported wrote its cases into
    the store copy, which the next import replaces (work lost). They go into the folder it
    was imported from, where its author edits it, whatever names it (the name, the store
    copy, the deployed link), and are scored from there. A project store copy of a folder
    outside the project is not the way to that folder (the import record is the project's):
    E100 names the folder to give, and nothing is written."""
    build = cli("skillc_index")
    mine = write_skill(project / "src" / "mine", description="Parse apache access logs.")
    assert build("build", "src/mine").returncode == 0
    copy = project / ".skillc" / "skills" / "mine"
    for given in ("mine", ".skillc/skills/mine", ".claude/skills/mine"):
        done = gateway("eval", "--init", given, "--force")
        assert done.returncode == 0, (given, done.stderr)
        assert (mine / "evals" / "triggers.yaml").is_file() and not (copy / "evals").exists()
    _triggers(mine, "parse apache access logs")
    _, data = eval_json("mine")
    assert data["skills"][0]["skill_file"] == str(mine / "SKILL.md")
    assert data["skills"][0]["cases"] == 1
    outside = write_skill(tmp_path / "drafts" / "knit", description="Knit wool scarves.")
    assert build("build", str(outside)).returncode == 0
    done = gateway("eval", "--init", "knit")
    assert done.returncode == 1 and done.stderr.startswith("error[E100]"), done.stderr
    assert f"imported from {outside}, " in done.stderr
    assert not (project / ".skillc" / "skills" / "knit" / "evals").exists()
    assert gateway("eval", "--init", str(outside)).returncode == 0
    assert (outside / "evals" / "triggers.yaml").is_file()


def test_init_writes_in_a_store_copy_whose_record_names_another_skill(
    cli: Any, project: Path, tmp_path: Path, write_skill: Any
) -> None:
    """A store copy whose import record names a folder of another name is not that folder's
    copy (no import of it replaces this one: :func:`skillc_index.import_record.import_origin`):
    ``eval --init`` writes its cases in the copy, where the E100 of a copy imported from
    elsewhere refused them."""
    from skillc_index.import_record import ImportRecord
    from skillc_index.layout import IMPORT_RECORD

    write_skill(tmp_path / "drafts" / "other", description="Knit wool scarves.")
    copy = write_skill(project / ".skillc" / "skills" / "knit", description="Knit wool hats.")
    record = ImportRecord(str(tmp_path / "drafts" / "other"), "0" * 64)
    (copy / IMPORT_RECORD).write_bytes(record.to_bytes())
    done = cli("skillc_gateway")("eval", "--init", "knit")
    assert done.returncode == 0, done.stderr
    assert (copy / "evals" / "triggers.yaml").is_file()


def test_a_name_two_skills_have_is_w001_listing_them(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """Two skills named ``gen``: ``eval gen`` scored the first in silence (the gate passing
    on it alone). It is W001 listing both, the first taken, as every command says it."""
    lib = tmp_path / "lib"
    for team in ("a", "b"):
        gen = write_skill(lib / team / "gen", name="gen", description=f"Generate {team} reports.")
        _triggers(gen, f"generate {team} reports")
    done = gateway("eval", "gen", "--path", str(lib), "--format", "json")
    assert done.returncode == 0 and len(json.loads(done.stdout)["skills"]) == 1
    assert done.stderr.startswith("warning[W001]: multiple matches for 'gen'"), done.stderr
    assert f"  {lib / 'a' / 'gen'}\n  {lib / 'b' / 'gen'}\n" in done.stderr
    alone = gateway("eval", str(lib / "b" / "gen"), "--path", str(lib))
    assert alone.returncode == 0 and alone.stderr == ""


def test_a_name_of_both_stores_is_the_project_skill_as_every_command_resolves_it(
    gateway: Any, project: Path, home: Path, write_skill: Any
) -> None:
    """``my-skill`` in the project store and in the global store: ``eval --init my-skill``
    wrote into the global skill and ``eval my-skill`` scored it (the library's order), while
    every other command reads the project's. The name resolves as theirs does (project store
    first, RFC-0007), with their warnings: none, as ``skc outline my-skill`` says none."""
    mine = write_skill(project / ".skillc" / "skills" / "my-skill", description="Format tables.")
    theirs = write_skill(home / ".skillc" / "skills" / "my-skill", description="Format tables.")
    done = gateway("eval", "--init", "my-skill")
    assert done.returncode == 0, done.stderr
    assert (mine / "evals" / "triggers.yaml").is_file() and not (theirs / "evals").exists()
    assert done.stderr == ""
    done = gateway("eval", "my-skill", "--format", "json")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert json.loads(done.stdout)["skills"][0]["skill_file"] == str(mine / "SKILL.md")


def _plugin(home: Path, write_skill: Any, name: str, description: str) -> Path:
    """A Claude Code plugin ``toolkit@market`` holding the skill ``name``; its folder."""
    install = home / ".claude" / "plugins" / "cache" / "market" / "toolkit" / "1.0"
    record = {"scope": "user", "installPath": str(install)}
    (home / ".claude" / "plugins").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "plugins" / "installed_plugins.json").write_text(
        json.dumps({"version": 2, "plugins": {"toolkit@market": [record]}}), encoding="utf-8"
    )
    enabled = '{"enabledPlugins": {"toolkit@market": true}}'  # as /plugin install turns it on
    (home / ".claude" / "settings.json").write_text(enabled, encoding="utf-8")
    return write_skill(install / "skills" / name, description=description)


def test_init_writes_no_trigger_cases_into_an_installed_plugins_copy(
    cli: Any, home: Path, write_skill: Any
) -> None:
    """``eval --init devkit:review`` wrote ``evals/triggers.yaml`` into Claude Code's cached
    copy of the plugin (in the home, a write place), which its next update replaces: E100,
    nothing written."""
    plugin = _plugin(home, write_skill, "review", "Review pull requests (plugin).")
    done = cli("skillc-gateway", script=True)("eval", "--init", "toolkit:review")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(
        "error[E100]: invalid option: '~/.claude/plugins/cache/market/toolkit/1.0/skills/review/"
        "evals/triggers.yaml is an installed Claude Code plugin's copy, "
    )
    assert sorted(path.name for path in plugin.iterdir()) == ["SKILL.md"]


def test_a_name_resolves_as_every_command_resolves_it_plugin_skill_included(
    gateway: Any, eval_json: Any, home: Path, write_skill: Any
) -> None:
    """``skc show toolkit:review`` reads a plugin's skill; ``skc eval toolkit:review`` was
    E001 with ``hint: did you mean 'review' or 'review'?``, and ``eval review`` printed a W001
    of its own (another order, no ``toolkit:review``). eval resolves through the same
    resolver: the plugin's skill is scored, and W001 is the one every command prints."""
    write_skill(home / ".claude" / "skills" / "review", description="Review code (personal).")
    plugin = _plugin(home, write_skill, "review", "Review pull requests (plugin).")
    _triggers(plugin, "review this pull request")
    code, data = eval_json("toolkit:review")
    assert code == 0, data
    assert [s["skill_file"] for s in data["skills"]] == [str(plugin / "SKILL.md")]
    assert data["skills"][0]["cases"] == 1
    done = gateway("eval", "review")
    shown = gateway("outline", "review")
    assert done.returncode == 0 and shown.returncode == 0, done.stderr
    assert done.stderr.startswith("warning[W001]: multiple matches for 'review'")
    assert "'toolkit:review'" in done.stderr
    assert done.stderr == shown.stderr  # the W001 of every command
    missing = gateway("eval", "reviews")
    assert missing.returncode == 1
    assert missing.stderr.count("'review'") == 1, missing.stderr  # no name said twice


def test_each_installed_skill_s_real_path_is_found_once(
    eval_json: Any, home: Path, write_skill: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The library of the installed skills found a plugin's skill's real path twice (for its
    plugin, then for the folder read); once now, and it is still ``toolkit:review``."""
    from skillc_gateway.evaluate import agent_library

    write_skill(home / ".claude" / "skills" / "lint", description="Lint the code (personal).")
    _triggers(_plugin(home, write_skill, "review", "Review pull requests (plugin)."), "review")
    found: list[str] = []

    class Path_:  # os.path, counting realpath
        def __getattr__(self, name: str) -> Any:
            return getattr(os.path, name)

        def realpath(self, path: str | os.PathLike[str]) -> str:
            found.append(os.fspath(path))
            return os.path.realpath(path)

    class Os:  # the module os as agent_library.py sees it
        path = Path_()

        def __getattr__(self, name: str) -> Any:
            return getattr(os, name)

    monkeypatch.setattr(agent_library, "os", Os())
    code, data = eval_json()
    assert code == 0 and [s["name"] for s in data["skills"]] == ["toolkit:review"], data
    assert len(found) == len(set(found)) == 2, found


def test_a_name_under_path_suggests_each_near_name_once(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """Two skills ``review`` of a ``--path`` library: E001 for ``reviews`` suggested
    ``'review' or 'review'``."""
    lib = tmp_path / "lib"
    write_skill(lib / "a" / "review")
    write_skill(lib / "b" / "review")
    done = gateway("eval", "reviews", "--path", str(lib))
    assert done.returncode == 1
    assert "hint: did you mean 'review'?" in done.stderr, done.stderr


def test_a_name_adds_the_skill_it_resolves_to_not_every_skill_of_that_name(
    eval_json: Any, home: Path, write_skill: Any
) -> None:
    """``eval review`` (Claude Code's listing) added every skill named ``review`` to the
    library, a copy only Copilot reads included, and reported its collision with Claude's,
    which Claude can never see. The library is the folders the agent reads, plus the skill
    the name resolves to."""
    write_skill(home / ".claude" / "skills" / "review", description="Review code changes now.")
    write_skill(home / ".copilot" / "skills" / "review", description="Review code changes now.")
    code, data = eval_json("review")
    assert code == 0 and data["library"] == 1, data
    assert data["collisions"] == []
    code, data = eval_json(str(home / ".copilot" / "skills" / "review"))  # named by its path
    assert data["library"] == 2 and len(data["collisions"]) == 1, data


def test_a_gate_breaks_on_a_skill_without_a_case_to_score(
    eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """An empty ``evals/evals.json`` (skipped) left its skill without a case: recall none, and
    ``--min-recall`` passed. Under a threshold, a skill named or holding case files without a
    case to score breaks it; a skill of the library without case files is not gated."""
    lib = tmp_path / "lib"
    x = write_skill(lib / "x", description="Do x things.")
    write_skill(lib / "y", description="Do y things.")
    (x / "evals").mkdir()
    (x / "evals" / "evals.json").write_text("", encoding="utf-8")
    for args in (("x",), ()):
        code, data = eval_json(*args, "--path", str(lib), "--min-recall", "0.9")
        assert code == 1 and data["breaches"] == ["x: no trigger case to score"], data
    (x / "evals" / "evals.json").write_text('{"evals": []}', encoding="utf-8")  # a file of none
    code, data = eval_json("--path", str(lib), "--max-false-triggers", "0")
    assert code == 1 and data["breaches"] == ["x: no trigger case to score"]
    code, data = eval_json("y", "--path", str(lib), "--min-recall", "0.9")  # named
    assert code == 1 and data["breaches"] == ["y: no trigger case to score"]
    (x / "evals" / "evals.json").unlink()
    code, data = eval_json("--path", str(lib), "--min-recall", "0.9")
    assert code == 0 and data["skills"] == []
    assert eval_json("y", "--path", str(lib))[0] == 0  # no threshold: nothing to break


def test_a_breach_is_an_annotation_and_a_sarif_result_at_the_description_line(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A skill without a case under ``--min-recall`` exited 1 with ``--format github`` or
    ``sarif`` printing nothing (``results: []``): the CI run red with no annotation. Each
    breach is an ``eval-threshold`` error at the skill's description line, as its findings."""
    lib = tmp_path / "lib"
    a = write_skill(lib / "a", description="Fill in PDF forms.")
    write_skill(lib / "b", description="Deploy to Kubernetes.")
    (a / "evals").mkdir()
    (a / "evals" / "evals.json").write_text("{", encoding="utf-8")  # malformed: no case
    for args in (("a",), ()):
        gate = (*args, "--path", str(lib), "--min-recall", "0.5")
        github = gateway("eval", *gate, "--format", "github")
        assert github.returncode == 1
        # the file skipped is its warning (eval-skipped), then the breach
        skipped, breach = github.stdout.splitlines()
        assert skipped.startswith(f"::warning file={a / 'SKILL.md'},line=3,title=eval-skipped::")
        assert breach == (
            f"::error file={a / 'SKILL.md'},line=3,title=eval-threshold::"
            "a: threshold breached: no trigger case to score"
        )
        sarif = gateway("eval", *gate, "--format", "sarif")
        assert sarif.returncode == 1
        _, result = json.loads(sarif.stdout)["runs"][0]["results"]
        assert result["ruleId"] == "eval-threshold" and result["level"] == "error"
        assert result["message"]["text"] == "a: threshold breached: no trigger case to score"
        where = result["locations"][0]["physicalLocation"]
        assert where["artifactLocation"]["uri"] == (a / "SKILL.md").as_uri()
        assert where["region"]["startLine"] == 3


def test_a_breach_line_shows_a_skills_name_without_its_control_characters(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """The text's ``threshold breached:`` line printed a skill's name raw (an escape sequence
    in a stranger's frontmatter reached the terminal) where every other line of the table
    shows it with ``one_line``."""
    lib = tmp_path / "lib"
    write_skill(lib / "b", description="Deploy to Kubernetes.")
    (lib / "a").mkdir()
    (lib / "a" / "SKILL.md").write_text(
        '---\nname: "a\\e[2Jx"\ndescription: Fill in PDF forms.\n---\n# A\n', encoding="utf-8"
    )
    gate = ("--path", str(lib), "--min-recall", "0.5")
    done = gateway("eval", str(lib / "a"), *gate)
    assert done.returncode == 1
    assert "\x1b" not in done.stdout + done.stderr
    assert "threshold breached: a [2Jx: no trigger case to score" in done.stdout


def test_the_table_shows_a_names_bidi_and_zero_width_characters_as_escapes(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A name holding U+202E (right-to-left override: the rest of the row shown reversed)
    and U+200B (``demo\\u200b`` reads as ``demo``) was printed raw in the row and the notes'
    header, its column sized on the raw text; ``find`` and ``lint`` show them as escapes."""
    lib = tmp_path / "lib"
    write_skill(lib / "b", description="Deploy to Kubernetes.")
    (lib / "a" / "evals").mkdir(parents=True)
    (lib / "a" / "SKILL.md").write_text(
        '---\nname: "bidi\\u202eevil\\u200b"\ndescription: Rotate PDF pages. Use when the user'
        " asks to rotate a PDF.\n---\n# A\n",
        encoding="utf-8",
    )
    (lib / "a" / "evals" / "triggers.yaml").write_text(
        'should_trigger:\n  - "rotate my pdf"\n  - "make a poster"\n', encoding="utf-8"
    )
    done = gateway("eval", str(lib / "a"), "--path", str(lib))
    assert done.returncode == 0, done.stderr
    assert "\u202e" not in done.stdout and "\u200b" not in done.stdout
    lines = done.stdout.splitlines()
    header = next(line for line in lines if line.startswith("SKILL "))
    row = next(line for line in lines if line.startswith("bidi"))
    assert row.startswith("bidi\\u202eevil\\u200b  ")
    assert row.index("  2 ") == header.index("CASES") - 2  # the column sized on the escapes
    assert "bidi\\u202eevil\\u200b:" in lines


def test_a_query_with_a_bidi_control_is_quoted_with_one_backslash(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """The notes quote a query by ``repr``, which escapes a bidirectional control itself;
    when ``one_line`` escaped it first, the note showed ``'deploy \\\\u202eevil...'``, a
    doubled backslash (s49 unifollow). One backslash, and no raw control."""
    lib = tmp_path / "lib"
    write_skill(lib / "b", description="Deploy to Kubernetes.")
    (lib / "a" / "evals").mkdir(parents=True)
    (lib / "a" / "SKILL.md").write_text(
        "---\nname: a\ndescription: Rotate PDF pages. Use when the user asks to rotate a"
        " PDF.\n---\n# A\n",
        encoding="utf-8",
    )
    (lib / "a" / "evals" / "triggers.yaml").write_text(
        'should_trigger:\n  - "deploy \\u202eevil to kubernetes"\n'
        'should_not_trigger:\n  - "rotate \\u202eall pdf pages"\n',
        encoding="utf-8",
    )
    done = gateway("eval", str(lib / "a"), "--path", str(lib))
    assert done.returncode == 0, done.stderr
    assert "\u202e" not in done.stdout
    lines = done.stdout.splitlines()
    assert "  miss: 'deploy \\u202eevil to kubernetes' -> taken by b" in lines
    assert "  false trigger: 'rotate \\u202eall pdf pages'" in lines


def test_init_never_writes_where_the_projects_config_points(
    gateway: Any, project: Path, home: Path, tmp_path: Path, write_skill: Any
) -> None:
    """``[libraries] team`` of the project's config named a folder outside it, and ``eval
    --library team --init NAME`` wrote there: the project's config directs no write out (its
    folder outside the project is left out: E100 with none left, as a project's ``[targets]``
    are kept). Near misses: the folder given on the command line, and a library of the user's
    own config, are written."""
    lib = tmp_path / "lib"
    linked = write_skill(lib / "linked-skill", description="Do linked things.")
    (project / ".skillc" / "config.toml").write_text(
        f"[libraries]\nteam = [{json.dumps(str(lib))}]\n", encoding="utf-8"
    )
    for given in ("linked-skill", str(linked)):
        done = gateway("eval", "--library", "team", "--init", given)
        assert done.returncode == 1 and done.stderr.startswith("error[E100]"), done.stderr
        assert not (linked / "evals").exists()
    done = gateway("eval", "--path", str(lib), "--init", str(linked))
    assert done.returncode == 0, done.stderr
    (linked / "evals" / "triggers.yaml").unlink()
    (project / ".skillc" / "config.toml").unlink()
    (home / ".skillc").mkdir(exist_ok=True)
    (home / ".skillc" / "config.toml").write_text(
        f"[libraries]\nmine = [{json.dumps(str(lib))}]\n", encoding="utf-8"
    )
    done = gateway("eval", "--library", "mine", "--init", "linked-skill")
    assert done.returncode == 0, done.stderr
    assert (linked / "evals" / "triggers.yaml").is_file()


def test_a_folder_without_skill_md_is_e010_as_outline_says(
    gateway: Any, project: Path, write_skill: Any
) -> None:
    """``eval ./nodir`` of a folder without SKILL.md said E001 "not found"; outline and lint
    say E010 (DECISIONS): so does eval, and ``--init``. A name that is no folder stays E001."""
    (project / "nodir").mkdir()
    write_skill(project / ".claude" / "skills" / "docx", description="Edit Word documents.")
    for args in (("./nodir",), ("--init", "./nodir")):
        done = gateway("eval", *args)
        assert done.returncode == 1
        assert done.stderr.startswith("error[E010]: not a valid skill: './nodir'"), done.stderr
    assert gateway("eval", "nosuch").stderr.startswith("error[E001]")


def test_a_folder_skc_package_wrote_is_e010_with_the_hint_build_gives(
    gateway: Any, project: Path, write_skill: Any
) -> None:
    """``eval dist`` of the folder ``skc package`` wrote into gave the plain E010 where ``build
    dist`` says what the folder is: the same hint (one helper), worded for eval, by name and
    under ``--path``; a folder of no package output keeps the plain E010."""
    dist = project / "dist"
    write_skill(dist / "office" / "skills" / "tables", description="Format tables.")
    record = {"version": 1, "files": {}, "made_folders": ["office"]}
    (dist / ".skillc-package.json").write_text(json.dumps(record), encoding="utf-8")
    lib = write_skill(project / "lib" / "docx", description="Edit Word documents.").parent
    for args in (("dist",), ("dist", "--path", str(lib))):
        done = gateway("eval", *args)
        assert (done.returncode, done.stdout) == (1, ""), done.stderr
        assert done.stderr.splitlines() == [
            "error[E010]: not a valid skill: 'dist' (missing SKILL.md)",
            "hint: ./dist holds what 'skc package' wrote (its .skillc-package.json lists it),"
            " not evaluated: evaluate the skills' sources, or a copy's folder",
        ]
    (dist / ".skillc-package.json").unlink()
    (dist / "office" / "skills" / "tables" / "SKILL.md").unlink()
    done = gateway("eval", "dist")
    assert done.stderr.splitlines() == ["error[E010]: not a valid skill: 'dist' (missing SKILL.md)"]


def test_the_library_reads_a_skill_as_list_budget_does(
    tmp_path: Path, write_skill: Any, monkeypatch: Any
) -> None:
    """eval's entry of a skill is ``list --budget``'s (``read_entry``, one reader: it had its
    own copy, with its own 1 MiB read): what that reader reads is what eval scores, a skill
    the agent does not list keeps its name and description line, and a SKILL.md that
    cannot be read is no skill."""
    from skillc_gateway.evaluate.library import SkillEntry, read_skill
    from skillc_index.listing import budget, entryfile

    folder = write_skill(tmp_path / "logs", description="Parses apache access logs.")
    cut = budget.MAX_ENTRY_DESCRIPTION
    assert read_skill(folder, "claude", cut) == SkillEntry(
        "logs", folder, "Parses apache access logs.", 3, "Parses apache access logs."
    )
    monkeypatch.setattr(entryfile, "READ_LIMIT", 20)  # the reader's bound: the name line alone
    cut_off = "missing frontmatter: no closing --- found"  # said, as SKL100 says it
    assert read_skill(folder, "claude", cut) == SkillEntry("logs", folder, "", 1, "", error=cut_off)
    monkeypatch.undo()
    front = "name: hidden\ndescription: d\ndisable-model-invocation: true\n"
    hidden = write_skill(tmp_path / "hidden", frontmatter=front)
    assert read_skill(hidden, "claude", cut) == SkillEntry("hidden", hidden, "", 3, "", "omitted")
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "SKILL.md")
    assert read_skill(tmp_path / "fifo", "claude", cut) is None


def test_a_library_walk_cut_short_warns(
    gateway: Any, tmp_path: Path, write_skill: Any, monkeypatch: Any
) -> None:
    """``--path`` of a folder deeper than the walk searches: the skills past the bound were
    left out of the library in silence; the walk's cut is said, as ``build`` and ``lint``
    say it."""
    import skillc_index.walk

    lib = tmp_path / "lib"
    _triggers(write_skill(lib / "near", description="Format tables."), "format my tables")
    write_skill(lib / "team" / "far", description="Generate reports.")  # level 2
    monkeypatch.setattr(skillc_index.walk, "MAX_DEPTH", 1)
    done = gateway("eval", "--path", str(lib), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["library"] == 1
    assert done.stderr.splitlines() == [
        f"warning: {lib} holds folders more than 1 levels deep: only the first 1 levels were "
        "searched, skills past them are not evaluated"
    ]


def test_a_library_walk_leaves_out_the_copies_skc_package_wrote(
    gateway: Any, tmp_path: Path, write_skill: Any
) -> None:
    """``eval --path`` walks as ``build`` does: a plugin's copy of a skill, which its
    ``.skillc-package.json`` names, is not a second skill of the library (lint's walk keeps
    it)."""
    lib = tmp_path / "lib"
    _triggers(write_skill(lib / "skills" / "tables", description="Format tables."), "tables")
    write_skill(lib / "office" / "skills" / "tables", description="Format tables.")
    record = {"version": 1, "files": {}, "made_folders": ["office"]}
    (lib / ".skillc-package.json").write_text(json.dumps(record), encoding="utf-8")
    done = gateway("eval", "--path", str(lib), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["library"] == 1


def test_the_listing_is_priced_with_claude_codes_settings_as_list_budget_prices_it(
    eval_json: Any, project: Path, home: Path, write_skill: Any
) -> None:
    """Claude Code's ``skillListingBudgetFraction`` and ``skillListingMaxDescChars`` (its
    settings files) price ``list --budget``'s listing; eval priced its own with the
    configuration's ``percent`` alone: ``list --budget`` said full, eval name-only."""
    from skillc_index import Layout, load_config
    from skillc_index.listing.budget import listing_budgets
    from skillc_index.listing.overrides import claude_overrides

    claude = project / ".claude" / "skills"
    topics = {"alpha": "astronomy telescopes", "beta": "baking sourdough", "gamma": "gardens"}
    for name, topic in topics.items():
        write_skill(claude / name, description=f"Everything about {topic}. " + "x" * 70)
        _triggers(claude / name, f"help with {topic}")
    (project / ".skillc" / "config.toml").write_text(
        "[budget]\ncontext_tokens = 1000\npercent = 50\n", encoding="utf-8"
    )
    env = {"SKILLC_HOME": str(home)}
    layout = Layout.discover(project, env)
    settings = project / ".claude" / "settings.json"

    def states() -> tuple[list[str], list[str]]:
        """eval's listing of the three skills, and list --budget's."""
        _, data = eval_json()
        found = {skill["name"]: skill["listed"] for skill in data["skills"]}
        overrides = claude_overrides(layout)
        (folder,) = listing_budgets(layout, load_config(layout, env=env), overrides=overrides)
        return [found[name] for name in topics], [folder.state(i) for i in range(3)]

    assert states() == (["full"] * 3, ["full"] * 3)
    # 180 characters: the three names (24) and one description (~97) fit, not two
    settings.write_text(json.dumps({"skillListingBudgetFraction": 0.045}), encoding="utf-8")
    assert states() == (["full", "name-only", "name-only"],) * 2
    # each description cut at 17 characters: "Everything about " (the topic is past it)
    settings.write_text(json.dumps({"skillListingMaxDescChars": 17}), encoding="utf-8")
    _, data = eval_json()
    assert [skill["recall"] for skill in data["skills"]] == [0.0, 0.0, 0.0]


def test_each_skill_named_is_resolved_once(
    eval_json: Any, project: Path, write_skill: Any, count_calls: Any
) -> None:
    """A folder given was resolved four times (to tell it from a name, to list the folders
    given, to add it to the library, to find it there), a name three times: once each, the
    result passed along (a name's folder read where its description is edited, a second)."""
    import skillc_index

    write_skill(project / "src" / "mine", description="Parse apache access logs.")
    write_skill(project / ".claude" / "skills" / "other", description="Rotate nginx logs.")
    calls = count_calls(skillc_index, "resolve_skill")
    code, data = eval_json("src/mine", "other")
    assert code == 0 and [s["name"] for s in data["skills"]] == ["mine", "other"], data
    asked = [Path(call[0]) for call in calls]
    names = sorted(path.relative_to(project) if path.is_absolute() else path for path in asked)
    assert names == [Path(".claude/skills/other"), Path("other"), Path("src/mine")]


def test_a_recall_breach_shows_the_ratio_and_the_threshold_as_given(
    gateway: Any, eval_json: Any, tmp_path: Path, write_skill: Any
) -> None:
    """2 of 3 cases passing under ``--min-recall 0.67`` said ``recall 0.67 < 0.67``, and under
    0.667 the same, beside a JSON recall of 0.6667: two equal numbers for a breach."""
    lib = tmp_path / "lib"
    forms = write_skill(lib / "pdf-forms", description="Fill in PDF forms and extract fields.")
    write_skill(lib / "pdf-tools", description="Merge PDF files and split PDF pages.")
    _triggers(forms, "fill in the form in this PDF", "extract the form fields", "translate it")
    for given in ("0.67", "0.667"):
        code, data = eval_json("--path", str(lib), "--min-recall", given)
        assert code == 1 and data["breaches"] == [f"pdf-forms: recall 2/3 < {given}"]
    github = gateway("eval", "--path", str(lib), "--min-recall", "0.67", "--format", "github")
    assert "title=eval-threshold::pdf-forms: threshold breached: recall 2/3 < 0.67" in github.stdout


def test_an_annotation_names_its_file_relative_to_the_working_folder(
    gateway: Any, project: Path, write_skill: Any
) -> None:
    """A skill named by its folder gave ``file=/abs/.../SKILL.md`` (not attached to the file
    in a pull request), by its name ``file=lib/...``; SARIF and skillc-lint are relative (to
    GitHub Actions' workspace, here the working folder)."""
    forms = write_skill(project / "lib" / "pdf-forms", description="Fill in PDF forms.")
    write_skill(project / "lib" / "pdf-tools", description="Merge PDF files.")
    _triggers(forms, "fill in the form in this PDF", "translate my letter")
    for named in ("lib/pdf-forms", str(forms), "pdf-forms"):
        done = gateway(
            "eval",
            "--path",
            "lib",
            named,
            "--format",
            "github",
            env_extra={"GITHUB_WORKSPACE": str(project)},
        )
        assert done.stdout == (
            "::error file=lib/pdf-forms/SKILL.md,line=3,title=eval-miss::"
            "pdf-forms: miss 'translate my letter'\n"
        ), named
    # a step's working-directory below the checkout: still from the repository's root
    ci = {"GITHUB_WORKSPACE": str(project)}
    below = project / "lib"
    named = ("eval", "--path", ".", "pdf-forms", "--format")
    done = gateway(*named, "github", cwd=below, env_extra=ci)
    assert done.stdout.startswith("::error file=lib/pdf-forms/SKILL.md,line=3,"), done.stdout
    log = json.loads(gateway(*named, "sarif", cwd=below, env_extra=ci).stdout)
    [run] = log["runs"]
    location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "lib/pdf-forms/SKILL.md", "uriBaseId": "%SRCROOT%"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"
    plain = gateway(*named, "github", cwd=below)
    absolute = (forms / "SKILL.md").as_posix()
    assert plain.stdout.startswith(f"::error file={absolute},line=3,"), plain.stdout


def test_a_plugins_skill_is_named_plugin_skill_as_the_listing_names_it(
    eval_json: Any, home: Path, write_skill: Any
) -> None:
    """A plugin's ``review`` and a personal ``review`` were two rows named ``review``, and a
    miss said ``taken by review``: which one, only the JSON's ``skill_file`` told."""
    mine = write_skill(home / ".claude" / "skills" / "review", description="Review essays.")
    plugin = _plugin(home, write_skill, "review", "Review pull requests for security bugs.")
    _triggers(plugin, "review this pull request for security bugs")
    _triggers(mine, "review the security bugs of this pull request")
    _, data = eval_json("--top", "1")
    assert [(s["name"], s["skill_file"]) for s in data["skills"]] == [
        ("review", str(mine / "SKILL.md")),
        ("toolkit:review", str(plugin / "SKILL.md")),
    ]
    assert data["skills"][0]["results"][0]["taken_by"] == "toolkit:review"


def test_codexs_listing_is_priced_with_the_skill_file_each_entry_shows(
    eval_json: Any, project: Path, write_skill: Any
) -> None:
    """Codex writes each entry as ``- name: description (file: /abs/.../SKILL.md)``; eval
    priced ``- name: description``, so a listing Codex shortens was scored in full."""
    agents = project / ".agents" / "skills"
    description = "Reads the inputs and writes a short report for the team." * 5
    for name in ("alpha", "beta"):
        write_skill(agents / name, description=description)
        _triggers(agents / name, f"{name} report")
    chars = sum(len(f"- {name}: {description} (file: )\n") for name in ("alpha", "beta"))
    (project / ".skillc" / "config.toml").write_text(
        f"[budget]\ncontext_tokens = {-(-(chars + 20) * 25 // 2)}\n", encoding="utf-8"
    )  # Codex's 2% of it: that listing with paths shorter than 10 characters
    _, data = eval_json("--agent", "codex")
    assert [skill["listed"] for skill in data["skills"]] == ["shortened", "shortened"]


def test_codexs_listing_in_eval_omits_the_home_skills_first_as_list_budget(
    eval_json: Any, project: Path, home: Path, write_skill: Any
) -> None:
    """Codex keeps the project's skills before the home's when even the bare entries do not
    fit; eval gave every skill the project's scope, so it kept the home's ``alpha`` (first
    by name) and omitted the project's ``zeta``: the reverse of Codex and of ``list
    --budget``."""
    agents, homes = project / ".agents" / "skills", home / ".agents" / "skills"
    for folder, name in ((agents, "zeta"), (homes, "alpha")):
        write_skill(folder / name, description="Does one thing well.")
        _triggers(folder / name, f"{name} thing")
    bare = len(f"- zeta: (file: {(agents / 'zeta').resolve()}/SKILL.md)\n")
    (project / ".skillc" / "config.toml").write_text(
        f"[budget]\ncontext_tokens = {-(-bare * 25 // 2)}\n", encoding="utf-8"
    )  # Codex's 2% of it: the project's bare entry alone
    _, data = eval_json("--agent", "codex")
    assert {skill["name"]: skill["listed"] for skill in data["skills"]} == {
        "alpha": "omitted",
        "zeta": "name-only",
    }


def test_a_skill_folder_whose_path_is_not_utf8_is_refused_or_skipped_as_build_and_list_do(
    gateway: Any, eval_json: Any, project: Path, write_skill: Any
) -> None:
    """``eval src/caf\\xe9`` and ``eval --path src`` over it were error[E999]
    UnicodeEncodeError (the library's database cannot hold the path). Named, it is refused
    as ``build`` refuses it (E100); under ``--path``, left out with list's warning."""
    latin = os.fsdecode(b"caf\xe9")
    write_skill(project / "src" / latin, name="cafe", description="Brew coffee for the team.")
    write_skill(project / "src" / "tea", description="Brew tea for the team.")
    named = gateway("eval", f"src/{latin}")
    assert (named.returncode, named.stdout) == (1, "")
    assert named.stderr == (
        "error[E100]: invalid option: 'src/caf\ufffd: a path that is not UTF-8; "
        "rename the folder'\n"
    )
    walked = gateway("eval", "--path", "src", "--format", "json")
    assert walked.returncode == 0 and json.loads(walked.stdout)["library"] == 1
    assert walked.stderr == (
        "warning: skipping 'caf\ufffd' (src/caf\ufffd): a path that is not UTF-8\n"
    )


def test_a_skill_below_a_folder_whose_name_is_not_utf8_is_evaluated(
    gateway: Any, eval_json: Any, project: Path, write_skill: Any
) -> None:
    """``eval src/caf\\xe9/pdfx`` (and ``eval --path src``) refused (skipped) a skill whose
    own folder name is UTF-8, because a folder above it is not: the library holds the skill
    folder's own name only, as ``build`` checks only that one."""
    latin = os.fsdecode(b"caf\xe9")
    folder = write_skill(project / "src" / latin / "pdfx", description="Read PDF files.")
    (folder / "evals").mkdir()
    (folder / "evals" / "evals.json").write_text(
        json.dumps({"evals": [{"id": 1, "prompt": "read pdf files", "should_trigger": True}]})
    )
    for args in ([f"src/{latin}/pdfx"], ["--path", "src"]):
        status, report = eval_json(*args)
        assert status == 0
        assert [(s["name"], s["cases"], s["recall"]) for s in report["skills"]] == [
            ("pdfx", 1, 1.0)
        ]


def test_a_stub_left_deployed_after_a_rename_is_in_the_library_as_the_agent_lists_it(
    cli: Any, project: Path, write_skill: Any
) -> None:
    """my-skill built, then renamed git-summary and built: Claude Code still lists the old
    stub (``.claude/skills/my-skill``, the same description) and ``list --budget`` counts it
    (2 skills), but eval scored against "a claude listing of 1 skill", so the collision the
    agent meets went unseen. The library holds the stub as the agent lists it, with a
    warning saying it is a deployment of a skill that is gone (the installed command)."""
    build = cli("skillc_index")
    store = project / ".skillc" / "skills"
    about = "Summarize git history. Use when the user asks what changed."
    write_skill(store / "my-skill", description=about)
    assert build("build", "my-skill").returncode == 0
    shutil.move(store / "my-skill", store / "git-summary")
    write_skill(store / "git-summary", description=about)
    _triggers(store / "git-summary", "summarize git history", "what changed in git")
    assert build("build", "git-summary").returncode == 0
    stub = project / ".claude" / "skills" / "my-skill"
    assert (stub / "SKILL.md").is_file()
    done = cli("skillc-gateway", script=True)("eval", "git-summary", "--format", "json")
    data = json.loads(done.stdout)
    assert data["library"] == 2, data
    assert [c["skills"] for c in data["collisions"]] == [["git-summary", "my-skill"]], data
    assert "Traceback" not in done.stderr
    assert (
        f"warning: 'my-skill' ({stub}) is in the library, as the agent lists it: a deployment "
        f"of {store / 'my-skill'}, which is gone (to remove it: rm {stub}, "
    ) in done.stderr, done.stderr


def test_a_skill_md_that_leads_out_of_the_skill_is_neither_scored_nor_copied(
    cli: Any, tmp_path: Path, write_skill: Any
) -> None:
    """A ``SKILL.md`` that is a symlink out of its skill was read by eval, though ``outline``
    and ``lint`` refuse it (E012): the text out there was scored, ``--init`` copied it into
    the skill's ``evals/triggers.yaml`` and ``--mutate`` printed its phrases. Named, it is
    E012 and nothing is written; in a library, it is skipped with a warning saying why."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = "Secret text out of the skill, merge pdf files."
    (outside / "SKILL.md").write_text(f"---\nname: s\ndescription: {secret}\n---\n", "utf-8")
    lib = tmp_path / "lib"
    (lib / "s").mkdir(parents=True)
    (lib / "s" / "SKILL.md").symlink_to(outside / "SKILL.md")
    write_skill(lib / "bread", description="Bake sourdough bread.")
    run = cli("skillc-gateway", script=True)
    refused = f"error[E012]: path escapes skill root: '{lib / 's' / 'SKILL.md'}'\n"
    for args in (("--init", str(lib / "s")), ("--path", str(lib), "--init", "s")):
        done = run("eval", *args)
        assert (done.returncode, done.stdout, done.stderr) == (1, "", refused)
    assert sorted(path.name for path in (lib / "s").iterdir()) == ["SKILL.md"]
    _triggers(lib / "s", "merge pdf files")
    done = run("eval", str(lib / "s"), "--path", str(lib), "--mutate")
    assert (done.returncode, done.stdout, done.stderr) == (1, "", refused)
    done = run("eval", "--path", str(lib), "--mutate", "--format", "json")
    assert done.returncode == 0 and "Secret" not in done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert (data["library"], data["skills"]) == (1, [])
    assert done.stderr == (
        f"warning: skipping 's' ({lib / 's'}): path escapes skill root: "
        f"'{lib / 's' / 'SKILL.md'}'\n"
    )
