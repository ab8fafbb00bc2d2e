"""Text folded for matching: the one fold ``search`` (its index and its queries), ``find``
(its catalog's words and a request's) and ``show --section`` (a heading and a query) share,
so that what one of them finds the others find.

:func:`folded` is the text each hands on: to ``search``'s FTS5 tokenizer
(:func:`~skillc_index.index.fts.prepare_fts_text`), to the find catalog's (skillc-gateway's
``catalog.postings.cjk_pairs``), and to :func:`folded_key`. The tokenizers then lowercase a
word and take out of it the marks of :data:`DIACRITICS`; ``show`` compares whole texts, with
no tokenizer, so :func:`folded_key` does both itself (case folding, a little more than
lowercasing: ``ﬁ`` is ``fi``). That is the one difference, and why there are two functions.
``show`` asks :func:`written_key` first (the text as written, composed and lowercased),
then :func:`cased_key` (:func:`folded_key` with the accents kept): ``Maße`` finds ``## Maße``
and not ``## Masse`` beside it, ``Résumé`` finds ``## Résumé`` and not ``## Resume``, and
``resume`` finds ``## Résumé`` when no heading is ``Resume``.
"""

from __future__ import annotations

import re

__all__ = ["DIACRITICS", "cased_key", "folded", "folded_key", "narrow", "written_key"]

#: The letters :func:`folded` writes decomposed: Latin (Latin-1 to Latin Extended-B, Latin
#: Extended Additional, Vietnamese's), Greek, monotonic and polytonic (its tonos and
#: dialytika: ``ΜΕΤΑΤΡΟΠΗ`` is ``Μετατροπή``, Greek capitals go without them; the breathings,
#: the circumflex and the iota subscript of Greek Extended: ``ἀρετῆς`` is ``αρετης``) and
#: Cyrillic ``ё``/``Ё`` (``е``, as most Russians type it; not ``й``). Each one's marks are
#: ones that FTS5's ``unicode61`` takes out of a word (a test checks it), with any
#: ``remove_diacritics``, but for :data:`_GREEK_MARKS`, which :func:`folded` takes out; it
#: folds no Greek or Cyrillic letter itself (its final sigma is ``σ`` already).
_ACCENTED = (
    "\u00c0-\u024f\u1e00-\u1eff\u0370-\u03ff\u0401\u0451"
    "\u1f00-\u1fbc\u1fbe\u1fc2-\u1fcc\u1fd0-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ffc"
)
#: The marks of polytonic Greek ``unicode61`` makes separators (``ἀρετή`` was ``α`` and
#: ``ρετη``): psili, dasia, perispomeni, ypogegrammeni; :func:`folded` takes them out.
_GREEK_MARKS = dict.fromkeys((0x313, 0x314, 0x342, 0x345))
#: The marks :func:`folded` takes out: Hebrew points and cantillation (the combining marks of
#: U+0591-U+05C7, not the maqaf, paseq and sof pasuq among them) and Arabic harakat, Quranic
#: marks and the superscript alef (those of U+0610-U+061A, U+064B-U+065F, U+0670,
#: U+06D6-U+06ED). ``unicode61`` makes each a separator: ``تَرْجَمَةُ`` was five letters.
_POINTS = (
    "\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670"
    "\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed"
)
#: The letters :func:`folded` spells otherwise, as case folding does or as a reader takes
#: them: the dotless ``ı`` as ``i`` (``ışık`` and ``IŞIK`` are ``Işık``; the dotted ``İ`` is
#: ``I`` and U+0307 once decomposed), ``ß`` and ``ẞ`` as ``ss`` (``strasse`` is ``Straße``),
#: and the variation selectors U+FE0E and U+FE0F dropped (an emoji picker types 🚀 and
#: U+FE0F, a heading holds 🚀 alone, or the other way round).
_SPELLED: dict[int, str | None] = {0x131: "i", 0xDF: "ss", 0x1E9E: "SS", 0xFE0E: None, 0xFE0F: None}
#: The combining marks FTS5's ``unicode61`` takes out of a word, with any
#: ``remove_diacritics`` (the other marks of U+0300-U+036F split a word, as any character
#: that is no letter or digit does; a test checks both): ``search`` and ``find`` find a word
#: written with them by the word without them, and :func:`folded_key` takes them out.
DIACRITICS = "\u0300-\u0304\u0306-\u030c\u030f\u0311\u031b\u0323-\u0328\u032d\u032e\u0330\u0331"
_FOLD: re.Pattern[str] | None = None
_WIDE: re.Pattern[str] | None = None  # what :func:`narrow` changes (compiled with _FOLD)
_UNMARKED: re.Pattern[str] | None = None  # DIACRITICS (compiled on first use)
_RESPELLED: dict[int, str | None] = {}  # _SPELLED and the points taken out


