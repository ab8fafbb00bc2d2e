"""Text preparation for the full-text index (RFC-0004:C-QUERY-SYNTAX, RFC-0009 ``cjk``),
checked against a real SQLite FTS5 table."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from unicodedata import normalize

import pytest

from skillc_index import EmptyQuery, fts_query
from skillc_index.index.fts import (
    MAX_QUERY_WORDS,
    TOKENIZE_CLAUSES,
    ZWSP,
    index_tokenizer,
    prepare_fts_text,
    restore_fts_text,
)
from skillc_index.index.snippets import written_snippet
from skillc_index.option_errors import TooManyQueryWords


def test_tokenizer_preference() -> None:
    # This Python's SQLite has porter (the fallback is for builds without it).
    assert index_tokenizer("ascii") == "porter"
    assert index_tokenizer("cjk") == "cjk"
    assert TOKENIZE_CLAUSES["cjk"].startswith("unicode61 tokenchars")  # no stemming for cjk


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("configure authentication", '"configure" "authentication"'),
        ('my "special" app', '"my" """special""" "app"'),
        ("  tabs\tand\nnewlines\r ", '"tabs" "and" "newlines"'),
        ("non\u00a0breaking", '"non\u00a0breaking"'),  # only ASCII whitespace splits
        ("skill text skill skill text", '"skill" "text"'),  # the same AND, once per word
        ("Skill skill", '"Skill" "skill"'),
        ("caf\udce9 ok", '"caf\ufffd" "ok"'),  # not UTF-8 (argv, JSON): U+FFFD for SQLite
    ],
)
def test_query_syntax(query: str, expected: str) -> None:
    assert fts_query(query, "porter") == expected


@pytest.mark.parametrize("query", ["", "   ", "\t\n\r "])
def test_empty_query_is_e004(query: str) -> None:
    with pytest.raises(EmptyQuery) as caught:
        fts_query(query, "porter")
    assert caught.value.diagnostic.code == "E004"


def test_too_many_different_words_is_e100() -> None:
    words = [f"w{n}" for n in range(MAX_QUERY_WORDS)]
    assert fts_query(" ".join(words + words), "porter").count('" "') == MAX_QUERY_WORDS - 1
    with pytest.raises(TooManyQueryWords) as caught:
        fts_query(" ".join([*words, "one-more"]), "porter")
    assert (caught.value.count, caught.value.limit) == (MAX_QUERY_WORDS + 1, MAX_QUERY_WORDS)
    assert str(caught.value) == (
        f"error[E100]: invalid option: 'the query has {MAX_QUERY_WORDS + 1} different words;"
        f" at most {MAX_QUERY_WORDS} are allowed'"
    )


def test_prepare_is_identity_without_cjk() -> None:
    text = "中文 and English"
    assert prepare_fts_text(text, "porter") == text
    assert prepare_fts_text(text, "unicode61") == text


def _snippet(text: str, query: str, tokenizer: str) -> str:
    """``search``'s snippet of the section ``text`` for ``query``, in ``text``'s own
    characters (what the ``originals`` of a row give it)."""
    match = fts_query(query, tokenizer)
    any_word = match.replace('" "', '" OR "')
    clause, prepared = TOKENIZE_CLAUSES[tokenizer], prepare_fts_text(text, tokenizer)
    written = prepared if prepared == text else text
    return written_snippet(prepared, written, match, any_word, ("SKILL.md", ""), clause, tokenizer)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("我们使用中文进行测试", "中文"),
        ("ひらがなとカタカナ", "カタカナ"),
        ("한국어 문장", "문장"),
        ("mixed 中文 text", "text"),
        ("plain", "plain"),
        ("Tạo báo cáo dữ liệu", "bao"),
    ],
)
def test_snippets_show_the_text_as_written(text: str, word: str) -> None:
    shown = _snippet(text, word, "cjk")
    assert shown.replace("[MATCH]", "").replace("[/MATCH]", "") == text
    assert shown.count("[MATCH]") == 1


@pytest.mark.parametrize(
    "text",
    [
        "我们使用中文进行测试",
        "ひらがなとカタカナ",
        "한국어 문장",
        "mixed 中文 text",
        "Tạo báo cáo dữ liệu",
    ],
)
def test_restore_undoes_prepare_of_composed_text(text: str) -> None:
    assert restore_fts_text(prepare_fts_text(text, "cjk")) == text


@pytest.fixture(name="fts_table")
def fts_table_fixture(
    sqlite_connect: Callable[..., sqlite3.Connection],
) -> Callable[..., sqlite3.Connection]:
    def _table(tokenizer: str, *contents: str) -> sqlite3.Connection:
        connection = sqlite_connect(":memory:")
        clause = TOKENIZE_CLAUSES[tokenizer]
        connection.execute(f"CREATE VIRTUAL TABLE t USING fts5(content, tokenize='{clause}')")
        for content in contents:
            connection.execute("INSERT INTO t VALUES (?)", (prepare_fts_text(content, tokenizer),))
        return connection

    return _table


def _hits(connection: sqlite3.Connection, query: str, tokenizer: str) -> int:
    row = connection.execute(
        "SELECT count(*) FROM t WHERE t MATCH ?", (fts_query(query, tokenizer),)
    ).fetchone()
    return int(row[0])


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("中文", True),  # a two-character word inside a sentence
        ("使用中文", True),
        ("测试", True),
        ("中测", False),  # both characters are there, but not next to each other
        ("文中", False),
        ("英语", False),
        ("中文 configure", True),  # implicit AND across scripts
        ("中文 missing", False),
    ],
)
def test_cjk_character_level_matching(
    fts_table: Callable[..., sqlite3.Connection], query: str, found: bool
) -> None:
    connection = fts_table("cjk", "我们使用中文进行测试 and configure things")
    assert _hits(connection, query, "cjk") == (1 if found else 0)


def test_without_cjk_a_word_inside_a_run_is_not_found(
    fts_table: Callable[..., sqlite3.Connection],
) -> None:
    connection = fts_table("porter", "我们使用中文进行测试")
    assert _hits(connection, "中文", "porter") == 0
    assert _hits(connection, "我们使用中文进行测试", "porter") == 1


def test_porter_stems(fts_table: Callable[..., sqlite3.Connection]) -> None:
    connection = fts_table("porter", "how to configure authentication")
    assert _hits(connection, "configuring", "porter") == 1
    connection = fts_table("cjk", "how to configure authentication")
    assert _hits(connection, "configuring", "cjk") == 0


@pytest.mark.parametrize("tokenizer", ["porter", "unicode61", "cjk"])
@pytest.mark.parametrize("form", ["NFC", "NFD"])
def test_decomposed_text_and_letters_with_two_marks_are_folded(
    fts_table: Callable[..., sqlite3.Connection], tokenizer: str, form: str
) -> None:
    """A text written decomposed (a Mac, a combining-mark keyboard) is found by its words
    typed composed and the other way round, and Vietnamese letters with two marks (``ữ``,
    ``ệ``, which ``unicode61`` kept whole) are found without them, as ``báo`` by ``bao``."""
    connection = fts_table(tokenizer, normalize(form, "Đọc dữ liệu và tạo báo cáo tổng hợp."))
    for query in ("dữ liệu", "tổng hợp", "du lieu", "tong hop", "bao cao"):
        for typed in (normalize("NFC", query), normalize("NFD", query)):
            assert _hits(connection, typed, tokenizer) == 1, (typed, tokenizer)
    assert _hits(connection, "du lieu khac", tokenizer) == 0
    shown = _snippet(normalize(form, "Đọc dữ liệu và tạo báo cáo tổng hợp."), "du", tokenizer)
    assert shown == normalize(form, "Đọc [MATCH]dữ[/MATCH] liệu và tạo báo cáo tổng hợp.")


@pytest.mark.parametrize("tokenizer", ["porter", "cjk"])
def test_arabic_and_hebrew_words_are_found_with_or_without_their_vowel_marks(
    fts_table: Callable[..., sqlite3.Connection],
    tokenizer: str,
) -> None:
    """Harakat and Hebrew points were separators (``تَرْجَمَةُ`` was five letters, which no
    query matched); they are taken out of text and query alike, and nothing else is: the
    maqaf (U+05BE, a hyphen) still separates words."""
    connection = fts_table(tokenizer, "تَرْجَمَةُ الكِتَابِ", "תִּרְגּוּם מִסְמָכִים־שׁוֹנִים")
    for query in ("ترجمة", "تَرْجَمَةُ", "الكتاب", "תרגום", "תִּרְגּוּם", "מסמכים", "שונים"):
        assert _hits(connection, query, tokenizer) == 1, query
    assert _hits(connection, "מסמכיםשונים", tokenizer) == 0
    assert prepare_fts_text("تَرْجَمَةُ", tokenizer) == "ترجمة"


@pytest.mark.parametrize("tokenizer", ["porter", "cjk"])
def test_yo_and_greek_accents_are_folded(
    fts_table: Callable[..., sqlite3.Connection], tokenizer: str
) -> None:
    """``ё`` is ``е`` (as most Russians type it) and Greek tonos and dialytika fold (Greek
    capitals are written without them); ``unicode61`` folds no Cyrillic or Greek letter.
    ``й`` stays a letter of its own."""
    connection = fts_table(tokenizer, "Развёртывание сервиса", "Μετατροπή αρχείων Ϊδέα", "мой")
    for query in ("развертывание", "Развёртывание", "РАЗВЕРТЫВАНИЕ", "μετατροπη", "ΜΕΤΑΤΡΟΠΗ"):
        assert _hits(connection, query, tokenizer) == 1, query
    assert _hits(connection, "ΑΡΧΕΙΩΝ ιδεα", tokenizer) == 1
    assert _hits(connection, "мои", tokenizer) == 0
    assert _snippet("Развёртывание Ϊδέα", "ιδεα", tokenizer) == "Развёртывание [MATCH]Ϊδέα[/MATCH]"


@pytest.mark.parametrize("tokenizer", ["porter", "cjk"])
def test_the_turkish_is_sharp_s_and_variation_selectors_fold(
    fts_table: Callable[..., sqlite3.Connection], tokenizer: str
) -> None:
    """``ı`` is ``i`` (``İ`` was, once decomposed: ``diyarbakır`` finds ``DİYARBAKIR``),
    ``ß`` and ``ẞ`` are ``ss`` and U+FE0E, U+FE0F no part of a word: ``Işık`` was found by
    ``Işık`` alone and ``Straße`` by no ``strasse`` (audit unicode s49, item 1). The snippet
    is the text as written."""
    connection = fts_table(tokenizer, "Işık ölçümü", "DİYARBAKIR raporu", "Die Straße", "GROẞ")
    for query in ("ışık", "IŞIK", "Işık", "isik", "diyarbakır", "Diyarbakir", "strasse", "STRAẞE"):
        assert _hits(connection, query, tokenizer) == 1, query
    assert _hits(connection, "gross", tokenizer) == 1
    assert _snippet("Die Straße ist groß.", "strasse", tokenizer) == (
        "Die [MATCH]Straße[/MATCH] ist groß."
    )
    assert _snippet("Işık ölçümü", "isik", tokenizer) == "[MATCH]Işık[/MATCH] ölçümü"
    shown = _snippet("Start 🚀\ufe0f now\ufe0e", "now", tokenizer)
    assert shown == "Start 🚀\ufe0f [MATCH]now\ufe0e[/MATCH]"


@pytest.mark.parametrize(
    ("heading", "queries"),
    [
        ("Işık", ["ışık", "IŞIK", "isik"]),
        ("DİYARBAKIR", ["diyarbakır", "Diyarbakir"]),
        ("İstanbul", ["istanbul", "ISTANBUL", "i\u0307stanbul"]),
        ("Straße und Maß", ["STRASSE UND MASS", "strasse und mass", "STRAẞE UND MAẞ"]),
        ("Ελληνικά", ["ΕΛΛΗΝΙΚΑ", "ελληνικα", normalize("NFD", "ελληνικά")]),
        ("Crème Brûlée", ["creme brulee", "CRÈME BRÛLÉE", normalize("NFD", "crème brûlée")]),
        ("Emoji 🚀 launch", ["emoji 🚀\ufe0f launch", "EMOJI 🚀\ufe0e LAUNCH"]),
        ("Развёртывание", ["развертывание", "РАЗВЁРТЫВАНИЕ"]),
        ("ＰＤＦ merge", ["pdf MERGE"]),
    ],
)
def test_show_folds_a_heading_as_search_folds_its_words(
    fts_table: Callable[..., sqlite3.Connection], heading: str, queries: list[str]
) -> None:
    """``show --section``'s key (``heading_key``: ``folding.folded_key``) is what ``search``
    matches a word by: each query is one ``search`` finds the heading by, word for word, and
    ``show`` found ``## Ελληνικά`` by no ``ΕΛΛΗΝΙΚΑ`` (accents kept), ``## Emoji 🚀 launch``
    by no 🚀 and U+FE0F (audit unicode s49, item 2). Letters a tokenizer keeps apart stay
    apart."""
    from skillc_index.index.queries import heading_key

    connection = fts_table("unicode61", heading)
    for query in queries:
        assert heading_key(query) == heading_key(heading), query
        assert _hits(connection, query, "unicode61") == 1, query
    for one, other in (("й", "и"), ("ø", "o"), ("ı", "l"), ("Resume", "Resumen")):
        assert heading_key(one) != heading_key(other)


@pytest.mark.parametrize("tokenizer", ["porter", "unicode61", "cjk"])
def test_the_marks_show_takes_out_are_the_ones_search_does(tokenizer: str) -> None:
    """:data:`~skillc_index.folding.DIACRITICS` holds the combining marks of U+0300-U+036F
    that ``search``'s tokenizer takes out of a word (``a`` mark ``b`` is ``ab``); the others
    split it. ``show`` takes out of a heading the marks ``search`` takes out of its folded
    text (U+0340 is U+0300 once composed), and keeps the others (``a`` U+0305 ``b`` is no
    ``ab``)."""
    from skillc_index.folding import DIACRITICS, folded_key

    connection = sqlite3.connect(":memory:")
    clause = TOKENIZE_CLAUSES[tokenizer]
    connection.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{clause}')")
    connection.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, row)")

    def words(text: str) -> list[str]:
        connection.execute("INSERT INTO t (x) VALUES (?)", (text,))
        found = [term for (term,) in connection.execute("SELECT term FROM v")]
        connection.execute("DELETE FROM t")
        return found

    marks = re.compile(f"[{DIACRITICS}]")
    for point in range(0x300, 0x370):
        text = f"a{chr(point)}b"
        assert (words(text) == ["ab"]) == bool(marks.match(chr(point))), hex(point)
        one = words(prepare_fts_text(text, tokenizer)) == ["ab"]
        assert one == (folded_key(text) == "ab"), hex(point)
    connection.close()


@pytest.mark.parametrize("tokenizer", ["porter", "cjk"])
def test_every_letter_folded_stays_one_word(
    fts_table: Callable[..., sqlite3.Connection], tokenizer: str
) -> None:
    """:func:`~skillc_index.folding.folded` decomposes only letters whose marks the tokenizer
    takes out of a word: a mark it kept would split the word at it."""
    from skillc_index.folding import _ACCENTED

    connection = fts_table(tokenizer)
    connection.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    letters = [
        chr(point)
        for point in range(0x80, 0x2000)
        if chr(point).isalpha() and re.match(f"[{_ACCENTED}]", chr(point))
    ]
    rows = [
        (number, prepare_fts_text(f"x{letter}y", tokenizer))
        for number, letter in enumerate(letters)
    ]
    connection.executemany("INSERT INTO t (rowid, content) VALUES (?, ?)", rows)
    terms: dict[int, list[str]] = {}
    for doc, term in connection.execute("SELECT doc, term FROM v ORDER BY doc, offset"):
        terms.setdefault(doc, []).append(term)
    split = [letters[doc] for doc, words in terms.items() if len(words) != 1]
    assert not split


def test_snippets_are_the_source_text() -> None:
    assert _snippet("我们使用中文进行测试", "中文", "cjk") == "我们使用[MATCH]中文[/MATCH]进行测试"


def test_indic_words_keep_their_marks_with_cjk(
    fts_table: Callable[..., sqlite3.Connection],
) -> None:
    """With ``cjk``, the vowel signs and viramas of Devanagari are parts of words:
    ``unicode61`` made them separators, so ``काम`` (work) found ``कोमा`` (coma), both ``क``
    and ``म`` (audit unicode, item 1)."""
    connection = fts_table("cjk", "वह कोमा में है।")
    assert _hits(connection, "कोमा", "cjk") == 1
    assert _hits(connection, "काम", "cjk") == 0
    assert _hits(connection, "है", "cjk") == 1


def test_the_default_tokenizers_are_rfc_0004s_clause_exactly() -> None:
    """RFC-0004:C-INDEX writes the table ``tokenize='porter unicode61'``: the ``ascii``
    setting adds nothing to it (the Indic marks are kept only under ``cjk``)."""
    assert TOKENIZE_CLAUSES["porter"] == "porter unicode61"
    assert TOKENIZE_CLAUSES["unicode61"] == "unicode61"


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("เอกสาร", True),  # a word inside a run written without spaces
        ("ตะไคร้", True),  # its last letter with its tone mark
        ("ตะไคร", False),  # without it: another syllable
        ("แปลเอกสาร", True),
        ("เอกแปล", False),
    ],
)
def test_thai_grapheme_level_matching(
    fts_table: Callable[..., sqlite3.Connection], query: str, found: bool
) -> None:
    """With ``cjk``, Thai (Lao, Myanmar, Khmer) is matched grapheme by grapheme, as CJK is
    character by character: a letter and its marks are one token, so a hit never splits
    them (``ใส่[MATCH]ตะไคร[/MATCH]้``)."""
    text = "ช่วยแปลเอกสาร ใส่ตะไคร้และใบมะกรูด"
    connection = fts_table("cjk", text)
    assert _hits(connection, query, "cjk") == (1 if found else 0)
    shown = _snippet(text, "ตะไคร้", "cjk")
    assert shown == "ช่วยแปลเอกสาร ใส่[MATCH]ตะไคร้[/MATCH]และใบมะกรูด"


@pytest.mark.parametrize(
    "text", ["กำลังต้มยำกุ้ง", "ຄຳນາມ", "ខ្មែរ", "ស្វែងរក", "ဘဏ္ဍာ", "အင်္ဂလိပ်", "မြန်မာ"]
)
def test_a_spaceless_grapheme_is_the_same_to_the_index_and_the_cuts(text: str) -> None:
    """Under ``cjk`` each grapheme of a Thai, Lao, Myanmar or Khmer run is a token, cut where
    the text cuts of the kit cut (:func:`skillc_index.text.grapheme_boundary`): SARA AM
    (U+0E33, U+0EB3), a letter that is no combining mark, stays with the letter before it
    (``ก`` and ``ำ`` of ``กำลัง`` were two tokens), a consonant stacked under a Khmer coeng
    or a Myanmar virama with the one above it (``ខ្`` and ``មែ`` were two), and Myanmar's
    visible asat ends its grapheme (``န်`` and ``မာ`` of ``မြန်မာ``)."""
    from skillc_index.text import grapheme_boundary

    tokens = [token for token in prepare_fts_text(text, "cjk").split(ZWSP) if token]
    starts = [sum(map(len, tokens[:n])) for n in range(len(tokens) + 1)]
    assert starts == [i for i in range(len(text) + 1) if grapheme_boundary(text, i) == i]
    assert prepare_fts_text("กำลัง", "cjk") == f"{ZWSP}กำ{ZWSP}{ZWSP}ลั{ZWSP}{ZWSP}ง{ZWSP}"


def test_the_marks_written_out_are_every_character_of_their_class() -> None:
    """``scripts._MARK_CHARS`` (what ``tokenchars`` lists) is :data:`SCRIPT_MARKS` written
    out, so that importing the index's text preparation expands no class."""
    import re

    from skillc_index.index import scripts

    ranges = re.findall("(.)(?:-(.))?", scripts.SCRIPT_MARKS[1:-1])
    every = "".join(chr(c) for a, b in ranges for c in range(ord(a), ord(b or a) + 1))
    assert every == scripts._MARK_CHARS


