"""The ranker's index in the catalog database: its tables (:data:`SCHEMA`) and how a skill
is written into them (:func:`add`, then :func:`finish`; :func:`remove`). :mod:`.rank` reads
them to answer a query.

A skill is three documents (:data:`DOCUMENTS`), scored apart when a query runs:

* **meta**: the name (hyphens split; the folder name too when it differs) and description;
* **headings**: the section headings of SKILL.md;
* **body**: the text of SKILL.md after the frontmatter.

Words are the tokens of SQLite FTS5's ``porter unicode61`` tokenizer (porter stemming,
Unicode case and diacritic folding), read through ``fts5vocab`` from a scratch FTS5 table
(:func:`scratch`). Each (document, term, skill) is a row of ``rank_postings`` holding BM25's
term-frequency part ``w = tf (k1 + 1) / (tf + k1 (1 - b + b dl / L))``, where ``L`` is a
fixed reference length per document (:data:`DOCUMENTS`: the average over the 581-skill
corpus) instead of the collection's average, so a skill's rows never change when other skills
come and go. ``rank_terms`` holds how many skills hold each term (IDF is computed when a query
runs). The rows are kept sorted by ``(document, term, w)``: a query reads, for each of its
terms, only its best rows.

Sections: every heading of SKILL.md with the text up to the next heading is a row of
``rank_sections`` (its heading and line), its id ``skill_id * SECTION_SLOTS + n``. When a skill
is indexed, its passages' words are listed in ``rank_section_terms``: for each word, how often
each section's heading and text and the name with the description hold it; and each passage's
length (:func:`items` and :func:`passages` read a word's line). The name with the description,
and the start of the body, wait in ``rank_vectors`` for their vectors (:func:`.semantic.fill`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from typing import NamedTuple

from skillc_index.folding import DIACRITICS as _DIACRITICS
from skillc_index.index.scripts import TOKEN_MARKS

__all__ = [
    "DIACRITICS",
    "DOCUMENTS",
    "K1",
    "PASSAGE",
    "PASSAGES",
    "RANK_VERSION",
    "SCHEMA",
    "SECTION_COLUMNS",
    "SECTION_SLOTS",
    "TOKENIZER",
    "B",
    "Document",
    "Heading",
    "SkillText",
    "add",
    "best_rows_sql",
    "bodies_missing",
    "cjk_pairs",
    "documents",
    "finish",
    "items",
    "missing_vectors",
    "passages",
    "remove",
    "scratch",
    "sections",
    "state",
    "store_vectors",
    "stored_vectors",
    "unvectored",
    "vector_texts",
    "waiting_vectors",
    "weight_sql",
]

#: Bumped when the tables, the tokenizer or what a skill's text is read as change (17:
#: ``ı`` read as ``i``, ``ß`` as ``ss``, no variation selector U+FE0E or U+FE0F, as ``search``
#: and ``show`` read them (skillc-index's ``folding``); 16:
#: polytonic Greek without its breathings, half-width Hangul as compatibility jamo, a Khmer
#: or Myanmar consonant stacked under a virama in the grapheme above it; 15:
#: the text folded as ``search``'s (skillc-index's ``folded``: composed, so a decomposed
#: Korean or Japanese text is the composed one); 14:
#: Thai and Lao SARA AM kept with the letter before it in a run's graphemes; 13:
#: full-width ASCII read as ASCII; 12: the marks of Indic, Thai, Lao, Myanmar and Khmer words
#: kept in them, runs of the last four cut in pairs; 11: its headings as ``outline``'s; 10 was
#: a development build's): the catalog then indexes every skill anew. A change of
#: skillc-index's parse does too: the catalog records the index schema version its headings
#: were read under (``index_schema_version``).
RANK_VERSION = 17

#: The catalog's tokenizer: words stemmed, diacritics removed, and the marks of Indic and
#: Southeast Asian scripts kept in words (skillc-index's ``TOKEN_MARKS``).
TOKENIZER = "tokenize='porter unicode61 remove_diacritics 2" + TOKEN_MARKS + "'"
#: The combining marks :data:`TOKENIZER` takes out of a word (skillc-index's, which ``show``
#: takes out too; the rest split words, as any character that is no letter or digit does): a
#: word written decomposed (NFD ``crème``: ``e`` and U+0300) is one word, ``creme``, as it is
#: precomposed (:func:`.rank.query_terms`).
DIACRITICS = _DIACRITICS
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
CREATE TABLE IF NOT EXISTS rank_vectors (
    skill INTEGER NOT NULL, part INTEGER NOT NULL, text TEXT NOT NULL, vec BLOB,
    PRIMARY KEY (skill, part)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rank_vectors_missing ON rank_vectors (skill, part) WHERE vec IS NULL;
CREATE INDEX IF NOT EXISTS rank_vectors_waiting ON rank_vectors (part, skill) WHERE vec IS NULL;
"""
"""``rank_postings``: BM25's term-frequency part ``w`` of each term of each document of each
skill; ``rank_terms``: the number of skills whose document holds the term (``df``);
``rank_count``: the number of skills with each document (doc :data:`PASSAGES`: of passages,
not skills, in both); ``rank_sections``: the sections of each skill's SKILL.md, ``id`` =
``skill_id * SECTION_SLOTS + n``; ``rank_section_terms``: the length of each passage of a
skill and which ones hold each of its words, how often (:func:`_section_terms`);
``rank_vectors``: the texts of each skill that the semantic model (:mod:`.semantic`) reads
(:func:`vector_texts`: ``part`` 0 its name and description, 1 the start of its body), and
their vectors: NULL until :func:`.semantic.fill` computes them, once the words are indexed.
Two partial indexes hold only the texts still waiting for their vector (none once filled):
by skill (:func:`unvectored`'s lists of skills) and by part (:func:`missing_vectors`, every
name's first, and :func:`bodies_missing`: without it each batch of a fill sorted every
waiting text, 42 ms at 6,616 skills for 16 vectors of about 12 ms each). The stored heads of
:mod:`.heads` (``rank_heads``) are not part of it: the find server's first fill makes them."""


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
#: after the fusion, the best passage of each of the :data:`~.rank.RERANK` best skills adds its
#: score (divided by the best one of those skills) times this weight; the length is the
#: corpus's average section.
PASSAGE = Document("sections", 0.4, 72.0)
#: The sections' ``doc`` in ``rank_terms`` and ``rank_count``.
PASSAGES = len(DOCUMENTS)
#: BM25's parameters (FTS5's and most engines' defaults).
K1, B = 1.2, 0.75
#: Sections of one skill indexed (rowid slots per skill); a section's text is cut at
#: SECTION_CHARS characters.
SECTION_SLOTS = 1024
SECTION_CHARS = 4000
#: Sections tokenized at once when a skill is indexed (:func:`_section_terms`).
SECTION_COLUMNS = 32


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