def folded(text: str) -> str:
    """``text`` as ``search`` (:func:`~skillc_index.index.fts.prepare_fts_text`), ``find``
    (the catalog's ``cjk_pairs``) and ``show`` (:func:`folded_key`) hand it on, each document
    and each request alike: in its narrow forms (:func:`narrow`: ``Ｐｙｔｈｏｎ`` is
    ``Python``, half-width katakana and Hangul full-width), composed (NFC: a decomposed
    ``dữ liệu``, from a Mac, is the one a keyboard writes), without the vowel points of Hebrew
    and the harakat of Arabic (:data:`_POINTS`: ``ترجمة`` is ``تَرْجَمَةُ``, as people type
    it), then its accented Latin and Greek letters and ``ё`` decomposed (:data:`_ACCENTED`),
    a letter and its marks, which the tokenizer takes out of a word (``unicode61`` folds
    ``ữ`` and ``ệ``, two marks each, ``ή`` and ``ё`` only so: ``du lieu`` finds ``dữ liệu``
    as ``bao cao`` finds ``báo cáo``, ``развертывание`` ``Развёртывание``), the marks of
    polytonic Greek it would split a word at taken out (:data:`_GREEK_MARKS`: ``αρχη``
    finds ``Ἀρχὴ``), ``ı`` as ``i``, ``ß`` as ``ss`` and no variation selector U+FE0E or
    U+FE0F (:data:`_SPELLED`). Otherwise only the text's composition changes. No change
    crosses white space, so a text folded word by word is the text folded whole (``search``'s
    snippets rely on it). An ASCII text as it is, at once (``unicodedata`` is imported for
    other text only)."""
    global _FOLD, _WIDE
    if text.isascii():
        return text
    import unicodedata  # a C module

    if _FOLD is None:
        points = re.compile(f"[{_POINTS}]")
        _RESPELLED.update((code, None) for code in range(0x591, 0x6EE) if points.match(chr(code)))
        _RESPELLED.update(_SPELLED)
        _FOLD = re.compile(f"[{_ACCENTED}{_POINTS}\ufe0e\ufe0f]+")
        _WIDE = re.compile("[\u3000\uff01-\uffdc]")
    if _WIDE is not None and _WIDE.search(text):
        text = narrow(text)
    return _FOLD.sub(_decomposed, unicodedata.normalize("NFC", text))


def _decomposed(run: re.Match[str]) -> str:
    import unicodedata

    return unicodedata.normalize("NFD", run.group().translate(_RESPELLED)).translate(_GREEK_MARKS)


def written_key(text: str) -> str:
    """What ``show --section`` compares a heading and a query by before :func:`cased_key`
    (:func:`~skillc_index.index.queries.closest_headings`): the text as written, lowercased
    and composed (NFC: a query typed decomposed is the heading written composed), none of
    :func:`folded`'s spellings, so ``Maße`` is not ``Masse`` and ``⚠️`` (U+FE0F) not ``⚠``
    (``str.casefold`` would write ``ß`` as ``ss``). An ASCII text lowercased, at once."""
    key = text.lower()
    if key.isascii():
        return key
    import unicodedata  # a C module

    return unicodedata.normalize("NFC", key)