@pytest.mark.parametrize("tokenizer", ["porter", "cjk"])
def test_polytonic_greek_is_found_without_its_breathings_and_accents(
    fts_table: Callable[..., sqlite3.Connection], tokenizer: str
) -> None:
    """The breathings, the circumflex and the iota subscript of polytonic Greek (U+0313,
    U+0314, U+0342, U+0345 once decomposed) were separators to ``unicode61``: ``ἀρετή`` was
    ``α`` and ``ρετη``, so ``αρετη`` found nothing. A final sigma is ``σ`` (``unicode61``
    folds it); the snippet keeps the text as written."""
    text = "Ἀρχὴ σοφίας φόβος Κυρίου. Τῆς γλώσσης ἡ ἀρετή, ᾠδὴ ῥήτορος."
    connection = fts_table(tokenizer, text, "Μετάφρασις")
    for query in ("αρχη", "ΑΡΧΗ", "Ἀρχὴ", "της", "τῆς", "αρετη", "ωδη", "ᾠδή", "ρητοροσ"):
        assert _hits(connection, query, tokenizer) == 1, query
    for query in ("γλωσσησ", "ΓΛΩΣΣΗΣ", "μεταφρασισ", "μεταφρασις"):  # final sigma or not
        assert _hits(connection, query, tokenizer) == 1, query
    assert _hits(connection, "αρχη ωδης", tokenizer) == 0
    assert _snippet(text, "αρετη", tokenizer) == text.replace("ἀρετή", "[MATCH]ἀρετή[/MATCH]")


