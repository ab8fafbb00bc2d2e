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
``(document, term, w)``: a query reads, for each of its terms, only its best rows, and sums
them in SQL; the cost of a query is bounded whatever the number of skills (FTS5's ``bm25()``
scores every skill that holds a query word). How many rows a term reads grows with its IDF
(:data:`DEPTH_PER_IDF` per unit, between :data:`MIN_DEPTH` and :data:`DEPTH`): a word that
half the skills hold adds little to any score, and its rows were most of what a query read.
A ``--path`` filter that keeps (nearly) every skill costs nothing more: the query asks for
as many more rows as the filter leaves skills out.

Each document's scores are divided by the best score among the candidates for that query,
then summed with the weights of :data:`DOCUMENTS` (meta 1, body 0.7, headings 0.3). Then the
sections of SKILL.md, and the name with the description, count as passages: the :data:`RERANK`
best skills each add the BM25 score of their best passage (from ``rank_section_terms``, IDF
over passages), divided by the best of those, times :data:`PASSAGE`'s weight (0.4): a skill that
holds the request's words in one place beats one that scatters them. The query keeps its
distinct words minus a stop list of function words and request filler ("please", "want",
"need"...), at most :data:`MAX_TERMS`. With the ``semantic`` extra (:mod:`.semantic`), the
:data:`SEMANTIC_POOL` best skills then add how close the vector of their name and description
is to the request's (:func:`_semantic`). What was tried and what each step gained is in the
gateway README ("How find ranks").

Sections: every heading of SKILL.md with the text up to the next heading is a row of
``rank_sections`` (its heading and line), its id ``skill_id * SECTION_SLOTS + n``. When a skill
is indexed, its passages' words are listed in ``rank_section_terms``: for each word, how often
each section's heading and text and the name with the description hold it; and each passage's
length. The best sections of the
skills shown are then one read of those lists and a ``str.find`` per query word: no section is
cut into words again when a query runs.
"""

from __future__ import annotations

import math
import re
import sqlite3
import time
from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from array import array

    from skillc_gateway.catalog import semantic

__all__ = [
    "DOCUMENTS",
    "RANK_VERSION",
    "SCHEMA",
    "Heading",
    "Section",
    "SkillText",
    "add",
    "best_sections",
    "fill",
    "finish",
    "query_terms",
    "rank",
    "ranker",
    "remove",
    "unfilled",
]

#: Bumped when the tables or the tokenizer change: the catalog then indexes every skill anew.
RANK_VERSION = 7

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
CREATE TABLE IF NOT EXISTS rank_sections (
    id INTEGER PRIMARY KEY, heading TEXT NOT NULL, line INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rank_section_terms (skill INTEGER PRIMARY KEY, terms TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rank_vectors (skill INTEGER PRIMARY KEY, text TEXT NOT NULL, vec BLOB);
CREATE INDEX IF NOT EXISTS rank_vectors_missing ON rank_vectors (skill) WHERE vec IS NULL;
"""
"""``rank_postings``: BM25's term-frequency part ``w`` of each term of each document of each
skill; ``rank_terms``: the number of skills whose document holds the term (``df``);
``rank_count``: the number of skills with each document (doc :data:`PASSAGES`: of passages,
not skills, in both); ``rank_sections``: the sections of each skill's SKILL.md, ``id`` =
``skill_id * SECTION_SLOTS + n``; ``rank_section_terms``: the length of each passage of a
skill and which ones hold each of its words, how often (:func:`_section_terms`);
``rank_vectors``: the name and description of each skill, and their vector under the semantic
model (:mod:`.semantic`): NULL until :func:`fill` computes it, once the words are indexed."""


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
#: Rows read per query term and document, at most: the skills with the highest ``w`` for that
#: term. A term reads :data:`DEPTH_PER_IDF` rows per unit of its IDF, at least
#: :data:`MIN_DEPTH`: the rows of a word that half the skills hold add little to any score.
DEPTH = 300
DEPTH_PER_IDF = 25
MIN_DEPTH = 20
MAX_TERMS = 128
#: Sections of one skill indexed (rowid slots per skill); a section's text is cut at
#: SECTION_CHARS characters.
SECTION_SLOTS = 1024
SECTION_CHARS = 4000
#: Sections tokenized at once when a skill is indexed (:func:`_section_terms`).
_SECTION_COLUMNS = 32
#: Candidates read from each document's ranking before fusion (more when a filter drops them).
POOL = 200
#: The semantic step (:mod:`.semantic`, when the extra is installed): the best SEMANTIC_POOL
#: skills after the passages each add, times SEMANTIC_WEIGHT times the best score, how far
#: their cosine with the request stands above the pool's mean (z-score, negative as 0) over
#: the highest one.
SEMANTIC_POOL = 100
SEMANTIC_WEIGHT = 0.5
#: Vectors computed per :func:`fill` call at most, between two looks at the clock.
_FILL_BATCH = 64

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
    sections = _sections(text)
    base = skill_id * SECTION_SLOTS
    db.executemany(
        "INSERT INTO rank_sections (id, heading, line) VALUES (?, ?, ?)",
        [(base + n, heading, line) for n, (heading, _, line) in enumerate(sections)],
    )
    db.execute(
        "INSERT INTO rank_section_terms (skill, terms) VALUES (?, ?)",
        (skill_id, _section_terms(db, skill_id, f"{_names(text)}\n{text.description}", sections)),
    )
    # the vector comes later (fill()): the words of every skill first, so that an answer is
    # whole as soon as they are indexed (the model takes longer than the rest of a skill)
    db.execute(
        "INSERT INTO rank_vectors (skill, text) VALUES (?, ?)",
        (skill_id, _vector_text(text.name, text.description)),
    )