def cased_key(text: str) -> str:
    """What ``show --section`` compares a heading and a query by first
    (:func:`~skillc_index.index.queries.heading_case_key`): :func:`folded`, case folded and
    composed again (NFC), the ``İ``'s dot dropped (``istanbul`` is ``İstanbul``, ``ışık``
    ``Işık``, ``STRASSE`` ``Straße``): :func:`folded_key` but for the accents, which tell
    ``Résumé`` from ``Resume`` here. An ASCII text case folded, at once."""
    key = folded(text).casefold()
    if key.isascii():
        return key
    import unicodedata  # a C module

    return unicodedata.normalize("NFC", key).replace("i\u0307", "i")


def folded_key(text: str) -> str:
    """What ``show --section`` compares a heading and a query by when no heading is the
    query by :func:`cased_key` (:func:`~skillc_index.index.queries.heading_key`):
    :func:`folded`, then what the tokenizers of ``search`` and ``find`` do to a word after
    it, as ``show`` compares whole texts with no tokenizer: case folded (``über`` is
    ``Über``, ``STRASSE UND MASS`` ``Straße und Maß``) and without the marks of
    :data:`DIACRITICS` (``ελληνικα`` and ``ΕΛΛΗΝΙΚΑ`` are ``Ελληνικά``, ``ISTANBUL`` is
    ``İstanbul``, ``cafe`` ``Café``), composed again (NFC). An ASCII text case folded, at
    once."""
    global _UNMARKED
    key = folded(text).casefold()
    if key.isascii():
        return key
    import unicodedata  # a C module

    if _UNMARKED is None:
        _UNMARKED = re.compile(f"[{DIACRITICS}]+")
    return unicodedata.normalize("NFC", _UNMARKED.sub("", key))


#: :func:`narrow`'s table: U+FF01-U+FF5E as U+0021-U+007E, U+3000 as a space, the half-width
#: Hangul letters (U+FFA0-U+FFDC) as their Hangul Compatibility Jamo (their ``<narrow>``
#: decompositions, U+3131-U+3164: ``ﾾ`` is ``ㅎ``; NFKC would make them conjoining jamo).
_NARROW = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20, 0xFFA0: 0x3164}
_NARROW |= {half: half - 0xCE70 for half in range(0xFFA1, 0xFFBF)}  # consonants: ㄱ to ㅎ
_NARROW |= {  # vowels: ㅏ to ㅣ, in rows of six
    half: 0x314F + n for n, half in enumerate(h for h in range(0xFFC2, 0xFFDD) if h & 7 > 1)
}


_HALF_KANA: re.Pattern[str] | None = None


def narrow(text: str) -> str:
    """``text`` with the full-width forms of ASCII (``ＰＤＦ``, ``ＣＳＶ``: what Japanese and
    Chinese input methods type) as ASCII, the ideographic space as a space, half-width Hangul
    letters as Hangul Compatibility Jamo (what a Korean keyboard types alone: ``ﾾﾡ`` is
    ``ㅎㄱ``) and half-width katakana (U+FF61-U+FF9F, from some input methods and older
    systems) as katakana, a voiced sound mark joined to the kana before it (``ﾌﾟﾙﾘｸｴｽﾄ`` is
    ``プルリクエスト``): the same word in another width is the same word to ``show
    --section``, ``search`` and ``find`` (:func:`folded` narrows)."""
    global _HALF_KANA
    text = text.translate(_NARROW)
    if text.isascii():
        return text
    if _HALF_KANA is None:
        _HALF_KANA = re.compile("[\uff61-\uff9f]+")
    return _HALF_KANA.sub(_kana, text)


def _kana(run: re.Match[str]) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", run.group())