@pytest.mark.parametrize("tokenizer", ["porter", "cjk"])
def test_full_width_latin_and_half_width_hangul_are_found_by_their_usual_forms(
    fts_table: Callable[..., sqlite3.Connection],
    tokenizer: str,
) -> None:
    """``Ｐｙｔｈｏｎ`` (a Japanese or Chinese input method) is ``Python`` and half-width Hangul
    letters (U+FFA0-U+FFDC) are the Hangul Compatibility Jamo a Korean keyboard types, to
    ``search`` as to ``show`` and ``find``: in the text and in the query; the snippet keeps
    the text's own widths."""
    text = "Ｐｙｔｈｏｎ スクリプト ﾾﾡﾤ 초성"
    connection = fts_table(tokenizer, text)
    for query in ("python", "PYTHON", "Ｐｙｔｈｏｎ", "ｐｙｔｈｏｎ", "ㅎㄱㄴ", "ﾾﾡﾤ"):
        assert _hits(connection, query, tokenizer) == 1, query
    assert _hits(connection, "ㅎㄴㄱ", tokenizer) == 0
    assert _snippet(text, "python", tokenizer) == "[MATCH]Ｐｙｔｈｏｎ[/MATCH] スクリプト ﾾﾡﾤ 초성"
    assert _snippet(text, "ㅎㄱㄴ", tokenizer) == "Ｐｙｔｈｏｎ スクリプト [MATCH]ﾾﾡﾤ[/MATCH] 초성"


