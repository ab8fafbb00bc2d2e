"""Families of skills in ``skc find``'s answer: one vendor's pack, one template over vendors.

A library gathered from public collections holds families of near-copies: one vendor's pack
(``deepgram-rate-limits``, ``deepgram-webhooks-events``, ``deepgram-reference-architecture``
...) and one template filled in for many vendors (``apollo-performance-tuning``,
``speak-performance-tuning``; ``zoho-books-automation``, ``xero-automation`` ...). Their
members share most of their words, so a request about one of them lifts the whole family,
which then fills the top of the answer. Two skills of different names are of one family when
their names share the first word (the vendor) or every word after it (the template); for a
template, the first word is the member's *slot*, what tells it from its family.

:func:`spread` reorders the best :data:`DEPTH` skills of a ranking: a template's member whose
slot the request names gains :data:`SLOT` of the best score (the member of the named vendor
wins over the same template filled in for other vendors), and each skill keeps
:data:`DECAY` of its score for each member of one of its families ranked above it, so that
one family does not fill the top ten while its best member keeps its place; the skills past
them stay below them. It reads the names of those skills only (one query over at most
:data:`DEPTH` rows); nothing is stored. Chosen on held-out requests over libraries with
hundreds of such members. Over the words alone (no semantic step) only the named slot
applies: the decay lost on the confirming half there, the slot alone gained (the gateway
README, "Families").
"""

from __future__ import annotations

import re
import sqlite3

__all__ = ["DECAY", "DEPTH", "NAMES", "SLOT", "family_keys", "name_words", "spread"]

#: How many of the best skills are reordered.
DEPTH = 30
#: The share of its score a skill keeps for each member of its family ranked above it.
DECAY = 0.8
#: The part of the best score that a template's member gains when the request names its slot.
SLOT = 0.2
#: What :func:`spread` reads of the catalog's ``skills`` table (:mod:`.database`), its only
#: read outside the ranker's own tables: a ranking database that is no catalog (``skc
#: eval``'s listing in memory) makes this one and writes each skill's name in it.
NAMES = "CREATE TABLE IF NOT EXISTS skills (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"

_SPLIT = re.compile(r"[^a-z0-9]+")


def name_words(name: str) -> list[str]:
    """The words of a skill's name, lowercased (``zoho_invoice-automation``: zoho, invoice,
    automation)."""
    return [word for word in _SPLIT.split(name.lower()) if word]


def family_keys(name: str) -> tuple[tuple[str, str], ...]:
    """The families a skill's name belongs to: its first word (a vendor's pack) and the rest
    of its words (a template); none for a one-word name."""
    words = name_words(name)
    if len(words) < 2:
        return ()
    return (("vendor", words[0]), ("template", " ".join(words[1:])))


def spread(
    db: sqlite3.Connection, words: list[str], ranked: list[tuple[int, float]], decay: bool = True
) -> list[tuple[int, float]]:
    """``ranked`` (best first) with its best :data:`DEPTH` skills rescored by their families
    (the module's doc), best first. ``words``: the request's words (:func:`.rank.query_terms`);
    without ``decay``, only the named slot gains (the ranking by the words alone)."""
    head = ranked[:DEPTH]
    if len(head) < 2:
        return ranked
    ids = [skill for skill, _ in head]
    names: dict[int, str] = dict(
        db.execute(f"SELECT id, name FROM skills WHERE id IN ({','.join('?' * len(ids))})", ids)
    )
    keys = {skill: family_keys(names.get(skill, "")) for skill in ids}
    members: dict[tuple[str, str], set[str]] = {}  # a family's different names
    for skill, found in keys.items():
        for key in found:
            members.setdefault(key, set()).add(names.get(skill, "").lower())
    score = dict(head)
    best = head[0][1] if head[0][1] > 0 else 1.0
    wanted = set(words)
    for skill in ids:
        # copies of one skill (one name in two collections) are no template
        template = [key for key in keys[skill] if key[0] == "template" and len(members[key]) > 1]
        if template and name_words(names.get(skill, ""))[0] in wanted:
            score[skill] += SLOT * best
    if not decay:
        return sorted(
            [(skill, score[skill]) for skill in ids] + ranked[DEPTH:], key=lambda item: -item[1]
        )
    # each in turn, the best after its families' members above it (copies of one skill
    # too: a copy adds nothing to the answer); a skill's score only falls as members are
    # placed, so the scores come out best first
    numbers: dict[tuple[str, str], int] = {}
    families = [[numbers.setdefault(key, len(numbers)) for key in keys[skill]] for skill in ids]
    placed = [0] * len(numbers)
    scores = [score[skill] for skill in ids]
    left = list(range(len(ids)))
    order: list[tuple[int, float]] = []
    while left:
        chosen, value = left[0], float("-inf")
        for index in left:
            above = max([placed[family] for family in families[index]], default=0)
            current = scores[index] * DECAY**above if above else scores[index]
            if current > value:
                chosen, value = index, current
        left.remove(chosen)
        order.append((ids[chosen], value))
        for family in families[chosen]:
            placed[family] += 1
    # the rest stays below the reordered best: undecayed, it would rise above them (a family
    # larger than DEPTH, a vendor's pack of hundreds, filled the top ten from its 31st member
    # on), scaled down to keep its order and its scores below
    rest = ranked[DEPTH:]
    lowest = order[-1][1]
    if rest and rest[0][1] > lowest:
        rest = [(skill, value * lowest / rest[0][1]) for skill, value in rest]
    return order + rest
