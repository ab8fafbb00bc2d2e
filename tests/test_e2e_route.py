"""``skc route`` end to end: the skills of ``.claude/skills`` behind the router are still
listed, read with show/open/search and logged; ``skc list --budget`` sees one entry; and
everything goes back as it was."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def tree(root: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[rel] = f"-> {path.readlink()}"
            elif path.is_dir():
                found[rel] = "dir"
            else:
                found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def test_routed_skills_are_read_and_logged_then_put_back(
    ok: Run, skc_installed: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    ok("init")
    folder = project / ".claude" / "skills"
    for name in ("pdf-tools", "csv-tools", "image-tools"):
        write_skill(
            folder / name,
            name,
            f"Work with {name.split('-')[0]} files. " * 20,
            f"## Usage\n\nHow to use {name} with widgets.\n",
            files={"references/guide.md": f"# Guide\n\n{name} in depth.\n"},
        )
    before = tree(folder)
    budget = json.loads(ok("list", "--budget", "--format", "json").stdout)["budget"]
    assert [(b["agent"], b["skills"]) for b in budget] == [("claude", 3)]

    installed = skc_installed("route", "install")  # the installed script, once
    assert installed.returncode == 0, installed.stderr
    assert names(folder) == ["skill-router"]
    listed = json.loads(ok("list", "--format", "json").stdout)
    assert [s["name"] for s in listed["skills"]] == ["csv-tools", "image-tools", "pdf-tools"]
    assert {s["status"] for s in listed["skills"]} == {"normal"}
    after = json.loads(ok("list", "--budget", "--format", "json").stdout)["budget"]
    assert [e["name"] for e in after[0]["entries"]] == ["skill-router"]
    assert after[0]["tokens"] < budget[0]["tokens"]

    shown = ok("show", "pdf-tools", "--section", "Usage")
    assert "How to use pdf-tools with widgets." in shown.stdout
    assert "pdf-tools in depth." in ok("open", "pdf-tools", "references/guide.md").stdout
    assert "Usage" in ok("search", "pdf-tools", "widgets").stdout
    runtime = project / ".skillc" / "runtime" / "pdf-tools"
    with closing(sqlite3.connect(runtime / ".skillc-meta" / "logs.db")) as db:
        commands = [row[0] for row in db.execute("SELECT command FROM access_log ORDER BY id")]
    assert commands == ["build", "show", "open", "search"]

    found = json.loads(ok("find", "work with image files", "--format", "json").stdout)
    names_found = [s["name"] for s in found["skills"]]
    assert names_found[0] == "image-tools"  # found in the store,
    assert "skill-router" not in names_found  # not the router
    assert found["skills"][0]["path"] == str(project / ".skillc" / "skills" / "image-tools")

    status = ok("route", "status", "--format", "json")
    assert json.loads(status.stdout)["routed"] == 3
    ok("route", "uninstall")
    assert tree(folder) == before
    # the store holds none of them again: they are the agent folder's own skills (issue 34)
    assert json.loads(ok("list", "--managed", "--format", "json").stdout)["skills"] == []
    back = json.loads(ok("list", "--format", "json").stdout)["skills"]
    assert [(s["name"], s["managed"], s["agents"]) for s in back] == [
        (name, False, ["claude"]) for name in ("csv-tools", "image-tools", "pdf-tools")
    ]


def test_the_routers_description_gives_commands_that_run_and_reaches_an_older_router(
    ok: Run, skc: Run, skc_installed: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """The router's description (the one entry the agent lists) said to read the best skill
    "with `skc show` and the skill's name": ``skc show NAME`` is E100 (``--section`` is
    required). Every ``skc`` command it gives runs, for the routed skill (NAME) and a
    heading its outline lists (HEADING); and a router an older skillc wrote (its text
    recorded in the route's manifest) is rewritten by the next ``route install``."""
    import re
    import shlex

    from skillc_index import parse_frontmatter

    ok("init")
    folder = project / ".claude" / "skills"
    write_skill(folder / "pdf-tools", "pdf-tools", "Fill in PDF forms.", "## Usage\n\nFill.\n")
    installed = skc_installed("route", "install")
    assert installed.returncode == 0, installed.stderr
    router = folder / "skill-router" / "SKILL.md"
    fresh = router.read_text(encoding="utf-8")
    front = parse_frontmatter(fresh).data
    assert front is not None
    commands = re.findall(r"`(skc [^`]*)`", front["description"])
    assert [c.split()[1] for c in commands] == ["find", "outline", "show"]
    for command in commands:
        words = [
            {"NAME": "pdf-tools", "HEADING": "Usage"}.get(word, word)
            for word in shlex.split(command)[1:]
        ]
        done = skc(*words)
        assert done.returncode == 0, f"{command}: {done.stderr}"
    # a router of an older skillc: its own text, recorded as skillc's in the manifest
    older = fresh.replace("then read the best skill", "then read the skill")
    router.write_text(older, encoding="utf-8")
    manifest = project / ".skillc" / "router" / "claude.json"
    recorded = json.loads(manifest.read_text(encoding="utf-8"))
    recorded["router_sha256"] = hashlib.sha256(older.encode("utf-8")).hexdigest()
    manifest.write_text(json.dumps(recorded), encoding="utf-8")
    assert "was edited" not in ok("route", "status").stderr
    ok("route", "install")
    assert router.read_text(encoding="utf-8") == fresh
    status = ok("route", "status")
    assert "was edited" not in status.stderr + status.stdout


def test_the_summary_counts_what_the_agent_lists_and_the_dry_run_agrees(
    ok: Run, skc_installed: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """Skills that do not build stay in the folder: the agent lists them beside the router,
    and the dry run (which checks what the real run checks) says the same."""
    ok("init")
    folder = project / ".claude" / "skills"
    for name in ("pdf-tools", "csv-tools"):
        write_skill(
            folder / name,
            name,
            f"Work with {name.split('-')[0]} files.",
            f"## Usage\n\nHow to use {name} with widgets.\n",
            files={"references/guide.md": f"# Guide\n\n{name} in depth.\n"},
        )
    (folder / "bad-yaml").mkdir()
    (folder / "bad-yaml" / "SKILL.md").write_text(
        "---\nname: bad-yaml\ndescription: [unclosed\n---\n", encoding="utf-8"
    )
    dry = skc_installed("route", "install", "--dry-run")
    real = skc_installed("route", "install")  # the others routed: it failed all the same
    assert (dry.returncode, real.returncode) == (1, 1), real.stderr
    assert "error[E011]: .claude/skills/bad-yaml: missing frontmatter field 'name'" in real.stderr
    assert dry.stdout.splitlines()[-2:] == [
        "left: .claude/skills/bad-yaml: does not build: error[E011]: missing frontmatter field "
        "'name' in SKILL.md; invalid frontmatter YAML: while parsing a flow sequence (line 3, "
        "column 14): did not find expected ',' or ']' (line 4, column 1)",
        "claude (project) .claude/skills would list 2 skills: skill-router, for 2 skills in "
        ".skillc/skills, and 1 skill left in place (does not build: 1)",
    ]
    assert real.stdout.splitlines()[-2:] == [
        line.replace("would list", "lists") for line in dry.stdout.splitlines()[-2:]
    ]
    assert names(folder) == ["bad-yaml", "skill-router"]
    budget = json.loads(ok("list", "--budget", "--format", "json").stdout)["budget"]
    assert [e["name"] for e in budget[0]["entries"]] == ["bad-yaml", "skill-router"]


def test_uninstall_removes_the_runtimes_install_built(
    ok: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """Issue 34: `route uninstall` left behind a runtime for every skill install built (301
    copies, 52 MB). After the round trip, no runtime install made is left; one that was
    there before (a skill read through the agent folder has its access log there) stays as
    it was; a skill agents read while routed keeps its access log only."""
    ok("init")
    folder = project / ".claude" / "skills"
    for name in ("pdf-tools", "csv-tools", "image-tools"):
        write_skill(
            folder / name,
            name,
            f"Work with {name.split('-')[0]} files.",
            f"## Usage\n\nHow to use {name}.\n",
            files={"references/guide.md": f"# Guide\n\n{name} in depth.\n"},
        )
    runtimes = project / ".skillc" / "runtime"
    ok("outline", "./.claude/skills/csv-tools")  # read before: its log is in its runtime
    before = tree(runtimes)
    assert names(runtimes) == ["csv-tools"]
    ok("route", "install")
    assert names(runtimes) == ["csv-tools", "image-tools", "pdf-tools"]
    ok("show", "pdf-tools", "--section", "Usage")  # an agent's read while routed
    done = ok("route", "uninstall", "--format", "json")
    assert json.loads(done.stdout)["runtimes_removed"] == [
        str(runtimes / "image-tools"),
        str(runtimes / "pdf-tools"),
    ]
    assert "warning: kept the access log" in done.stderr
    assert names(runtimes) == ["csv-tools", "pdf-tools"]
    assert names(runtimes / "pdf-tools" / ".skillc-meta") == ["logs.db"]
    assert not (runtimes / "pdf-tools" / "SKILL.md").exists()
    kept = {k: v for k, v in tree(runtimes).items() if k.startswith("csv-tools/.skillc-meta/logs")}
    assert kept["csv-tools/.skillc-meta/logs.db"]  # still there (install's build added a row)
    assert set(before) <= set(tree(runtimes))


def test_a_skill_shipping_the_routers_mark_is_found_and_listed(
    ok: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """Only ``skill-router`` holding the mark is the router: a skill of another name that
    ships a ``.skillc-router.json`` is no router (it hid itself from ``find`` and ``list``)."""
    ok("init")
    folder = project / ".claude" / "skills"
    write_skill(folder / "pdf-tools", "pdf-tools", "Merge and split PDF files.")
    (folder / "pdf-tools" / ".skillc-router.json").write_text("{}\n")
    listed = json.loads(ok("list", "--format", "json").stdout)
    assert [s["name"] for s in listed["skills"]] == ["pdf-tools"]
    found = json.loads(ok("find", "merge pdf", "--format", "json").stdout)
    assert [s["name"] for s in found["skills"]][:1] == ["pdf-tools"]
    ok("route", "install")  # the real router: not listed, not found
    listed = json.loads(ok("list", "--format", "json").stdout)
    assert [s["name"] for s in listed["skills"]] == ["pdf-tools"]


def test_a_ci_gate_of_skc_eval_still_scores_the_routed_skills(
    ok: Run, skc_installed: Run, project: Path, write_skill: Callable[..., Path]
) -> None:
    """After ``skc route install`` the installed ``skc eval --min-recall 0.9`` scored no skill
    (``claude listing of 0 skills``) and passed, exit 0, though docx misses a case: the
    routed skills are scored as ``skc find`` ranks them, and the gate still fails on docx."""
    ok("init")
    folder = project / ".claude" / "skills"
    for name, description in (
        ("docx", "Create and edit Word documents with tracked changes."),
        ("xlsx", "Read, write and chart Excel workbooks and pivot tables."),
    ):
        write_skill(folder / name, name, description)
        (folder / name / "evals").mkdir()
    (folder / "docx" / "evals" / "triggers.yaml").write_text(
        "should_trigger:\n  - add tracked changes to my Word document\n  - bake a cake\n"
    )
    (folder / "xlsx" / "evals" / "triggers.yaml").write_text(
        "should_trigger:\n  - build a pivot table in Excel\n"
    )
    assert skc_installed("route", "install").returncode == 0
    gate = skc_installed("eval", "--min-recall", "0.9", "--max-false-triggers", "0")
    assert gate.returncode == 1, gate.stdout + gate.stderr
    lines = gate.stdout.splitlines()
    assert lines[0].startswith("claude listing of 1 skill and 2 behind its router;")
    assert lines[-1] == "threshold breached: docx: recall 1/2 < 0.9"
    assert any(line.split() == ["xlsx", "1", "100%", "0", "routed"] for line in lines), lines