def _cuts(shown: str, text: str) -> list[int]:
    """Where a snippet of ``text`` starts, ends and has its markers, in ``text``."""
    start = 0
    if shown.startswith("..."):
        shown = shown[3:]
    body = shown.removesuffix("...")
    plain = body.replace("[MATCH]", "").replace("[/MATCH]", "")
    start = text.find(plain)
    assert start >= 0, shown
    cuts, at = [start, start + len(plain)], start
    for part in re.split(r"(\[/?MATCH\])", body):
        if part.startswith("[") and part.endswith("MATCH]"):
            cuts.append(at)
        else:
            at += len(part)
    return cuts


MYANMAR = "ဤကျွမ်းကျင်မှုသည် ဘာသာပြန်ခြင်းကို ပြုလုပ်သည်။ မြန်မာဘာသာ စာသားများကို ရှာဖွေနိုင်သည်။ "
KHMER = "ការបកប្រែអត្ថបទភាសាខ្មែរ និងការស្វែងរកឯកសារ។ "


@pytest.mark.parametrize(
    ("tokenizer", "text", "queries"),
    [
        ("porter", MYANMAR * 6, ["ဘာသာပြန်", "မြန်မာ", "စာသားများကို", "ရှာဖွေနိုင်သည်"]),
        ("cjk", MYANMAR * 6, ["ဘာသာပြန်", "မြန်မာ", "စာသားများကို", "သည်"]),
        ("porter", KHMER * 6, ["ខ្មែរ", "ការបកប្រែ"]),  # inside a run: only with cjk
        ("cjk", KHMER * 6, ["ខ្មែរ", "ស្វែងរក", "បកប្រែ", "ឯកសារ"]),
    ],
    ids=["myanmar-porter", "myanmar-cjk", "khmer-porter", "khmer-cjk"],
)
def test_myanmar_and_khmer_snippets_never_cut_a_grapheme(
    tokenizer: str, text: str, queries: list[str]
) -> None:
    """Without ``cjk``, ``unicode61`` makes the marks of Myanmar and Khmer separators, so a
    hit ended before its vowel sign (``[MATCH]ဘာသာပြန[/MATCH]်``) and a snippet's window
    before the marks of its last letter (``ရှာဖွေန...``). Each bound and highlight of a
    snippet is at a grapheme boundary, a stacked consonant (Khmer's coeng) in the grapheme of
    the letter above it."""
    from skillc_index.text import grapheme_boundary

    for query in queries:
        shown = _snippet(text, query, tokenizer)
        assert shown.endswith("..."), shown  # the window is cut
        assert f"[MATCH]{query}[/MATCH]" in shown, (query, shown)
        for cut in _cuts(shown, text):
            assert grapheme_boundary(text, cut) == cut, (query, shown, cut)


