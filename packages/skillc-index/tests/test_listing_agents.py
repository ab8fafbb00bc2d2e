"""How Claude Code and Codex list skills within their budget (issue 38)."""

from __future__ import annotations

from skillc_index.listing.agents import (
    CODEX_MIN_DESCRIPTION,
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


def test_codex_shortens_then_omits() -> None:
    items = [ListingItem(name, "w " * 200, path=f"/p/{name}/SKILL.md") for name in "abc"]
    full = sum(entry_chars("codex", item.name, item.description, item.path) for item in items)
    shown = fit_listing("codex", items, full - 300)
    assert {view.state for view in shown} == {"shortened"}
    cut = "w " * (CODEX_MIN_DESCRIPTION // 2)
    tiny = 2 * entry_chars("codex", "a", cut, "/p/a/SKILL.md")
    shown = fit_listing("codex", items, tiny)
    assert [view.state for view in shown] == ["shortened", "shortened", "omitted"]
