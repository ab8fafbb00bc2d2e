"""The skill ranker of ``skc find``: which installed skills fit a task described in words.

Lexical, in SQLite FTS5 (porter stemming, Unicode folding). A skill is three documents
scored apart and fused, so that a long body never drowns a match in the name or description
(FTS5's ``bm25`` normalises by the length of the whole row, which a single table of all
fields would make the body's):

* **meta**: the name (hyphens split; the folder name too when it differs) and description;
* **headings**: the section headings of SKILL.md;
* **body**: the text of SKILL.md after the frontmatter.

Each document's bm25 scores are divided by the best score among the candidates for that
query, then summed with the weights :data:`WEIGHTS` (meta 1, body 0.7, headings 0.3). The
query keeps its distinct words minus a stop list of function words and request filler
("please", "want", "need"...), at most :data:`MAX_TERMS`, OR-ed: bm25's IDF weights them.
What was tried and what each step gained is in the gateway README ("How find ranks").

Sections: every heading of SKILL.md with the text up to the next heading is a row of its
own, its rowid ``skill_id * SECTION_SLOTS + n``, so the best sections of one skill are a
rowid-range FTS5 query.
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
    "query_terms",
    "rank",
    "remove",
]

#: Bumped when the tables or the tokenizer change: the catalog then indexes every skill anew.
RANK_VERSION = 2

_TOKENIZER = "tokenize='porter unicode61 remove_diacritics 2'"
SCHEMA = f"""
CREATE VIRTUAL TABLE IF NOT EXISTS rank_meta USING fts5(name, description, {_TOKENIZER});
CREATE VIRTUAL TABLE IF NOT EXISTS rank_headings USING fts5(headings, {_TOKENIZER});
CREATE VIRTUAL TABLE IF NOT EXISTS rank_body USING fts5(body, {_TOKENIZER});
CREATE VIRTUAL TABLE IF NOT EXISTS rank_section USING fts5(
    heading, text, line UNINDEXED, {_TOKENIZER}
);
"""

#: (table, weight): how much each document counts once its scores are normalised.
WEIGHTS: tuple[tuple[str, float], ...] = (
    ("rank_meta", 1.0),
    ("rank_body", 0.7),
    ("rank_headings", 0.3),
)
MAX_TERMS = 128
#: Sections of one skill indexed (rowid slots per skill); a section's text is cut at
#: SECTION_CHARS characters.
SECTION_SLOTS = 1024
SECTION_CHARS = 4000
#: Candidates read from each document's ranking before fusion (more when a filter drops them).
POOL = 200

_WORD = re.compile(r"[^\W_]+")
_STOPWORDS = """a an and are as at be but by for if in into is it no not of on or such that the
their then there these they this to was will with i me my we our you your he she him her its do
does did so up can could would should have has had been being am from about which what when
where who how all any some just also than too very want need
like make sure help please using use get let one way something anything thing things new us
them every each other more most much many well now right really actually might"""
#: Function words and request filler: never searched.
STOPWORDS = frozenset(_STOPWORDS.split())


class Heading(NamedTuple):
    level: int
    text: str
    line: int
    """1-based line in SKILL.md."""


class SkillText(NamedTuple):
    """What the ranker reads of one skill."""

    name: str
    description: str
    body: str
    """SKILL.md after the frontmatter."""
    headings: tuple[Heading, ...]
    folder: str
    body_line: int = 1
    """The SKILL.md line number of the body's first line."""


class Section(NamedTuple):
    file: str
    heading: str
    line: int


def query_terms(query: str) -> list[str]:
    """The distinct words of ``query`` that count, in order: lowercased, no stop words, no
    single characters, at most :data:`MAX_TERMS`."""
    terms: list[str] = []
    seen: set[str] = set()
    for word in _WORD.findall(query.lower()):
        if len(word) > 1 and word not in STOPWORDS and word not in seen:
            seen.add(word)
            terms.append(word)
            if len(terms) == MAX_TERMS:
                break
    return terms


def _match(terms: list[str]) -> str:
    # Each word a quoted FTS5 string: no word is ever read as an operator or a column.
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


def _names(text: SkillText) -> str:
    name = text.name.replace("-", " ").replace("_", " ")
    folder = text.folder.replace("-", " ").replace("_", " ")
    return name if folder == name else f"{name} {folder}"


def _sections(text: SkillText) -> list[tuple[str, str, int]]:
    """(heading, text up to the next heading, line) for each heading of SKILL.md."""
    lines = text.body.split("\n")
    headings = text.headings[:SECTION_SLOTS]
    out: list[tuple[str, str, int]] = []
    for n, heading in enumerate(headings):
        start = heading.line - text.body_line + 1  # the body index of the line after it
        end = headings[n + 1].line - text.body_line if n + 1 < len(headings) else len(lines)
        out.append((heading.text, "\n".join(lines[start:end])[:SECTION_CHARS], heading.line))
    return out