def test_a_khmer_stacked_consonant_is_matched_with_the_letter_above_it(
    fts_table: Callable[..., sqlite3.Connection],
) -> None:
    """Under ``cjk`` a Khmer consonant stacked under a coeng (U+17D2) is one grapheme with
    the letter above it, as the cuts of the kit have it: ``មែ`` (a full letter) no longer
    finds the subscript one of ``ខ្មែរ``, nor does its highlight cut ``ខ្ម``."""
    connection = fts_table("cjk", KHMER)
    assert _hits(connection, "ខ្មែរ", "cjk") == 1
    assert _hits(connection, "ភាសាខ្មែរ", "cjk") == 1
    assert _hits(connection, "មែ", "cjk") == 0
    assert _hits(connection, "ខ", "cjk") == 0


def test_the_narrow_table_is_unicodes_width_decompositions() -> None:
    """:func:`~skillc_index.folding.narrow`'s table, written as ranges, maps each full-width
    ASCII form and half-width Hangul letter as Unicode's ``<wide>``/``<narrow>``
    decomposition does (to a Hangul Compatibility Jamo, not NFKC's conjoining one)."""
    import unicodedata

    from skillc_index.folding import _NARROW

    for code in [*range(0xFF01, 0xFF5F), *range(0xFFA0, 0xFFDD)]:
        kind, _, target = unicodedata.decomposition(chr(code)).partition(" ")
        assert _NARROW.get(code) == (int(target, 16) if target else None), hex(code)
        assert kind in ("<wide>", "<narrow>", ""), hex(code)


