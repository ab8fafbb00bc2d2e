"""Deceptive characters: where the text a reader sees is not the text a program reads.

**Hidden characters**: the bidirectional controls, which reorder what a terminal or an editor
shows after them ("Trojan Source", CVE-2021-42574), and the characters that show as nothing.
Some are hidden wherever they stand (:data:`BIDI_CONTROLS`, :data:`UNSEEN`); others only
where they have no work to do: a joiner that joins nothing, a variation selector that
selects no variant, a bidirectional mark between two ASCII characters. Two users judge them:
:func:`~skillc_index.text.printable` writes each as an escape in text output wherever it may
hide (:data:`CONTEXTUAL`: a name ``نامه\u200c`` must not read as ``نامه``), and skillc-lint's
SKL901 reports, and the stub escapes in its labels, each only where it hides something
(:func:`hides`): in code (a code block or span, a link's destination, a file or folder name)
every one but an emoji's joiner and selector; in prose not a non-joiner after a Persian word
or an Indic virama or between two Hebrew letters, a right-to-left mark placing punctuation
beside right-to-left text, a soft hyphen inside a word of letters, a zero-width space
between two Thai, Lao, Khmer, Myanmar, Chinese or Japanese letters (not Korean's, written
with spaces), a Mongolian vowel separator between two Mongolian letters, an ideographic
variation selector after a CJK ideograph (the script's own). :func:`hidden_escaped` writes
those as escapes.

**Look-alikes** (:func:`looks_ascii`): characters that look like an ASCII letter, digit or
hyphen and are none (Cyrillic ``р``, the Kelvin sign, a full-width ``ｐ``, an en dash): a
message quoting one names it (:func:`look_alikes_named`, ``dialect.name_faults``), since
``name 'pdf' does not match directory 'рdf'`` compares two texts that look the same.

Importing this module is cheap (no ``unicodedata``); :mod:`skillc_index.text` imports it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "BIDI_CONTROLS",
    "BIDI_MARKS",
    "CONTEXTUAL",
    "CONTEXTUAL_CHAR",
    "JOINERS",
    "MAY_HIDE",
    "SELECTORS",
    "UNSEEN",
    "char_class",
    "code_escape",
    "escaped_at",
    "hidden_escaped",
    "hidden_escapes",
    "hides",
    "look_alikes_named",
    "looks_ascii",
]

#: The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): each
#: reorders the text after it, so a line reads otherwise than its characters run.
BIDI_CONTROLS = frozenset((*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
#: The characters that show as nothing wherever they stand: the soft hyphen, the combining
#: grapheme joiner, the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Mongolian vowel
#: separator, the zero-width space, the word joiner and the invisible operators, the
#: deprecated format characters (U+206A-U+206F), a BOM past a file's start, the interlinear
#: annotation characters, the shorthand format controls, the musical beam and slur controls,
#: the tag characters (ASCII smuggling; a flag's tags are lint's exception) and the
#: variation selectors supplement (data hidden in "emoji smuggling").
UNSEEN = frozenset(
    (0xAD, 0x34F, 0x115F, 0x1160, 0x180E, 0x200B, *range(0x2060, 0x2065),
     *range(0x206A, 0x2070), 0x3164, 0xFEFF, 0xFFA0, *range(0xFFF9, 0xFFFC),
     *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B), *range(0xE0000, 0xE0080),
     *range(0xE0100, 0xE01F0))
)  # fmt: skip
#: The bidirectional marks: the Arabic letter mark, the left-to-right and right-to-left marks.
#: Right-to-left text needs them; between two ASCII characters (``deploy\u061c``) they do
#: nothing but hide (:data:`CONTEXTUAL`). :func:`~skillc_index.text.printable` escapes them
#: everywhere, as every format character.
BIDI_MARKS = frozenset((0x61C, 0x200E, 0x200F))
#: The zero-width non-joiner and joiner: an emoji sequence and the scripts that need one
#: (Persian, Devanagari...) use them; anywhere else they join nothing (:data:`CONTEXTUAL`).
JOINERS = frozenset((0x200C, 0x200D))
#: The variation selectors U+FE00-U+FE0F: after an emoji, a symbol, a CJK character or a
#: keycap's digit they select its variant; anywhere else they select nothing (:data:`CONTEXTUAL`).
SELECTORS = frozenset(range(0xFE00, 0xFE10))


def char_class(codes: Iterable[int]) -> str:
    """The inside of a regular expression's character class matching ``codes``, in ranges
    (``\\u202a-\\u202e\\u2066-\\u2069``)."""
    parts: list[str] = []
    first = last = -2
    for code in [*sorted(codes), -2]:
        if code == last + 1:
            last = code
            continue
        if first >= 0:
            parts.append(code_escape(first) + (f"-{code_escape(last)}" if last > first else ""))
        first = last = code
    return "".join(parts)


def code_escape(code: int) -> str:
    """A code point as Python writes it in an escape: ``\\u202e``, ``\\U000e0041``. How
    :func:`~skillc_index.text.printable` and :func:`hidden_escaped` show a character."""
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


#: Every character that may hide where it stands (a class; :func:`hides` says whether it does).
MAY_HIDE = f"[{char_class(BIDI_CONTROLS | UNSEEN | BIDI_MARKS | JOINERS | SELECTORS)}]"
#: The letters and marks of the scripts that need a joiner (Arabic to Sinhala, Persian's and
#: Devanagari's, Tibetan, Myanmar, Khmer, Mongolian, the other Brahmic scripts).
_SCRIPTS = (
    "\u0600-\u0dff\u0f00-\u109f\u1780-\u18af\u1900-\u1aaf\u1b00-\u1c4f\ua800-\ua8ff"
    "\ua980-\uaa7f\uabc0-\uabff\ufb50-\ufdff\ufe70-\ufefe\U00010a00-\U00010a5f"
    "\U00011000-\U00011fff"
)
#: Emoji (and the emoji presentation selector U+FE0F of a sequence): what a joiner joins in an
#: emoji sequence.
_EMOJI = "\u2190-\u2bff\u3030\u303d\u3297\u3299\ufe0f\U0001f000-\U0001faff"
#: The characters a joiner joins: emoji and the scripts that need one.
_JOINS = _SCRIPTS + _EMOJI
#: The characters a variation selector selects a variant of: emoji, symbols and CJK (the
#: copyright and registered signs, U+2000 on, the selectors themselves not: a run of them is
#: data, not a variant) and Myanmar; after an ASCII digit, ``#`` or ``*`` only in a keycap
#: (before U+20E3).
_VARIES = "\u00a9\u00ae\u1000-\u109f\u2000-\ufdff\ufe10-\U0010ffff"
_JOINER = "[\u200c\u200d]"
#: A joiner not between two characters it joins (after it, looking back): what
#: :func:`~skillc_index.text.printable` escapes (``cafe\u200d`` and a name ``نامه\u200c``
#: would read as ``cafe`` and ``نامه``).
_UNJOINED = f"(?<={_JOINER})(?:(?<![{_JOINS}]{_JOINER})|(?![{_JOINS}]))"
#: A joiner of an emoji sequence (after it, looking back): a zero-width joiner between two
#: emoji (``\u2764\ufe0f\u200d\U0001f525``).
_IN_EMOJI = f"(?<=[{_EMOJI}]\u200d)(?=[{_EMOJI}])"
#: Hebrew's letters and (:data:`_HEBREW_POINTS`) its points: Yiddish and Hebrew typesetting
#: put a joiner or a non-joiner between two letters (``ו\u200cו``, not the ligature ``װ``).
_HEBREW = "\u05d0-\u05ea\u05ef-\u05f2\ufb1d-\ufb28\ufb2a-\ufb4f"
_HEBREW_POINTS = "\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7"
#: A joiner that hides in prose (SKL901; after it, looking back): any but one of an emoji
#: sequence, one after a letter or mark of a script that needs it before a space, a tab or a
#: line's end (a Persian word's non-joiner, ``نامه\u200c ها``, one after an Indic virama,
#: ``क्\u200c और``, a Malayalam chillu's joiner), one between two letters of such a script
#: (``می\u200cخواهم``) and one between two Hebrew letters (``ו\u200cו``). So a joiner next to
#: ASCII (``deploy\u200d``, ``فایل\u200cPDF``), after a space (``x \u200cنامه``), before a
#: no-break space or joining nothing (``a café\u200d``, ``שלום\u200c here``) hides.
_JOINS_NOTHING = (
    f"(?<={_JOINER})(?!{_IN_EMOJI})(?!(?<=[{_SCRIPTS}]{_JOINER})(?:[{_SCRIPTS} \t\r\n]|\\Z))"
    f"(?!(?<=[{_HEBREW}{_HEBREW_POINTS}]{_JOINER})[{_HEBREW}])"
)
#: A joiner that hides in code (after it, looking back): any but one of an emoji sequence or
#: one between two letters of a script that needs it (a Persian file name ``می\u200cخ.txt``:
#: no ASCII name reads as another through it).
_JOINS_IN_CODE = f"(?<={_JOINER})(?!{_IN_EMOJI})(?!(?<=[{_SCRIPTS}]{_JOINER})[{_SCRIPTS}])"
#: A variation selector after a character it selects no variant of (or after nothing).
_NO_VARIANT = (
    f"(?<=[\ufe00-\ufe0f])(?:(?<![{_VARIES}0-9#*][\ufe00-\ufe0f])"
    f"|(?<=[0-9#*][\ufe00-\ufe0f])(?!\u20e3))"
)
#: A joiner or a variation selector where :func:`~skillc_index.text.printable` escapes it (a
#: regular expression): each shows as nothing, so ``cafe\u200d`` and ``demo\ufe0f`` read as
#: ``cafe`` and ``demo``. (``printable`` escapes every bidirectional mark.) A class first,
#: then the context looked back at: a search skips to the characters of the class at once.
CONTEXTUAL = f"[{char_class(JOINERS | SELECTORS)}](?:{_UNJOINED}|{_NO_VARIANT})"

#: :data:`CONTEXTUAL`, compiled (:func:`~skillc_index.text.printable` runs it).
CONTEXTUAL_CHAR = re.compile(CONTEXTUAL)
#: :data:`MAY_HIDE`, compiled on first use (:func:`hidden_escaped`).
_MAY_HIDE_CHAR: re.Pattern[str] | None = None
#: How far :func:`hides` looks on either side of a character: a bounded cost for each one.
_NEAR = 256
#: The letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko,
#: Samaritan, Mandaic, their presentation forms, the historic ones).
_RTL = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
_LINE_BREAK = re.compile("[\n\r]")
#: The CJK ideographs (Han: the unified ones, extensions A to I, the compatibility ones): what
#: an ideographic variation selector (U+E0100-U+E01EF) selects a glyph of (``葛\U000e0100``).
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U000323af"
#: What may stand before or after a word in a sentence (``(Ge\u00adbäu\u00adde).``): taken
#: off before :func:`hides` asks whether a soft hyphen's word is made of letters only.
_SENTENCE_MARKS = ".,;:!?'\"()[]{}*_\u00ab\u00bb\u2018\u2019\u201c\u201d\u201e\u2026"
#: A character's context, each read right after it (:func:`hides`): a joiner's in prose and in
#: code, a variation selector's; compiled on first use (:func:`_context`).
_CONTEXTS = {
    "prose joiner": f"{_JOINER}{_JOINS_NOTHING}",
    "code joiner": f"{_JOINER}{_JOINS_IN_CODE}",
    "selector": f"[\ufe00-\ufe0f]{_NO_VARIANT}",
    "mark": "(?<=[!-~])[\u061c\u200e\u200f](?=[!-~])",
    # The scripts of :data:`_AT_HOME` (each a class of one character, its letters and marks
    # among the block's digits and signs, which :func:`_between_letters` leaves out).
    "Thai": "[\u0e01-\u0e4e]",
    "Lao": "[\u0e81-\u0edf]",
    "Khmer": "[\u1780-\u17dd]",
    "Myanmar": "[\u1000-\u109f\ua9e0-\ua9ff\uaa60-\uaa7f]",
    # Han and kana, not Hangul: Korean separates its words by spaces, as Latin does.
    "Chinese and Japanese": f"[\u3005\u3041-\u30ff\u31f0-\u31ff\uff66-\uff9f{_HAN}]",
    "Mongolian": "[\u180b-\u180d\u180f\u1820-\u1878\u1880-\u18aa]",
    "ideograph": f"[{_HAN}]",
}
#: The characters that show as nothing which, in prose, stand between two letters of a
#: script as its own (:func:`_between_letters`): the zero-width space between two letters of
#: a script written without spaces between its words, where it marks a word's end (a line
#: may break there: ``ภาษา\u200bไทย``, ``日本語\u200bの``), and the Mongolian vowel separator
#: between two Mongolian letters (it shapes a final ``ᠠ`` or ``ᠡ``: ``ᠭᠠᠵᠠᠷ`` ``ᠳ\u180eᠠ``).
_AT_HOME = {
    "\u200b": ("Thai", "Lao", "Khmer", "Myanmar", "Chinese and Japanese"),
    "\u180e": ("Mongolian",),
}
_COMPILED: dict[str, re.Pattern[str]] = {}


def _context(name: str) -> re.Pattern[str]:
    pattern = _COMPILED.get(name)
    if pattern is None:
        pattern = _COMPILED[name] = re.compile(_CONTEXTS[name])
    return pattern


def hides(text: str, at: int, *, code: bool = False) -> bool:
    """Whether the character of :data:`MAY_HIDE` at ``at`` in ``text`` hides something there
    (SKL901's finding, an escape in the stub's labels). ``code``: ``text[at]`` stands in code
    (a code block or span, a link's destination, a file or folder name), where every one
    hides but a variation selector after an emoji (or a symbol, CJK: one it selects a variant
    of), a zero-width joiner inside an emoji sequence and a joiner between two letters of a
    script that needs one: code holds no other non-joiner, soft hyphen or bidirectional
    mark of its own. In prose, a joiner of a script that needs it or between two Hebrew
    letters (:data:`_JOINS_NOTHING`) does not hide either, nor a zero-width space between two
    letters of Thai, Lao, Khmer, Myanmar, Chinese or Japanese, a word break (``ภาษา\u200bไทย``;
    not of Korean, written with spaces: ``한국\u200b어`` hides), nor a
    Mongolian vowel separator between two Mongolian letters (:data:`_AT_HOME`), nor an
    ideographic variation selector (U+E0100-U+E01EF) right after a CJK ideograph
    (``葛\U000e0100``; not after another selector), nor a soft hyphen between two lowercase (or
    caseless) letters of a word made of letters only (a hyphenation hint,
    ``Donaudampf\u00adschifffahrt,``; not ``req\u00aduests.sh``, ``v2\u00ad0``,
    ``Deploy\u00adAll``),
    nor a bidirectional mark beside ASCII punctuation whose nearest letter on one side is
    right-to-left (``نسخه v2.0\u200e. جدید``, ``"שלום"\u200f.``: the mark places the
    punctuation; ``ب run: a.sh\u200f;rm`` hides) or not between two printable ASCII
    characters; one between two ASCII letters, digits or ``_`` hides (``deploy\u200eall``).
    Each looks at most :data:`_NEAR` characters either side."""
    char = text[at]
    if char in "\u200c\u200d":
        return _context("code joiner" if code else "prose joiner").match(text, at) is not None
    if "\ufe00" <= char <= "\ufe0f":
        return _context("selector").match(text, at) is not None
    if code:
        return True
    if char in _AT_HOME:
        return not _between_letters(text, at, _AT_HOME[char])
    if "\U000e0100" <= char <= "\U000e01ef":
        return not (at > 0 and _context("ideograph").match(text[at - 1]))
    if char == "\u00ad":
        return not _hyphenation_hint(text, at)
    if ord(char) in BIDI_MARKS:
        if _context("mark").match(text, at) is None:
            return False
        if _ascii_word(text[at - 1]) and _ascii_word(text[at + 1]):
            return True
        return not _beside_rtl(text, at)
    return True


def _between_letters(text: str, at: int, scripts: tuple[str, ...]) -> bool:
    """Whether the character at ``at`` stands after a letter or mark of one of ``scripts``
    (names of :data:`_CONTEXTS`) and before a letter of the same script."""
    if not 0 < at < len(text) - 1:
        return False
    before, after = text[at - 1], text[at + 1]
    if not (_lettered(before) and after.isalpha()):
        return False
    return any(_context(s).match(before) and _context(s).match(after) for s in scripts)


def _hyphenation_hint(text: str, at: int) -> bool:
    """Whether the soft hyphen at ``at`` stands between two lowercase (or caseless) letters
    of a word of letters only (its neighbours' :data:`_SENTENCE_MARKS` taken off)."""
    if not (0 < at < len(text) - 1 and _lower(text[at - 1]) and _lower(text[at + 1])):
        return False
    before = text[max(0, at - _NEAR) : at].rsplit(None, 1)[-1]
    after = text[at + 1 : at + 1 + _NEAR].split(None, 1)[0]
    word = f"{before}{after}".strip(_SENTENCE_MARKS)
    return all(char == "\u00ad" or _lettered(char) for char in word)


def _beside_rtl(text: str, at: int) -> bool:
    """Whether the nearest letter on one side of ``at``, on its line, is right-to-left."""
    before = _LINE_BREAK.split(text[max(0, at - _NEAR) : at])[-1]
    after = _LINE_BREAK.split(text[at + 1 : at + 1 + _NEAR], 1)[0]
    left = next((char for char in reversed(before) if char.isalpha()), "")
    right = next((char for char in after if char.isalpha()), "")
    return bool(_RTL.match(left) or _RTL.match(right))


def _ascii_word(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


def _lower(char: str) -> bool:
    """Whether ``char`` is a letter or a mark of a word, not an uppercase or titlecase one."""
    return _lettered(char) and not (char.isupper() or char.istitle())


def _lettered(char: str) -> bool:
    """Whether ``char`` is a letter or a mark (``ि`` of ``कि``) of a word."""
    if char.isalpha():
        return True
    if char.isascii():
        return False
    import unicodedata  # a C module

    return unicodedata.category(char)[0] == "M"


def hidden_escaped(text: str, *, code: bool = False) -> str:
    """``text`` with each character that hides where it stands (:func:`hides`; ``code``:
    ``text`` is a path or a name) written as its escape (:func:`code_escape`): how the stub
    lists a heading (``Install \u202e(txt.hcs)\u202c now``, ``Zero\u200bwidth``), a
    right-to-left mark of right-to-left text, an emoji's joiner and selector kept. An ASCII
    text as it is, at once."""
    return escaped_at(text, hidden_escapes(text, code=code))


def hidden_escapes(text: str, *, code: bool = False) -> dict[int, str]:
    """The escapes :func:`hidden_escaped` writes in ``text``, by the index of the character
    each stands for (in order). A cut of the escaped text counts each as written and never
    splits one: :func:`~skillc_index.text.cut_escaped`."""
    global _MAY_HIDE_CHAR
    if text.isascii():
        return {}
    if _MAY_HIDE_CHAR is None:
        _MAY_HIDE_CHAR = re.compile(MAY_HIDE)
    return {
        found.start(): code_escape(ord(found.group()))
        for found in _MAY_HIDE_CHAR.finditer(text)
        if hides(text, found.start(), code=code)
    }


def escaped_at(text: str, escapes: dict[int, str]) -> str:
    """``text`` with the character at each index of ``escapes`` written as its escape (as
    :func:`hidden_escapes` gives them, in order; one past ``text``'s end is left out)."""
    pieces, start = [], 0
    for index, escape in escapes.items():
        if index >= len(text):
            break
        pieces += [text[start:index], escape]
        start = index + 1
    return "".join(pieces) + text[start:] if pieces else text


#: Letters of other scripts that look like an ASCII letter or digit (Unicode's confusables.txt
#: takes each for one): Cyrillic (``а е о р с у х ѕ і ј һ ӏ ԁ ԛ ԝ``, ``А В Е З К М Н О Р С Т
#: Х Ѕ І Ј Ү Ӏ Ԛ Ԝ``), Greek (``α γ ι ν ο ρ υ``, ``Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ``), Armenian
#: (``զ հ ո ս ց օ``) and Latin's dotless i and j, IPA letters and small capitals.
_LOOK_ALIKES = frozenset(
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0455\u0456\u0458\u04bb\u04cf\u0501\u051b"
    "\u051d\u0410\u0412\u0415\u0417\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0405"
    "\u0406\u0408\u04ae\u04c0\u051a\u051c\u03b1\u03b3\u03b9\u03bd\u03bf\u03c1\u03c5\u0391"
    "\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7\u0566"
    "\u0570\u0578\u057d\u0581\u0585\u0131\u01c0\u0237\u0251\u0261\u0269\u1d04\u1d0f\u1d1c"
    "\u1d20\u1d21\u1d22\ua731"
)


#: The dashes that look like the hyphen-minus: the hyphen, the non-breaking hyphen, the
#: figure dash, the en and em dashes, the horizontal bar (U+2010-U+2015), the minus sign and
#: the small and full-width hyphen-minus. Not every dash of Unicode (``〜``, ``゠``, the Hebrew
#: maqaf ``־`` look like none).
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d")
#: The compatibility forms that do not look like the letter or digit they stand for: raised,
#: lowered, circled (``²``, ``₂``, ``①``, ``ª``).
_UNLIKE_FORMS = ("<super>", "<sub>", "<circle>")


def looks_ascii(char: str) -> bool:
    """Whether ``char``, no ASCII character, looks like an ASCII letter, digit or hyphen: one
    of :data:`_LOOK_ALIKES`, a dash of :data:`_DASHES` (``‐``, ``–``, ``−``), or a character
    whose compatibility form is one ASCII letter or digit (the Kelvin sign is ``K``, a
    full-width ``ｐ`` is ``p``, a mathematical bold ``𝐩`` too), but a raised, lowered or
    circled one (:data:`_UNLIKE_FORMS`). An accented letter (``é``), ``™`` (two letters) and
    ``²`` look like what they are."""
    if char.isascii():
        return False
    if char in _LOOK_ALIKES or char in _DASHES:
        return True
    import unicodedata  # a C module

    form = unicodedata.normalize("NFKC", char)
    if len(form) != 1 or not (form.isascii() and form.isalnum()):
        return False
    return not unicodedata.decomposition(char).startswith(_UNLIKE_FORMS)


def look_alikes_named(*texts: str) -> str:
    """`` ('р' is U+0440 CYRILLIC SMALL LETTER ER)``: each look-alike of ``texts``
    (:func:`looks_ascii`) quoted and named once, in order, for a message quoting them after
    it; empty when they hold none (at once for ASCII texts)."""
    found = dict.fromkeys(
        char for text in texts if not text.isascii() for char in text if looks_ascii(char)
    )
    if not found:
        return ""
    from skillc_index.text import char_name

    return " (" + ", ".join(f"'{char}' is {char_name(char)}" for char in found) + ")"
