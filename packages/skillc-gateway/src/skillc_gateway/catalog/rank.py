"""The skill ranker of ``skc find``: which installed skills fit a task described in words.

Lexical BM25 over an impact-ordered index in plain SQLite tables. A skill is three documents
scored apart and fused, so that a long body never drowns a match in the name or description:

* **meta**: the name (hyphens split; the folder name too when it differs) and description;
* **headings**: the section headings of SKILL.md;
* **body**: the text of SKILL.md after the frontmatter.

Words are the tokens of SQLite FTS5's ``porter unicode61`` tokenizer (porter stemming,
Unicode case and diacritic folding), read through ``fts5vocab`` from a scratch FTS5 table.
Each (document, term, skill) is a row of ``rank_postings`` holding BM25's term-frequency part
``w = tf (k1 + 1) / (tf + k1 (1 - b + b dl / L))``, where ``L`` is a fixed reference length per
document (:data:`DOCUMENTS`: the average over the 581-skill corpus) instead of the collection's
average, so a skill's rows never change when other skills come and go. IDF comes from
``rank_terms`` (how many skills hold each term) when a query runs. The rows are kept sorted by
``(document, term, w)``: a query reads, for each of its terms, only the :data:`DEPTH` best rows,
and sums them in SQL; the cost of a query is bounded whatever the number of skills (FTS5's
``bm25()`` scores every skill that holds a query word).

Each document's scores are divided by the best score among the candidates for that query,
then summed with the weights of :data:`DOCUMENTS` (meta 1, body 0.7, headings 0.3). Then the
sections of SKILL.md, and the name with the description, count as passages: the :data:`RERANK`
best skills each add the BM25 score of their best passage (``rank_passages``, IDF over
passages), divided by the best of those, times :data:`PASSAGE`'s weight (0.4): a skill that
holds the request's words in one place beats one that scatters them. The query keeps its
distinct words minus a stop list of function words and request filler ("please", "want",
"need"...), at most :data:`MAX_TERMS`. What was tried and what each step gained is in the
gateway README ("How find ranks").

Sections: every heading of SKILL.md with the text up to the next heading is a row of
``rank_sections``, its id ``skill_id * SECTION_SLOTS + n``. The best sections of a skill shown
are found by an FTS5 query over a scratch table holding only that skill's sections: the cost is
the skill's size, not the library's.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Collection
from typing import NamedTuple

__all__ = [
    "DOCUMENTS",
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
RANK_VERSION = 4

_TOKENIZER = "tokenize='porter unicode61 remove_diacritics 2'"
SCHEMA = """
CREATE TABLE IF NOT EXISTS rank_postings (
    doc INTEGER NOT NULL, term TEXT NOT NULL, w REAL NOT NULL, skill INTEGER NOT NULL,
    PRIMARY KEY (doc, term, w, skill)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rank_postings_skill ON rank_postings (skill);
CREATE TABLE IF NOT EXISTS rank_terms (
    doc INTEGER NOT NULL, term TEXT NOT NULL, df INTEGER NOT NULL, PRIMARY KEY (doc, term)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rank_count (doc INTEGER PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS rank_passages (
    skill INTEGER NOT NULL, term TEXT NOT NULL, section INTEGER NOT NULL, w REAL NOT NULL,
    PRIMARY KEY (skill, term, section)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rank_sections (
    id INTEGER PRIMARY KEY, heading TEXT NOT NULL, text TEXT NOT NULL, line INTEGER NOT NULL
);
"""
"""``rank_postings``: BM25's term-frequency part ``w`` of each term of each document of each
skill; ``rank_terms``: the number of skills whose document holds the term (``df``);
``rank_count``: the number of skills with each document; ``rank_passages``: ``w`` of each
term of each passage of each skill (``section``: ``n``, or -1 for the name and description;
reference length: :data:`PASSAGE`'s),
whose ``df`` and count in ``rank_terms`` and ``rank_count`` (doc :data:`PASSAGES`) are of
sections, not skills;
``rank_sections``: the sections of each skill's SKILL.md, ``id`` =
``skill_id * SECTION_SLOTS + n``."""


class Document(NamedTuple):
    name: str
    weight: float
    """How much the document counts once its scores are normalised."""
    length: float
    """BM25's reference length, in tokens."""


#: The documents of a skill; the index of each is its ``doc`` in the tables.
DOCUMENTS: tuple[Document, ...] = (
    Document("meta", 1.0, 48.0),
    Document("body", 0.7, 1350.0),
    Document("headings", 0.3, 60.0),
)
#: The sections of SKILL.md (heading and text) and the name with the description as passages:
#: after the fusion, the best passage of each of the :data:`RERANK` best skills adds its score
#: (divided by the best one of those skills) times this weight; the length is the corpus's
#: average section.
PASSAGE = Document("sections", 0.4, 72.0)
RERANK = 10
#: The sections' ``doc`` in ``rank_terms`` and ``rank_count``.
PASSAGES = len(DOCUMENTS)
#: BM25's parameters (FTS5's and most engines' defaults).
K1, B = 1.2, 0.75
#: Rows read per query term and document: the skills with the highest ``w`` for that term.
DEPTH = 300
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
    """Index (or index again) one skill; its words count once :func:`finish` has run, in the
    same transaction."""
    remove(db, skill_id)
    _scratch(db)
    db.execute(
        "INSERT INTO temp.rank_tokens (meta, body, headings) VALUES (?, ?, ?)",
        (f"{_names(text)}\n{text.description}", text.body, _heading_text(text)),
    )
    # The skill's rows in rank_pending start after the last row there: an earlier add of the
    # same skill in this batch is left out by finish().
    db.execute(
        "INSERT INTO temp.rank_added (skill, first) "
        "SELECT ?, coalesce(max(rowid), 0) + 1 FROM temp.rank_pending",
        (skill_id,),
    )
    # The scratch table holds this one skill: a word's count there is its count in the skill.
    lengths = " ".join(f"WHEN '{d.name}' THEN {d.length}" for d in DOCUMENTS)
    documents = " ".join(f"WHEN '{d.name}' THEN {n}" for n, d in enumerate(DOCUMENTS))
    db.execute(
        "INSERT INTO temp.rank_pending (skill, doc, term, w) "
        f"SELECT ?, CASE col {documents} END, term, "
        f"cnt * {K1 + 1} / (cnt + {K1} * (1 - {B} + {B} * "
        f"(sum(cnt) OVER (PARTITION BY col)) / CASE col {lengths} END)) "
        "FROM temp.rank_tokens_v",
        (skill_id,),
    )
    db.execute("INSERT INTO temp.rank_tokens (rank_tokens) VALUES ('delete-all')")
    base = skill_id * SECTION_SLOTS
    sections = _sections(text)
    db.executemany(
        "INSERT INTO rank_sections (id, heading, text, line) VALUES (?, ?, ?, ?)",
        [(base + n, heading, body, line) for n, (heading, body, line) in enumerate(sections)],
    )
    _add_passages(db, skill_id, text, sections)


def _add_passages(
    db: sqlite3.Connection, skill_id: int, text: SkillText, sections: list[tuple[str, str, int]]
) -> None:
    """The skill's rows of ``rank_passages``, and the passage counts of their terms (written
    at once: :func:`remove` undoes them, whether :func:`finish` ran or not). The name and
    description are one more passage (``section`` -1): a skill with few or no sections is
    not left without one."""
    db.executemany(
        "INSERT INTO temp.rank_section_q (rowid, heading, text) VALUES (?, ?, ?)",
        [
            (-1, _names(text), text.description),
            *((n, heading, body) for n, (heading, body, _) in enumerate(sections)),
        ],
    )
    try:
        db.execute(
            "INSERT INTO rank_passages (skill, term, section, w) "
            f"SELECT ?, term, doc, cnt * {K1 + 1} / (cnt + {K1} * (1 - {B} + {B} * "
            f"(sum(cnt) OVER (PARTITION BY doc)) / {PASSAGE.length})) "
            "FROM (SELECT doc, term, count(*) AS cnt FROM temp.rank_section_v GROUP BY doc, term)",
            (skill_id,),
        )
    finally:
        db.execute("INSERT INTO temp.rank_section_q (rank_section_q) VALUES ('delete-all')")
    db.execute(
        "INSERT INTO rank_terms (doc, term, df) "
        f"SELECT {PASSAGES}, term, count(*) FROM rank_passages WHERE skill = ? GROUP BY term "
        "ON CONFLICT (doc, term) DO UPDATE SET df = df + excluded.df",
        (skill_id,),
    )
    db.execute(
        "INSERT INTO rank_count (doc, n) "
        f"SELECT {PASSAGES}, count(DISTINCT section) FROM rank_passages WHERE skill = ? "
        "ON CONFLICT (doc) DO UPDATE SET n = n + excluded.n",
        (skill_id,),
    )


_ADDED = (
    "WITH added AS (SELECT p.skill, p.doc, p.term, p.w FROM temp.rank_pending AS p "
    "JOIN temp.rank_added AS a ON a.skill = p.skill AND p.rowid >= a.first) "
)


def finish(db: sqlite3.Connection) -> None:
    """Write the words of the skills added since the last call: a few set statements, the
    rows in index order (B-tree pages are then visited once per batch, not once per row)."""
    if not db.execute("SELECT 1 FROM temp.sqlite_master WHERE name = 'rank_added'").fetchone():
        return
    db.execute(
        _ADDED + "INSERT INTO rank_postings (doc, term, w, skill) "
        "SELECT doc, term, w, skill FROM added ORDER BY doc, term, w, skill"
    )
    db.execute(
        _ADDED + "INSERT INTO rank_terms (doc, term, df) SELECT doc, term, count(*) FROM added "
        "WHERE true GROUP BY doc, term ON CONFLICT (doc, term) DO UPDATE SET df = df + excluded.df"
    )
    db.execute(
        _ADDED + "INSERT INTO rank_count (doc, n) SELECT doc, count(DISTINCT skill) FROM added "
        "WHERE true GROUP BY doc ON CONFLICT (doc) DO UPDATE SET n = n + excluded.n"
    )
    db.execute("DELETE FROM temp.rank_pending")
    db.execute("DELETE FROM temp.rank_added")


def _heading_text(text: SkillText) -> str:
    return "\n".join(h.text for h in text.headings)


def _scratch(db: sqlite3.Connection) -> None:
    """The connection's scratch tables (in ``temp``, made once): ``rank_tokens``, a
    contentless FTS5 table holding one skill at a time, whose ``fts5vocab`` gives each word's
    count as the catalog's tokenizer cuts it; ``rank_pending`` and ``rank_added``, the words of
    the skills added since :func:`finish` (``first``: a skill's first row); ``rank_section_q``
    (also contentless), the sections of the one skill :func:`best_sections` looks at."""
    if db.execute("SELECT 1 FROM temp.sqlite_master WHERE name = 'rank_tokens'").fetchone():
        return
    db.execute(
        f"CREATE VIRTUAL TABLE temp.rank_tokens USING fts5(meta, body, headings, content='', "
        f"{_TOKENIZER})"
    )
    db.execute("CREATE VIRTUAL TABLE temp.rank_tokens_v USING fts5vocab(temp, rank_tokens, col)")
    db.execute(
        f"CREATE VIRTUAL TABLE temp.rank_section_q USING fts5(heading, text, content='', "
        f"{_TOKENIZER})"
    )
    db.execute(
        "CREATE VIRTUAL TABLE temp.rank_section_v USING fts5vocab(temp, rank_section_q, instance)"
    )
    db.execute("CREATE TABLE temp.rank_pending (skill INTEGER, doc INTEGER, term TEXT, w REAL)")
    db.execute("CREATE TABLE temp.rank_added (skill INTEGER PRIMARY KEY, first INTEGER)")


def remove(db: sqlite3.Connection, skill_id: int) -> None:
    if db.execute("SELECT 1 FROM temp.sqlite_master WHERE name = 'rank_added'").fetchone():
        db.execute("DELETE FROM temp.rank_added WHERE skill = ?", (skill_id,))
    terms = db.execute(
        "SELECT doc, term FROM rank_postings WHERE skill = ?", (skill_id,)
    ).fetchall()
    if terms:
        db.executemany("UPDATE rank_terms SET df = df - 1 WHERE doc = ? AND term = ?", terms)
        db.execute("DELETE FROM rank_terms WHERE df <= 0")
        db.executemany(
            "UPDATE rank_count SET n = n - 1 WHERE doc = ?",
            [(doc,) for doc in {d for d, _ in terms}],
        )
        db.execute("DELETE FROM rank_postings WHERE skill = ?", (skill_id,))
    passages = db.execute(
        "SELECT count(*), term FROM rank_passages WHERE skill = ? GROUP BY term", (skill_id,)
    ).fetchall()
    if passages:
        db.executemany(
            f"UPDATE rank_terms SET df = df - ? WHERE doc = {PASSAGES} AND term = ?", passages
        )
        db.execute(  # the skill's words only: not a scan of every word
            f"DELETE FROM rank_terms WHERE doc = {PASSAGES} AND df <= 0 AND term IN "
            "(SELECT term FROM rank_passages WHERE skill = ?)",
            (skill_id,),
        )
        db.execute(
            f"UPDATE rank_count SET n = n - (SELECT count(DISTINCT section) FROM rank_passages "
            f"WHERE skill = ?) WHERE doc = {PASSAGES}",
            (skill_id,),
        )
        db.execute("DELETE FROM rank_passages WHERE skill = ?", (skill_id,))
    base = skill_id * SECTION_SLOTS
    db.execute(
        "DELETE FROM rank_sections WHERE id BETWEEN ? AND ?", (base, base + SECTION_SLOTS - 1)
    )


def stems(db: sqlite3.Connection, terms: list[str]) -> list[str]:
    """The index terms of query words: each word through the catalog's tokenizer."""
    _scratch(db)
    db.execute("INSERT INTO temp.rank_tokens (meta) VALUES (?)", (" ".join(terms),))
    found = [term for (term,) in db.execute("SELECT term FROM temp.rank_tokens_v")]
    db.execute("INSERT INTO temp.rank_tokens (rank_tokens) VALUES ('delete-all')")
    return found


def _scores(
    db: sqlite3.Connection,
    doc: int,
    terms: list[str],
    candidates: Collection[int] | None,
    pool: int,
) -> dict[int, float]:
    """BM25 scores of the best ``pool`` candidates for ``terms`` in one document, from the
    :data:`DEPTH` best rows of each term (all of them when a filter drops most of those)."""
    known = db.execute(
        f"SELECT term, df FROM rank_terms WHERE doc = ? AND term IN ({','.join('?' * len(terms))})",
        (doc, *terms),
    ).fetchall()
    if not known:
        return {}
    row = db.execute("SELECT n FROM rank_count WHERE doc = ?", (doc,)).fetchone()
    n = row[0] if row else 0

    def query(depth: int | None) -> list[tuple[int, float]]:
        limit = "" if depth is None else f" LIMIT {depth}"
        parts, args = [], []
        for term, df in known:
            idf = math.log((n - df + 0.5) / (df + 0.5))
            parts.append(
                "SELECT * FROM (SELECT skill, w * ? AS s FROM rank_postings "
                f"WHERE doc = ? AND term = ? ORDER BY w DESC{limit})"
            )
            args += [idf if idf > 0 else 1e-6, doc, term]  # FTS5's floor for common words
        sql = (
            f"SELECT skill, sum(s) FROM ({' UNION ALL '.join(parts)}) GROUP BY skill "
            "ORDER BY 2 DESC, 1"
        )
        if candidates is None:
            sql += f" LIMIT {pool}"
        return db.execute(sql, args).fetchall()

    if candidates is None:
        return dict(query(DEPTH))
    kept = {skill: score for skill, score in query(DEPTH) if skill in candidates}
    if len(kept) < pool // 2 and any(df > DEPTH for _, df in known):
        # The filter dropped most of the best rows: read every row of these terms.
        kept = {skill: score for skill, score in query(None) if skill in candidates}
    return dict(sorted(kept.items(), key=lambda item: (-item[1], item[0]))[:pool])


def rank(
    db: sqlite3.Connection, query: str, limit: int, candidates: Collection[int] | None = None
) -> list[tuple[int, float]]:
    """The skills that fit ``query``, best first, with their scores (at most ``limit``;
    only ids in ``candidates`` when given; empty when no word of the query matches)."""
    words = query_terms(query)
    if not words or limit <= 0:
        return []
    terms = stems(db, words)
    if not terms:
        return []
    if candidates is not None and not isinstance(candidates, (set, frozenset, dict)):
        candidates = set(candidates)
    total: dict[int, float] = {}
    for doc, document in enumerate(DOCUMENTS):
        scores = _scores(db, doc, terms, candidates, max(POOL, limit))
        if not scores:
            continue
        best = max(scores.values())
        if best <= 0:
            continue
        for skill, score in scores.items():
            total[skill] = total.get(skill, 0.0) + document.weight * score / best
    ranked = sorted(total.items(), key=lambda item: (-item[1], item[0]))
    passages = _passage_scores(db, terms, [skill for skill, _ in ranked[:RERANK]])
    if passages:
        # Only the first RERANK gain: each keeps its place above the rest.
        best = max(passages.values())
        for skill, score in passages.items():
            total[skill] += PASSAGE.weight * score / best
        ranked = sorted(total.items(), key=lambda item: (-item[1], item[0]))
    return [(skill, round(score, 4)) for skill, score in ranked[:limit]]


def _passage_scores(
    db: sqlite3.Connection, terms: list[str], skills: list[int]
) -> dict[int, float]:
    """The BM25 score of the best passage of each of ``skills`` (IDF over passages); none
    for the skills whose passages hold no term."""
    if not skills:
        return {}
    known = db.execute(
        f"SELECT term, df FROM rank_terms WHERE doc = {PASSAGES} "
        f"AND term IN ({','.join('?' * len(terms))})",
        terms,
    ).fetchall()
    row = db.execute(f"SELECT n FROM rank_count WHERE doc = {PASSAGES}").fetchone()
    if not known or not row:
        return {}
    idf = [(term, max(math.log((row[0] - df + 0.5) / (df + 0.5)), 1e-6)) for term, df in known]
    found = db.execute(
        f"WITH q (term, idf) AS (VALUES {','.join(['(?, ?)'] * len(idf))}) "
        "SELECT skill, max(s) FROM (SELECT p.skill, sum(p.w * q.idf) AS s FROM q "
        f"JOIN rank_passages AS p ON p.skill IN ({','.join('?' * len(skills))}) "
        "AND p.term = q.term GROUP BY p.skill, p.section) GROUP BY skill",
        [*(value for pair in idf for value in pair), *skills],
    ).fetchall()
    return {skill: score for skill, score in found if score > 0}


def best_sections(
    db: sqlite3.Connection, query: str, skill_id: int, limit: int = 3
) -> list[Section]:
    """The sections of one skill that match ``query`` best: by the number of different
    query words in the heading (counting double) and in the text, then by how often they
    occur, then in file order. Not bm25: IDF over one skill's sections says little. The
    skill's sections go through a scratch FTS5 table, whose vocabulary says which query words
    each holds: the cost is the skill's size, not the library's."""
    words = query_terms(query)
    if not words or limit <= 0:
        return []
    terms = stems(db, words)
    if not terms:
        return []
    base = skill_id * SECTION_SLOTS
    sections = {
        row[0]: row[1:]
        for row in db.execute(
            "SELECT id, heading, line FROM rank_sections WHERE id BETWEEN ? AND ?",
            (base, base + SECTION_SLOTS - 1),
        )
    }
    if not sections:
        return []
    db.execute(
        "INSERT INTO temp.rank_section_q (rowid, heading, text) SELECT id, heading, text "
        "FROM rank_sections WHERE id BETWEEN ? AND ?",
        (base, base + SECTION_SLOTS - 1),
    )
    try:
        found = db.execute(
            "SELECT doc, col, count(DISTINCT term), count(*) FROM temp.rank_section_v "
            f"WHERE term IN ({','.join('?' * len(terms))}) GROUP BY doc, col",
            terms,
        ).fetchall()
    finally:
        db.execute("INSERT INTO temp.rank_section_q (rank_section_q) VALUES ('delete-all')")
    scores: dict[int, float] = {}
    for section, column, distinct, hits in found:
        score = 2 * distinct if column == "heading" else distinct + hits / (hits + 10)
        scores[section] = scores.get(section, 0.0) + score
    ranked = sorted((-score, sections[i][1], sections[i][0]) for i, score in scores.items())
    return [Section("SKILL.md", heading, line) for _, line, heading in ranked[:limit]]