def _vector_text(name: str, description: str) -> str:
    return f"{name.replace('-', ' ')}: {description}"


def _model(wanted: bool | None = None) -> semantic.Model | None:
    """The semantic model, None without the extra or when not ``wanted`` (None: as this
    process's environment says; the module is light: nothing imported)."""
    from skillc_gateway.catalog import semantic

    return semantic.model(wanted)


def ranker(semantic: bool | None = None) -> str:
    """What ranks: ``lexical``, or ``lexical+semantic`` with the model (:mod:`.semantic`),
    when ``semantic`` is wanted (None: as this process's environment says)."""
    return "lexical" if _model(semantic) is None else "lexical+semantic"


def unfilled(db: sqlite3.Connection) -> bool:
    """Whether the model is there and some skills have no vector yet (:func:`fill`)."""
    if _model() is None:
        return False
    return db.execute("SELECT 1 FROM rank_vectors WHERE vec IS NULL LIMIT 1").fetchone() is not None


def fill(db: sqlite3.Connection, until: float) -> bool:
    """Compute the missing vectors (of the skills indexed since, :func:`add` leaves them
    out) until ``until`` (``time.monotonic()``); whether some are still missing. Nothing
    without the model."""
    model = _model()
    if model is None:
        return False
    while True:
        rows = db.execute(
            f"SELECT skill, text FROM rank_vectors WHERE vec IS NULL LIMIT {_FILL_BATCH}"
        ).fetchall()
        if not rows:
            return False
        db.executemany(
            "UPDATE rank_vectors SET vec = ? WHERE skill = ?",
            [(model.vector(text), skill) for skill, text in rows],
        )
        if time.monotonic() >= until:
            return True


