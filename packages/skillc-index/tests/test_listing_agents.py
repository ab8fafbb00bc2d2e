"""How Claude Code and Codex list skills within their budget (issue 38)."""

from __future__ import annotations

from skillc_index.listing.agents import (
    CODEX_MIN_DESCRIPTION,
    ListingItem,
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


def test_codex_shortens_then_omits() -> None:
    items = [ListingItem(name, "w " * 200) for name in ("a", "b", "c")]
    full = sum(len(f"- {item.name}: {item.description}\n") for item in items)
    shown = fit_listing("codex", items, full - 300)
    assert {view.state for view in shown} == {"shortened"}
    assert sum(view.chars for view in shown) <= full - 300
    tiny = 2 * len(f"- a: {'w ' * (CODEX_MIN_DESCRIPTION // 2)}\n")
    shown = fit_listing("codex", items, tiny)
    assert [view.state for view in shown] == ["shortened", "shortened", "omitted"]
