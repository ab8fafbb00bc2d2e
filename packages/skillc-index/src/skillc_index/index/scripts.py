"""Which characters make words, for every tokenizer of the kit (the index's, ``search``'s
and ``show``'s, and the find catalog's): the scripts written without spaces between words,
whose runs are cut into characters or graphemes, and the marks that are parts of words. A
module that imports only ``re``: ``skc find`` reads it without loading the index's code."""

from __future__ import annotations

import re

__all__ = [
    "ATTACHED_LETTERS",
    "CJK_CHARS",
    "GRAPHEME",
    "SCRIPT_MARKS",
    "SPACELESS_CHARS",
    "TOKEN_MARKS",
]

#: Scripts written without spaces between words (Han, Kana, Hangul, Bopomofo, Yi and their
#: compatibility, extension and half-width blocks; 々 〆 〇 included): a character class.
CJK_CHARS = (
    "["
    "\u1100-\u11ff"  # Hangul Jamo
    "\u2e80-\u2fdf"  # CJK radicals, Kangxi radicals
    "\u3005-\u3007"  # 々 〆 〇
    "\u3021-\u3029\u3031-\u3035\u3038-\u303c"  # Hangzhou numerals, kana repeat marks
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3100-\u31ff"  # Bopomofo, Hangul compatibility Jamo, Kanbun, Katakana extensions
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\ua000-\ua4cf"  # Yi
    "\ua960-\ua97f"  # Hangul Jamo extended A
    "\uac00-\ud7ff"  # Hangul syllables, Jamo extended B
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff66-\uffdc"  # half-width Katakana and Hangul
    "\U00016fe0-\U00016fff"  # ideographic symbols
    "\U0001b000-\U0001b2ff"  # Kana supplement and extensions
    "\U00020000-\U0003134f"  # CJK extensions B to G, compatibility supplement
    "]"
)

#: The combining marks of the Indic scripts (Devanagari to Sinhala), Thai, Lao, Tibetan,
#: Myanmar and Khmer (Unicode categories Mn and Mc): their vowel signs, viramas and tone marks
#: are parts of words, where SQLite's ``unicode61`` makes every mark a separator (``कोमा``
#: and ``काम`` were both ``क`` and ``म``; ``ต้มยำกุ้ง`` was ``ต``, ``มยำก``, ``ง``). A
#: character class; a mark of another script (a variation selector after an emoji) still
#: separates words, so the words of a text without these scripts are what they were.
SCRIPT_MARKS = (
    "[\u0900-\u0903\u093a-\u093c\u093e-\u094f\u0951-\u0957\u0962-\u0963\u0981-\u0983"
    "\u09bc\u09be-\u09c4\u09c7-\u09c8\u09cb-\u09cd\u09d7\u09e2-\u09e3\u09fe\u0a01-\u0a03"
    "\u0a3c\u0a3e-\u0a42\u0a47-\u0a48\u0a4b-\u0a4d\u0a51\u0a70-\u0a71\u0a75\u0a81-\u0a83"
    "\u0abc\u0abe-\u0ac5\u0ac7-\u0ac9\u0acb-\u0acd\u0ae2-\u0ae3\u0afa-\u0aff\u0b01-\u0b03"
    "\u0b3c\u0b3e-\u0b44\u0b47-\u0b48\u0b4b-\u0b4d\u0b55-\u0b57\u0b62-\u0b63\u0b82"
    "\u0bbe-\u0bc2\u0bc6-\u0bc8\u0bca-\u0bcd\u0bd7\u0c00-\u0c04\u0c3c\u0c3e-\u0c44"
    "\u0c46-\u0c48\u0c4a-\u0c4d\u0c55-\u0c56\u0c62-\u0c63\u0c81-\u0c83\u0cbc\u0cbe-\u0cc4"
    "\u0cc6-\u0cc8\u0cca-\u0ccd\u0cd5-\u0cd6\u0ce2-\u0ce3\u0d00-\u0d03\u0d3b-\u0d3c"
    "\u0d3e-\u0d44\u0d46-\u0d48\u0d4a-\u0d4d\u0d57\u0d62-\u0d63\u0d81-\u0d83\u0dca"
    "\u0dcf-\u0dd4\u0dd6\u0dd8-\u0ddf\u0df2-\u0df3\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u0eb1"
    "\u0eb4-\u0ebc\u0ec8-\u0ecd\u0f18-\u0f19\u0f35\u0f37\u0f39\u0f3e-\u0f3f\u0f71-\u0f84"
    "\u0f86-\u0f87\u0f8d-\u0f97\u0f99-\u0fbc\u0fc6\u102b-\u103e\u1056-\u1059\u105e-\u1060"
    "\u1062-\u1064\u1067-\u106d\u1071-\u1074\u1082-\u108d\u108f\u109a-\u109d\u17b4-\u17d3"
    "\u17dd]"
)
#: Scripts written without spaces between words that spell with letters and marks: Thai,
#: Lao, Myanmar and Khmer (their letters, vowels and marks; not their digits nor their
#: punctuation). A run of them is cut as a run of :data:`CJK_CHARS` is, by its graphemes
#: (a letter with its marks): a character class.
SPACELESS_CHARS = (
    "["
    "\u0e01-\u0e3a\u0e40-\u0e4e"  # Thai
    "\u0e81-\u0ece"  # Lao
    "\u1000-\u103f\u1050-\u109d"  # Myanmar
    "\u1780-\u17d3\u17dd"  # Khmer
    "]"
)
#: Letters that belong to the grapheme of the letter before them though they are no
#: combining mark (category Lo): Thai and Lao SARA AM (U+0E33, U+0EB3: ``กำ`` is one
#: grapheme). The characters, for a character class (:data:`GRAPHEME`, and
#: :func:`skillc_index.text.grapheme_boundary`'s).
ATTACHED_LETTERS = "\u0e33\u0eb3"
#: A grapheme of a run of :data:`SPACELESS_CHARS`: a letter with the marks that follow it
#: (:data:`SCRIPT_MARKS`, :data:`ATTACHED_LETTERS`). The one pattern the ``cjk`` setting of
#: the index and the find catalog cut such a run by.
GRAPHEME = f"{SPACELESS_CHARS}[{SCRIPT_MARKS[1:-1]}{ATTACHED_LETTERS}]*"


def _members(chars: str) -> str:
    """Every character of a character class of single characters and ranges."""
    ranges = re.findall("(.)(?:-(.))?", chars[1:-1])
    return "".join(chr(c) for a, b in ranges for c in range(ord(a), ord(b or a) + 1))


#: :data:`SCRIPT_MARKS` as FTS5's ``unicode61`` takes them (``tokenchars``), quoted for the
#: ``tokenize='...'`` of the DDL: every tokenizer of the kit's indexes keeps them in words.
TOKEN_MARKS = f" tokenchars ''{_members(SCRIPT_MARKS)}''"