def _section_terms(
    db: sqlite3.Connection, skill_id: int, meta: str, sections: list[tuple[str, str, int]]
) -> str:
    """A skill's passages (its name with its description, passage ``m``; each section ``N`` of
    SKILL.md, heading and text) as words, for :func:`best_sections` and
    :func:`_passage_scores`: a first line of each passage's length in tokens (``m``'s, then
    the sections' in order), then a line per word, ``\nWORD ITEM...``, an item ``m:COUNT``,
    ``hN:COUNT`` or ``N:COUNT`` when the name and description, section ``N``'s heading or its
    text hold it COUNT times. A query then finds its words with ``str.find`` instead of
    cutting the passages into words again. The passages go :data:`_SECTION_COLUMNS` sections
    at a time through a scratch table with a column for each heading and text (and ``m``),
    whose ``fts5vocab`` gives each word's count per column. How many passages hold each word
    goes to ``rank_pending`` (doc :data:`PASSAGES`, ``w``: the count), for :func:`finish`; the
    number of passages to ``rank_count`` at once."""
    chunks: list[str] = []
    lengths = [0] * (1 + len(sections))
    for start in range(0, max(len(sections), 1), _SECTION_COLUMNS):
        values: list[str | None] = [meta if start == 0 else None]
        values += [None] * (2 * _SECTION_COLUMNS)
        for n, (heading, body, _) in enumerate(sections[start : start + _SECTION_COLUMNS]):
            values[1 + 2 * n], values[2 + 2 * n] = heading, body
        db.execute(
            f"INSERT INTO temp.rank_section_q VALUES ({','.join('?' * len(values))})", values
        )
        (lines,) = db.execute(_SECTION_LINES, (start, start)).fetchone()
        chunks.append(lines or "")
        db.execute(_PASSAGE_TERMS, (skill_id, start))
        for passage, length in db.execute(_PASSAGE_LENGTHS, (start,)):
            lengths[passage + 1] = length
        db.execute("INSERT INTO temp.rank_section_q (rank_section_q) VALUES ('delete-all')")
    db.execute(
        f"INSERT INTO rank_count (doc, n) VALUES ({PASSAGES}, ?) "
        "ON CONFLICT (doc) DO UPDATE SET n = n + excluded.n",
        (sum(1 for length in lengths if length),),
    )
    header = " ".join(map(str, lengths))
    if len(chunks) == 1:
        return f"{header}{chunks[0]}\n"
    items: dict[str, str] = {}  # a word of several chunks: one line
    for lines in chunks:
        for line in lines.split("\n")[1:]:
            term, _, found = line.partition(" ")
            items[term] = f"{items[term]} {found}" if term in items else found
    return header + "".join(f"\n{term} {found}" for term, found in items.items()) + "\n"


_SECTION_LINES = (
    "SELECT group_concat(char(10) || term || ' ' || items, '') FROM (SELECT term, group_concat("
    "CASE WHEN col = 'm' THEN 'm:' || cnt WHEN col GLOB 'h*' THEN 'h' || (? + substr(col, 2)) "
    "|| ':' || cnt ELSE (? + substr(col, 2)) || ':' || cnt END, ' ') AS items "
    "FROM temp.rank_section_v GROUP BY term)"
)
"""The lines of :func:`_section_terms` for the sections in the scratch table, numbered from
the first parameter."""
_PASSAGE = "CASE col WHEN 'm' THEN -1 ELSE ? + substr(col, 2) END"
_PASSAGE_TERMS = (
    "INSERT INTO temp.rank_pending (skill, doc, term, w) "
    f"SELECT ?, {PASSAGES}, term, count(DISTINCT {_PASSAGE}) FROM temp.rank_section_v GROUP BY term"
)
"""How many passages in the scratch table hold each word (sections numbered from the second
parameter; the name and description: -1), for :func:`finish` to add to ``rank_terms``."""
_PASSAGE_LENGTHS = f"SELECT {_PASSAGE}, sum(cnt) FROM temp.rank_section_v GROUP BY 1"


_ADDED = (
    "WITH added AS (SELECT p.skill, p.doc, p.term, p.w FROM temp.rank_pending AS p "
    "JOIN temp.rank_added AS a ON a.skill = p.skill AND p.rowid >= a.first) "
)


