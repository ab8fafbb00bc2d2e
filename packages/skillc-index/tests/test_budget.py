"""``list --budget``: what each agent skills folder costs the agent's skill listing, against
the budget (``[budget]`` in config), and which descriptions the agent would drop."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, load_config
from skillc_index.accesslog import AccessLog
from skillc_index.build.skill import build_skill
from skillc_index.listing.budget import listing_budgets
from skillc_index.operation import Session
from skillc_index.operations import LIST, ListParams

WriteSkill = Callable[..., Path]
Run = Callable[..., subprocess.CompletedProcess[str]]


def agent_skill(folder: Path, name: str, description: str, extra: str = "") -> Path:
    """A skill folder in an agent folder, its description written as YAML double-quoted."""
    path = folder / name
    path.mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: {json.dumps(description)}\n{extra}---\n\n# {name}\n"
    (path / "SKILL.md").write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def claude(project: Path) -> Path:
    """``.claude/skills`` of the project with four skills: entries of 110, 109, 210 and 110
    characters (``- alpha: <100 x>`` and its line break...), 539 in all; names alone 31."""
    folder = project / ".claude" / "skills"
    agent_skill(folder, "alpha", "a" * 100)
    agent_skill(folder, "beta", "b" * 100)
    agent_skill(folder, "kappa", "k" * 200)
    agent_skill(folder, "gamma", "g" * 100)
    return folder


def small_budget(layout: Layout, *, home: bool = False) -> None:
    """400 characters (100 tokens): 1,000 tokens x 4 characters x 10%; ``home``: in the
    global config (a listing holding a home folder takes no project's ``[budget]``)."""
    config = layout.global_config if home else layout.project_config
    assert config is not None
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[budget]\ncontext_tokens = 1000\npercent = 10\n", encoding="utf-8")


def test_the_default_budget_is_one_percent_of_200k(layout: Layout, claude: Path) -> None:
    (folder,) = listing_budgets(layout, load_config(layout, env={}))
    assert (folder.agent, folder.scope, folder.path) == ("claude", "project", claude)
    assert [entry.name for entry in folder.entries] == ["alpha", "beta", "gamma", "kappa"]
    assert [entry.chars for entry in folder.entries] == [110, 109, 110, 210]
    assert (folder.chars, folder.tokens, folder.names_tokens) == (539, 135, 8)
    assert (folder.budget_chars, folder.budget_tokens) == (8000, 2000)
    assert not folder.over and folder.dropped == ()


def test_tokens_and_budget_tokens_round_alike(layout: Layout, project: Path) -> None:
    """A budget of 4,001 characters and a listing of exactly 4,001: within the budget, so
    never more tokens than the budget (it said 1,001 of 1,000); one more character is over."""
    assert layout.project_config is not None
    layout.project_config.write_text(
        "[budget]\ncontext_tokens = 100025\npercent = 1\n", encoding="utf-8"
    )
    folder = project / ".claude" / "skills"
    for name, size in (("a", 1328), ("b", 1328), ("c", 1327)):  # "- a: ...\n": 6 more each
        agent_skill(folder, name, "x" * size)
    (budget,) = listing_budgets(layout, load_config(layout, env={}))
    assert (budget.chars, budget.budget_chars, budget.over) == (4001, 4001, False)
    assert budget.tokens <= budget.budget_tokens == 1001
    agent_skill(folder, "d", "")  # "- d\n": 4 more characters
    (budget,) = listing_budgets(layout, load_config(layout, env={}))
    assert budget.over and budget.tokens >= budget.budget_tokens


def test_over_budget_the_descriptions_after_the_cut_are_dropped(
    layout: Layout, claude: Path
) -> None:
    small_budget(layout)
    (folder,) = listing_budgets(layout, load_config(layout, env={}))
    assert (folder.budget_chars, folder.budget_tokens, folder.over) == (400, 100, True)
    # names take 31 of 400: alpha (102 more) and beta (102) fit, gamma (102) fits too, then
    # kappa (202) does not: from the cut on, no description is kept
    assert folder.kept == 3
    assert folder.dropped == ("kappa",)
    agent_skill(claude, "delta", "d" * 100)  # listed before gamma and kappa: now gamma is cut
    (folder,) = listing_budgets(layout, load_config(layout, env={}))
    assert [entry.name for entry in folder.entries] == ["alpha", "beta", "delta", "gamma", "kappa"]
    assert folder.kept == 3
    assert folder.dropped == ("kappa", "gamma")  # the first dropped first


def test_what_the_agent_lists(layout: Layout, project: Path, write_skill: WriteSkill) -> None:
    folder = project / ".claude" / "skills"
    agent_skill(folder, "long", "x" * 2000)  # cut at 1,536 characters
    agent_skill(folder, "when", "Does it.", "when_to_use: When asked.\n")
    agent_skill(folder, "manual", "Only by hand.", "disable-model-invocation: true\n")
    agent_skill(folder, ".hidden", "A backup, not listed.")
    (folder / "notes").mkdir()  # no SKILL.md: not a skill
    (folder / "bare").mkdir()
    (folder / "bare" / "SKILL.md").write_text("# No frontmatter\n", encoding="utf-8")
    source = write_skill(
        layout.store("project") / "stubbed", frontmatter="name: stub-name\ndescription: Stub.\n"
    )
    build_skill(str(source), layout)  # deployed as a symlink to the runtime's stub
    (budget,) = listing_budgets(layout, load_config(layout, env={}))
    entries = {entry.folder: entry for entry in budget.entries}
    assert sorted(entries) == ["bare", "long", "stubbed", "when"]
    assert entries["long"].chars == len("- long: \n") + 1536
    assert entries["when"].chars == len("- when: Does it. When asked.\n")
    assert (entries["bare"].name, entries["bare"].chars) == ("bare", len("- bare\n"))
    stub = entries["stubbed"]  # listed under its folder's name, Claude Code's command name
    assert (stub.name, stub.key, stub.kind, stub.chars) == (
        "stubbed",
        "stub-name",
        "skillc",
        len("- stubbed: Stub.\n"),
    )
    assert entries["long"].kind == "folder"
    assert budget.not_listed == 1


def test_project_and_home_folders_and_the_scope(layout: Layout, home: Path, project: Path) -> None:
    agent_skill(project / ".agents" / "skills", "shared", "For every agent.")
    agent_skill(home / ".config" / "opencode" / "skills", "mine", "Home skill.")
    (home / ".cursor" / "skills").mkdir(parents=True)  # empty: listed with nothing in it
    config = load_config(layout, env={})
    found = [(f.agent, f.scope, len(f.entries)) for f in listing_budgets(layout, config)]
    assert found == [("agents", "project", 1), ("cursor", "global", 0), ("opencode", "global", 1)]
    home_only = listing_budgets(layout, config, ("global",))
    assert [f.agent for f in home_only] == ["cursor", "opencode"]


def test_from_the_home_folder_its_agent_folders_are_global(home: Path) -> None:
    """The home folder is never a project: run there, its agent folders are the home's."""
    agent_skill(home / ".claude" / "skills", "g1", "A global skill.")
    at_home = Layout.discover(home, {"SKILLC_HOME": str(home)})
    config = load_config(at_home, env={})
    found = [(f.agent, f.scope, len(f.entries)) for f in listing_budgets(at_home, config)]
    assert found == [("claude", "global", 1)]
    assert [f.agent for f in listing_budgets(at_home, config, ("global",))] == ["claude"]


def test_a_bounded_reply_fits_the_budget_too(layout: Layout, claude: Path) -> None:
    """The budget was added after the skills were fitted (562 skills: 231,172 characters
    against a bound of 100,000): its lists count and are cut with the skills, the last of the
    longest list first, the warning naming each list cut."""
    params = ListParams(scope="project", budget=True)
    whole = LIST.run(Session(layout, AccessLog(lambda _: None)), params).to_dict()
    bound = len(json.dumps(whole)) // 3  # (the skills 2,615 characters, the entries 761)
    bounded = LIST.run(Session(layout, AccessLog(lambda _: None), reply_chars=bound), params)
    data = bounded.to_dict()
    assert len(json.dumps(data)) <= bound
    (folder,) = data["budget"]
    entries = whole["budget"][0]["entries"]
    assert folder["skills"] == 4 and folder["entries"] == entries[: len(folder["entries"])]
    assert data["skills"] == whole["skills"][: len(data["skills"])]
    [warning] = bounded.warnings
    assert len(folder["entries"]) < 4 and len(data["skills"]) < 4
    assert (
        f" of 4 skills and {len(folder['entries'])} of 4 entries of the claude budget of {claude}"
        in warning.text
    )
    assert "run `skc list --budget --format json` for all of it" in warning.text


def test_the_operation_adds_the_budget_only_when_asked(layout: Layout, claude: Path) -> None:
    session = Session(layout, AccessLog(lambda _: None))
    assert "budget" not in LIST.run(session, ListParams()).to_dict()
    data = LIST.run(session, ListParams(scope="project", budget=True)).to_dict()
    (folder,) = data["budget"]
    assert {k: folder[k] for k in ("agent", "scope", "skills", "tokens", "budget_tokens")} == {
        "agent": "claude",
        "scope": "project",
        "skills": 4,
        "tokens": 135,
        "budget_tokens": 2000,
    }
    assert folder["entries"][0] == {
        "name": "alpha",
        "folder": "alpha",
        "kind": "folder",
        "tokens": 28,
        "listed": "full",
        "path": str(claude / "alpha"),
    }
    assert LIST.run(session, ListParams(scope="global", budget=True)).to_dict()["budget"] == []


def list_budget(cli: Callable[..., Run], *args: str) -> subprocess.CompletedProcess[str]:
    return cli("skillc_index")("list", "--budget", *args)


def test_cli_json_with_a_configured_budget(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    small_budget(layout)
    result = list_budget(cli, "--format", "json")
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    assert set(data) == {"skills", "total", "filtered", "budget"}
    (folder,) = data["budget"]
    assert folder["path"] == str(claude)
    assert (folder["tokens"], folder["budget_tokens"], folder["over_budget"]) == (135, 100, True)
    assert folder["dropped"] == ["kappa"]
    assert folder["not_listed"] == 0


def test_the_entries_tokens_add_up_to_the_folders(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    """Each of the four entries alone is 28, 28, 28 and 53 tokens (rounded up): 137, while
    the listing's 539 characters are 135 tokens. The entries show their shares of the 135."""
    for number in range(40):  # and many small ones: 40 x 9 characters, 90 tokens (not 120)
        agent_skill(claude, f"s{number:02}", "x")
    result = list_budget(cli, "--format", "json")
    assert result.returncode == 0, result.stderr
    (folder,) = json.loads(result.stdout)["budget"]
    tokens = {entry["name"]: entry["tokens"] for entry in folder["entries"]}
    assert folder["tokens"] == 135 + 90 == sum(tokens.values())
    assert [tokens[name] for name in ("alpha", "beta", "gamma", "kappa")] == [28, 27, 28, 52]
    assert {tokens[f"s{number:02}"] for number in range(40)} == {2, 3}  # 9 / 4 = 2.25


def test_cli_text_is_a_table_per_agent(
    cli: Callable[..., Run], layout: Layout, claude: Path, home: Path
) -> None:
    small_budget(layout, home=True)
    agent_skill(home / ".claude" / "skills", "mine", "Home skill.")
    result = list_budget(cli)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # one listing of both folders, one budget
    assert lines[0] == "claude, 2 folders: 5 skills, ~140 tokens of 100 (140%)"
    assert lines[1] == "  (project) .claude/skills: 4 skills, ~135 tokens"
    assert lines[2] == "  (global) ~/.claude/skills: 1 skill, ~5 tokens"
    assert lines[3].split() == ["SKILL", "TOKENS", "KIND", "LISTED"]
    assert lines[4].split() == ["alpha", "28", "folder", "full"]
    assert lines[5].split() == ["beta", "27", "folder", "full"]  # 109 characters after 110
    assert lines[7].split() == ["kappa", "52", "folder", "name", "only"]
    # after kappa, which does not fit, no description is kept: the home's one is dropped too
    assert lines[8].split() == ["mine", "5", "folder", "name", "only"]
    assert lines[9] == "2 descriptions dropped, the first dropped first: mine, kappa"
    # suggestions, none applied: the longest descriptions, route, Claude Code's settings, each
    # command as this script spells it (skc's for eval, which skillc-index has not)
    assert (
        lines[10].startswith("suggestion: shorten the longest descriptions")
        and "kappa (200" in lines[10]
        and "(skc eval's mutation check" in lines[10]
    )
    # each folder's own route (a bare "route install" routes the project's .claude/skills)
    routes = "skillc-index route install -t claude; skillc-index route install -t claude --global"
    assert lines[11].endswith(f": {routes}") and "skillOverrides" in lines[12]
    assert "(skillc-index list --budget --apply overrides sets name-only" in lines[12]
    home_only = list_budget(cli, "--scope", "global").stdout.splitlines()
    assert home_only[0] == "claude (global) ~/.claude/skills: 1 skill, ~5 tokens of 100 (5%)"


def test_cli_text_rows_follow_pattern_and_limit(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    """--pattern and --limit choose the rows; the heading still prices the whole folder."""
    small_budget(layout)
    lines = list_budget(cli, "--pattern", "[bgk]*", "--limit", "2").stdout.splitlines()
    assert lines[0] == "claude (project) .claude/skills: 4 skills, ~135 tokens of 100 (135%)"
    assert [line.split()[0] for line in lines[2:4]] == ["beta", "gamma"]
    assert lines[4:6] == ["... (2 more)", "1 description dropped, the first dropped first: kappa"]


def test_cli_without_agent_folders(cli: Callable[..., Run], layout: Layout) -> None:
    result = list_budget(cli)
    assert (result.returncode, result.stdout) == (0, "No agent skills folders found.\n")


def test_an_invalid_budget_is_warned_and_the_default_used(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    assert layout.project_config is not None
    layout.project_config.write_text("[budget]\npercent = 0\ncontext_tokens = true\n")
    result = list_budget(cli, "--format", "json")
    assert result.returncode == 0
    assert json.loads(result.stdout)["budget"][0]["budget_tokens"] == 2000
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert any("'budget.percent' (expected a number above 0, at most 100)" in w for w in warnings)
    assert any("'budget.context_tokens'" in w for w in warnings)


def test_what_cannot_be_read_is_skipped_counted_and_warned(
    cli: Callable[..., Run], layout: Layout, claude: Path
) -> None:
    """Real files any user (root included) cannot read as a SKILL.md: a FIFO (never opened:
    it would block), a broken symlink, a symlink loop."""
    (claude / "fifo").mkdir()
    os.mkfifo(claude / "fifo" / "SKILL.md")
    (claude / "broken").mkdir()
    (claude / "broken" / "SKILL.md").symlink_to("nowhere.md")
    (claude / "loop").mkdir()
    (claude / "loop" / "SKILL.md").symlink_to("SKILL.md")
    run = cli("skillc_index", process=True)  # a real process: a FIFO read would hang it
    result = run("list", "--budget", "--format", "json")
    assert result.returncode == 0, result.stderr
    (folder,) = json.loads(result.stdout)["budget"]
    assert [entry["name"] for entry in folder["entries"]] == ["alpha", "beta", "gamma", "kappa"]
    assert (folder["skills"], folder["tokens"], folder["error"]) == (4, 135, None)
    assert [(e["folder"], e["reason"]) for e in folder["unreadable"]] == [
        ("broken", "SKILL.md is a broken symlink"),
        ("fifo", "SKILL.md is a FIFO"),
        ("loop", "Too many levels of symbolic links"),
    ]
    assert result.stderr == (
        f"warning: 3 entries of {claude} skipped, cannot be read: broken (SKILL.md is a "
        "broken symlink), fifo (SKILL.md is a FIFO), loop (Too many levels of symbolic links)\n"
    )
    text = run("list", "--budget")
    assert text.returncode == 0 and text.stderr == result.stderr
    assert (
        text.stdout.splitlines()[0]
        == "claude (project) .claude/skills: 4 skills, ~135 tokens of 2,000 (6%)"
    )


def test_unreadable_skills_and_agent_folders_never_fail_the_listing(
    cli: Callable[..., Run],
    layout: Layout,
    claude: Path,
    home: Path,
    unreadable: Callable[[Path], None],
) -> None:
    """No permission on a skill folder, on a SKILL.md, on an agent folder, on the folder
    above one (``~/.claude``): skipped, counted and warned; never E999."""
    agent_skill(home / ".claude" / "skills", "mine", "Home skill.")
    agent_skill(home / ".cursor" / "skills", "theirs", "Cursor skill.")
    unreadable(claude / "alpha")
    unreadable(claude / "beta" / "SKILL.md")
    unreadable(home / ".claude")
    unreadable(home / ".cursor" / "skills")
    result = list_budget(cli, "--format", "json")
    assert result.returncode == 0, result.stderr
    budget = json.loads(result.stdout)["budget"]
    folders = {part["path"]: part for f in budget for part in f["folders"]}
    (listing, _) = budget
    project = {**folders[str(claude)], "entries": listing["entries"]}
    assert [entry["name"] for entry in project["entries"]] == ["gamma", "kappa"]
    assert project["unreadable"] == [
        {"folder": "alpha", "reason": "Permission denied"},
        {"folder": "beta", "reason": "Permission denied"},
    ]
    for path in (home / ".claude" / "skills", home / ".cursor" / "skills"):
        assert folders[str(path)]["error"] == "Permission denied"
        assert folders[str(path)]["skills"] == 0
    warnings = result.stderr.splitlines()
    assert warnings == [
        f"warning: 2 entries of {claude} skipped, cannot be read: alpha (Permission denied), "
        "beta (Permission denied)",
        f"warning: agent folder {home / '.claude' / 'skills'} cannot be listed (Permission "
        "denied): its skills are not counted",
        f"warning: agent folder {home / '.cursor' / 'skills'} cannot be listed (Permission "
        "denied): its skills are not counted",
    ]
    text = list_budget(cli)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == "claude, 2 folders: 2 skills, ~80 tokens of 2,000 (4%)"
    assert "  (global) ~/.claude/skills: cannot be listed (Permission denied)" in lines
    assert "cursor (global) ~/.cursor/skills: cannot be listed (Permission denied)" in lines
    assert text.stderr == result.stderr


def test_the_listing_ranks_an_imported_skill_by_the_uses_stats_all_counts(
    layout: Layout, project: Path, home: Path, write_skill: WriteSkill
) -> None:
    """``.github/skills/potter`` built ``--global`` is imported into the global store: one
    skill, whose uses are those of the store copy and those logged under the folder before the
    import, in the project's log (``stats --all`` counts the three). The listing's ranking
    read the store copy's own log only (two uses): a skill as used as another ranked lower."""
    from skillc_index import resolve_skill
    from skillc_index.accesslog import AccessRecord, insert, primary_log
    from skillc_index.inventory.entries import installed_skills
    from skillc_index.listing.usage import recorded_priorities

    def used(folder: Path, *days: str) -> None:
        rows = [  # long ago: each use weighs 0.1 (Claude Code's floor), whatever today is
            AccessRecord(
                "show", folder.name, str(folder), "/w", timestamp=f"2020-01-{day}T10:00:00Z"
            )
            for day in days
        ]
        insert(primary_log(resolve_skill(str(folder), layout).runtime), rows)

    folder = write_skill(project / ".github" / "skills" / "potter").resolve()
    used(folder, "01")  # before the import: the project's log
    build_skill(str(folder), layout, targets=[], force_global=True)
    copy = (home / ".skillc" / "skills" / "potter").resolve()
    assert resolve_skill(str(folder), layout, force_global=True).source == copy
    used(copy, "02", "03")
    other = write_skill(home / ".skillc" / "skills" / "other").resolve()
    used(other, "01", "02", "03")
    priorities = recorded_priorities(installed_skills(layout).skills, layout)
    assert priorities[str(copy)] == pytest.approx(0.3) == priorities[str(other)]
    assert priorities[str(folder)] == priorities[str(copy)]  # the folder is one of its places


def test_the_budget_ranks_the_skills_the_listing_found(
    layout: Layout, project: Path, count_calls: Callable[[object, str], list[Any]]
) -> None:
    """``list --budget`` ranks by use the skills its listing found: the inventory (every
    agent folder, plugin and store) is walked once, not a second time for the ranking. The
    used skill keeps its description over budget, the one listed before it is cut."""
    from skillc_index.accesslog import AccessRecord, insert, primary_log
    from skillc_index.inventory import entries

    folder = project / ".claude" / "skills"
    agent_skill(folder, "alpha", "a" * 250)
    zeta = agent_skill(folder, "zeta", "z" * 250)
    runtime = layout.runtime_store("project") / "zeta"
    insert(primary_log(runtime), [AccessRecord("show", "zeta", str(zeta), "/w")])
    small_budget(layout)
    walks = count_calls(entries, "installed_skills")
    session = Session(layout, AccessLog(lambda _: None))
    (budget,) = LIST.run(session, ListParams(budget=True)).to_dict()["budget"]
    listed = {entry["name"]: entry["listed"] for entry in budget["entries"]}
    assert listed == {"alpha": "name-only", "zeta": "full"}
    assert len(walks) == 1


def test_the_access_logs_are_read_only_when_a_folder_is_priced(
    layout: Layout, project: Path, count_calls: Callable[[object, str], list[Any]]
) -> None:
    """``list --budget`` with no agent folder to price opens no access log (the ranking by use
    is read only for a listing it prices)."""
    from skillc_index.listing import usage

    reads = count_calls(usage, "recorded_priorities")
    session = Session(layout, AccessLog(lambda _: None))
    assert LIST.run(session, ListParams(budget=True)).to_dict()["budget"] == []
    assert reads == []
    agent_skill(project / ".claude" / "skills", "alpha", "a" * 50)
    assert len(LIST.run(session, ListParams(budget=True)).to_dict()["budget"]) == 1
    assert len(reads) == 1


def test_read_entry_is_the_one_reader_of_a_listing_entry(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    """``read_entry`` is public (``skc eval`` reads its library with it): a skill the agent
    does not list is an ``omitted`` entry that keeps its name and the line of its
    description (it was ``True``, which eval could not use), no skill is None, and a SKILL.md
    that cannot be read is ``CannotRead``."""
    from skillc_index.listing import budget
    from skillc_index.listing.budget import CannotRead, read_entry

    assert {"read_entry", "CannotRead"} <= set(budget.__all__)
    hidden = write_skill(
        tmp_path / "hidden",
        frontmatter="name: Hidden  One\ndisable-model-invocation: true\ndescription: d\n",
    )
    entry = read_entry(hidden, "claude")
    assert entry is not None
    assert (entry.name, entry.omitted, entry.line, entry.description) == ("Hidden One", True, 4, "")
    shown = read_entry(write_skill(tmp_path / "shown", description="Parses logs."), "claude")
    assert shown is not None and (shown.omitted, shown.line, shown.description) == (
        False,
        3,
        "Parses logs.",
    )
    (tmp_path / "none").mkdir()
    assert read_entry(tmp_path / "none", "claude") is None
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "SKILL.md")
    with pytest.raises(CannotRead, match=r"SKILL\.md is"):
        read_entry(tmp_path / "fifo", "claude")


def test_cli_text_names_some_dropped_skills_and_counts_the_rest(
    cli: Callable[..., Run], layout: Layout, project: Path
) -> None:
    """1,000 dropped descriptions were named on one line of 19,051 characters, under the
    table that has each skill's LISTED state: at most 20 names, then ``and N more``."""
    for i in range(30):
        agent_skill(project / ".claude" / "skills", f"s{i:02d}", "d" * 100)
    small_budget(layout)
    result = list_budget(cli)
    [line] = [line for line in result.stdout.splitlines() if "dropped" in line]
    shown = ", ".join(f"s{i:02d}" for i in range(29, 9, -1))
    assert line == f"28 descriptions dropped, the first dropped first: {shown} and 8 more"
    names = json.loads(list_budget(cli, "--format", "json").stdout)["budget"][0]["dropped"]
    assert len(names) == 28  # (the JSON has them all; two descriptions fit)
