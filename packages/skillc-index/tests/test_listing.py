"""``list`` (RFC-0007:C-LIST) through the library."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, manifest_path
from skillc_index.build.manifest import read_manifest
from skillc_index.build.stub import STUB_FORMAT
from skillc_index.digests import source_hash
from skillc_index.listing.skills import list_skills

WriteSkill = Callable[..., Path]


def test_empty(layout: Layout) -> None:
    result = list_skills(layout)
    assert result.to_dict() == {"skills": [], "total": 0, "filtered": 0}


def test_order_project_then_global_then_name(layout: Layout, write_skill: WriteSkill) -> None:
    for name in ("zeta", "alpha"):
        write_skill(layout.store("global") / name)
    for name in ("mid", "beta"):
        write_skill(layout.store("project") / name)
    result = list_skills(layout)
    assert [(e.name, e.scope) for e in result.skills] == [
        ("beta", "project"),
        ("mid", "project"),
        ("alpha", "global"),
        ("zeta", "global"),
    ]
    entry = result.skills[0].to_dict()
    assert entry["source_path"] == str(layout.store("project") / "beta")
    assert entry["runtime_path"] == str(layout.runtime_store("project") / "beta")
    assert entry["status"] == "not-built"


def test_filters_and_counts(layout: Layout, write_skill: WriteSkill) -> None:
    for name in ("py-a", "py-b", "rs-a"):
        write_skill(layout.store("project") / name)
    write_skill(layout.store("global") / "py-g")
    result = list_skills(layout, pattern="py-*", limit=2)
    assert [e.name for e in result.skills] == ["py-a", "py-b"]
    assert (result.total, result.filtered) == (4, 3)
    assert [e.name for e in list_skills(layout, scope="global").skills] == ["py-g"]
    assert list_skills(layout, limit=0).skills == ()


def test_a_pattern_matches_a_name_written_in_another_composition(
    cli: Callable[..., Any], project: Path, write_skill: WriteSkill
) -> None:
    """A folder written decomposed (``cafe\u0301-notes``, as a copy from a Mac leaves it):
    ``show café-notes`` typed composed reads it, but ``list --pattern café-notes`` said "No
    skills match." and its JSON listed nothing (audit r2), as did ``--budget``'s rows. Both
    are compared composed now, a pattern typed decomposed too. Near miss: ``cafe-notes``,
    without the accent, is another name."""
    write_skill(project / ".claude/skills/cafe\u0301-notes", "cafe\u0301-notes")
    write_skill(project / ".claude/skills/other")
    skillc_index = cli("skillc-index", script=True)
    for pattern in ("caf\u00e9-notes", "caf\u00e9-*", "cafe\u0301-notes", "caf?-notes"):
        listed = skillc_index("list", "--pattern", pattern, "--format", "json")
        assert listed.returncode == 0, listed.stderr
        data = json.loads(listed.stdout)
        assert [skill["name"] for skill in data["skills"]] == ["cafe\u0301-notes"], pattern
        assert (data["total"], data["filtered"]) == (2, 1)
    text = skillc_index("list", "--pattern", "caf\u00e9-notes")
    assert [line.split()[0] for line in text.stdout.splitlines()] == ["SKILL", "cafe\u0301-notes"]
    budget = skillc_index("list", "--budget", "--pattern", "caf\u00e9-notes")
    assert "cafe\u0301-notes" in budget.stdout and "other" not in budget.stdout
    missed = skillc_index("list", "--pattern", "cafe-notes")
    assert (missed.returncode, missed.stdout) == (0, "No skills match.\n")


def test_a_pattern_is_bounded_and_matched_by_the_kits_glob(
    cli: Callable[..., Any], project: Path, write_skill: WriteSkill
) -> None:
    """``list --pattern`` had no bound and went through :func:`fnmatch.translate`, which
    rescans the rest of the pattern per unclosed ``[``: 8,000 held the MCP server 3 s,
    100,000 minutes. Over 512 characters it is E100 (the tool's ``maxLength``), nothing
    listed; 512 ``[`` are literal. The kit's one glob matches: ``\\`` escapes, ``^``
    negates a class, as in ``sources --pattern``."""
    write_skill(project / ".claude/skills/alpha")
    write_skill(project / ".claude/skills/beta")
    skillc_index = cli("skillc-index", script=True)
    done = skillc_index("list", "--pattern", "[" * 100_000)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "error[E100]: invalid option: 'the pattern has 100,000 characters; at most 512 are "
        "allowed'\n"
    )
    assert skillc_index("list", "--pattern", "[" * 512).stdout == "No skills match.\n"
    for pattern, names in [("[^a]*", ["beta"]), ("[[]*", []), ("\\b*", ["beta"])]:
        listed = skillc_index("list", "--pattern", pattern, "--format", "json")
        assert [skill["name"] for skill in json.loads(listed.stdout)["skills"]] == names, pattern


def test_statuses(
    layout: Layout, write_skill: WriteSkill, write_manifest: Callable[[Path, str, str], Path]
) -> None:
    built = write_skill(layout.store("project") / "built")
    stale = write_skill(layout.store("project") / "stale")
    write_skill(layout.store("project") / "fresh")
    write_manifest(layout.runtime_store("project") / "built", "built", source_hash(built))
    write_manifest(layout.runtime_store("project") / "stale", "stale", source_hash(stale))
    (stale / "more.md").write_text("# changed\n", encoding="utf-8")

    fast = {e.name: e.status for e in list_skills(layout).skills}
    assert fast == {"built": "normal", "fresh": "not-built", "stale": "stale"}  # issue 34
    slow = {e.name: e.status for e in list_skills(layout, check_obsolete=True).skills}
    assert slow == {"built": "normal", "fresh": "not-built", "stale": "obsolete"}
    assert [e.name for e in list_skills(layout, status="obsolete").skills] == ["stale"]
    assert [e.name for e in list_skills(layout, status="stale").skills] == ["stale"]
    assert [e.name for e in list_skills(layout, status="not-built").skills] == ["fresh"]


def test_stale_after_an_edit_read_through_the_cache(
    layout: Layout, write_skill: WriteSkill
) -> None:
    """A built skill edited, then read (the index is built again on demand, so it is current
    for the new sources): still ``stale``, the build (its stub) is what is out of date; an
    edit undone makes it ``normal`` again; the stat-only check decides without hashing."""
    from skillc_index.build.skill import build_skill
    from skillc_index.index.cache import ensure_index
    from skillc_index.layout import resolve_skill

    source = write_skill(layout.store("project") / "demo")
    build_skill("demo", layout)
    assert {e.name: e.status for e in list_skills(layout).skills} == {"demo": "normal"}
    skill_md = source / "SKILL.md"
    original = skill_md.read_bytes()
    time.sleep(0.01)
    skill_md.write_bytes(original + b"\n## More\n")
    assert {e.name: e.status for e in list_skills(layout).skills} == {"demo": "stale"}
    ensure_index(resolve_skill("demo", layout), "ascii")  # a reader made the index current
    assert {e.name: e.status for e in list_skills(layout).skills} == {"demo": "stale"}
    skill_md.write_bytes(original)
    assert {e.name: e.status for e in list_skills(layout).skills} == {"demo": "normal"}


def test_a_stub_of_an_older_format_is_stale(layout: Layout, write_skill: WriteSkill) -> None:
    """A skill built by an older skillc, whose stub is of an older format than a build writes
    now (the manifest's ``stub_format``; none before it was recorded), is ``stale``: its
    build, the stub agents load, is out of date until the next build rewrites it."""
    from skillc_index.build.skill import build_skill

    write_skill(layout.store("project") / "demo")
    write_skill(layout.store("project") / "other")
    build_skill("demo", layout)
    build_skill("other", layout)
    path = manifest_path(layout.runtime_store("project") / "demo")
    built = json.loads(path.read_text(encoding="utf-8"))
    for older in ({"stub_format": STUB_FORMAT - 1}, {}):
        old = {key: value for key, value in built.items() if key != "stub_format"} | older
        path.write_text(json.dumps(old), encoding="utf-8")
        statuses = {e.name: e.status for e in list_skills(layout).skills}
        assert statuses == {"demo": "stale", "other": "normal"}
        assert [e.name for e in list_skills(layout, status="stale").skills] == ["demo"]
        assert list_skills(layout).to_dict()["skills"][0]["status"] == "stale"
        # with --check-obsolete a changed skill is obsolete, whatever its stub's format
        (layout.store("project") / "demo" / "SKILL.md").write_text(
            "---\nname: demo\ndescription: Changed. Use when testing.\n---\n# Demo\n", "utf-8"
        )
        checked = {e.name: e.status for e in list_skills(layout, check_obsolete=True).skills}
        assert checked == {"demo": "obsolete", "other": "normal"}
    assert not build_skill("demo", layout).compiled.up_to_date  # the stub rewritten
    assert {e.name: e.status for e in list_skills(layout).skills}["demo"] == "normal"


def test_a_copy_of_an_older_build_is_stale(layout: Layout, write_skill: WriteSkill) -> None:
    """A copy deployment that holds an older build than the runtime (one a build did not
    refresh: an older skillc's, or one git tracks) makes the skill ``stale``: agents load an
    old stub there. Its next build refreshes it."""
    import shutil

    from skillc_index.build.skill import build_skill

    source = write_skill(layout.store("project") / "demo", body="## Old\n")
    build_skill("demo", layout, targets="claude,codex", copy=True)
    copy = layout.base("project") / ".agents" / "skills" / "demo"
    shutil.copytree(copy, copy.with_name("old"))
    (source / "SKILL.md").write_text(
        (source / "SKILL.md").read_text(encoding="utf-8").replace("## Old", "## New"), "utf-8"
    )
    build_skill("demo", layout)
    assert {e.name: e.status for e in list_skills(layout).skills} == {"demo": "normal"}
    shutil.rmtree(copy)
    copy.with_name("old").rename(copy)  # the copy of the build before
    assert {e.name: e.status for e in list_skills(layout).skills} == {"demo": "stale"}
    assert [e.name for e in list_skills(layout, status="stale").skills] == ["demo"]
    build_skill("demo", layout)
    assert "- New" in (copy / "SKILL.md").read_text(encoding="utf-8")
    assert {e.name: e.status for e in list_skills(layout).skills} == {"demo": "normal"}


def test_an_imported_copy_follows_the_folder_it_was_imported_from(
    layout: Layout, write_skill: WriteSkill
) -> None:
    """``skc build skills/pdf`` imports the folder into the store. Edited there, ``list``
    said ``normal`` while agents loaded the old stub (and ``build --all`` imported it again):
    it is ``stale`` (file stats, else the folder's hash, as ``build --all`` finds it; the
    same bytes written again are not a change). Renamed or deleted, nothing said the store
    copy's folder is gone: a warning says so, and how to remove or keep the copy."""
    from skillc_index.build.skill import build_skill

    project = layout.base("project")
    folder = write_skill(project / "skills" / "pdf")
    build_skill(str(folder), layout)
    listing = list_skills(layout)
    assert [(e.name, e.status) for e in listing.skills] == [("pdf", "normal")]
    assert listing.notices == ()
    skill_md = folder / "SKILL.md"
    skill_md.write_text(skill_md.read_text(encoding="utf-8"), encoding="utf-8")  # same bytes
    assert [e.status for e in list_skills(layout).skills] == ["normal"]
    skill_md.write_text(skill_md.read_text("utf-8").replace("# ", "# New "), "utf-8")
    assert [e.status for e in list_skills(layout).skills] == ["stale"]
    assert [e.name for e in list_skills(layout, status="stale").skills] == ["pdf"]
    build_skill("pdf", layout)  # imported again
    assert [e.status for e in list_skills(layout).skills] == ["normal"]
    folder.rename(folder.with_name("pdf-tools"))
    listing = list_skills(layout)
    assert [(e.name, e.status) for e in listing.skills] == [("pdf", "normal")]
    (notice,) = listing.notices
    copy = layout.store("project") / "pdf"
    assert notice.text == (
        "skill 'pdf' (.skillc/skills/pdf) was imported from skills/pdf, which is gone (to "
        f"remove it: rm -r {copy}, then its deployments (skc list says how); to keep it as "
        f"it is: rm {copy}/.skillc-import.json)"
    )


def test_an_imported_copy_is_stale_when_build_all_would_import_its_folder_again(
    layout: Layout, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``list`` called an imported copy ``stale`` only when its folder's hash changed, while
    ``build --all`` also imports the folder again when git sees the copy otherwise (a script
    made executable, a ``.gitignore`` edited) or its record is of an older form: both now
    ask ``import_current``, and the folder is walked once (file stats, then its hash)."""
    from skillc_index import import_record
    from skillc_index.build.skill import build_skill

    project = layout.base("project")
    folder = write_skill(project / "skills" / "pdf")
    (folder / "run.sh").write_text("echo hi\n", encoding="utf-8")
    build_skill(str(folder), layout)
    assert [e.status for e in list_skills(layout).skills] == ["normal"]
    (folder / "run.sh").chmod(0o755)  # the same bytes: the same hash
    assert [e.status for e in list_skills(layout).skills] == ["stale"]
    walked: list[Path] = []
    walk = import_record.walk_origin
    monkeypatch.setattr(import_record, "walk_origin", lambda f: walked.append(f) or walk(f))
    assert [e.status for e in list_skills(layout).skills] == ["stale"]
    assert walked == [folder]
    build_skill("pdf", layout)  # imported again, with the bit
    assert [e.status for e in list_skills(layout).skills] == ["normal"]


def test_an_imported_copy_is_stale_when_a_gitignore_of_its_folder_changed(
    layout: Layout, write_skill: WriteSkill
) -> None:
    """A ``.gitignore`` is hidden, no part of the folder's hash, yet an import copies it and
    ``build --all`` imports the folder again when one changed: file stats proved the folder
    unchanged without looking at them, so ``list`` said ``normal`` (a comment added, which
    excludes nothing more; a ``.gitignore`` added in a subfolder). Stats still prove a
    folder with ``.gitignore`` files unchanged right after its import (no hash)."""
    from skillc_index.build.skill import build_skill
    from skillc_index.import_record import unchanged_since_import, walk_origin

    folder = write_skill(layout.base("project") / "skills" / "pdf")
    (folder / "refs").mkdir()
    (folder / "refs" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    (folder / ".gitignore").write_text("secret.txt\n", encoding="utf-8")
    build_skill(str(folder), layout)
    copy = layout.store("project") / "pdf"

    def unchanged() -> bool:
        return unchanged_since_import(copy, folder, walk_origin(folder))

    assert unchanged()
    assert [e.status for e in list_skills(layout).skills] == ["normal"]
    for edit in (
        lambda: (folder / ".gitignore").write_text("# keys\nsecret.txt\n", encoding="utf-8"),
        lambda: (folder / "refs" / ".gitignore").write_text("*.tmp\n", encoding="utf-8"),
    ):
        edit()
        assert not unchanged()
        assert [e.status for e in list_skills(layout).skills] == ["stale"]
        build_skill("pdf", layout)  # imported again, the .gitignore with it
        assert unchanged()
        assert [e.status for e in list_skills(layout).skills] == ["normal"]
    assert (copy / "refs" / ".gitignore").read_text(encoding="utf-8") == "*.tmp\n"


def test_copies_are_looked_for_once_per_listing(
    layout: Layout, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copies behind ``stale`` are looked for in the agent folders of a scope resolved
    once for the whole listing, not once per skill, each real folder listed once, and a
    manifest is read only where a folder holds an entry of the skill's name (a symlink to the
    runtime is none): the copy's, then its runtime's, once each; the parking folders of the
    scope's routes with the agent folders, in one look a skill. It was every target per
    skill, and every runtime's manifest a second time."""
    from skillc_index.build import agent_folders, copies, deploy
    from skillc_index.build.skill import build_skill
    from skillc_index.targets import agent_targets

    for name in ("alpha", "beta", "gamma"):
        write_skill(layout.store("project") / name)
        build_skill(name, layout)
    build_skill("beta", layout, targets="claude,codex", copy=True)
    roots: list[str] = []
    reads: list[Path] = []
    listed: list[Path] = []
    target_root, read, entries = Layout.target_root, copies.read_manifest, agent_folders._entries
    monkeypatch.setattr(
        agent_folders, "_entries", lambda folder: listed.append(folder) or entries(folder)
    )
    monkeypatch.setattr(
        Layout, "target_root", lambda self, *args: roots.append(args[0]) or target_root(self, *args)
    )
    monkeypatch.setattr(copies, "read_manifest", lambda path: reads.append(path) or read(path))
    looks: list[str] = []
    stale_copies = deploy.stale_copies
    monkeypatch.setattr(
        deploy,
        "stale_copies",
        lambda skill, *args: looks.append(skill) or stale_copies(skill, *args),
    )
    statuses = {e.name: e.status for e in list_skills(layout).skills}
    assert statuses == {"alpha": "normal", "beta": "normal", "gamma": "normal"}
    assert sorted(looks) == ["alpha", "beta", "gamma"]  # it was once more, for parking folders
    assert sorted(roots) == sorted(agent_targets())
    base = layout.base("project")
    real = [os.path.realpath(folder) for folder in listed]
    assert len(real) == len(set(real)), "a folder listed twice"  # .agents/skills: agents, codex
    assert os.path.realpath(base / ".agents" / "skills") in real
    copies = [base / ".claude" / "skills" / "beta", base / ".agents" / "skills" / "beta"]
    assert sorted(reads) == sorted([*copies, layout.runtime_store("project") / "beta"])


def test_a_skill_built_twice_has_its_sources_hashed_once(
    layout: Layout,
    write_skill: WriteSkill,
    count_calls: Callable[[object, str], list[tuple[Any, ...]]],
) -> None:
    """A project skill built in the project and ``--global`` has two builds to compare with
    its sources: they are hashed once for both (``--check-obsolete`` hashed them per build)."""
    import skillc_index.digests
    from skillc_index.build.skill import build_skill

    source = write_skill(layout.store("project") / "alpha")
    build_skill("alpha", layout)
    build_skill("alpha", layout, force_global=True)
    hashed = count_calls(skillc_index.digests, "source_hash")
    statuses = {e.name: e.status for e in list_skills(layout, check_obsolete=True).skills}
    assert statuses == {"alpha": "normal"}
    assert [call[0] for call in hashed] == [source]
    (source / "more.md").write_text("# changed\n", encoding="utf-8")
    hashed.clear()
    assert {e.name: e.status for e in list_skills(layout).skills} == {"alpha": "stale"}
    assert [call[0] for call in hashed] == [source]


def test_invalid_manifest_is_not_built(layout: Layout, write_skill: WriteSkill) -> None:
    write_skill(layout.store("project") / "odd")
    runtime = layout.runtime_store("project") / "odd"
    path = manifest_path(runtime)
    path.parent.mkdir(parents=True)
    for text in (
        "{not json",
        "[]",
        '{"skill": "odd", "version": "1", "built_at": "x", "source_hash": "y"}',
    ):
        path.write_text(text, encoding="utf-8")
        assert read_manifest(runtime) is None
        assert list_skills(layout).skills[0].status == "not-built"


def test_invalid_skills_are_skipped_with_a_notice(layout: Layout, write_skill: WriteSkill) -> None:
    write_skill(layout.store("project") / "good")
    write_skill(layout.store("project") / "broken", frontmatter="name: [unclosed\n")
    write_skill(layout.store("project") / "nameless", frontmatter="description: no name here\n")
    (layout.store("project") / "not-a-skill").mkdir()
    (layout.store("project") / ".hidden").mkdir()
    result = list_skills(layout)
    assert [e.name for e in result.skills] == ["good"]
    assert result.total == 1
    texts = [n.text for n in result.notices]
    assert len(texts) == 2
    assert any("'broken'" in t and "invalid frontmatter YAML" in t for t in texts)
    assert any("'nameless'" in t and "'name'" in t for t in texts)


def test_unreadable_skills_and_stores_are_skipped_with_a_notice(
    layout: Layout, write_skill: WriteSkill, unreadable: Callable[[Path], None]
) -> None:
    write_skill(layout.store("project") / "good")
    locked = write_skill(layout.store("project") / "locked")
    write_skill(layout.store("global") / "elsewhere")
    unreadable(locked)
    unreadable(layout.store("global"))
    result = list_skills(layout)
    assert [e.name for e in result.skills] == ["good"]
    assert [n.text for n in result.notices] == [
        f"skipping 'locked' ({locked}): cannot read it (Permission denied)",
        f"cannot list the global store {layout.store('global')} (Permission denied)",
    ]


def test_no_global_store_is_fine(tmp_path: Path) -> None:
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "nowhere")})
    assert list_skills(layout).total == 0


def test_a_reply_limit_cuts_the_list_with_a_warning(
    layout: Layout, write_skill: WriteSkill
) -> None:
    """The MCP server's reply limit (``Session.reply_chars``): the first skills that fit with
    the warning, and ``filtered`` still counting them all; the CLI has no limit."""
    from skillc_index.accesslog import AccessLog
    from skillc_index.operation import Session
    from skillc_index.operations import LIST, ListParams

    for number in range(30):
        write_skill(layout.store("project") / f"skill-{number:02}")
    whole = LIST.run(Session(layout, AccessLog(lambda _: None)), ListParams())
    one = len(json.dumps(whole.skills[0].to_dict())) + 2
    rest = len(json.dumps({**whole.to_dict(), "skills": []}))  # counted too
    bound = one * 10 + rest
    said = f"warning: list cut at 10 of 30 skills (the reply's limit of {bound:,} characters): "
    said += "narrow it with `pattern`, `scope` or `status`"
    bound += len(json.dumps(said)) + len(', "warnings": []')  # and the warning
    session = Session(layout, AccessLog(lambda _: None), reply_chars=bound)
    cut = LIST.run(session, ListParams())
    assert [e.name for e in cut.skills] == [e.name for e in whole.skills[:10]]
    assert (cut.total, cut.filtered, len(whole.skills), whole.warnings) == (30, 30, 30, ())
    [warning] = cut.warnings
    assert warning.text.startswith("list cut at 10 of 30 skills") and "`pattern`" in warning.text
    reply = {**cut.to_dict(), "warnings": [f"warning: {warning.text}"]}
    assert len(json.dumps(reply)) <= bound


def test_an_entry_of_two_agent_folders_that_are_one_is_warned_about_once(
    cli: Callable[..., Any], home: Path
) -> None:
    """``~/.agents/skills -> ~/.claude/skills`` (one folder, two agents' names): each entry
    that cannot be read was warned about once a name on every ``list``, and the E001 hint
    named a dangling link twice. Each is said once, by the first path to it."""
    claude = home / ".claude" / "skills"
    claude.mkdir(parents=True)
    (claude / "loop-a").symlink_to("loop-b")
    (claude / "loop-b").symlink_to("loop-a")
    (claude / "gone-x").symlink_to("/nonexistent/skillc-test/x")
    (home / ".agents").mkdir()
    (home / ".agents" / "skills").symlink_to("../.claude/skills")
    run = cli("skillc_index")
    listed = run("list")
    assert listed.returncode == 0, listed.stderr
    warnings = [line for line in listed.stderr.splitlines() if line.startswith("warning:")]
    assert sorted(line.split("'")[1] for line in warnings) == ["gone-x", "loop-a", "loop-b"]
    missing = run("build", "gone-x")
    assert missing.returncode == 1
    hint = missing.stderr.splitlines()[1]
    assert hint.startswith("hint: ") and hint.count("a link to /nonexistent/skillc-test/x") == 1


def test_status_obsolete_selects_builds_and_stale_also_unmanaged_indexes(
    layout: Layout, home: Path, write_skill: WriteSkill, cli: Callable[..., Any]
) -> None:
    """``--status stale`` lists a store skill edited since its build and a skill skillc does
    not manage (an agent folder's, read once then edited: its index is ``stale``), which
    ``build --all`` does not touch; ``--status obsolete`` (RFC-0007: a build status) and
    ``--managed --status stale`` list the store skill alone, never a row whose STATUS is an
    index's ``stale``."""
    from skillc_index.build.skill import build_skill
    from skillc_index.index.cache import ensure_index
    from skillc_index.layout import resolve_skill

    store = write_skill(layout.store("project") / "mine")
    build_skill("mine", layout)
    ext = write_skill(home / ".agents" / "skills" / "ext")
    ensure_index(resolve_skill("ext", layout), "ascii")  # read once: its index is current
    time.sleep(0.01)
    for folder in (store, ext):
        with (folder / "SKILL.md").open("a", encoding="utf-8") as file:
            file.write("\n## More\n")
    run = cli("skillc-index", script=True)

    def listed(*args: str) -> dict[str, str]:
        proc = run("list", "--format", "json", *args)
        assert proc.returncode == 0, proc.stderr
        return {row["name"]: row["status"] for row in json.loads(proc.stdout)["skills"]}

    assert listed("--status", "stale") == {"mine": "stale", "ext": "stale"}
    assert listed("--status", "obsolete") == {"mine": "obsolete"}
    assert listed("--managed", "--status", "stale") == {"mine": "stale"}
