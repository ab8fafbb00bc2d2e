"""Budget rules (SKL921-SKL923): what a skill costs an agent's context.

Tokens are estimated as skillc_index estimates them for ``skc list --budget``
(:func:`skillc_index.estimate_tokens`): characters / 4, rounded up, the ratio Claude Code
itself uses for its skill listing budget. No tokenizer is loaded (nothing is downloaded). For
English prose the ratio is close (real tokenizers give 3.5 to 4.5 characters a token); code,
URLs, tables and non-Latin scripts take more tokens a character, so the estimate runs low on
them (by up to a half for CJK text): treat a count near a limit as at the limit.

SKILL.md's length in lines is SKL201's (500 lines, the same Agent Skills guidance).
"""

from __future__ import annotations

from pathlib import Path

from skillc_index import (
    CHARS_PER_TOKEN,
    MAX_ENTRY_DESCRIPTION,
    SKILL_FILE,
    Config,
    estimate_tokens,
    folder_budget,
)
from skillc_index.dialect import folded_text
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import Findings, Options, field_line, frontmatter
from skillc_lint._skill import Skill

__all__ = ["RULES"]


def skill_tokens(skill: Skill, options: Options) -> Findings:
    """SKL921: SKILL.md is at most ``max-tokens`` (5,000) estimated tokens, what an agent
    loads whole when the skill activates (one longer than the lint reads: from its size in
    bytes, its stat)."""
    tokens, limit = estimate_tokens(skill.size(SKILL_FILE)), options["max-tokens"]
    if tokens > limit:
        yield Finding(
            f"SKILL.md is about {tokens:,} tokens (at most {limit:,} recommended; estimated "
            f"at {CHARS_PER_TOKEN} characters a token): move detail into linked files"
        )


def description_listing(skill: Skill, options: Options) -> Findings:
    """SKL922: the listing entry's text (``description``, and ``when_to_use`` which Claude
    Code appends) fits in the ``max-chars`` (1,536) characters an agent's skill listing keeps
    of one skill; past that it is cut and the agent never sees the rest."""
    data = frontmatter(skill)
    when_to_use = folded_text(data.get("when_to_use"))
    text = " ".join(t for t in (folded_text(data.get("description")), when_to_use) if t)
    limit = options["max-chars"]
    if len(text) > limit:
        what = "description (with when_to_use)" if when_to_use else "description"
        yield Finding(
            f"{what} is {len(text):,} characters: the skill listing "
            f"keeps {limit:,}, the last {len(text) - limit:,} are never seen by the agent",
            line=field_line(skill, "description"),
        )


def folder_listing(folder: Path, options: Options) -> Findings:
    """SKL923 (a folder rule): the listing of the skills directly in a folder (one entry per
    skill: name and description, what an agent puts in its context every session) fits in
    the budget: ``percent`` (1) % of a ``context-tokens`` (200,000) window, Claude Code's
    default. Over it the agent drops descriptions, the last skills first."""
    config = Config(
        budget_context_tokens=options["context-tokens"], budget_percent=options["percent"]
    )
    budget = folder_budget("claude-code", "project", folder, config)
    if not budget.over:
        return
    dropped = budget.dropped
    shown = ", ".join(dropped[:5]) + (f" and {len(dropped) - 5} more" if len(dropped) > 5 else "")
    yield Finding(
        f"the listing of the {len(budget.entries)} skills here is about {budget.tokens:,} "
        f"tokens, over the {budget.budget_tokens:,}-token budget ({options['percent']:g}% of "
        f"{options['context-tokens']:,}): the agent lists "
        f"{len(dropped)} by name alone",
        file=".",
        detail=f" ({shown})",  # which ones changes with every skill added: no baseline key
    )


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL921",
        "skill-tokens",
        "warning",
        skill_tokens,
        "SKILL.md is at most 5,000 estimated tokens.",
        options={"max-tokens": 5000},
        category="agentskills",
        tags=("budget",),
        rationale="An agent loads the whole SKILL.md into its context when the skill "
        "activates; the Agent Skills guidance keeps it under 5,000 tokens (and 500 lines, "
        "SKL201) so that detail is loaded only when needed.",
        fix="Move reference material, long examples and tables into files under "
        "references/ and link them from SKILL.md.",
    ),
    Rule(
        "SKL922",
        "description-listing",
        "warning",
        description_listing,
        "description and when_to_use fit in the 1,536 characters a skill listing keeps.",
        options={"max-chars": MAX_ENTRY_DESCRIPTION},
        category="agentskills",
        tags=("budget",),
        rationale="Claude Code cuts each skill's listing entry (description, then "
        "when_to_use) at 1,536 characters; what is past the cut never reaches the agent, so "
        "the triggers written there never fire.",
        fix="Say what the skill does and when to use it first, in fewer words; move detail "
        "into the body.",
    ),
    Rule(
        "SKL923",
        "folder-listing-budget",
        "warning",
        folder_listing,
        "The listing of a folder's skills fits in the agent's listing budget.",
        options={"context-tokens": 200_000, "percent": 1.0},
        category="agentskills",
        tags=("budget",),
        scope="folder",
        rationale="An agent puts every skill's name and description in its context each "
        "session, within a budget (Claude Code: 1% of the context window, 2,000 tokens of a "
        "200,000-token window). Over it, descriptions are dropped and those skills can only "
        "be found by name.",
        fix="Shorten the longest descriptions, split the folder by audience, or mark "
        "skills used only on request with `disable-model-invocation: true` (they leave the "
        "listing). Raise `percent` or `context-tokens` if your agent's budget is larger.",
    ),
)
