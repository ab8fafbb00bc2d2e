"""Which characters make words, for every tokenizer of the kit (the index's, ``search``'s
and ``show``'s, and the find catalog's): the scripts written without spaces between words,
whose runs are cut into characters or graphemes, and the marks that are parts of words
(:func:`spaceless`: whether a text holds such a script). A module that imports nothing of the
kit (``re`` when a text that is not ASCII is first asked about): ``skc find`` reads it
without loading the index's code."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import re

__all__ = [
    "ATTACHED_LETTERS",
    "CJK_CHARS",
    "GRAPHEME",
    "SCRIPT_MARKS",
    "SPACELESS_CHARS",
    "STACKERS",
    "TOKEN_MARKS",
    "spaceless",
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
_SPACELESS: re.Pattern[str] | None = None  # CJK_CHARS or SPACELESS_CHARS, compiled once


def spaceless(text: str) -> bool:
    """Whether ``text`` holds a character of a script written without spaces between words
    (:data:`CJK_CHARS`, :data:`SPACELESS_CHARS`): ``search``'s hint, and SKL108's patterns
    found inside words. False at once for ASCII; the pattern is compiled on first use."""
    if text.isascii():
        return False
    global _SPACELESS  # (compiled on first use, not on import)
    if _SPACELESS is None:
        import re

        _SPACELESS = re.compile(f"{CJK_CHARS}|{SPACELESS_CHARS}")
    return _SPACELESS.search(text) is not None


#: Letters that belong to the grapheme of the letter before them though they are no
#: combining mark (category Lo): Thai and Lao SARA AM (U+0E33, U+0EB3: ``กำ`` is one
#: grapheme). The characters, for a character class (:data:`GRAPHEME`, and
#: :func:`skillc_index.text.grapheme_boundary`'s).
ATTACHED_LETTERS = "\u0e33\u0eb3"
#: The viramas of Thai, Lao, Myanmar and Khmer that stack the consonant after them under the
#: one before (Khmer's coeng, U+17D2: ``ខ្ម`` of ``ខ្មែរ`` is one grapheme), as
#: :func:`skillc_index.text.grapheme_boundary` joins them; not Myanmar's visible asat
#: (U+103A), which ends a syllable. The characters, for a character class.
STACKERS = "\u0e3a\u0eba\u1039\u17d2"
#: A grapheme of a run of :data:`SPACELESS_CHARS`: a letter with the marks that follow it
#: (:data:`SCRIPT_MARKS`, :data:`ATTACHED_LETTERS`) and the consonants stacked under it
#: (:data:`STACKERS`). The one pattern the ``cjk`` setting of the index and the find
#: catalog cut such a run by.
GRAPHEME = (
    f"{SPACELESS_CHARS}(?:[{STACKERS}]{SPACELESS_CHARS}|[{SCRIPT_MARKS[1:-1]}{ATTACHED_LETTERS}])*"
)


#: Every character of :data:`SCRIPT_MARKS`, written out (expanding the class costs 0.2 ms,
#: on the import of ``show`` and ``search``; a test compares the two).
_MARK_CHARS = (
    "\u0900\u0901\u0902\u0903\u093a\u093b\u093c\u093e\u093f\u0940\u0941\u0942\u0943\u0944"
    "\u0945\u0946\u0947\u0948\u0949\u094a\u094b\u094c\u094d\u094e\u094f\u0951\u0952\u0953"
    "\u0954\u0955\u0956\u0957\u0962\u0963\u0981\u0982\u0983\u09bc\u09be\u09bf\u09c0\u09c1"
    "\u09c2\u09c3\u09c4\u09c7\u09c8\u09cb\u09cc\u09cd\u09d7\u09e2\u09e3\u09fe\u0a01\u0a02"
    "\u0a03\u0a3c\u0a3e\u0a3f\u0a40\u0a41\u0a42\u0a47\u0a48\u0a4b\u0a4c\u0a4d\u0a51\u0a70"
    "\u0a71\u0a75\u0a81\u0a82\u0a83\u0abc\u0abe\u0abf\u0ac0\u0ac1\u0ac2\u0ac3\u0ac4\u0ac5"
    "\u0ac7\u0ac8\u0ac9\u0acb\u0acc\u0acd\u0ae2\u0ae3\u0afa\u0afb\u0afc\u0afd\u0afe\u0aff"
    "\u0b01\u0b02\u0b03\u0b3c\u0b3e\u0b3f\u0b40\u0b41\u0b42\u0b43\u0b44\u0b47\u0b48\u0b4b"
    "\u0b4c\u0b4d\u0b55\u0b56\u0b57\u0b62\u0b63\u0b82\u0bbe\u0bbf\u0bc0\u0bc1\u0bc2\u0bc6"
    "\u0bc7\u0bc8\u0bca\u0bcb\u0bcc\u0bcd\u0bd7\u0c00\u0c01\u0c02\u0c03\u0c04\u0c3c\u0c3e"
    "\u0c3f\u0c40\u0c41\u0c42\u0c43\u0c44\u0c46\u0c47\u0c48\u0c4a\u0c4b\u0c4c\u0c4d\u0c55"
    "\u0c56\u0c62\u0c63\u0c81\u0c82\u0c83\u0cbc\u0cbe\u0cbf\u0cc0\u0cc1\u0cc2\u0cc3\u0cc4"
    "\u0cc6\u0cc7\u0cc8\u0cca\u0ccb\u0ccc\u0ccd\u0cd5\u0cd6\u0ce2\u0ce3\u0d00\u0d01\u0d02"
    "\u0d03\u0d3b\u0d3c\u0d3e\u0d3f\u0d40\u0d41\u0d42\u0d43\u0d44\u0d46\u0d47\u0d48\u0d4a"
    "\u0d4b\u0d4c\u0d4d\u0d57\u0d62\u0d63\u0d81\u0d82\u0d83\u0dca\u0dcf\u0dd0\u0dd1\u0dd2"
    "\u0dd3\u0dd4\u0dd6\u0dd8\u0dd9\u0dda\u0ddb\u0ddc\u0ddd\u0dde\u0ddf\u0df2\u0df3\u0e31"
    "\u0e34\u0e35\u0e36\u0e37\u0e38\u0e39\u0e3a\u0e47\u0e48\u0e49\u0e4a\u0e4b\u0e4c\u0e4d"
    "\u0e4e\u0eb1\u0eb4\u0eb5\u0eb6\u0eb7\u0eb8\u0eb9\u0eba\u0ebb\u0ebc\u0ec8\u0ec9\u0eca"
    "\u0ecb\u0ecc\u0ecd\u0f18\u0f19\u0f35\u0f37\u0f39\u0f3e\u0f3f\u0f71\u0f72\u0f73\u0f74"
    "\u0f75\u0f76\u0f77\u0f78\u0f79\u0f7a\u0f7b\u0f7c\u0f7d\u0f7e\u0f7f\u0f80\u0f81\u0f82"
    "\u0f83\u0f84\u0f86\u0f87\u0f8d\u0f8e\u0f8f\u0f90\u0f91\u0f92\u0f93\u0f94\u0f95\u0f96"
    "\u0f97\u0f99\u0f9a\u0f9b\u0f9c\u0f9d\u0f9e\u0f9f\u0fa0\u0fa1\u0fa2\u0fa3\u0fa4\u0fa5"
    "\u0fa6\u0fa7\u0fa8\u0fa9\u0faa\u0fab\u0fac\u0fad\u0fae\u0faf\u0fb0\u0fb1\u0fb2\u0fb3"
    "\u0fb4\u0fb5\u0fb6\u0fb7\u0fb8\u0fb9\u0fba\u0fbb\u0fbc\u0fc6\u102b\u102c\u102d\u102e"
    "\u102f\u1030\u1031\u1032\u1033\u1034\u1035\u1036\u1037\u1038\u1039\u103a\u103b\u103c"
    "\u103d\u103e\u1056\u1057\u1058\u1059\u105e\u105f\u1060\u1062\u1063\u1064\u1067\u1068"
    "\u1069\u106a\u106b\u106c\u106d\u1071\u1072\u1073\u1074\u1082\u1083\u1084\u1085\u1086"
    "\u1087\u1088\u1089\u108a\u108b\u108c\u108d\u108f\u109a\u109b\u109c\u109d\u17b4\u17b5"
    "\u17b6\u17b7\u17b8\u17b9\u17ba\u17bb\u17bc\u17bd\u17be\u17bf\u17c0\u17c1\u17c2\u17c3"
    "\u17c4\u17c5\u17c6\u17c7\u17c8\u17c9\u17ca\u17cb\u17cc\u17cd\u17ce\u17cf\u17d0\u17d1"
    "\u17d2\u17d3\u17dd"
)

#: :data:`SCRIPT_MARKS` as FTS5's ``unicode61`` takes them (``tokenchars``), quoted for the
#: ``tokenize='...'`` of the DDL: the ``cjk`` setting of the index and the find catalog keep
#: them in words (the ``ascii`` setting keeps RFC-0004's clause exactly).
TOKEN_MARKS = f" tokenchars ''{_MARK_CHARS}''"
