"""Collisions between skills, and the mutation check of a description.

- **Near-duplicate descriptions**: the cosine of two skills' listed descriptions, their
  names left out (two skills vendored under other names are the same text: 1.00), words
  stemmed as the ranker stems them, each weighted by its IDF over the library
  (:mod:`skillc_index.listing.collisions`, which skillc-lint's SKL924 uses too). At
  :data:`NEAR` or more the two are reported whether or not they have cases.
- **Taken cases**: a should-trigger case of one skill that another ranks above (or level
  with) it; two skills that take each other's cases collide both ways.
- **Overlapping phrases**: the runs of words the two listed descriptions share (at least two
  words that are not stop words), longest first.
- **Mutation check**: a description's phrases (:func:`trigger_phrases`: its quoted phrases,
  then its clauses between punctuation, a dot inside a word no end of one; a URL, an e-mail
  address or a path is none) are
  removed one at a time and the skill's cases run again; a phrase whose removal makes a case
  fail is *needed*, one whose removal changes no case's place is *untested* (no case depends
  on that wording), one whose removal only moves the skill down for should-trigger cases is
  *helps*, one whose removal fixes a failing case, or moves the skill down for a
  should-not-trigger case (the phrase draws a near miss toward the skill), *hurts*.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    from skillc_gateway.evaluate.library import Library
    from skillc_gateway.shapes import CollisionShape, PhraseShape

__all__ = [
    "MAX_MUTATION_RANKS",
    "NEAR",
    "Collision",
    "PhraseCheck",
    "collisions",
    "mutations",
    "trigger_phrases",
]

#: Descriptions this similar (weighted cosine) are near-duplicates.
NEAR = 0.5  # skillc_index.listing.collisions.NEAR
#: At most this many phrases of a description are checked.
MAX_PHRASES = 32
#: A run's mutation checks rank at most this many requests: one skill's largest check (its
#: 1,000 cases, ``cases.MAX_CASES``, with the description whole and without each of
#: :data:`MAX_PHRASES` phrases), so a skill named alone is always checked.
MAX_MUTATION_RANKS = 33_000

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")
#: A quoted phrase: a quotation mark not inside a word (the apostrophe of "Anthropic's", "I'm",
#: "don't" is none), 3 to 120 characters, an apostrophe inside a word among them ("I'm stuck").
_QUOTED = re.compile(r"(?<!\w)[\"“‘']((?:[^\"“”‘’']|(?<=\w)['’](?=\w)){3,120})[\"”’'](?!\w)")
#: What no user types as a request: a URL, an e-mail address, a path from ``/``, ``~/``,
#: ``./`` or ``../`` (each a separator of clauses, not three clauses split at its ``:`` and
#: ``.``; a quoted one is no phrase).
_LINK = (
    r"(?:[A-Za-z][\w+.-]*://|www\.)\S+"
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|(?<![\w~./-])(?:~|\.{1,2})?/\S+"
)
#: A clause ends at a dot that ends a sentence (before white space, other punctuation or the
#: end), never one inside a word: ``Node.js``, ``v1.2``, ``SKILL.md`` are one word each.
_CLAUSE = re.compile(_LINK + r"|(?:[;:!?()\[\]{}\"“”]|\.(?!\w))+|,\s+|\s[-–—]+\s|\s/\s|\n")
_ONLY_LINK = re.compile(_LINK)

Effect = Literal["needed", "helps", "hurts", "untested"]


def _content(words: Sequence[str]) -> int:
    from skillc_gateway.catalog.rank import STOPWORDS

    return sum(1 for word in words if len(word) > 1 and word.lower() not in STOPWORDS)


def trigger_phrases(description: str) -> list[str]:
    """The phrases of ``description`` that may make an agent pick the skill: the quoted ones
    first, then the clauses between punctuation, each holding a word that is not a stop
    word, each once, at most :data:`MAX_PHRASES`. A URL, an e-mail address or a path is no
    phrase (:data:`_LINK`): it separates clauses."""
    found: list[str] = []
    quoted = [m.group(1).strip() for m in _QUOTED.finditer(description)]
    quoted = [phrase for phrase in quoted if not _ONLY_LINK.fullmatch(phrase)]
    for phrase in quoted + _CLAUSE.split(description):
        phrase = phrase.strip(" ,'’‘-")
        if phrase and phrase not in found and _content(_WORD.findall(phrase)):
            found.append(phrase)
    return found[:MAX_PHRASES]


def without(description: str, phrase: str) -> str:
    """``description`` without ``phrase`` where it stands: its first occurrence that is no
    part of a longer word (:data:`_WORD`: "read" is not removed from "spreadsheets", nor
    from "read-only"); ``description`` as it is when it holds none."""
    before = r"(?<!\w)(?<!\w[-'’])" if re.match(r"\w", phrase) else ""
    after = r"(?!\w)(?![-'’]\w)" if re.search(r"\w$", phrase) else ""
    found = re.search(before + re.escape(phrase) + after, description)
    if found is None:
        return description
    return " ".join((description[: found.start()] + " " + description[found.end() :]).split())


def _phrases(first: str, second: str) -> list[str]:
    from skillc_gateway.catalog.rank import STOPWORDS
    from skillc_index.listing.collisions import shared_phrases

    return shared_phrases(first, second, stopwords=STOPWORDS)


class Collision(NamedTuple):
    """Two skills an agent may mistake for each other."""

    first: str
    second: str
    first_lost: int
    """Should-trigger cases of ``first`` that ``second`` ranks above it (or level)."""
    second_lost: int
    similarity: float
    phrases: tuple[str, ...]
    first_line: tuple[str, int]
    """``first``'s ``SKILL.md`` and its description line."""
    second_line: tuple[str, int]

    @property
    def mutual(self) -> bool:
        """The two take each other's cases."""
        return self.first_lost > 0 and self.second_lost > 0

    @property
    def severity(self) -> tuple[int, int, float]:
        """The worst first: mutual, then cases taken, then alike."""
        return (int(self.mutual), self.first_lost + self.second_lost, self.similarity)

    def to_dict(self) -> CollisionShape:
        return {
            "skills": [self.first, self.second],
            "cases_taken": [self.second_lost, self.first_lost],
            "mutual": self.mutual,
            "similarity": self.similarity,
            "phrases": list(self.phrases),
            "skill_files": [self.first_line[0], self.second_line[0]],
        }