def finish(db: sqlite3.Connection) -> None:
    """Write the words of the skills added since the last call: a few set statements, the
    rows in index order (B-tree pages are then visited once per batch, not once per row)."""
    if not db.execute("SELECT 1 FROM temp.sqlite_master WHERE name = 'rank_added'").fetchone():
        return
    # doc PASSAGES: no postings; w is how many of the skill's passages hold the word
    db.execute(
        _ADDED + "INSERT INTO rank_postings (doc, term, w, skill) "
        f"SELECT doc, term, w, skill FROM added WHERE doc < {PASSAGES} "
        "ORDER BY doc, term, w, skill"
    )
    db.execute(
        _ADDED + "INSERT INTO rank_terms (doc, term, df) SELECT doc, term, "
        f"sum(CASE WHEN doc = {PASSAGES} THEN CAST(w AS INTEGER) ELSE 1 END) FROM added "
        "WHERE true GROUP BY doc, term ON CONFLICT (doc, term) DO UPDATE SET df = df + excluded.df"
    )
    db.execute(
        _ADDED + "INSERT INTO rank_count (doc, n) SELECT doc, count(DISTINCT skill) FROM added "
        f"WHERE doc < {PASSAGES} GROUP BY doc "
        "ON CONFLICT (doc) DO UPDATE SET n = n + excluded.n"
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
    (also contentless), the heading and text of :data:`_SECTION_COLUMNS` sections of the skill
    being indexed, a column each, whose ``fts5vocab`` says which words each holds
    (:func:`_section_terms`), and in the first round the name with the description."""
    if db.execute("SELECT 1 FROM temp.sqlite_master WHERE name = 'rank_tokens'").fetchone():
        return
    db.execute(
        f"CREATE VIRTUAL TABLE temp.rank_tokens USING fts5(meta, body, headings, content='', "
        f"{_TOKENIZER})"
    )
    db.execute("CREATE VIRTUAL TABLE temp.rank_tokens_v USING fts5vocab(temp, rank_tokens, col)")
    columns = "m, " + ", ".join(f"h{n}, t{n}" for n in range(_SECTION_COLUMNS))
    db.execute(
        f"CREATE VIRTUAL TABLE temp.rank_section_q USING fts5({columns}, content='', {_TOKENIZER})"
    )
    db.execute(
        "CREATE VIRTUAL TABLE temp.rank_section_v USING fts5vocab(temp, rank_section_q, col)"
    )
    db.execute("CREATE TABLE temp.rank_pending (skill INTEGER, doc INTEGER, term TEXT, w REAL)")
    db.execute("CREATE TABLE temp.rank_added (skill INTEGER PRIMARY KEY, first INTEGER)")


def remove(db: sqlite3.Connection, skill_id: int) -> None:
    pending = False  # added since finish(): its passages' word counts are not in rank_terms yet
    if db.execute("SELECT 1 FROM temp.sqlite_master WHERE name = 'rank_added'").fetchone():
        deleted = db.execute("DELETE FROM temp.rank_added WHERE skill = ?", (skill_id,))
        pending = deleted.rowcount > 0
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
    row = db.execute("SELECT terms FROM rank_section_terms WHERE skill = ?", (skill_id,)).fetchone()
    if row:
        header, *lines = row[0][:-1].split("\n")
        counts = [(len(_passages(line)), line[: line.index(" ")]) for line in lines]
        if pending:
            counts = []
        db.executemany(
            f"UPDATE rank_terms SET df = df - ? WHERE doc = {PASSAGES} AND term = ?", counts
        )
        db.executemany(  # the skill's words only: not a scan of every word
            f"DELETE FROM rank_terms WHERE doc = {PASSAGES} AND term = ? AND df <= 0",
            [(term,) for _, term in counts],
        )
        db.execute(
            f"UPDATE rank_count SET n = n - ? WHERE doc = {PASSAGES}",
            (sum(1 for length in header.split(" ") if length != "0"),),
        )
        db.execute("DELETE FROM rank_section_terms WHERE skill = ?", (skill_id,))
    base = skill_id * SECTION_SLOTS
    db.execute(
        "DELETE FROM rank_sections WHERE id BETWEEN ? AND ?", (base, base + SECTION_SLOTS - 1)
    )
    db.execute("DELETE FROM rank_vectors WHERE skill = ?", (skill_id,))


def _items(line: str) -> Iterator[tuple[str, int, int]]:
    """The items of a word's line in ``rank_section_terms`` (the word first, then its
    items): ``(place, passage, count)``, ``place`` ``m`` for the name and description
    (passage -1), ``h`` for section ``passage``'s heading, ``t`` for its text."""
    for item in line[line.index(" ") + 1 :].split(" "):
        place, _, count = item.partition(":")
        if place == "m":
            yield "m", -1, int(count)
        elif place[0] == "h":
            yield "h", int(place[1:]), int(count)
        else:
            yield "t", int(place), int(count)


