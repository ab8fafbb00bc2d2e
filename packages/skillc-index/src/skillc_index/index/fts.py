"""Text for the full-text index: the tokenizer choice and the one text preparation that build
(index time) and search (query time) share, so they always agree.

- RFC-0004:C-INDEX tokenizer preference: ``porter unicode61``, else ``unicode61``.
- RFC-0009:C-TOKENIZER ``cjk`` as DECISIONS.md defines it: real character-level matching.
  CJK characters are set apart with U+200B ZERO WIDTH SPACE on both sides before the text goes
  into the index, and a query word goes through the same preparation. ``unicode61`` treats
  U+200B as a separator (it is neither a letter nor a number), so each CJK character becomes
  one token, and a CJK query word becomes an FTS5 phrase of its characters: ``中文`` finds
  ``...使用中文进行...`` and not ``...中...文...``. Thai, Lao, Myanmar and Khmer, also
  written without spaces, are set apart so by grapheme (a letter with its marks and the
  consonants stacked under it).
- Both settings first fold the text (:func:`~skillc_index.folding.folded`, which ``find``
  shares): narrowed, composed, then each accented Latin and Greek letter decomposed, so
  ``unicode61`` takes every mark out of the word (with ``remove_diacritics 1`` it keeps
  ``ữ`` and ``ệ``, two marks each, whole) and ``dữ liệu`` is found by ``du lieu`` and by
  its decomposed spelling alike. The clauses stay RFC-0004's. ``search`` shows the text as
  written, not as folded (:mod:`~skillc_index.index.snippets`).
- The ``cjk`` setting also keeps the marks of the Indic and Southeast Asian scripts in words
  (:data:`~skillc_index.index.scripts.TOKEN_MARKS`), where ``unicode61`` splits words at
  them; the ``ascii`` setting keeps RFC-0004's tokenizer clause exactly.

The ``tokenizer`` value recorded in ``index_meta`` is ``porter`` or ``unicode61`` for the
``ascii`` setting (RFC-0004) and ``cjk`` for the ``cjk`` setting (always on ``unicode61``,
no stemming), so switching the setting makes every index stale, as RFC-0009 requires.
"""

from __future__ import annotations

import re

from skillc_index.diagnostics import EmptyQuery, InternalError
from skillc_index.folding import folded
from skillc_index.index.scripts import CJK_CHARS, GRAPHEME, TOKEN_MARKS
from skillc_index.option_errors import TooManyQueryWords
from skillc_index.text import composed, valid_utf8

__all__ = [
    "CJK_CHARS",
    "MAX_QUERY_WORDS",
    "TOKENIZE_CLAUSES",
    "fts_query",
    "index_tokenizer",
    "prepare_fts_text",
    "restore_fts_text",
]

#: index_meta ``tokenizer`` value -> the FTS5 ``tokenize`` option it is built with.
TOKENIZE_CLAUSES: dict[str, str] = {
    "porter": "porter unicode61",  # exactly RFC-0004:C-INDEX's clause
    "unicode61": "unicode61",
    "cjk": "unicode61" + TOKEN_MARKS,
}

ZWSP = "\u200b"
#: Different words a search query may have (RFC-0004:C-QUERY-SYNTAX sets no limit; see
#: :func:`fts_query`).
MAX_QUERY_WORDS = 1000

# RFC-0004:C-QUERY-SYNTAX: split on ASCII whitespace only.
_ASCII_SPACE = "[ \t\n\r]+"  # compiled on first use (as diagnostics explains)

_porter_available: bool | None = None
_cjk_char: re.Pattern[str] | None = None


