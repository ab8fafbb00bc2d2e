"""Library rules (SKL924): skills of one folder that an agent may mistake for each other.

An agent picks a skill from the listing's names and descriptions; two skills whose
descriptions say nearly the same thing split the requests meant for either, or the agent picks
the wrong one. The likeness is :mod:`skillc_index.listing.collisions`' (the one ``skc eval``
reports: the cosine of the stemmed words of the descriptions, names left out, each weighted
by its IDF over the folder's skills), over the listing entries the agent reads
(:func:`skillc_index.folder_budget`'s, Claude Code's text of each entry).
"""

from __future__ import annotations

from pathlib import Path

from skillc_index import Config, folder_budget
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import Findings, Options

__all__ = ["RULES"]


def colliding_descriptions(folder: Path, options: Options) -> Findings:
    """SKL924 (a folder rule): no two skills directly in the folder have descriptions at
    least ``near`` (0.6) alike; each of the two is named, with the phrases they share."""
    from skillc_index.listing.collisions import listing_terms, near_pairs, shared_phrases

    entries = folder_budget("claude", "project", folder, Config()).entries
    # the descriptions alone: two names' words made one description vendored under two
    # names 0.55 alike, below any threshold
    texts = [entry.description for entry in entries]
    for (a, b), similarity in sorted(near_pairs(listing_terms(texts), options["near"]).items()):
        phrases = shared_phrases(entries[a].description, entries[b].description, limit=3)
        shared = f" (shared: {'; '.join(phrases)})" if phrases else ""
        for this, other in ((entries[a], entries[b]), (entries[b], entries[a])):
            yield Finding(
                f"the description of {this.name} is {similarity:.0%} alike to {other.name}'s"
                f"{shared}: an agent may pick either for the same request",
                file=f"{this.folder}/SKILL.md",
            )


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL924",
        "colliding-descriptions",
        "warning",
        colliding_descriptions,
        "No two skills of a folder have near-duplicate descriptions.",
        options={"near": 0.6},
        category="agentskills",
        tags=("library",),
        scope="folder",
        rationale="An agent chooses a skill by its description alone; two skills that "
        "describe the same thing take each other's requests, and the agent picks the wrong "
        "one or either at random. `skc eval` shows which requests each takes.",
        fix="Say in each description what sets the skill apart (its inputs, its tools, when "
        "not to use it), or merge the two skills.",
    ),
)
