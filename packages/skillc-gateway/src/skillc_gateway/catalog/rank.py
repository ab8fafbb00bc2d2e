"""The skill ranker of ``skc find``: which installed skills fit a task described in words.

Lexical BM25 over an impact-ordered index in plain SQLite tables (:mod:`.postings` writes
them). A skill is three documents scored apart and fused, so that a long body never drowns a
match in the name or description (:data:`~.postings.DOCUMENTS`: meta, body, headings). IDF
comes from ``rank_terms`` (how many skills hold each term) when a query runs, with the counts
of a background collection added (:mod:`.background`). A query reads, for each of its terms,
only its best rows, and sums them in SQL (from the second find on an unchanged catalog, with
the semantic extra's numpy: from this process's memory, :mod:`.heads`, to the same scores);
the cost of a query is bounded whatever the number of skills (FTS5's ``bm25()`` scores every
skill that holds a query word). Every term reads its :data:`DEPTH` best rows, common or
rare: a skill that holds several of the request's common words, none of them often, is found
by their sum (reading fewer rows of a common word, in proportion to its IDF, left such skills
out of the pool before any later step could see them: issue 35). A ``--path`` filter that
keeps (nearly) every skill costs nothing more: the query asks for as many more rows as the
filter leaves skills out.

Each document's scores are divided by the most a skill could score there, the sum of the IDF
(times ``k1 + 1``) of the request's words that any document holds, then summed with the weights
of :data:`~.postings.DOCUMENTS` (meta 1, body 0.7, headings 0.3): a document counts as much as
the share of the request it matches, not as its rank among the others (the best name of a
library that matches one common word of the request counted 1, as much as a name that matched
all of it). Then the sections of SKILL.md, and the name with the description, count as passages:
the :data:`RERANK` best skills each add the BM25 score of their best passage (from
``rank_section_terms``, IDF over passages), divided by the best of those, times
:data:`~.postings.PASSAGE`'s weight (0.4): a skill that holds the request's words in one place
beats one that scatters them. The query keeps its distinct words minus a stop list of function
words and request filler ("please", "want", "need"...), at most :data:`MAX_TERMS`. With the
``semantic`` extra, the best skills then add how close the vector of their name and description
is to the request's (:func:`.semantic.blend`), and the families of skills in the best 30 (a
vendor's pack, a template over vendors) give way to other skills (:func:`.families.spread`);
with or without it, a template's member whose vendor the request names gains.
What was tried and what each step gained is in
the gateway README ("How find ranks").

The best sections of the skills shown are one read of their lists of words
(``rank_section_terms``) and a ``str.find`` per query word, those of the passages' step kept
for them (:func:`_word_lines`): no section is cut into words again when a query runs.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Collection
from typing import TYPE_CHECKING, NamedTuple

from skillc_gateway.catalog import background, heads
from skillc_gateway.catalog.families import spread
from skillc_gateway.catalog.postings import (
    DIACRITICS,
    DOCUMENTS,
    K1,
    PASSAGE,
    PASSAGES,
    SECTION_SLOTS,
    B,
    best_rows_sql,
    cjk_pairs,
    items,
    passages,
    scratch,
)

if TYPE_CHECKING:
    from concurrent.futures import Future

    from skillc_gateway.catalog import embedding, semantic

__all__ = [
    "RERANK",
    "STOPWORDS",
    "Section",
    "best_sections",
    "passage_scores",
    "prepare",
    "query_terms",
    "rank",
    "stems",
]

#: The passages' step: the best RERANK skills after the fusion (:data:`~.postings.PASSAGE`).
RERANK = 10
#: Rows read per query term and document, at most: the skills with the highest ``w`` for that
#: term, whatever its IDF.
DEPTH = 300
MAX_TERMS = 128
#: Candidates read from each document's ranking before fusion (more when a filter drops them).
POOL = 200
#: One request's word lines (:func:`_word_lines`), made by its caller (:func:`.answer.answer`)
#: and shared by the request's :func:`passage_scores` and :func:`best_sections`: for each skill
#: looked at, its list's first line and each word's place and line (None: not held), or None
#: when it has no list.
Lines = dict[int, tuple[str, dict[str, tuple[int, str] | None]] | None]

_WORD = re.compile(r"[^\W_]+")
#: A word of a request that is not ASCII: the marks the catalog's tokenizer keeps in words
#: (Devanagari vowel signs, Thai tone marks: skillc-index's ``SCRIPT_MARKS``) are in it.
_SCRIPT_WORD: re.Pattern[str] | None = None
_MARKS: re.Pattern[str] | None = None
_STOPWORDS = """a an and are as at be but by for if in into is it no not of on or such that the
their then there these they this to was will with i me my we our you your he she him her its do
does did so up can could would should have has had been being am from about which what when
where who how all any some just also than too very want need
like make sure help please using use get let one way something anything thing things new us
them every each other more most much many well now right really actually might"""
#: Function words and request filler: never searched.
STOPWORDS = frozenset(_STOPWORDS.split())


class Section(NamedTuple):
    file: str
    heading: str
    line: int


def query_terms(query: str) -> list[str]:
    """The distinct words of ``query`` that count, in order: lowercased, runs of Han, Kana or
    Hangul as their pairs of characters (:func:`.postings.cjk_pairs`, as the documents), no
    stop words, no single characters, at most :data:`MAX_TERMS`. Text that is not ASCII is
    first folded as the documents are (in :func:`.postings.cjk_pairs`: composed, so a
    decomposed ``crème`` is the precomposed one, accented Latin letters decomposed), and the
    combining marks the tokenizer takes out of words (:data:`~.postings.DIACRITICS`) are
    taken out after lowercasing (``İ`` lowercases to ``i`` and U+0307): else they split the word
    (``['cre', 'me']``, ``stanbul``) where the tokenizer cut the skills' text into one. The
    marks of Indic and Southeast Asian words stay in them, as the tokenizer keeps them (``कोमा``
    is one word, not ``क`` and ``म``), and Thai, Lao, Myanmar and Khmer runs are their pairs
    of graphemes, as in the documents."""
    text = query.lower()  # ASCII: cjk_pairs leaves it as it is
    words = _WORD
    if not query.isascii():
        global _MARKS, _SCRIPT_WORD
        if _MARKS is None or _SCRIPT_WORD is None:
            from skillc_index.index.scripts import SCRIPT_MARKS

            _MARKS = re.compile(f"[{DIACRITICS}]+")
            _SCRIPT_WORD = re.compile(f"(?:[^\\W_]|{SCRIPT_MARKS})+")
        text = _MARKS.sub("", cjk_pairs(query).lower())
        words = _SCRIPT_WORD
    terms: list[str] = []
    seen: set[str] = set()
    for word in words.findall(text):
        if len(word) > 1 and word not in STOPWORDS and word not in seen:
            seen.add(word)
            terms.append(word)
            if len(terms) == MAX_TERMS:
                break
    return terms


def _model(wanted: bool | None = None) -> embedding.Model | None:
    """The semantic model, None without the extra or when not ``wanted`` (None: as this
    process's environment says; the module is light: nothing imported)."""
    from skillc_gateway.catalog import embedding

    return embedding.model(wanted)


def _request_later(
    db: sqlite3.Connection, model: embedding.Model, query: str
) -> Future[semantic.Request]:
    """:func:`.semantic.request_later` (the module imported when the model is there)."""
    from skillc_gateway.catalog import semantic

    return semantic.request_later(db, model, query)


def prepare(db: sqlite3.Connection, query: str, semantic: bool | None = None) -> None:
    """Start what a find of ``query`` computes from its text alone, in the model's thread:
    the request's vector and its closeness to every skill's (:func:`.semantic.request_later`,
    which the find then takes from there). Nothing without the model (``semantic`` as in
    :func:`rank`), nor when the find would not rank (no word of ``query`` counts)."""
    model = _model(semantic)
    words = query_terms(query)
    if model is not None and words and stems(db, words):
        _request_later(db, model, query)


def stems(db: sqlite3.Connection, terms: list[str]) -> list[str]:
    """The index terms of query words: each word through the catalog's tokenizer (kept for
    the next calls: :func:`rank` and :func:`best_sections` ask for the same ones)."""
    key = " ".join(terms)
    found = _STEMS.get(key)
    if found is None:
        scratch(db)
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
    memory: heads.Rows | None = None,
) -> tuple[dict[int, float], dict[str, float], float]:
    """BM25 scores of the best ``pool`` candidates for ``terms`` in one document, the IDF of
    the terms the document's index knows and the number of skills it counts over (the
    catalog's and the :mod:`.background`'s: :func:`_ranked`'s scale), from the :data:`DEPTH`
    best rows of each term; every row when a filter drops most of those; the best rows
    summed from this process's memory with ``memory`` (:mod:`.heads`)."""
    known = db.execute(
        "SELECT term, df, (SELECT n FROM rank_count WHERE doc = ?) FROM rank_terms "
        f"WHERE doc = ? AND term IN ({','.join('?' * len(terms))})",
        (doc, doc, *terms),
    ).fetchall()
    if not known:
        return {}, {}, 0
    skills = known[0][2] or 0  # the catalog's: how many rows a filter may leave out
    extra, counts = background.frequencies(doc, [term for term, _, _ in known])
    n = skills + extra
    weights: list[tuple[str, int, float]] = []  # term, df (the catalog's: its rows), IDF
    for term, df, _ in known:
        held = df + counts.get(term, 0)
        idf = math.log((n - held + 0.5) / (held + 0.5))
        weights.append((term, df, idf if idf > 0 else 1e-6))  # FTS5's floor for common words

    def query(level: int, limit: int | None) -> list[tuple[int, float]]:
        if level == 0 and memory is not None:
            return memory.summed(doc, [(term, idf) for term, _, idf in weights], DEPTH, limit)
        # parameters only: the statement's text depends on the number of terms, and SQLite's
        # statement cache spares most queries the planning of a long UNION
        args: list[object] = []
        for term, _, idf in weights:
            args += [idf, doc, term] if level else [idf, doc, term, DEPTH]
        rows = best_rows_sql(["skill, w * ? AS s"] * len(weights), limited=level == 0)
        sql = f"SELECT skill, sum(s) FROM ({rows}) GROUP BY skill ORDER BY 2 DESC, 1"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return db.execute(sql, args).fetchall()

    # With a filter, the best `pool` candidates are among the best `pool + (skills left out)`
    # rows: when the filter keeps (nearly) every skill, the query stays bounded.
    limit = pool if candidates is None else pool + max(0, skills - len(candidates))
    idfs = {term: idf for term, _, idf in weights}
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
        cut = level == 0 and any(df > DEPTH for _, df, _ in weights)  # rows left unread
        if len(kept) >= pool or not cut:
            return dict(kept[:pool]), idfs, n
        if candidates is not None and len(kept) < min(pool, len(rows)) // 2:
            level = 1  # the filter dropped most of the best rows: read every row
        else:
            return dict(kept[:pool]), idfs, n