def _passages(line: str) -> dict[int, int]:
    """The passages holding a word and how often, from its line: ``{passage: count}``."""
    found: dict[int, int] = {}
    for _place, passage, count in _items(line):
        found[passage] = found.get(passage, 0) + count
    return found


def stems(db: sqlite3.Connection, terms: list[str]) -> list[str]:
    """The index terms of query words: each word through the catalog's tokenizer (kept for
    the next calls: :func:`rank` and :func:`best_sections` ask for the same ones)."""
    key = " ".join(terms)
    found = _STEMS.get(key)
    if found is None:
        _scratch(db)
        db.execute("INSERT INTO temp.rank_tokens (meta) VALUES (?)", (key,))
        found = tuple(term for (term,) in db.execute("SELECT term FROM temp.rank_tokens_v"))
        db.execute("INSERT INTO temp.rank_tokens (rank_tokens) VALUES ('delete-all')")
        if len(_STEMS) >= 64:
            _STEMS.clear()
        _STEMS[key] = found
    return list(found)


_STEMS: dict[str, tuple[str, ...]] = {}


def _scores(
    db: sqlite3.Connection,
    doc: int,
    terms: list[str],
    candidates: Collection[int] | None,
    pool: int,
) -> dict[int, float]:
    """BM25 scores of the best ``pool`` candidates for ``terms`` in one document, from the
    best rows of each term: as many as its IDF gives (:func:`_depth`); :data:`DEPTH` rows of
    each when those hold fewer than ``pool`` candidates and were fewer than :data:`DEPTH`
    rows in all (a request of a word or two that many skills hold); every row when a filter
    drops most of those."""
    known = db.execute(
        "SELECT term, df, (SELECT n FROM rank_count WHERE doc = ?) FROM rank_terms "
        f"WHERE doc = ? AND term IN ({','.join('?' * len(terms))})",
        (doc, doc, *terms),
    ).fetchall()
    if not known:
        return {}
    n = known[0][2] or 0
    weights: list[tuple[str, int, float]] = []  # term, df, IDF
    for term, df, _ in known:
        idf = math.log((n - df + 0.5) / (df + 0.5))
        weights.append((term, df, idf if idf > 0 else 1e-6))  # FTS5's floor for common words

    def depth(level: int, idf: float) -> int | None:
        return (_depth(idf), DEPTH, None)[level]

    def query(level: int, limit: int | None) -> list[tuple[int, float]]:
        # parameters only: the statement's text depends on the number of terms, and SQLite's
        # statement cache spares most queries the planning of a long UNION
        parts: list[str] = []
        args: list[object] = []
        for term, _, idf in weights:
            rows = depth(level, idf)
            parts.append(
                "SELECT * FROM (SELECT skill, w * ? AS s FROM rank_postings "
                f"WHERE doc = ? AND term = ? ORDER BY w DESC{'' if rows is None else ' LIMIT ?'})"
            )
            args += [idf, doc, term] if rows is None else [idf, doc, term, rows]
        sql = (
            f"SELECT skill, sum(s) FROM ({' UNION ALL '.join(parts)}) GROUP BY skill "
            "ORDER BY 2 DESC, 1"
        )
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return db.execute(sql, args).fetchall()

    # With a filter, the best `pool` candidates are among the best `pool + (skills left out)`
    # rows: when the filter keeps (nearly) every skill, the query stays bounded.
    limit = pool if candidates is None else pool + max(0, n - len(candidates))
    level = 0
    while True:
        rows = query(level, limit)
        if candidates is None:
            kept = rows
        else:
            kept = [row for row in rows if row[0] in candidates]
            if len(kept) < pool and len(rows) == limit:  # the rows past the limit may hold some
                rows = query(level, None)
                kept = [row for row in rows if row[0] in candidates]
        cut = any(df > (depth(level, idf) or df) for _, df, idf in weights)  # rows left unread
        if len(kept) >= pool or not cut:
            return dict(kept[:pool])
        if level == 0 and sum(min(df, _depth(idf)) for _, df, idf in weights) < DEPTH:
            level = 1  # few rows, too few skills: read as many as a word with a high IDF
        elif level < 2 and candidates is not None and len(kept) < min(pool, len(rows)) // 2:
            level = 2  # the filter dropped most of the best rows: read every row
        else:
            return dict(kept[:pool])