def collisions(
    library: Library,
    taken: dict[tuple[int, int], int],
    skills: Sequence[int],
    near: float = NEAR,
) -> list[Collision]:
    """The collisions among ``skills``: each pair alike at ``near`` or more, or that took
    each other's cases (``taken[(loser, taker)]``: how many), worst first. A case one
    skill took from another that took none back is that case's miss, not a collision."""
    from skillc_index.listing.collisions import listing_terms, near_pairs

    ids = list(skills)
    # the descriptions alone: the names' words (which the ranker indexes too) made two
    # skills of one description under other names 0.55 alike, no collision
    shown = [library.entries[skill] for skill in ids]
    terms = listing_terms([entry.shown if entry.triggerable else "" for entry in shown])
    alike = {(ids[a], ids[b]): cosine for (a, b), cosine in near_pairs(terms, near).items()}
    pairs = set(alike) | {(a, b) for a, b in taken if a < b and (b, a) in taken}
    found: list[Collision] = []
    for a, b in pairs:
        first, second = library.entries[a], library.entries[b]
        similarity = alike.get((a, b))
        if similarity is None:  # cases taken both ways: how alike, whatever it is
            similarity = near_pairs([terms[ids.index(a)], terms[ids.index(b)]], 0.0).get(
                (0, 1), 0.0
            )
        found.append(
            Collision(
                first.name,
                second.name,
                taken.get((a, b), 0),
                taken.get((b, a), 0),
                similarity,
                tuple(_phrases(first.shown, second.shown)),
                (str(first.folder / "SKILL.md"), first.line),
                (str(second.folder / "SKILL.md"), second.line),
            )
        )
    found.sort(key=lambda c: (tuple(-x for x in c.severity), c.first, c.second))
    return found


class PhraseCheck(NamedTuple):
    phrase: str
    effect: Effect
    cases: int
    """Cases whose outcome (needed, hurts) or place (helps: should-trigger cases; hurts:
    should-not-trigger cases) the phrase changes."""

    def to_dict(self) -> PhraseShape:
        return {"phrase": self.phrase, "effect": self.effect, "cases": self.cases}


def mutations(
    library: Library,
    skill: int,
    outcome: Callable[[], list[tuple[bool, int | None]]],
    should: Sequence[bool],
    phrases: Sequence[str],
) -> list[PhraseCheck]:
    """The mutation check of ``skill``: ``outcome()`` scores its cases against the library
    as it is (each ``(passed, place)``; ``should``: whether each should trigger it); each
    phrase (``phrases``: :func:`trigger_phrases` of its description as shown, which the
    caller bounds the check by) is removed in turn and they are scored again. A case the
    skill ranks lower without the phrase is one it helps when the case should trigger the
    skill, one it hurts when not (it pulls a near miss toward the skill). The library is left
    as it was."""
    entry = library.entries[skill]
    if not entry.triggerable:
        return []
    before = outcome()
    checks: list[PhraseCheck] = []
    try:
        for phrase in phrases:
            library.reword(skill, without(entry.shown, phrase))
            after = outcome()
            lost = hurt = moved = 0
            for (was, old), (now, new), yes in zip(before, after, should, strict=True):
                lower = old != new and (new is None or (old is not None and new > old))
                lost += was and not now
                hurt += (now and not was) or (lower and not yes)  # a near miss pulled closer
                moved += lower and yes
            if lost:
                checks.append(PhraseCheck(phrase, "needed", lost))
            elif hurt:
                checks.append(PhraseCheck(phrase, "hurts", hurt))
            elif moved:
                checks.append(PhraseCheck(phrase, "helps", moved))
            else:
                checks.append(PhraseCheck(phrase, "untested", 0))
    finally:
        library.restore(skill)
    return checks
