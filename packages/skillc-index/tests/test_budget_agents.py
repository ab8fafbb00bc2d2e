"""``list --budget`` per agent (issue 38): the ``.agents/skills`` folder priced as Codex lists
it (descriptions shortened, then skills omitted), with suggestions and nothing applied."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout, load_config
from skillc_index.listing.budget import listing_budgets

Run = Callable[..., subprocess.CompletedProcess[str]]


def _skill(folder: Path, name: str, description: str) -> None:
    (folder / name).mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: {json.dumps(description)}\n---\n\n# {name}\n"
    (folder / name / "SKILL.md").write_text(text, encoding="utf-8")


def _budget(layout: Layout, context: int, *, home: bool = False) -> None:
    """``home``: in the global config (a listing holding a home folder takes no project's)."""
    config = layout.global_config if home else layout.project_config
    assert config is not None
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f"[budget]\ncontext_tokens = {context}\n", encoding="utf-8")


def _codex_budget(layout: Layout, chars: int, *, home: bool = False) -> None:
    """A window of which Codex's 2% is ``chars`` characters (x 4 characters a token)."""
    _budget(layout, -(-chars * 25 // 2), home=home)


def _bare(folder: Path, *names: str) -> int:
    """The characters of Codex's entries of ``names`` without their descriptions."""
    return sum(len(f"- {n}: (file: {(folder / n).resolve()}/SKILL.md)\n") for n in names)


def test_codex_shortens_then_omits(layout: Layout, project: Path, cli: Callable[..., Run]) -> None:
    agents = project / ".agents" / "skills"
    for name in ("alpha", "beta", "gamma"):
        _skill(agents, name, f"{name} " * 60)  # 360 characters each
    _skill(agents, "huge", "h" * 1025)  # refused by Codex: not listed
    bare = _bare(agents, "alpha", "beta", "gamma")
    _codex_budget(layout, bare + 3 * 11)  # 10 characters of each description, and a space
    (folder,) = listing_budgets(layout, load_config(layout, env={}))
    assert (folder.agent, folder.model, folder.not_listed) == ("agents", "codex", 1)
    assert [folder.state(i) for i in range(3)] == ["shortened"] * 3
    _codex_budget(layout, bare - 1)  # not even every name: the last omitted
    (folder,) = listing_budgets(layout, load_config(layout, env={}))
    assert folder.named("omitted") == ("gamma",)
    assert folder.dropped == ("gamma", "beta", "alpha")
    done = cli("skillc_index")("list", "--budget", "--format", "json")
    (budget,) = json.loads(done.stdout)["budget"]
    assert (budget["model"], budget["omitted"], budget["name_only"], budget["shortened"]) == (
        "codex",
        ["gamma"],
        ["beta", "alpha"],
        [],
    )
    assert any("not by use" in line for line in budget["suggestions"])
    text = cli("skillc_index")("list", "--budget").stdout.splitlines()
    assert text[0].endswith(", as Codex lists it")
    assert "1 skill not listed at all: gamma" in text
    assert "2 descriptions dropped, the first dropped first: beta, alpha" in text


def test_codex_prices_the_skill_file_each_entry_shows(layout: Layout, project: Path) -> None:
    # within budget as "- name: description", over it with Codex's "(file: /abs/SKILL.md)"
    agents = project / ".agents" / "skills"
    description = "Reads the inputs and writes a short report for the team." * 5
    for name in ("alpha", "beta"):
        _skill(agents, name, description)
    _codex_budget(layout, sum(len(f"- {n}: {description}\n") for n in ("alpha", "beta")))
    (folder,) = listing_budgets(layout, load_config(layout, env={}))
    assert folder.over
    assert [folder.state(i) for i in range(2)] == ["shortened", "shortened"]
    assert folder.entries[0].name_chars == _bare(agents, "alpha")


def test_codex_resolves_each_entry_s_skill_file_once(
    layout: Layout, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SKILL.md path a Codex entry shows is resolved once, by the folder's reader (which
    counts each real SKILL.md once), and is what the listing fits and shows."""
    import os

    agents = project / ".agents" / "skills"
    for name in ("alpha", "beta"):
        _skill(agents, name, f"About {name}.")
    asked: list[str] = []
    realpath = os.path.realpath

    def counted(path: str | Path, *args: object, **kwargs: object) -> str:
        if str(path).endswith("SKILL.md"):
            asked.append(str(path))
        return realpath(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os.path, "realpath", counted)
    (folder,) = listing_budgets(layout, load_config(layout, env={}))
    monkeypatch.undo()
    assert sorted(asked) == [str(agents / name / "SKILL.md") for name in ("alpha", "beta")]
    assert [entry.file for entry in folder.entries] == [
        str((agents / name / "SKILL.md").resolve()) for name in ("alpha", "beta")
    ]


def test_codex_omits_the_home_folders_skills_first_whatever_their_use(
    layout: Layout, project: Path
) -> None:
    agents = project / ".agents" / "skills"
    home = layout.home / ".agents" / "skills"
    for folder, name in ((agents, "zeta"), (agents, "omega"), (home, "alpha")):
        _skill(folder, name, "Does one thing well.")
    _codex_budget(layout, _bare(agents, "zeta", "omega"), home=True)  # the project's names
    used = {str(home / "alpha"): 50.0}  # used the most: Codex does not look
    (folder,) = listing_budgets(layout, load_config(layout, env={}), agent="codex", usage=used)
    states = {entry.name: folder.state(i) for i, entry in enumerate(folder.entries)}
    assert states == {"alpha": "omitted", "omega": "name-only", "zeta": "name-only"}


def test_an_unconfigured_window_is_each_agents_own_default(layout: Layout, project: Path) -> None:
    """No ``[budget] context_tokens``: Claude Code's window is 200,000 tokens (8,000
    characters at 1%), Codex's is unknown, 8,000 characters (it was priced as 2% of Claude
    Code's 200,000-token default: 16,000 characters); a configured window is both agents'."""
    _skill(project / ".agents" / "skills", "alpha", "For every agent.")
    _skill(project / ".claude" / "skills", "beta", "For Claude Code.")
    config = load_config(layout, env={})
    assert config.budget_context_tokens is None
    found = {f.model: f.budget_chars for f in listing_budgets(layout, config)}
    assert found == {"codex": 8000, "claude": 8000}
    _budget(layout, 1_000_000)
    found = {f.model: f.budget_chars for f in listing_budgets(layout, load_config(layout, env={}))}
    assert found == {"codex": 80_000, "claude": 40_000}


def test_codex_does_not_list_what_its_loader_rejects_or_openai_yaml_keeps_out(
    layout: Layout, project: Path
) -> None:
    """A skill ``skc build`` made user-only for Codex (``policy.allow_implicit_invocation:
    false`` in ``agents/openai.yaml``), one whose frontmatter is no YAML and one without a
    description are not in Codex's listing (they were counted, the broken one by its folder
    name); Claude Code lists the broken one by its folder name."""
    agents = project / ".agents" / "skills"
    _skill(agents, "listed", "Listed by Codex.")
    _skill(agents, "manual", "Deploys to production, when asked.")
    side = agents / "manual" / "agents" / "openai.yaml"
    side.parent.mkdir()
    side.write_text("policy:\n  allow_implicit_invocation: false\n", encoding="utf-8")
    for folder in (agents, project / ".claude" / "skills"):
        (folder / "broken").mkdir(parents=True)
        text = "---\nname: [broken\ndescription: : :\n---\nbody\n"
        (folder / "broken" / "SKILL.md").write_text(text, encoding="utf-8")
    (agents / "bare").mkdir()
    (agents / "bare" / "SKILL.md").write_text("---\nname: bare\n---\n# Bare\n", encoding="utf-8")
    found = {f.model: f for f in listing_budgets(layout, load_config(layout, env={}))}
    codex = found["codex"]
    assert ([e.name for e in codex.entries], codex.not_listed) == (["listed"], 3)
    assert [e.name for e in found["claude"].entries] == ["broken"]
