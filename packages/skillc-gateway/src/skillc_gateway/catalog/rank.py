"""The ranker of ``skc find``: which skills of the catalog fit a task, best first.

The catalog (:mod:`skillc_gateway.catalog`) calls only the names of this module's fixed
interface: :data:`SCHEMA` and :data:`RANK_VERSION` (its own tables, created with the
catalog's; a new version re-indexes every skill), :func:`add` / :func:`remove` /
:func:`finish` (keep them current, inside the catalog's transaction), :func:`rank` and
:func:`best_sections`. Everything about ranking lives here.

This first implementation: SQLite FTS5 with the ``porter unicode61`` tokenizer over four
columns (name, description, headings, body), BM25 with the fields weighted, the query's
words (stop words dropped) OR-ed; a skill's sections are ranked the same way over their
heading and text.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Collection
from typing import NamedTuple

__all__ = [
    "RANK_VERSION",
    "SCHEMA",
    "Heading",
    "Section",
    "SkillText",
    "add",
    "best_sections",
    "finish",
    "rank",
    "remove",
]

RANK_VERSION = 1
"""Bumped when :data:`SCHEMA` or the tokenization changes: the catalog then re-indexes
every skill."""

SCHEMA = """
CREATE VIRTUAL TABLE rank_skills USING fts5(
    name, description, headings, body, tokenize = 'porter unicode61'
);
CREATE VIRTUAL TABLE rank_sections USING fts5(
    heading, text, line UNINDEXED, tokenize = 'porter unicode61'
);
"""
"""The ranker's own tables. ``rank_skills`` rowid = the skill's id; ``rank_sections`` rowid
= id * :data:`SECTIONS_PER_SKILL` + the section's number, so a skill's sections are one rowid
range."""

#: At most this many sections of a skill are indexed (a rowid range per skill).
SECTIONS_PER_SKILL = 4096
#: Weights of name, description, headings and body in BM25.
WEIGHTS = (4.0, 3.0, 1.5, 1.0)
#: At most this many different query words are searched.
MAX_TERMS = 64

_STOPWORDS = """a an and are as at be but by for if in into is it no not of on or such that the
their then there these they this to was will with i me my we our you your he she him her its do
does did so up can could would should have has had been being am from about which what when
where who how all any some just also than too very s t"""
STOPWORDS = frozenset(_STOPWORDS.split())

_WORD = re.compile(r"[^\W_]+")


class Heading(NamedTuple):
    level: int
    text: str
    line: int
    """1-based line in SKILL.md."""


class SkillText(NamedTuple):
    """What the catalog read of one skill."""

    name: str
    """The frontmatter ``name``, else the folder's name."""
    description: str
    """The frontmatter ``description`` ('' when there is none)."""
    body: str
    """SKILL.md's text after the frontmatter."""
    headings: tuple[Heading, ...]
    """The ATX and setext headings of the body (not in fenced code), in order."""
    folder: str
    """The skill folder's name."""


class Section(NamedTuple):
    file: str
    """Relative to the skill folder: ``SKILL.md``."""
    heading: str
    line: int
    """1-based line of the heading."""


def add(db: sqlite3.Connection, skill_id: int, text: SkillText) -> None:
    """(Re)index one skill."""
    remove(db, skill_id)
    headings = "\n".join(heading.text for heading in text.headings)
    db.execute(
        "INSERT INTO rank_skills(rowid, name, description, headings, body) VALUES (?, ?, ?, ?, ?)",
        (skill_id, _spaced(text.name), text.description, headings, text.body),
    )
    base = skill_id * SECTIONS_PER_SKILL
    db.executemany(
        "INSERT INTO rank_sections(rowid, heading, text, line) VALUES (?, ?, ?, ?)",
        [
            (base + number, heading.text, section, heading.line)
            for number, (heading, section) in enumerate(_sections(text))
        ],
    )