@pytest.mark.parametrize("tokenizer", ["porter", "cjk"])
@pytest.mark.parametrize(
    ("line", "query", "shown"),
    [
        ("λέξη κείμενο " * 40_000 + "σπάνια λέξη στο τέλος", "σπανια", "[MATCH]σπάνια[/MATCH]"),
        ("Ｆｏｏ ｂａｒ " * 50_000 + "ｎｅｅｄｌｅ end", "needle", "[MATCH]ｎｅｅｄｌｅ[/MATCH]"),
        ("ά" * 60_000 + " σπάνια " + "ά" * 60_000, "σπανια", "[MATCH]σπάνια[/MATCH]"),
    ],
    ids=["greek", "full-width", "no-spaces"],
)
def test_a_long_line_is_folded_only_where_the_hit_is(
    monkeypatch: pytest.MonkeyPatch, tokenizer: str, line: str, query: str, shown: str
) -> None:
    """A line longer than the window was folded whole, a third of the window at a time, to
    find its hit (an 8 MB section of Greek with the hit at its end: 1.4 s, ASCII 0.18 s). The
    hit is found in the folded text the index holds, and only that stretch is folded again
    (a line of words longer than the window: all of it from there, as before)."""
    from skillc_index.index import snippets

    prepared = prepare_fts_text(line, tokenizer)
    folded: list[int] = []

    def counting(text: str, tokenizer: str) -> str:
        folded.append(len(text))
        return prepare_fts_text(text, tokenizer)

    monkeypatch.setattr(snippets, "prepare_fts_text", counting)
    match = fts_query(query, tokenizer)
    clause = TOKENIZE_CLAUSES[tokenizer]
    snippet = written_snippet(prepared, line, match, match, ("SKILL.md", ""), clause, tokenizer)
    assert shown in snippet and snippet.startswith("...")
    assert snippet.replace("[MATCH]", "").replace("[/MATCH]", "").strip(".") in line
    if " " in line[:1000]:
        assert sum(folded) < 2 * snippets.SNIPPET_WINDOW, sum(folded)