def add(db: sqlite3.Connection, skill_id: int, text: SkillText) -> None:
    """Index (or index again) one skill."""
    remove(db, skill_id)
    db.execute(
        "INSERT INTO rank_meta(rowid, name, description) VALUES (?, ?, ?)",
        (skill_id, _names(text), text.description),
    )
    db.execute(
        "INSERT INTO rank_headings(rowid, headings) VALUES (?, ?)",
        (skill_id, "\n".join(h.text for h in text.headings)),
    )
    db.execute("INSERT INTO rank_body(rowid, body) VALUES (?, ?)", (skill_id, text.body))
    base = skill_id * SECTION_SLOTS
    db.executemany(
        "INSERT INTO rank_section(rowid, heading, text, line) VALUES (?, ?, ?, ?)",
        [
            (base + n, heading, body, line)
            for n, (heading, body, line) in enumerate(_sections(text))
        ],
    )


def remove(db: sqlite3.Connection, skill_id: int) -> None:
    for table, _ in WEIGHTS:
        db.execute(f"DELETE FROM {table} WHERE rowid = ?", (skill_id,))
    base = skill_id * SECTION_SLOTS
    db.execute(
        "DELETE FROM rank_section WHERE rowid BETWEEN ? AND ?", (base, base + SECTION_SLOTS - 1)
    )


def finish(db: sqlite3.Connection) -> None:
    """Nothing to do after a batch: FTS5 keeps its statistics up to date itself."""


def _scores(
    db: sqlite3.Connection,
    table: str,
    match: str,
    candidates: Collection[int] | None,
    pool: int,
) -> dict[int, float]:
    """bm25 scores (higher is better) of the best ``pool`` candidates matching in one
    document."""
    sql = f"SELECT rowid, -bm25({table}) FROM {table} WHERE {table} MATCH ? ORDER BY rank"
    if candidates is None:
        return dict(db.execute(sql + " LIMIT ?", (match, pool)).fetchall())
    rows = db.execute(sql + " LIMIT ?", (match, pool)).fetchall()
    kept = {rowid: score for rowid, score in rows if rowid in candidates}
    if len(rows) == pool and len(kept) < pool // 2:
        # The filter dropped most of the pool: rank all matches of this document.
        kept = {r: s for r, s in db.execute(sql, (match,)) if r in candidates}
    return kept


def rank(
    db: sqlite3.Connection, query: str, limit: int, candidates: Collection[int] | None = None
) -> list[tuple[int, float]]:
    """The skills that fit ``query``, best first, with their scores (at most ``limit``;
    only ids in ``candidates`` when given; empty when no word of the query matches)."""
    terms = query_terms(query)
    if not terms or limit <= 0:
        return []
    match = _match(terms)
    if candidates is not None and not isinstance(candidates, (set, frozenset, dict)):
        candidates = set(candidates)
    total: dict[int, float] = {}
    for table, weight in WEIGHTS:
        scores = _scores(db, table, match, candidates, max(POOL, limit))
        if not scores:
            continue
        best = max(scores.values())
        if best <= 0:
            continue
        for rowid, score in scores.items():
            total[rowid] = total.get(rowid, 0.0) + weight * score / best
    ranked = sorted(total.items(), key=lambda item: (-item[1], item[0]))
    return [(rowid, round(score, 4)) for rowid, score in ranked[:limit]]


def best_sections(
    db: sqlite3.Connection, query: str, skill_id: int, limit: int = 3
) -> list[Section]:
    """The sections of one skill that match ``query`` best: by the number of different
    query words in the heading (counting double) and in the text, then by how often they
    occur, then in file order. Not bm25: its IDF would read every section of the catalog
    for each skill shown; a skill's own sections are few."""
    terms = query_terms(query)
    if not terms or limit <= 0:
        return []
    base = skill_id * SECTION_SLOTS
    rows = db.execute(
        "SELECT heading, line, highlight(rank_section, 0, char(1), char(2)), "
        "highlight(rank_section, 1, char(1), char(2)) FROM rank_section "
        "WHERE rank_section MATCH ? AND rowid BETWEEN ? AND ?",
        (_match(terms), base, base + SECTION_SLOTS - 1),
    ).fetchall()
    scored: list[tuple[float, int, str]] = []
    for heading, line, marked_heading, marked_text in rows:
        in_heading, in_text = _marked(marked_heading), _marked(marked_text)
        hits = sum(in_text.values())
        score = 2 * len(in_heading) + len(in_text) + hits / (hits + 10)
        scored.append((-score, int(line), heading))
    scored.sort()
    return [Section("SKILL.md", heading, line) for _, line, heading in scored[:limit]]


_MARKED = re.compile("\x01([^\x02]*)\x02")


def _marked(text: str) -> dict[str, int]:
    """How often each word that FTS5 marked in ``text`` occurs (case folded)."""
    counts: dict[str, int] = {}
    for word in _MARKED.findall(text):
        key = word.casefold()
        counts[key] = counts.get(key, 0) + 1
    return counts