def _porter() -> bool:
    """Whether this SQLite's FTS5 has the ``porter`` tokenizer (probed once per process).

    FTS5 always has it (its tokenizers are built in), so a SQLite compiled with FTS5 is
    asked only that (``show`` and ``search`` check the tokenizer of the index on every
    command: creating an FTS5 table cost five times as much); another one is probed."""
    global _porter_available
    if _porter_available is None:
        import sqlite3

        connection = sqlite3.connect(":memory:")
        try:
            compiled = "SELECT sqlite_compileoption_used('ENABLE_FTS5')"
            if not connection.execute(compiled).fetchone()[0]:
                connection.execute(
                    "CREATE VIRTUAL TABLE temp.probe USING fts5(x, tokenize='porter unicode61')"
                )
            _porter_available = True
        except sqlite3.Error:
            try:
                connection.execute("CREATE VIRTUAL TABLE temp.probe2 USING fts5(x)")
            except sqlite3.Error as exc:
                raise InternalError(
                    f"this Python's SQLite ({sqlite3.sqlite_version}) has no FTS5 extension"
                ) from exc
            _porter_available = False
        finally:
            connection.close()
    return _porter_available


def index_tokenizer(setting: str) -> str:
    """The index_meta ``tokenizer`` for a ``[search].tokenizer`` setting (RFC-0004:C-INDEX):
    ``cjk`` for ``cjk``; otherwise ``porter`` when available, else ``unicode61``."""
    if setting == "cjk":
        return "cjk"
    return "porter" if _porter() else "unicode61"


def prepare_fts_text(text: str, tokenizer: str) -> str:
    """Text as it goes into the ``sections`` table (and query words into MATCH).

    Folded (:func:`~skillc_index.folding.folded`: narrowed, composed, accented Latin and Greek
    letters decomposed) for every tokenizer; for ``cjk``, every CJK character, and every
    grapheme of Thai, Lao, Myanmar and Khmer (a letter with its marks, SARA AM too, and the
    consonants stacked under it: :data:`~skillc_index.index.scripts.GRAPHEME`), is wrapped in
    U+200B so that it is a token of its own (a hit then never splits a letter from its tone
    mark). Folding a text word by word (cut after white space) gives the same text.
    """
    global _cjk_char
    text = folded(text)
    if tokenizer != "cjk":
        return text
    if _cjk_char is None:  # compiled on first use: most indexes never need it
        _cjk_char = re.compile(f"{CJK_CHARS}|{GRAPHEME}")
    return _cjk_char.sub(ZWSP + r"\g<0>" + ZWSP, text)


def restore_fts_text(text: str) -> str:
    """Text read back from the index without the U+200B :func:`prepare_fts_text` added,
    composed again (NFC): the folded text, not the text as written (the harakat, the points,
    a full-width letter's width are not given back; ``search`` shows a row's ``originals``:
    :mod:`~skillc_index.index.snippets`)."""
    return composed(text.replace(ZWSP, ""))


def fts_query(query: str, tokenizer: str) -> str:
    """The FTS5 MATCH expression for a user query (RFC-0004:C-QUERY-SYNTAX).

    Split on ASCII whitespace, each word prepared like indexed text, ``"`` doubled, wrapped in
    double quotes, joined by spaces (implicit AND). Raises :class:`EmptyQuery` (E004) when
    nothing but ASCII whitespace is left.

    A word given twice is kept once: for an AND of words that changes nothing, and FTS5's
    cost grows with the square of the phrases that match (20,000 copies of one word took
    20 s). More than :data:`MAX_QUERY_WORDS` different words is refused (E100): no section
    holds them all, and the cost would again be unbounded.

    A NUL character would end FTS5's string literal early (a syntax error, which readers
    report as a corrupt index): inside the quotes it becomes a space, the separator the
    tokenizer makes of it in indexed text, so ``a<NUL>b`` is the phrase ``a b``. Lone
    surrogates (bytes that were not UTF-8) become U+FFFD, which SQLite accepts.
    """
    words = list(dict.fromkeys(word for word in re.split(_ASCII_SPACE, valid_utf8(query)) if word))
    if not words:
        raise EmptyQuery()
    if len(words) > MAX_QUERY_WORDS:
        raise TooManyQueryWords(len(words), MAX_QUERY_WORDS)
    quoted = []
    for word in words:
        prepared = prepare_fts_text(word, tokenizer).replace('"', '""').replace("\0", " ")
        quoted.append(f'"{prepared}"')
    return " ".join(quoted)