def rank(
    db: sqlite3.Connection,
    query: str,
    limit: int,
    candidates: Collection[int] | None = None,
    named: Collection[int] = (),
    semantic: bool | None = None,
    lines: Lines | None = None,
) -> list[tuple[int, float]]:
    """The skills that fit ``query``, best first, with their scores (at most ``limit``;
    only ids in ``candidates`` when given; empty when no word of the query matches).
    ``named``: the skills whose name the query is; they come first, a point above the best
    score of the others. ``semantic``: whether the semantic step ranks too, when the model
    is there (None: as this process's environment says). ``lines``: the request's word
    lines (:data:`Lines`), shared with its :func:`best_sections`."""
    ranked = _ranked(db, query, limit, candidates, semantic, {} if lines is None else lines)
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
    lines: Lines,
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
    # the request's vector, and its closeness to every skill's, computed while the lexical
    # steps run
    wanted = _request_later(db, model, query) if model is not None else None
    total: dict[int, float] = {}
    memory = heads.kept(db, model.numpy) if model is not None else None
    found = [
        _scores(db, doc, terms, candidates, max(POOL, limit), memory)
        for doc in range(len(DOCUMENTS))
    ]
    # Each document counts as the share of the request its words reach: its BM25 score over
    # the most a skill could score there, (k1 + 1) times the IDF of each word of the request
    # that some document holds (a word this document never holds, at the IDF of a word of
    # none of its skills). A name that holds one common word of the request then weighs
    # little, however it compares with the other names.
    held = {term for _, idfs, _ in found for term in idfs}
    for document, (scores, idfs, n) in zip(DOCUMENTS, found, strict=True):
        unheld = math.log((n + 0.5) / 0.5)
        scale = (K1 + 1) * sum(idfs.get(term, unheld) for term in held)
        if not scores or scale <= 0:
            continue
        for skill, score in scores.items():
            total[skill] = total.get(skill, 0.0) + document.weight * score / scale
    ranked = sorted(total.items(), key=lambda item: (-item[1], item[0]))
    passages = passage_scores(db, terms, [skill for skill, _ in ranked[:RERANK]], lines)
    if passages:
        # Only the first RERANK gain: each keeps its place above the rest.
        best = max(passages.values())
        for skill, score in passages.items():
            total[skill] += PASSAGE.weight * score / best
        ranked = sorted(total.items(), key=lambda item: (-item[1], item[0]))
    if model is not None and wanted is not None:
        # the lexical pool, and the skills nearest the request that it lacks (dense
        # retrieval: reached even when they share no word with it), reranked by closeness
        from skillc_gateway.catalog import semantic as step

        vector, closeness = wanted.result()
        pool = step.computable(db, ranked[: step.pool_size(ranked[0][1] if ranked else 1.0)])
        lexical = {skill for skill, _ in pool}
        near = step.nearest(db, model, vector, candidates, step.DENSE_POOL, lexical, closeness)
        step.blend(db, model, vector, pool, near, total)
        ranked = sorted(total.items(), key=lambda item: (-item[1], item[0]))
    # one family (a vendor's pack, a template over vendors) does not fill the top, after the
    # semantic step; a template's member the request names gains, with or without it
    ranked = spread(db, words, ranked, decay=model is not None)
    return [(skill, round(score, 4)) for skill, score in ranked[:limit]]