def _depth(idf: float) -> int:
    """How many of a term's best rows a query reads in one document."""
    return min(DEPTH, max(MIN_DEPTH, int(DEPTH_PER_IDF * idf)))


def rank(
    db: sqlite3.Connection,
    query: str,
    limit: int,
    candidates: Collection[int] | None = None,
    named: Collection[int] = (),
    semantic: bool | None = None,
) -> list[tuple[int, float]]:
    """The skills that fit ``query``, best first, with their scores (at most ``limit``;
    only ids in ``candidates`` when given; empty when no word of the query matches).
    ``named``: the skills whose name the query is; they come first, a point above the best
    score of the others. ``semantic``: whether the semantic step ranks too, when the model
    is there (None: as this process's environment says)."""
    ranked = _ranked(db, query, limit, candidates, semantic)
    if not named:
        return ranked
    best = round(1.0 + max([score for _, score in ranked[:1]] + [0.0]), 4)
    first = [(skill, best) for skill in sorted(named)]
    return (first + [item for item in ranked if item[0] not in named])[:limit]


def _ranked(
    db: sqlite3.Connection,
    query: str,
    limit: int,
    candidates: Collection[int] | None,
    semantic: bool | None,
) -> list[tuple[int, float]]:
    words = query_terms(query)
    if not words or limit <= 0:
        return []
    terms = stems(db, words)
    if not terms:
        return []
    if candidates is not None and not isinstance(candidates, (set, frozenset, dict)):
        candidates = set(candidates)
    model = _model(semantic)
    # the request's vector is computed while the lexical steps run
    wanted = model.embed_later(query) if model is not None else None
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
    if model is not None and wanted is not None and ranked:
        _semantic(db, model, wanted.result(), ranked[:SEMANTIC_POOL], total)
        ranked = sorted(total.items(), key=lambda item: (-item[1], item[0]))
    return [(skill, round(score, 4)) for skill, score in ranked[:limit]]


def _semantic(
    db: sqlite3.Connection,
    model: semantic.Model,
    wanted: array[float],
    pool: list[tuple[int, float]],
    total: dict[int, float],
) -> None:
    """Add the semantic step's part to the scores of ``pool`` (the best skills, best first),
    from the request's vector ``wanted``."""
    skills = [skill for skill, _ in pool]
    stored = dict(
        db.execute(
            "SELECT skill, coalesce(vec, text) FROM rank_vectors "
            f"WHERE skill IN ({','.join('?' * len(skills))})",
            skills,
        ).fetchall()
    )
    vectors: dict[int, bytes] = {}
    for skill in skills:
        vector = stored.get(skill)
        if isinstance(vector, str):  # no vector yet (fill() has not reached it): computed here
            vector = model.vector(vector)
        if isinstance(vector, bytes) and len(vector) == 4 * len(wanted):
            vectors[skill] = vector
    if len(vectors) < 2:
        return
    cosines = dict(zip(vectors, model.cosines(wanted, list(vectors.values())), strict=True))
    mean = sum(cosines.values()) / len(cosines)
    spread = math.sqrt(sum((c - mean) ** 2 for c in cosines.values()) / len(cosines))
    if spread <= 0:
        return
    highest = (max(cosines.values()) - mean) / spread
    best = pool[0][1]
    for skill, cosine in cosines.items():
        z = (cosine - mean) / spread
        if z > 0:
            total[skill] += SEMANTIC_WEIGHT * best * z / highest


