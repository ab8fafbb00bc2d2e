"""``skc eval`` of the skills behind the router of ``skc route``: scored as the routed agent
meets them (the router in the listing, ``skc find`` over the skills), and never a silent pass
over skills with trigger cases that the run cannot score."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SKILLS = {
    "docx": "Create and edit Word documents (.docx) with tracked changes, comments and tables.",
    "pdf-forms": "Fill in PDF forms, merge PDF files and extract text from PDF documents.",
    "deploy-k8s": "Deploy services to Kubernetes clusters with helm charts and kubectl rollouts.",
    "git-helper": "Write git commit messages, rebase branches and resolve merge conflicts in git.",
}


def _cases(folder: Path, should: list[str], should_not: tuple[str, ...] | list[str] = ()) -> None:
    lines = ["should_trigger:", *(f"  - {json.dumps(query)}" for query in should)]
    if should_not:
        lines += ["should_not_trigger:", *(f"  - {json.dumps(query)}" for query in should_not)]
    (folder / "evals").mkdir(exist_ok=True)
    (folder / "evals" / "triggers.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _library(folder: Path, write_skill: Any) -> None:
    """The four skills in ``folder``, each with cases; docx's body alone says "redline", and
    docx has a case no skill ranks (the gate breaks on it)."""
    for name, description in SKILLS.items():
        body = "## Redlines\n\nRedline a contract: accept or reject each revision.\n"
        write_skill(folder / name, description=description, body=body if name == "docx" else "")
    _cases(folder / "docx", ["add tracked changes to my Word document", "bake a chocolate cake"])
    _cases(folder / "pdf-forms", ["fill in the form in this PDF"], ["write a commit message"])
    _cases(folder / "deploy-k8s", ["roll out a helm chart"])
    _cases(
        folder / "git-helper", ["resolve the merge conflict"], ["deploy git services to kubernetes"]
    )


@pytest.mark.parametrize("deployed", [False, True], ids=["folders", "deployed-links"])
def test_routed_skills_are_scored_as_skc_find_ranks_them(
    deployed: bool, cli: Any, eval_json: Any, gateway: Any, project: Path, write_skill: Any
) -> None:
    """After ``skc route install`` the agent folder lists the router alone and the skills sit
    in the store: ``skc eval`` scored none of them (``claude listing of 0 skills``) and a gate
    of ``--min-recall 0.9 --max-false-triggers 0`` passed (exit 0) though docx misses a case;
    ``eval docx`` scored docx against a library of docx alone, ``eval --path .claude/skills
    docx`` was E001. Each routed skill is scored as the agent meets it: ``skc find`` ranks it
    (name, description, headings and body: docx's body-only word reaches it), over every skill
    but the router. The skills are folders the route moves into the store, or deployments of
    store skills the route parks."""
    index = cli("skillc_index")
    agent = project / ".claude" / "skills"
    if deployed:
        _library(project / ".skillc" / "skills", write_skill)
        built = index("build", "--all")
        assert built.returncode == 0, built.stderr
        assert all((agent / name).is_symlink() for name in SKILLS)
    else:
        _library(agent, write_skill)
    gate = ("--min-recall", "0.9", "--max-false-triggers", "0")
    code, before = eval_json(*gate)
    assert code == 1 and before["breaches"] == ["docx: recall 1/2 < 0.9"], before

    routed = index("route", "install")
    assert routed.returncode == 0, routed.stderr
    assert sorted(path.name for path in agent.iterdir()) == ["skill-router"]
    code, after = eval_json(*gate)
    assert code == 1 and after["breaches"] == ["docx: recall 1/2 < 0.9"], after
    assert (after["library"], after["routed"]) == (5, 4)  # the router listed, 4 behind it
    assert sorted(skill["name"] for skill in after["skills"]) == sorted(SKILLS)
    assert {skill["listed"] for skill in after["skills"]} == {"routed"}
    cases = {case["query"]: case for skill in after["skills"] for case in skill["results"]}
    assert cases["add tracked changes to my Word document"]["place"] == 1
    assert cases["deploy git services to kubernetes"]["taken_by"] == "deploy-k8s"
    assert cases["bake a chocolate cake"]["place"] is None
    table = gateway("eval")
    assert "claude listing of 1 skill and 4 behind its router" in table.stdout, table.stdout

    # the body is what find reads: a word of docx's body alone reaches it, the listing's not
    _cases(project / ".skillc" / "skills" / "docx", ["redline this contract"])
    code, docx = eval_json("docx", "--min-recall", "1")
    assert code == 0 and docx["library"] == 5, docx  # the whole library, not docx alone
    assert docx["skills"][0]["results"][0]["place"] == 1
    # named, git-helper is scored within the library: deploy-k8s takes its should-not case
    code, named = eval_json("git-helper", "--max-false-triggers", "0")
    assert code == 0 and named["skills"][0]["false_triggers"] == 0, named
    # the routed agent folder given as --path holds the router and the skills behind it
    code, given = eval_json("--path", ".claude/skills", "docx", "--min-recall", "1")
    assert code == 0 and given["routed"] == 4 and given["skills"][0]["listed"] == "routed"


def test_the_router_is_listed_but_never_what_find_ranks(
    cli: Any, eval_json: Any, project: Path, write_skill: Any
) -> None:
    """The router is in the listing the agent reads (a listed skill's request may rank it),
    never among the skills ``find`` ranks for a routed one: the inventory, and find, leave it
    out. A request in the router's own words is no routed skill's miss taken by it."""
    agent = project / ".claude" / "skills"
    write_skill(agent / "finder-notes", description="Notes about finding things.")
    _cases(agent / "finder-notes", ["find the right skill for the task"])
    assert cli("skillc_index")("route", "install").returncode == 0
    _, data = eval_json()
    (case,) = data["skills"][0]["results"]
    assert data["skills"][0]["listed"] == "routed"
    assert case["taken_by"] is None and case["place"] == 1, case


def test_a_gate_that_scores_no_case_of_skills_with_cases_fails(
    cli: Any, gateway: Any, eval_json: Any, project: Path, write_skill: Any
) -> None:
    """A checkout of a routed project holds the store skills but not the route's manifest nor
    its router (both gitignored): the agent lists none of them, and ``skc eval`` passed a gate
    over no case at all. Each installed skill with cases the agent does not meet is named in a
    warning, and under a gate each is a breach of its own (at no file), one case scored or
    none: a gate passed with 4 skills unscored and 1 scored. A route manifest that cannot be
    read is a warning too."""
    store = project / ".skillc" / "skills"
    _library(store, write_skill)
    done = gateway("eval")
    assert done.returncode == 0
    assert "4 installed skills with trigger cases not scored: claude neither lists them" in (
        done.stderr
    ), done.stderr
    assert "deploy-k8s, docx, git-helper, pdf-forms" in done.stderr
    assert "No case scored: 4 installed skills" in done.stdout
    unscored = [
        f"{name}: not scored: claude neither lists it nor reaches it through a router; name "
        "the skills or give --path/--agent"
        for name in sorted(SKILLS)
    ]
    code, data = eval_json("--min-recall", "0.5")
    assert code == 1 and data["skills"] == []
    assert data["breaches"] == unscored
    github = gateway("eval", "--min-recall", "0.5", "--format", "github")
    assert github.returncode == 1
    assert github.stdout.splitlines() == [
        f"::error title=eval-threshold::threshold breached: {text}" for text in unscored
    ]
    sarif = json.loads(gateway("eval", "--min-recall", "0.5", "--format", "sarif").stdout)
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"]) for r in results] == [("eval-threshold", [])] * 4
    # one case scored: the others are each a breach still; no gate, a warning alone
    write_skill(project / ".claude" / "skills" / "notes", description="Take meeting notes.")
    _cases(project / ".claude" / "skills" / "notes", ["take notes of the meeting"])
    code, data = eval_json("--min-recall", "0.5")
    assert code == 1 and data["breaches"] == unscored, data
    assert [skill["name"] for skill in data["skills"]] == ["notes"]
    done = gateway("eval")
    assert done.returncode == 0 and "4 installed skills with trigger cases not scored" in (
        done.stderr
    ), done.stderr

    routes = project / ".skillc" / "router"
    routes.mkdir()
    (routes / "claude.json").write_text("{", encoding="utf-8")
    done = gateway("eval")
    assert "claude.json' cannot be used: it is not JSON" in done.stderr
    assert "the skills behind its router are not scored" in done.stderr


@pytest.mark.parametrize("through", ["runtime", "store"])
def test_a_routes_entry_leading_out_of_its_base_is_not_behind_its_router(
    eval_json: Any, project: Path, tmp_path: Path, write_skill: Any, through: str
) -> None:
    """A route manifest (a checkout's) whose parked deployment links to another project's
    runtime put that project's skill and its cases in ``eval --path .claude/skills``; so did
    one linking to this project's runtime whose store entry is a link to the other's
    (``.skillc/skills/s -> /elsewhere/.skillc/skills/s``). An entry whose skill is out of the
    route's base is none of the route's skills."""
    other = tmp_path / "other"
    skill = write_skill(other / ".skillc" / "skills" / "s", description="Run the payroll.")
    _cases(skill, ["private payroll query"])
    (other / ".skillc" / "runtime" / "s").mkdir(parents=True)
    (project / ".claude" / "skills").mkdir(parents=True)
    parked = project / ".skillc" / "router" / "claude" / "s"
    parked.parent.mkdir(parents=True)
    runtime = (other if through == "runtime" else project) / ".skillc" / "runtime" / "s"
    if through == "store":
        runtime.mkdir(parents=True)
        (project / ".skillc" / "skills").mkdir(parents=True, exist_ok=True)
        (project / ".skillc" / "skills" / "s").symlink_to(skill)
    parked.symlink_to(runtime)
    info = parked.lstat()
    entry = {"name": "s", "kind": "deployment", "dev": info.st_dev, "ino": info.st_ino,
             "content": f"link:{runtime}"}  # fmt: skip
    manifest = {"version": 1, "agent": "claude", "folder": ".claude/skills",
                "state": "installed", "router_sha256": "0" * 64, "entries": [entry],
                "runtimes": [], "runtimes_held": {}, "made": [], "gitignore": [],
                "gitignore_newline": False}  # fmt: skip
    (parked.parent.parent / "claude.json").write_text(json.dumps(manifest), encoding="utf-8")
    code, report = eval_json("--path", ".claude/skills")
    assert (code, report["routed"], report["skills"]) == (0, 0, []), report


def test_each_routed_skill_is_read_once(
    cli: Any, eval_json: Any, project: Path, write_skill: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each routed SKILL.md was read twice a run: for its description, and again for find's
    index of the library. The text read first is indexed."""
    from skillc_gateway.catalog import skill_text

    _library(project / ".claude" / "skills", write_skill)
    assert cli("skillc_index")("route", "install").returncode == 0
    real = skill_text.read_skill_text
    reads: list[str] = []

    def counted(data: Any, name: str) -> Any:
        reads.append(name)
        return real(data, name)

    monkeypatch.setattr(skill_text, "read_skill_text", counted)
    code, report = eval_json()
    assert (code, report["routed"]) == (0, 4), report
    assert sorted(reads) == sorted(SKILLS), reads


def test_a_routed_skill_is_ranked_by_find_s_own_ranking_over_find_s_skills(
    cli: Any, eval_json: Any, gateway_process: Any, project: Path, write_skill: Any
) -> None:
    """A routed skill's case was ranked by the lexical ranker alone over the skills the
    agent lists or is routed to: a request naming the skill (find puts it first) was taken by
    a skill whose description repeats its words, and a skill installed only for another
    agent (Codex's ``.agents/skills``), which find ranks, was never a rival. Each is ranked
    by find's own ranking, over every installed skill, lexical only: the places are those of
    ``skillc-gateway find`` (semantic step off)."""
    agent = project / ".claude" / "skills"
    _library(agent, write_skill)
    write_skill(agent / "notes", description="Write things down for later.")
    write_skill(
        agent / "meeting-notes",
        description="Meeting notes. Take notes, share notes, file the notes of each meeting.",
    )
    _cases(agent / "notes", ["notes"])
    helm = "Roll out a helm chart. Helm chart roll outs, helm upgrades of a chart."
    write_skill(project / ".agents" / "skills" / "helm-rollout", description=helm)
    _cases(project / ".agents" / "skills" / "helm-rollout", ["roll out a helm chart"])
    assert cli("skillc_index")("route", "install").returncode == 0
    _, report = eval_json("--top", "1")
    cases = {case["query"]: case for skill in report["skills"] for case in skill["results"]}
    assert "helm-rollout" not in {skill["name"] for skill in report["skills"]}  # codex's
    for query, first in (("notes", "notes"), ("roll out a helm chart", "helm-rollout")):
        found = gateway_process("find", query, "--format", "json")
        assert found.returncode == 0, found.stderr
        assert json.loads(found.stdout)["skills"][0]["name"] == first, found.stdout
    assert (cases["notes"]["place"], cases["notes"]["passed"]) == (1, True), cases["notes"]
    helm_case = cases["roll out a helm chart"]
    assert (helm_case["place"], helm_case["taken_by"]) == (2, "helm-rollout"), helm_case
    # --path: the skills under it alone, as `find --path .claude/skills` ranks them
    _, given = eval_json("--path", ".claude/skills", "--top", "1")
    cases = {case["query"]: case for skill in given["skills"] for case in skill["results"]}
    assert cases["roll out a helm chart"]["place"] == 1, cases


def test_skills_installed_only_for_other_agents_are_not_warned_of(
    cli: Any, gateway: Any, eval_json: Any, project: Path, write_skill: Any
) -> None:
    """``eval --agent codex`` warned of every skill with cases in Claude Code's folder, and
    after Claude's ``route install`` of every skill behind Claude's router, as skills Codex
    does not meet (and a gate failed on each): the warning, and a gate, count only the skills
    of the agent evaluated. A store skill deployed nowhere is still everyone's to warn of."""
    _library(project / ".claude" / "skills", write_skill)
    codex = project / ".agents" / "skills"
    write_skill(codex / "notes", description="Take meeting notes.")
    _cases(codex / "notes", ["take notes of the meeting"])
    for routed in (False, True):
        if routed:
            assert cli("skillc_index")("route", "install").returncode == 0
        done = gateway("eval", "--agent", "codex")
        assert done.returncode == 0 and "not scored" not in done.stderr, done.stderr
        code, data = eval_json("--agent", "codex", "--min-recall", "0.5")
        assert (code, data["breaches"]) == (0, []), data
        assert [skill["name"] for skill in data["skills"]] == ["notes"]
    write_skill(project / ".skillc" / "skills" / "lone", description="Nobody's skill.")
    _cases(project / ".skillc" / "skills" / "lone", ["a lone request"])
    done = gateway("eval", "--agent", "codex")
    assert "1 installed skill with trigger cases not scored: codex" in done.stderr, done.stderr
    assert "(lone)" in done.stderr


def test_identical_copies_of_a_routed_skill_are_one_skill_as_find_shows_them(
    cli: Any, eval_json: Any, gateway_process: Any, project: Path, write_skill: Any
) -> None:
    """A skill kept as identical copies in Claude Code's and Codex's folders: after Claude's
    ``route install`` the Codex copy, which ``find`` ranks, tied with the routed skill and took
    its case (``taken by notes (place 2)``, RECALL@1 0%), though ``find`` shows the copies as
    one skill. Copies of one content digest are one skill of the ranking, as ``find`` groups
    them, the routed skill standing for its copies; a copy that differs is a rival still."""
    text = {"description": "Take meeting notes and file them.", "body": "## Notes\n\nFile.\n"}
    for folder in (project / ".claude" / "skills", project / ".agents" / "skills"):
        write_skill(folder / "notes", **text)
    _cases(project / ".claude" / "skills" / "notes", ["notes", "take meeting notes"])
    assert cli("skillc_index")("route", "install").returncode == 0
    found = gateway_process("find", "notes", "--format", "json")
    assert len(json.loads(found.stdout)["skills"]) == 1, found.stdout  # find: one skill
    code, report = eval_json("--top", "1", "--min-recall", "1")
    assert code == 0, report
    cases = report["skills"][0]["results"]
    assert [(case["place"], case["taken_by"]) for case in cases] == [(1, None)] * 2, cases
    # the Codex copy edited: two skills, tied on the name, the routed one no longer first alone
    write_skill(project / ".agents" / "skills" / "notes", **{**text, "body": "## Notes\n"})
    code, report = eval_json("--top", "1", "--min-recall", "1")
    assert code == 1 and report["skills"][0]["results"][0]["taken_by"] == "notes", report