def remove(db: sqlite3.Connection, skill_id: int) -> None:
    """Drop one skill from the ranker's tables (nothing happens when it is not there)."""
    if db.execute("SELECT 1 FROM rank_skills WHERE rowid = ?", (skill_id,)).fetchone() is None:
        return
    db.execute("DELETE FROM rank_skills WHERE rowid = ?", (skill_id,))
    base = skill_id * SECTIONS_PER_SKILL
    db.execute(
        "DELETE FROM rank_sections WHERE rowid BETWEEN ? AND ?",
        (base, base + SECTIONS_PER_SKILL - 1),
    )


def finish(db: sqlite3.Connection) -> None:
    """Called once after a batch of :func:`add`/:func:`remove`, in the same transaction."""


def rank(
    db: sqlite3.Connection, query: str, limit: int, candidates: Collection[int] | None
) -> list[tuple[int, float]]:
    """``(skill id, score)`` of the skills that fit ``query``, best first (higher score is
    better), at most ``limit``; only ids in ``candidates`` when given; ``[]`` when nothing
    matches."""
    expression = match_expression(query)
    if not expression or limit <= 0:
        return []
    weights = ", ".join(str(weight) for weight in WEIGHTS)
    rows = db.execute(
        f"SELECT rowid, -bm25(rank_skills, {weights}) AS score FROM rank_skills "
        "WHERE rank_skills MATCH ? ORDER BY score DESC, rowid",
        (expression,),
    )
    found: list[tuple[int, float]] = []
    for skill_id, score in rows:
        if candidates is None or skill_id in candidates:
            found.append((skill_id, score))
            if len(found) == limit:
                break
    return found


def best_sections(
    db: sqlite3.Connection, query: str, skill_id: int, limit: int = 3
) -> list[Section]:
    """The sections of one skill that fit ``query`` best, best first, at most ``limit``."""
    expression = match_expression(query)
    if not expression or limit <= 0:
        return []
    base = skill_id * SECTIONS_PER_SKILL
    rows = db.execute(
        "SELECT heading, line FROM rank_sections WHERE rank_sections MATCH ? "
        "AND rowid BETWEEN ? AND ? ORDER BY bm25(rank_sections, 2.0, 1.0), rowid LIMIT ?",
        (expression, base, base + SECTIONS_PER_SKILL - 1, limit),
    )
    return [Section("SKILL.md", heading, line) for heading, line in rows]


def match_expression(query: str) -> str:
    """The FTS5 query for ``query``: its words (stop words dropped), each once, quoted, OR-ed."""
    terms: list[str] = []
    for word in _WORD.findall(query.lower()):
        if word not in STOPWORDS and word not in terms:
            terms.append(word)
            if len(terms) == MAX_TERMS:
                break
    return " OR ".join(f'"{term}"' for term in terms)


def _spaced(name: str) -> str:
    """A skill name with its hyphens as spaces (``pdf-tools``: the words ``pdf`` and ``tools``)."""
    return name.replace("-", " ")


def _sections(text: SkillText) -> list[tuple[Heading, str]]:
    """Each heading with the body text under it down to the next heading, at most
    :data:`SECTIONS_PER_SKILL`."""
    if not text.headings:
        return []
    lines = text.body.split("\n")
    offset = _body_offset(lines, text.headings[0])  # file line of the body's first line - 1
    sections: list[tuple[Heading, str]] = []
    headings = text.headings[:SECTIONS_PER_SKILL]
    for number, heading in enumerate(headings):
        start = heading.line - offset
        end = headings[number + 1].line - offset - 1 if number + 1 < len(headings) else len(lines)
        sections.append((heading, "\n".join(lines[max(start, 0) : max(end, 0)])))
    return sections


def _body_offset(lines: list[str], first: Heading) -> int:
    """How many file lines come before the body (the frontmatter's), found from where the
    first heading is in the body: ``SkillText`` gives file lines, the body starts later."""
    for index, line in enumerate(lines[: first.line]):
        stripped = line.strip()
        atx = stripped.startswith("#")
        setext = index + 1 < len(lines) and lines[index + 1].strip()[:1] in ("=", "-")
        if (atx or setext) and first.text in line:
            return first.line - 1 - index
    return 0
