"""Deceptive characters: where the text a reader sees is not the text a program reads.

**Hidden characters** (:data:`HIDDEN`): the bidirectional controls, which reorder what a
terminal or an editor shows after them ("Trojan Source", CVE-2021-42574), and the characters
that show as nothing. One set, read by both of its users:
:func:`~skillc_index.text.printable` writes each as an escape in text output (with the other
control and format characters), and skillc-lint's SKL901 reports each in a skill's text and
in its file and folder names. Some are hidden wherever they stand (:data:`BIDI_CONTROLS`,
:data:`UNSEEN`); others only where they have no work to do (:data:`CONTEXTUAL`): a joiner
that joins nothing, a variation selector that selects no variant, a bidirectional mark between
two ASCII characters.

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
    "HIDDEN",
    "JOINERS",
    "MAY_HIDE",
    "SELECTORS",
    "UNSEEN",
    "char_class",
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
            parts.append(_escaped(first) + (f"-{_escaped(last)}" if last > first else ""))
        first = last = code
    return "".join(parts)


def _escaped(code: int) -> str:
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


#: Every character :data:`HIDDEN` may match (a class: a quick first test of a text).
MAY_HIDE = f"[{char_class(BIDI_CONTROLS | UNSEEN | BIDI_MARKS | JOINERS | SELECTORS)}]"
#: The characters a joiner joins: emoji (and the emoji presentation selector U+FE0F of a
#: sequence) and the scripts that need one (Arabic to Sinhala, Persian's and Devanagari's,
#: Tibetan, Myanmar, Khmer, Mongolian, the other Brahmic scripts).
_JOINS = (
    "\u0600-\u0dff\u0f00-\u109f\u1780-\u18af\u1900-\u1aaf\u1b00-\u1c4f\ua800-\ua8ff"
    "\ua980-\uaa7f\uabc0-\uabff\ufb50-\ufdff\ufe70-\ufefe\U00010a00-\U00010a5f"
    "\U00011000-\U00011fff\u2190-\u2bff\u3030\u303d\u3297\u3299\ufe0f\U0001f000-\U0001faff"
)
#: The characters a variation selector selects a variant of: emoji, symbols and CJK (the
#: copyright and registered signs, U+2000 on, the selectors themselves not: a run of them is
#: data, not a variant) and Myanmar; after an ASCII digit, ``#`` or ``*`` only in a keycap
#: (before U+20E3).
_VARIES = "\u00a9\u00ae\u1000-\u109f\u2000-\ufdff\ufe10-\U0010ffff"
#: Where a joiner, a variation selector or a bidirectional mark hides (after it, looking
#: back): a joiner not between two characters it joins, a selector after a character it
#: selects no variant of (or after nothing), a mark between two printable ASCII characters.
_WHERE_HIDDEN = (
    f"(?<=[\u200c\u200d])(?:(?<![{_JOINS}][\u200c\u200d])|(?![{_JOINS}]))"
    f"|(?<=[\ufe00-\ufe0f])(?:(?<![{_VARIES}0-9#*][\ufe00-\ufe0f])"
    f"|(?<=[0-9#*][\ufe00-\ufe0f])(?!\u20e3))"
    f"|(?<=[!-~][\u061c\u200e\u200f])(?=[!-~])"
)
#: A joiner, a variation selector or a bidirectional mark where it hides (a regular
#: expression): each shows as nothing, so ``cafe\u200d``, ``demo\ufe0f`` and ``deploy\u200e``
#: read as ``cafe``, ``demo`` and ``deploy``. A class first, then the context looked back at:
#: a search skips to the characters of the class at once.
CONTEXTUAL = f"[{char_class(JOINERS | SELECTORS | BIDI_MARKS)}](?:{_WHERE_HIDDEN})"
#: One hidden character (a regular expression): one of :data:`BIDI_CONTROLS` and
#: :data:`UNSEEN`, or one of :data:`CONTEXTUAL` where it hides.
HIDDEN = f"{MAY_HIDE}(?:(?<=[{char_class(BIDI_CONTROLS | UNSEEN)}])|{_WHERE_HIDDEN})"

#: :data:`CONTEXTUAL`, compiled (:func:`~skillc_index.text.printable` runs it).
CONTEXTUAL_CHAR = re.compile(CONTEXTUAL)


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


def looks_ascii(char: str) -> bool:
    """Whether ``char``, no ASCII character, looks like an ASCII letter, digit or hyphen: one
    of :data:`_LOOK_ALIKES`, a dash or the minus sign (``‐``, ``–``, ``−``), or a character
    whose compatibility form is ASCII letters or digits (the Kelvin sign is ``K``, a
    full-width ``ｐ`` is ``p``, a mathematical bold ``𝐩`` too). An accented letter (``é``)
    looks like what it is."""
    if char.isascii():
        return False
    if char in _LOOK_ALIKES or char == "\u2212":
        return True
    import unicodedata  # a C module

    if unicodedata.category(char) == "Pd":
        return True
    form = unicodedata.normalize("NFKC", char)
    return form != char and form.isascii() and form.isalnum()


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