def _passage_scores(
    db: sqlite3.Connection, terms: list[str], skills: list[int]
) -> dict[int, float]:
    """The BM25 score of the best passage of each of ``skills`` (IDF over passages), from
    their lists of words (:func:`_section_terms`); none for the skills whose passages hold no
    term."""
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
    idf = {term: max(math.log((row[0] - df + 0.5) / (df + 0.5)), 1e-6) for term, df in known}
    # the lines of the query's words, in one pass over each list
    lines = re.compile(f"\n((?:{'|'.join(map(re.escape, idf))}) [^\n]*)")
    found: dict[int, float] = {}
    for skill, index in db.execute(
        "SELECT skill, terms FROM rank_section_terms "
        f"WHERE skill IN ({','.join('?' * len(skills))})",
        skills,
    ):
        found_lines = lines.findall(index)
        if not found_lines:
            continue
        lengths = index[: index.index("\n")].split(" ")
        scores: dict[int, float] = {}
        for line in found_lines:
            weight = idf[line[: line.index(" ")]]
            for passage, tf in _passages(line).items():
                length = int(lengths[passage + 1])
                w = tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / PASSAGE.length))
                scores[passage] = scores.get(passage, 0.0) + w * weight
        if scores:
            found[skill] = max(scores.values())
    return {skill: score for skill, score in found.items() if score > 0}


def best_sections(
    db: sqlite3.Connection, query: str, skill_ids: Collection[int], limit: int = 3
) -> dict[int, list[Section]]:
    """The sections of each of ``skill_ids`` that match ``query`` best (skills with none are
    left out): by the number of different query words in the heading (counting double) and
    in the text, then by how often they occur, then in file order. Not bm25: IDF over one
    skill's sections says little. Each skill's words were listed when it was indexed
    (:func:`_section_terms`): a query looks its own words up there, whatever the library's
    size."""
    words = query_terms(query)
    if not words or limit <= 0 or not skill_ids:
        return {}
    needles = [f"\n{term} " for term in stems(db, words)]
    if not needles:
        return {}
    ids = list(skill_ids)
    best: list[int] = []
    for skill_id, index in db.execute(
        f"SELECT skill, terms FROM rank_section_terms WHERE skill IN ({','.join('?' * len(ids))})",
        ids,
    ):
        headings: dict[int, int] = {}  # section -> query words in its heading
        texts: dict[int, tuple[int, int]] = {}  # section -> query words in its text, hits
        for needle in needles:
            start = index.find(needle)
            if start < 0:
                continue
            for place, section, count in _items(index[start + 1 : index.index("\n", start + 1)]):
                if place == "h":
                    headings[section] = headings.get(section, 0) + 1
                elif place == "t":  # not "m": the name and description are not a section
                    distinct, hits = texts.get(section, (0, 0))
                    texts[section] = (distinct + 1, hits + count)
        scores: dict[int, float] = {section: 2 * distinct for section, distinct in headings.items()}
        for section, (distinct, hits) in texts.items():
            scores[section] = scores.get(section, 0.0) + (distinct + hits / (hits + 10))
        # sections are numbered in file order: the section number breaks ties as its line would
        ranked = sorted(scores, key=lambda section: (-scores[section], section))[:limit]
        best += [skill_id * SECTION_SLOTS + section for section in ranked]
    if not best:
        return {}
    marks = ",".join("?" * len(best))
    rows = {
        row[0]: row[1:]
        for row in db.execute(
            f"SELECT id, heading, line FROM rank_sections WHERE id IN ({marks})", best
        )
    }
    found: dict[int, list[Section]] = {}
    for section in best:
        heading, line = rows[section]
        found.setdefault(section // SECTION_SLOTS, []).append(Section("SKILL.md", heading, line))
    return found