def _names(text: SkillText) -> str:
    name = text.name.replace("-", " ").replace("_", " ")
    folder = text.folder.replace("-", " ").replace("_", " ")
    return name if folder == name else f"{name} {folder}"


def sections(text: SkillText) -> list[tuple[str, str, int]]:
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
    _changed()
    remove(db, skill_id)
    scratch(db)
    db.execute(
        "INSERT INTO temp.rank_tokens (meta, body, headings) VALUES (?, ?, ?)", documents(text)
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
    numbers = " ".join(f"WHEN '{d.name}' THEN {n}" for n, d in enumerate(DOCUMENTS))
    db.execute(
        "INSERT INTO temp.rank_pending (skill, doc, term, w) "
        f"SELECT ?, CASE col {numbers} END, term, "
        f"{weight_sql('cnt', 'sum(cnt) OVER (PARTITION BY col)', f'CASE col {lengths} END')} "
        "FROM temp.rank_tokens_v",
        (skill_id,),
    )
    db.execute("INSERT INTO temp.rank_tokens (rank_tokens) VALUES ('delete-all')")
    found = sections(text)
    base = skill_id * SECTION_SLOTS
    db.executemany(
        "INSERT INTO rank_sections (id, heading, line) VALUES (?, ?, ?)",
        [(base + n, heading, line) for n, (heading, _, line) in enumerate(found)],
    )
    db.execute(
        "INSERT INTO rank_section_terms (skill, terms) VALUES (?, ?)",
        (skill_id, _section_terms(db, skill_id, meta(text), found)),
    )
    # the vector comes later (fill()): the words of every skill first, so that an answer is
    # whole as soon as they are indexed (the model takes longer than the rest of a skill)
    db.executemany(
        "INSERT INTO rank_vectors (skill, part, text) VALUES (?, ?, ?)",
        [(skill_id, part, value) for part, value in enumerate(vector_texts(text))],
    )


def documents(text: SkillText) -> tuple[str, str, str]:
    """The texts of a skill's documents, in :data:`DOCUMENTS`' order: its names with its
    description (:func:`meta`), its body, its headings."""
    return meta(text), cjk_pairs(text.body), cjk_pairs(_heading_text(text))


def meta(text: SkillText) -> str:
    """The text of a skill's first document: its names with its description (also its first
    passage)."""
    return cjk_pairs(f"{_names(text)}\n{text.description}")


def cjk_pairs(text: str) -> str:
    """``text`` as the catalog cuts it into words: each run of characters of a script written
    without spaces between words (Han, Kana, Hangul...: skillc-index's ``CJK_CHARS``) as its
    overlapping pairs of characters, a word each (``作成する`` -> ``作成 成す する``; a run of
    one character stays one), a run of Thai, Lao, Myanmar or Khmer (``SPACELESS_CHARS``) as
    its overlapping pairs of graphemes (a letter with its marks, skillc-index's ``GRAPHEME``:
    ``ต้มยำ`` -> ``ต้ม มยำ``),
    the rest as it is; all of it first folded as ``search`` folds it (skillc-index's
    ``folded``: the full-width forms of ASCII as ASCII, half-width katakana and Hangul
    full-width, ``ＰＤＦ`` is ``PDF``, ``ﾚﾋﾞｭｰ`` ``レビュー``; composed; accented Latin and
    Greek letters decomposed). The tokenizer keeps such a run
    as one word, so a request matched only the skills holding that very run; the pairs are
    what CJK search without a dictionary matches on. Every document, passage and request goes
    through it (:func:`documents`, :func:`_section_terms`, the first answer's passages,
    :func:`.rank.query_terms`)."""
    global _CJK_RUN
    if text.isascii():
        return text
    from skillc_index.folding import folded

    text = folded(text)
    data = text.encode("utf-8", "surrogatepass")
    if not any(lead in data for lead in _CJK_LEADS):
        return text  # most texts: a memchr a byte over their bytes (a pattern was 5x slower)
    if _CJK_RUN is None:
        global _GRAPHEME
        from skillc_index.index.scripts import CJK_CHARS, GRAPHEME

        _CJK_RUN = re.compile(f"({CJK_CHARS}+)|(?:{GRAPHEME})+")
        _GRAPHEME = re.compile(GRAPHEME)
    return _CJK_RUN.sub(_pairs, text)


def _pairs(run: re.Match[str]) -> str:
    found = run.group()
    if run.group(1) is None:  # Thai, Lao, Myanmar, Khmer: by graphemes
        assert _GRAPHEME is not None
        graphemes = _GRAPHEME.findall(found)
        return f" {' '.join(map(str.__add__, graphemes, graphemes[1:])) or found} "
    return f" {' '.join(map(str.__add__, found, found[1:])) or found} "


_CJK_RUN: re.Pattern[str] | None = None
_GRAPHEME: re.Pattern[str] | None = None
#: The first byte of the UTF-8 of every character of ``CJK_CHARS`` from U+1000 to U+EFFF but
#: CJK radicals (U+2E80-U+2FDF: E2 is the first byte of most punctuation too; EF that of the
#: emoji's variation selector), E1 and E3 to ED (Myanmar and Khmer are E1 too), and the first
#: two of Thai and Lao (E0 B8 to E0 BB): a text holding none is left as it is, so a text (or
#: request) whose only such characters are radicals, half-width or compatibility forms, or
#: past U+FFFF keeps them as runs, as before.
_CJK_LEADS = (
    *(bytes([lead]) for lead in (0xE1, *range(0xE3, 0xEE))),
    *(bytes([0xE0, second]) for second in range(0xB8, 0xBC)),
)


def weight_sql(count: str, length: str, reference: str) -> str:
    """The SQL expression of BM25's term-frequency part ``w`` of a word ``count`` times in a
    document of ``length`` tokens whose reference length is ``reference`` (each an SQL
    expression): one text, so that every writer of ``rank_postings`` computes the same bits."""
    return f"{count} * {K1 + 1} / ({count} + {K1} * (1 - {B} + {B} * ({length}) / {reference}))"


#: The body's text the semantic model reads (part 1 of :func:`vector_texts`), at most, in
#: characters; the model reads its first :data:`.embedding.BODY_TOKENS` tokens of it.
BODY_VECTOR_CHARS = 2000


def vector_texts(text: SkillText) -> list[str]:
    """The texts of a skill that get a vector (:mod:`.semantic`), ``part`` by ``part``: 0 its
    name and description; 1 its name and the start of its body, white space collapsed, when
    the body holds a word (a request told in the user's own words meets the skill there,
    not in its description: issue 35)."""
    name = text.name.replace("-", " ")
    texts = [f"{name}: {text.description}"]
    body = " ".join(text.body[: 2 * BODY_VECTOR_CHARS].split())[:BODY_VECTOR_CHARS]
    if any(character.isalnum() for character in body):
        texts.append(f"{name}: {body}")
    return texts


def _section_terms(
    db: sqlite3.Connection, skill_id: int, meta: str, sections: list[tuple[str, str, int]]
) -> str:
    """A skill's passages (its name with its description, passage ``m``; each section ``N`` of
    SKILL.md, heading and text) as words, for :func:`.rank.best_sections` and
    :func:`.rank.passage_scores`: a first line of each passage's length in tokens (``m``'s, then
    the sections' in order), then a line per word, ``\nWORD ITEM...``, an item ``m:COUNT``,
    ``hN:COUNT`` or ``N:COUNT`` when the name and description, section ``N``'s heading or its
    text hold it COUNT times. A query then finds its words with ``str.find`` instead of
    cutting the passages into words again. The passages go :data:`SECTION_COLUMNS` sections
    at a time through a scratch table with a column for each heading and text (and ``m``),
    whose ``fts5vocab`` gives each word's count per column. How many passages hold each word
    goes to ``rank_pending`` (doc :data:`PASSAGES`, ``w``: the count), for :func:`finish`; the
    number of passages to ``rank_count`` at once."""
    chunks: list[str] = []
    lengths = [0] * (1 + len(sections))
    for start in range(0, max(len(sections), 1), SECTION_COLUMNS):
        values: list[str | None] = [meta if start == 0 else None]
        values += [None] * (2 * SECTION_COLUMNS)
        for n, (heading, body, _) in enumerate(sections[start : start + SECTION_COLUMNS]):
            values[1 + 2 * n], values[2 + 2 * n] = cjk_pairs(heading), cjk_pairs(body)
        db.execute(
            f"INSERT INTO temp.rank_section_q VALUES ({','.join('?' * len(values))})", values
        )
        chunks.append(_chunk_lines(db, skill_id, start, lengths))
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


def _chunk_lines(db: sqlite3.Connection, skill_id: int, start: int, lengths: list[int]) -> str:
    """The lines of :func:`_section_terms` for the sections in the scratch table (numbered from
    ``start``), from one read of its ``fts5vocab`` (each word's count per column, word by
    word): how many passages hold each word goes to ``rank_pending`` (doc
    :data:`PASSAGES`, ``w``: the count, the name and description passage ``-1``), and each
    passage's length is added to ``lengths`` (index ``passage + 1``). One pass in Python
    over the rows costs less than the three grouped reads of the vocabulary it replaces."""
    lines: list[str] = []
    held: list[tuple[int, int, str, int]] = []
    term = ""
    found: list[str] = []
    places: set[int] = set()
    for word, column, count in db.execute("SELECT term, col, cnt FROM temp.rank_section_v"):
        if word != term:
            if found:
                lines.append(f"\n{term} {' '.join(found)}")
                held.append((skill_id, PASSAGES, term, len(places)))
            term, found, places = word, [], set()
        if column == "m":
            passage = -1
            found.append(f"m:{count}")
        elif column[0] == "h":
            passage = start + int(column[1:])
            found.append(f"h{passage}:{count}")
        else:
            passage = start + int(column[1:])
            found.append(f"{passage}:{count}")
        places.add(passage)
        lengths[passage + 1] += count
    if found:
        lines.append(f"\n{term} {' '.join(found)}")
        held.append((skill_id, PASSAGES, term, len(places)))
    db.executemany("INSERT INTO temp.rank_pending (skill, doc, term, w) VALUES (?, ?, ?, ?)", held)
    return "".join(lines)


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


def scratch(db: sqlite3.Connection) -> None:
    """The connection's scratch tables (in ``temp``, made once): ``rank_tokens``, a
    contentless FTS5 table holding one skill at a time, whose ``fts5vocab`` gives each word's
    count as the catalog's tokenizer cuts it; ``rank_pending`` and ``rank_added``, the words of
    the skills added since :func:`finish` (``first``: a skill's first row); ``rank_section_q``
    (also contentless), the heading and text of :data:`SECTION_COLUMNS` sections of the skill
    being indexed, a column each, whose ``fts5vocab`` says which words each holds
    (:func:`_section_terms`), and in the first round the name with the description."""
    if db.execute("SELECT 1 FROM temp.sqlite_master WHERE name = 'rank_tokens'").fetchone():
        return
    db.execute(
        f"CREATE VIRTUAL TABLE temp.rank_tokens USING fts5(meta, body, headings, content='', "
        f"{TOKENIZER})"
    )
    db.execute("CREATE VIRTUAL TABLE temp.rank_tokens_v USING fts5vocab(temp, rank_tokens, col)")
    columns = "m, " + ", ".join(f"h{n}, t{n}" for n in range(SECTION_COLUMNS))
    db.execute(
        f"CREATE VIRTUAL TABLE temp.rank_section_q USING fts5({columns}, content='', {TOKENIZER})"
    )
    db.execute(
        "CREATE VIRTUAL TABLE temp.rank_section_v USING fts5vocab(temp, rank_section_q, col)"
    )
    db.execute("CREATE TABLE temp.rank_pending (skill INTEGER, doc INTEGER, term TEXT, w REAL)")
    db.execute("CREATE TABLE temp.rank_added (skill INTEGER PRIMARY KEY, first INTEGER)")


def remove(db: sqlite3.Connection, skill_id: int) -> None:
    _changed()
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
        counts = [(len(passages(line)), line[: line.index(" ")]) for line in lines]
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


def items(line: str) -> Iterator[tuple[str, int, int]]:
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


def passages(line: str) -> dict[int, int]:
    """The passages holding a word and how often, from its line: ``{passage: count}``."""
    found: dict[int, int] = {}
    for _place, passage, count in items(line):
        found[passage] = found.get(passage, 0) + count
    return found


# -- the vectors (the semantic step, :mod:`.semantic`) ------------------------------------------


def missing_vectors(
    db: sqlite3.Connection, limit: int | None, start: float = 0.0
) -> list[tuple[int, int, str]]:
    """``(skill, part, text)`` of at most ``limit`` texts (:func:`vector_texts`; None: all)
    whose vector is not computed yet: every skill's name and description (part 0) before
    any body's text, so that the semantic step ranks by the names' vectors a third of the
    way through a library's filling (:func:`.semantic.names_only`). Within a part, from
    ``start`` (0 to 1) of the way between its first and last waiting skill, then from the
    first: a fill that moves ``start`` at each batch reaches every collection of a library
    as it goes, not one collection after the other (:func:`.semantic.fill`)."""
    if limit is None:
        return db.execute(
            "SELECT skill, part, text FROM rank_vectors WHERE vec IS NULL ORDER BY part"
        ).fetchall()
    waiting = "FROM rank_vectors WHERE vec IS NULL AND part"
    read = f"SELECT skill, part, text {waiting} = ? AND skill %s ? ORDER BY part, skill LIMIT ?"
    rows: list[tuple[int, int, str]] = []
    part = -1
    while len(rows) < limit:
        (part,) = db.execute(f"SELECT min(part) {waiting} > ?", (part,)).fetchone()
        if part is None:
            break
        (first,) = db.execute(f"SELECT min(skill) {waiting} = ?", (part,)).fetchone()
        (last,) = db.execute(f"SELECT max(skill) {waiting} = ?", (part,)).fetchone()
        begin = first + int(min(max(start, 0.0), 1.0) * (last - first))
        rows += db.execute(read % ">=", (part, begin, limit - len(rows))).fetchall()
        if len(rows) < limit and begin > first:
            rows += db.execute(read % "<", (part, begin, limit - len(rows))).fetchall()
    return rows


def unvectored(db: sqlite3.Connection, names: bool = False) -> frozenset[int]:
    """The skills with a text whose vector is not computed yet (``names``: their name and
    description's, part 0) (the partial index: no text read). Kept while the catalog is in
    the same :func:`state`: a find in the fill's window asks three times (the ranker's
    label, the words' pool, the pool's vectors), 13 ms each with 2,700 names waiting."""
    key = (id(db), names)
    now = state(db)
    kept = _UNVECTORED.get(key)
    if kept is not None and kept[0] is db and kept[1] == now:
        return kept[2]
    where = "vec IS NULL AND part = 0" if names else "vec IS NULL"
    found = frozenset(s for (s,) in db.execute(f"SELECT skill FROM rank_vectors WHERE {where}"))
    if len(_UNVECTORED) >= 8:  # a few connections (the MCP server's threads), not more
        _UNVECTORED.clear()
    _UNVECTORED[key] = (db, now, found)
    return found


_UNVECTORED: dict[tuple[int, bool], tuple[sqlite3.Connection, tuple[int, int], frozenset[int]]] = {}


def bodies_missing(db: sqlite3.Connection, more_than: int = 0) -> bool:
    """Whether more than ``more_than`` bodies' texts (part 1 and after) have no vector yet
    (:func:`.semantic.names_only`)."""
    found = db.execute(
        "SELECT count(*) FROM (SELECT 1 FROM rank_vectors WHERE vec IS NULL AND part > 0 LIMIT ?)",
        (more_than + 1,),
    )
    return bool(found.fetchone()[0] > more_than)


def waiting_vectors(db: sqlite3.Connection) -> tuple[int, int]:
    """How many names' texts (part 0) and bodies' texts (part 1 and after) wait for their
    vector (the partial index: no text read)."""
    row = db.execute(
        "SELECT count(*), count(*) FILTER (WHERE part > 0) FROM rank_vectors WHERE vec IS NULL"
    ).fetchone()
    return int(row[0]) - int(row[1]), int(row[1])


def store_vectors(db: sqlite3.Connection, vectors: list[tuple[int, int, str, bytes]]) -> None:
    """Store ``(skill, part, text, vector)``: each vector where that part's text is still
    ``text`` (a skill indexed again meanwhile waits for the vector of its new text)."""
    _CHANGES[1] += 1
    db.executemany(
        "UPDATE rank_vectors SET vec = ? WHERE skill = ? AND part = ? AND text = ?",
        [(vector, skill, part, text) for skill, part, text, vector in vectors],
    )


def stored_vectors(
    db: sqlite3.Connection, skills: list[int]
) -> dict[int, list[tuple[int, bytes | str]]]:
    """The vectors of each of ``skills``, ``(part, vector)`` in part order, or a part's text
    while it has none (the skills the catalog does not hold are left out)."""
    found: dict[int, list[tuple[int, bytes | str]]] = {}
    for skill, part, value in db.execute(
        "SELECT skill, part, coalesce(vec, text) FROM rank_vectors "
        f"WHERE skill IN ({','.join('?' * len(skills))}) ORDER BY skill, part",
        skills,
    ):
        found.setdefault(skill, []).append((part, value))
    return found


def all_vectors(db: sqlite3.Connection) -> list[tuple[int, int, bytes]]:
    """``(skill, part, vector)`` of every computed vector (dense retrieval's matrix,
    :func:`.semantic.nearest`)."""
    return db.execute("SELECT skill, part, vec FROM rank_vectors WHERE vec IS NOT NULL").fetchall()


#: Changes by this process: skills added or removed; those and vectors stored.
_CHANGES = [0, 0]


def _changed() -> None:
    _CHANGES[0] += 1
    _CHANGES[1] += 1


def state(db: sqlite3.Connection, vectors: bool = True) -> tuple[int, int]:
    """What this process's copies of the ranker's tables are valid for: how many times this
    process added or removed a skill or (with ``vectors``) stored vectors, and ``PRAGMA
    data_version`` (other connections' writes). :func:`.semantic.nearest`'s matrix is kept
    while it is the same, :mod:`.heads`' rows while it is without ``vectors``."""
    from skillc_gateway.catalog.database import data_version

    return _CHANGES[1 if vectors else 0], data_version(db)


def best_rows_sql(columns: list[str], limited: bool = True) -> str:
    """One statement reading, for each select list of ``columns`` in turn, the rows of one
    word of one document, best ``w`` first (``UNION ALL``). Its parameters, for each: those
    of its select list, the document, the word, and with ``limited`` how many rows."""
    limit = " LIMIT ?" if limited else ""
    return " UNION ALL ".join(
        f"SELECT * FROM (SELECT {select} FROM rank_postings "
        f"WHERE doc = ? AND term = ? ORDER BY w DESC, skill DESC{limit})"
        for select in columns
    )
