"""How Claude Code and Codex list skills within their budget (issue 38)."""

from __future__ import annotations

from skillc_index.listing.agents import (
    ListingItem,
    entry_chars,
    entry_description,
    fit_listing,
    listing_budget,
    usage_priority,
)


def test_entry_text_per_agent() -> None:
    data = {"description": "Fill  PDF forms.", "when_to_use": "When a PDF has fields."}
    assert entry_description("claude", data) == "Fill PDF forms. When a PDF has fields."
    assert entry_description("codex", data) == "Fill PDF forms."
    assert entry_description("claude", {"description": "x" * 2000}) == "x" * 1536
    assert entry_description("codex", {"description": "x" * 1025}) is None  # refused
    assert entry_description("claude", {"disable-model-invocation": True}) is None


def test_budgets() -> None:
    assert listing_budget("claude", 200_000, 1.0) == 8000
    assert listing_budget("codex", 200_000, 1.0) == 16000
    assert listing_budget("codex", None, 1.0) == 8000


def test_claude_drops_the_least_used_descriptions_first() -> None:
    items = [
        ListingItem("a", "d" * 100, usage_priority(0, None)),
        ListingItem("b", "d" * 100, usage_priority(5, 1.0)),
        ListingItem("c", "d" * 100, usage_priority(1, 30.0)),
    ]
    names = sum(len(f"- {item.name}\n") for item in items)
    extra = len("- a: " + "d" * 100 + "\n") - len("- a\n")
    shown = fit_listing("claude", items, names + 2 * extra)
    assert [view.state for view in shown] == ["name-only", "full", "full"]
    shown = fit_listing("claude", items, names + extra)
    assert [view.state for view in shown] == ["name-only", "full", "name-only"]
    assert fit_listing("claude", items, 10_000)[0].state == "full"


def test_codex_entry_carries_the_skill_file() -> None:
    # codex-rs/core-skills/src/render.rs: "- {name}: {description} (file: {path})", and
    # "- {name}: (file: {path})" without a description
    path = "/p/.agents/skills/a/SKILL.md"
    assert entry_chars("codex", "a", "Does x.", path) == len(f"- a: Does x. (file: {path})\n")
    assert entry_chars("codex", "a", "", path) == len(f"- a: (file: {path})\n")
    assert entry_chars("claude", "a", "Does x.") == len("- a: Does x.\n")


def _codex(items: list[ListingItem], room: int) -> list[tuple[str, str]]:
    """What Codex shows of ``items`` with ``room`` characters over their bare entries."""
    bare = sum(entry_chars("codex", item.name, "", item.path) for item in items)
    return [(view.description, view.state) for view in fit_listing("codex", items, bare + room)]


def test_codex_shares_the_room_one_character_at_a_time() -> None:
    # render.rs's own cases: two descriptions cut evenly; a short one's unused share goes
    # to the longer (in name order); each description costs its characters and a space
    alpha = ListingItem("alpha-skill", "abcdef", path="/t/alpha/SKILL.md")
    beta = ListingItem("beta-skill", "uvwxyz", path="/t/beta/SKILL.md")
    assert _codex([beta, alpha], 6) == [("uv", "shortened"), ("ab", "shortened")]
    short = ListingItem("short-skill", "x", path="/t/short/SKILL.md")
    long = ListingItem("long-skill", "abcdefghi", path="/t/long/SKILL.md")
    assert _codex([short, long], 11) == [("x", "full"), ("abcdefgh", "shortened")]
    # down to no description at all before any skill is left out
    assert _codex([beta, alpha], 1) == [("", "name-only"), ("", "name-only")]
    # 3: alpha takes "a" (and its space), then the 1 left buys its "b", not beta's first
    assert _codex([beta, alpha], 3) == [("", "name-only"), ("ab", "shortened")]


def test_codex_omits_by_scope_then_name_whatever_the_usage() -> None:
    used = ListingItem("a-used", "d", 9.0, "/h/a-used/SKILL.md", "global")
    repo = [ListingItem(name, "d", 0.0, f"/p/{name}/SKILL.md") for name in ("z", "y")]
    items = [used, *repo]
    two = sum(entry_chars("codex", item.name, "", item.path) for item in repo)
    shown = fit_listing("codex", items, two)
    assert [view.state for view in shown] == ["omitted", "name-only", "name-only"]
    # it keeps scanning: a later entry that still fits is listed
    shown = fit_listing("codex", items, two - 1)
    assert [view.state for view in shown] == ["omitted", "omitted", "name-only"]