def passage_scores(
    db: sqlite3.Connection, terms: list[str], skills: list[int], lines: Lines | None = None
) -> dict[int, float]:
    """The BM25 score of the best passage of each of ``skills`` (IDF over passages), from
    their lists of words (:func:`.postings.add`); none for the skills whose passages hold no
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
    found: dict[int, float] = {}
    mine: Lines = {} if lines is None else lines
    for skill, (header, held) in _word_lines(db, list(idf), skills, mine).items():
        if not held:
            continue
        lengths = header.split(" ")
        scores: dict[int, float] = {}
        for line in held:  # in the list's order: the sums below add in that order
            weight = idf[line[: line.index(" ")]]
            for passage, tf in passages(line).items():
                length = int(lengths[passage + 1])
                w = tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / PASSAGE.length))
                scores[passage] = scores.get(passage, 0.0) + w * weight
        if scores:
            found[skill] = max(scores.values())
    return {skill: score for skill, score in found.items() if score > 0}


def _word_lines(
    db: sqlite3.Connection, terms: list[str], skills: Collection[int], known: Lines
) -> dict[int, tuple[str, list[str]]]:
    """For each of ``skills`` that has a list of words (``rank_section_terms``), by id: the
    list's first line (each passage's length) and the lines of those of ``terms`` it holds,
    in the list's order. A word's line is found with ``str.find`` (a regular expression of
    the words, compiled anew for each request, cost more than the search: 1.9-4.1 against
    1.4-3.4 ms a request); what was found is kept in ``known``, the request's own
    (:data:`Lines`): a find's :func:`passage_scores`, then :func:`best_sections` for the same
    words of mostly the same skills (the search was 0.8 ms of each at 20,335 skills)."""
    wanted = sorted({skill for skill in skills if _lacks(known, skill, terms)})
    if wanted:
        rows = dict(
            db.execute(
                "SELECT skill, terms FROM rank_section_terms "
                f"WHERE skill IN ({','.join('?' * len(wanted))})",
                wanted,
            ).fetchall()
        )
        for skill in wanted:
            index = rows.get(skill)
            if index is None:
                known[skill] = None
                continue
            header, lines = known.get(skill) or (index[: index.index("\n")], {})
            for term in terms:
                if term in lines:
                    continue
                start = index.find(f"\n{term} ")
                end = index.find("\n", start + 1)
                lines[term] = (start, index[start + 1 : end]) if start >= 0 else None
            known[skill] = (header, lines)
    found: dict[int, tuple[str, list[str]]] = {}
    for skill in sorted(set(skills)):
        entry = known.get(skill)
        if entry is not None:
            held = sorted(line for term in terms if (line := entry[1][term]) is not None)
            found[skill] = (entry[0], [text for _, text in held])
    return found


def _lacks(
    known: dict[int, tuple[str, dict[str, tuple[int, str] | None]] | None],
    skill: int,
    terms: list[str],
) -> bool:
    """Whether :func:`_word_lines` has yet to look for some of ``terms`` in ``skill``'s list."""
    if skill not in known:
        return True
    entry = known[skill]
    return entry is not None and any(term not in entry[1] for term in terms)


def best_sections(
    db: sqlite3.Connection,
    query: str,
    skill_ids: Collection[int],
    limit: int = 3,
    lines: Lines | None = None,
) -> dict[int, list[Section]]:
    """The sections of each of ``skill_ids`` that match ``query`` best (skills with none are
    left out): by the number of different query words in the heading (counting double) and
    in the text, then by how often they occur, then in file order. Not bm25: IDF over one
    skill's sections says little. Each skill's words were listed when it was indexed
    (:func:`.postings.add`): a query looks its own words up there, whatever the library's
    size."""
    words = query_terms(query)
    if not words or limit <= 0 or not skill_ids:
        return {}
    terms = stems(db, words)
    if not terms:
        return {}
    best: list[int] = []
    mine: Lines = {} if lines is None else lines
    for skill_id, (_, held) in _word_lines(db, terms, skill_ids, mine).items():
        headings: dict[int, int] = {}  # section -> query words in its heading
        texts: dict[int, tuple[int, int]] = {}  # section -> query words in its text, hits
        for line in held:
            for place, section, count in items(line):
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
