"""Skills whose listings an agent may mistake for each other (issue 38): near-duplicate
descriptions and the phrases two descriptions share. ``skc eval`` reports them among its
collisions, skillc-lint's SKL924 in a folder of skills.

Two listings are alike by the cosine of their words, each weighted by its IDF over the
library (``log(1 + (n - df + 0.5) / (df + 0.5))``, BM25's kept positive, as Lucene keeps it):
the words most skills hold ("use", "file", "when") weigh little, the words two skills alone
share weigh most. Words are the stems of SQLite FTS5's ``porter unicode61`` tokenizer, the
one ``skc find``'s ranker indexes with (:func:`listing_terms`). Only pairs that share a word
are compared, through an inverted index: a library of a few thousand skills takes a moment.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Collection, Sequence

__all__ = ["NEAR", "listing_terms", "near_pairs", "shared_phrases"]

#: Listings at least this alike are near-duplicates.
NEAR = 0.5
#: A word held by more than this share of the skills (and more than MIN_COMMON of them)
#: makes no pair a candidate by itself (:func:`near_pairs`).
COMMON_SHARE = 0.05
MIN_COMMON = 20
#: The tokenizer of ``skc find``'s index (``skillc_gateway.catalog.postings``).
TOKENIZER = "porter unicode61 remove_diacritics 2"

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")


def listing_terms(texts: Sequence[str]) -> list[set[str]]:
    """The stemmed words of each text (FTS5's ``porter unicode61``), in one in-memory
    database."""
    db = sqlite3.connect(":memory:")
    try:
        db.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{TOKENIZER}')")
        db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
        db.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", enumerate(texts, 1))
        found: list[set[str]] = [set() for _ in texts]
        for term, doc in db.execute("SELECT term, doc FROM v"):
            found[doc - 1].add(term)
        return found
    finally:
        db.close()


def near_pairs(
    terms: Sequence[Collection[str]], near: float = NEAR
) -> dict[tuple[int, int], float]:
    """The pairs ``(a, b)`` (indexes of ``terms``, ``a < b``) whose word sets are at least
    ``near`` alike (the module docstring), with their similarity (4 decimals)."""
    n = len(terms)
    df: dict[str, int] = {}
    for words in terms:
        for word in words:
            df[word] = df.get(word, 0) + 1
    idf = {word: math.log(1 + (n - d + 0.5) / (d + 0.5)) for word, d in df.items()}
    norms = [math.sqrt(sum(idf[w] ** 2 for w in words)) for words in terms]
    # Candidates: the pairs that share a word few skills hold (at most COMMON_SHARE of them,
    # and at least MIN_COMMON): a word most skills hold pairs nearly every skill with every
    # other (a million pairs for 1,000 skills) and weighs little in any cosine. Two listings
    # that share only such words are far below any useful threshold; each candidate's cosine
    # is then exact, over all its words.
    limit = max(MIN_COMMON, int(n * COMMON_SHARE))
    holders: dict[str, list[int]] = {}
    for index, words in enumerate(terms):
        for word in words:
            if df[word] <= limit:
                holders.setdefault(word, []).append(index)
    candidates: set[tuple[int, int]] = set()
    for skills in holders.values():
        for i, a in enumerate(skills):
            candidates.update((a, b) for b in skills[i + 1 :])
    sets = [set(words) for words in terms]
    dots = {(a, b): sum(idf[word] ** 2 for word in sets[a] & sets[b]) for a, b in candidates}
    found: dict[tuple[int, int], float] = {}
    for (a, b), dot in dots.items():
        if norms[a] and norms[b]:
            cosine = dot / (norms[a] * norms[b])
            if cosine >= near:
                found[(a, b)] = round(min(cosine, 1.0), 4)
    return found


def _content(words: Sequence[str], stopwords: Collection[str]) -> int:
    """How many of ``words`` carry meaning: not in ``stopwords``, and (without a list) of
    four letters or more."""
    if stopwords:
        return sum(1 for word in words if len(word) > 1 and word not in stopwords)
    return sum(1 for word in words if len(word) > 3)


def shared_phrases(
    first: str, second: str, limit: int = 5, stopwords: Collection[str] = ()
) -> list[str]:
    """The runs of words ``first`` and ``second`` share (case folded) holding at least two
    words that carry meaning, longest first, at most ``limit``."""
    from difflib import SequenceMatcher

    a = [word.lower() for word in _WORD.findall(first)]
    b = [word.lower() for word in _WORD.findall(second)]
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    runs = [a[m.a : m.a + m.size] for m in matcher.get_matching_blocks() if m.size >= 2]
    phrases = [" ".join(run) for run in runs if _content(run, stopwords) >= 2]
    return sorted(dict.fromkeys(phrases), key=lambda p: (-len(p.split()), p))[:limit]
