"""The one line splitter (``\\n``, ``\\r\\n``, lone ``\\r``) that the index and readers share."""

from __future__ import annotations

import io
import random
import re

import pytest

from skillc_index import text as _lines
from skillc_index.text import (
    count_lines,
    iter_line_bytes,
    iter_lines,
    normalize_newlines,
    split_lines,
)

# Every character str.splitlines() splits on, and the three real line breaks.
PIECES = ["a", "b", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\u2028", "\u2029", "é", "\x85"]
# Bytes that are not UTF-8 (cut sequences, a lone continuation byte, an overlong form).
BAD = [b"\xff", b"\xe2\x80", b"\xc3", b"\x80", b"\xc0\xaf"]


def reference(text: str) -> list[str]:
    """Lines with their breaks, split on ``\\r\\n``, ``\\r`` and ``\\n`` only."""
    return [line for line in re.split(r"(?<=\r(?!\n))|(?<=\n)", text) if line]


def test_only_newline_carriage_return_and_crlf_end_a_line() -> None:
    text = "a\x0bb\x0cc\x85d\u2028e\u2029f\x1cg\rh\r\ni\nj"
    assert split_lines(text) == ["a\x0bb\x0cc\x85d\u2028e\u2029f\x1cg\r", "h\r\n", "i\n", "j"]
    assert count_lines(text) == 4
    assert normalize_newlines(text) == "a\x0bb\x0cc\x85d\u2028e\u2029f\x1cg\nh\ni\nj"
    assert count_lines("") == 0 and count_lines("x\r") == 1 and count_lines("\r\n\r") == 2


def test_split_count_normalize_and_stream_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read in 7-byte chunks (``\\r\\n`` and UTF-8 sequences cut between chunks, bad bytes as
    U+FFFD), the lines are those of the reference splitter, as are split_lines and the count."""
    monkeypatch.setattr(_lines, "_CHUNK", 7)
    rng = random.Random(13)
    for _ in range(3000):
        data = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 60))).encode()
        data += rng.choice([b"", b"\xff", b"\xe2\x80"])
        text = data.decode("utf-8", "replace")
        wanted = reference(text)
        assert list(iter_lines(io.BytesIO(data))) == wanted, data
        assert split_lines(text) == wanted
        assert (
            count_lines(text)
            == len(wanted)
            == len(normalize_newlines(text).split("\n"))
            - (1 if normalize_newlines(text).endswith("\n") or not text else 0)
        )


def test_a_long_line_streams_whole() -> None:
    data = b"x" * (3 * (1 << 16) + 5) + b"\r" + b"y" * (1 << 16) + b"\r\n"
    assert [len(line) for line in iter_lines(io.BytesIO(data))] == [3 * (1 << 16) + 6, 65538]


def test_line_bytes_from_any_line_are_the_decoded_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """From any line on, read in 7-byte chunks, the lines as bytes decode (each on its own)
    to the reference lines of the decoded file: bad bytes next to a line break, and cut
    between chunks, included (issue 32: readers count the lines before a section instead
    of decoding them)."""
    monkeypatch.setattr(_lines, "_CHUNK", 7)
    rng = random.Random(32)
    for _ in range(3000):
        # half the files without a \r (another way through the chunks)
        choices = PIECES if rng.random() < 0.5 else [p for p in PIECES if "\r" not in p]
        pieces = [rng.choice(choices).encode() for _ in range(rng.randint(0, 60))]
        for _ in range(rng.randint(0, 3)):
            pieces.insert(rng.randint(0, len(pieces)), rng.choice(BAD))
        data = b"".join(pieces)
        wanted = reference(data.decode("utf-8", "replace"))
        first = rng.randint(1, len(wanted) + 2)
        got = list(iter_line_bytes(io.BytesIO(data), first))
        assert [line.decode("utf-8", "replace") for line in got] == wanted[first - 1 :], data
        assert b"".join(got).decode("utf-8", "replace") == "".join(wanted[first - 1 :]), data


def test_printable_text_always_encodes() -> None:
    """Control characters as escapes, and lone surrogates (a JSON ``\\ud800`` in a log, a file
    name's bytes that are not UTF-8) as U+FFFD, as :func:`valid_utf8` has them: a line of text
    output never fails to encode."""
    from skillc_index.text import printable

    assert printable("a\ud800b\x1b\udce9\u202e") == "a\ufffdb\\x1b\ufffd\\u202e"
    assert printable("\ud800x").encode("utf-8") == "\ufffdx".encode()


def test_printable_shows_the_characters_that_show_as_nothing() -> None:
    """Format characters (Unicode's Cf) as escapes: ``demo\\u200b``, ``de\\u00admo`` and
    ``demo\\u2060`` were four skills ``skc list`` and ``find`` all showed as ``demo``. A
    joiner joining an emoji or a script that needs one stays as it is."""
    import sys
    import unicodedata

    from skillc_index.text import printable

    assert printable("demo\u200b") == "demo\\u200b"
    assert printable("de\u00admo") == "de\\u00admo"
    assert printable("demo\u2060\ufeff") == "demo\\u2060\\ufeff"
    assert printable("x\U000e0041\U000e007f") == "x\\U000e0041\\U000e007f"  # tags
    assert printable("demo\u200d a\u200cb \u200d") == "demo\\u200d a\\u200cb \\u200d"
    assert printable("\U0001f9d1\u200d\U0001f4bb dev") == "\U0001f9d1\u200d\U0001f4bb dev"
    assert printable("\u0645\u06cc\u200c\u062e") == "\u0645\u06cc\u200c\u062e"  # Persian
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.category(char) == "Cf" and char not in "\u200c\u200d":
            assert printable(f"a{char}").isascii(), hex(code)


def test_printable_shows_the_printable_characters_that_show_as_nothing() -> None:
    """``demo-tool`` with U+E0101 (a variation selector supplement: SKL901's "emoji
    smuggling"), U+034F or U+3164 after it printed as ``demo-tool``, as did ``caf\u00e9``
    with a joiner after it (any character but ASCII kept one): another skill's name. They
    are escapes; a joiner between two characters it joins (an emoji sequence, Devanagari,
    Persian) and a variation selector of an emoji, a CJK character or a keycap stay."""
    from skillc_index.text import printable

    hidden = ("\U000e0101", "\u034f", "\u115f", "\u1160", "\u3164", "\uffa0", "\ufe0f")
    for char in hidden:
        assert printable(f"demo-tool{char}").isascii(), ascii(char)
    assert printable("caf\u00e9\u200d") == "caf\u00e9\\u200d"
    assert printable("\U0001f600\u200d x") == "\U0001f600\\u200d x"  # joins nothing
    assert printable("\u845b\U000e0100") == "\u845b\\U000e0100"  # SKL901 counts it too
    assert printable("1\ufe0f") == "1\\ufe0f"
    # a run of selectors after one emoji carries data ("emoji smuggling"): the first selects
    assert printable("\U0001f600\ufe0f\ufe01") == "\U0001f600\ufe0f\\ufe01"
    kept = (
        "\u2764\ufe0f\u200d\U0001f525 fire",  # heart on fire
        "\U0001f469\U0001f3fd\u200d\U0001f4bb",  # woman technologist, a skin tone
        "\u0915\u094d\u200d\u0937",  # Devanagari half form
        "\u0645\u06cc\u200c\u062e",  # Persian
        "#\ufe0f\u20e3 keycap",
        "\u2269\ufe00",
        "Caf\u00e9 \u2014 \u4f7f\u7528\u65b9\u6cd5",
    )
    for text in kept:
        assert printable(text) == text, ascii(text)


def test_cut_keeps_a_text_that_fits_and_ends_a_cut_one_with_an_ellipsis() -> None:
    """The one cut (design audit, item 8) of the stub's descriptions, a projection's
    description and compatibility note and ``skc find``'s lines: at most ``limit``
    characters, the ellipsis counted, no white space left before it."""
    from skillc_index.text import cut

    assert cut("short", 5) == "short"
    assert cut("exactly ten", 11) == "exactly ten"
    assert cut("a longer text", 8) == "a longe\u2026"
    assert cut("two words here", 5) == "two\u2026"  # "two " cut: the space dropped
    assert all(len(cut("x y " * 50, limit)) <= limit for limit in range(1, 210))


def test_cut_middle_keeps_the_start_and_the_end_of_a_text() -> None:
    """What a message quotes of a value (``layout.shown``, ``Diagnostic.message``) is cut in
    its middle: a long path keeps the name of its file. At most ``limit`` characters, the
    ellipsis counted, no white space next to it, no grapheme split at either side."""
    from skillc_index.text import cut_middle

    assert cut_middle("short", 5) == "short"
    assert cut_middle("abcdefghij", 5) == "ab\u2026ij"
    assert cut_middle("abcdefghij", 6) == "abc\u2026ij"
    assert cut_middle("abcdefghij", 2) == "a\u2026"
    assert cut_middle("abcdefghij", 1) == "\u2026"
    path = "/".join(f"d{i:02d}_" + "x" * 20 for i in range(10)) + "/target-skill"
    assert cut_middle(path, 200) == path[:100] + "\u2026" + path[-99:]
    assert cut_middle(path, 200).endswith("/target-skill")
    assert cut_middle("ab  cdefgh  ij", 9) == "ab\u2026ij"  # the spaces by the cut dropped
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert cut_middle("xx" + family + "yy" + family + "zz", 7) == "xx\u2026zz"
    accents = "cafe\u0301 ok\u0301x"  # each accent goes with its letter: kept or cut whole
    assert cut_middle(accents, 9) == "caf\u2026ok\u0301x"
    assert cut_middle(accents, 6) == "caf\u2026x"
    assert all(len(cut_middle("x y " * 50, limit)) <= limit for limit in range(1, 210))


def test_cut_never_splits_a_grapheme() -> None:
    """A cut moves back to where no grapheme splits (audit unicode, item 3): no emoji cut at
    its joiner (which ``printable`` then showed as ``\\u200d``), no lone flag letter, no Thai
    consonant without its tone mark, no Devanagari letter without its vowel sign or conjunct."""
    from skillc_index.text import cut, grapheme_boundary

    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert cut("x" * 10 + family + " end", 12) == "x" * 10 + "\u2026"
    assert cut("x" * 10 + "\U0001f1ef\U0001f1f5\U0001f1eb\U0001f1f7", 13) == (
        "x" * 10 + "\U0001f1ef\U0001f1f5\u2026"
    )
    assert cut("x" * 10 + "\U0001f1ef\U0001f1f5!", 12) == "x" * 10 + "\u2026"
    assert cut("\u0e01\u0e01\u0e15\u0e49\u0e21", 4) == "\u0e01\u0e01\u2026"  # ต้ kept whole
    assert cut("\u0e01\u0e33\u0e01", 2) == "\u2026"  # SARA AM goes with its consonant
    assert cut("\u0915\u094d\u0937\u093e x", 4) == "\u2026"  # क्षा: virama, vowel sign
    assert cut("\U0001f44d\U0001f3fd ok", 2) == "\u2026"  # a skin tone
    assert cut("\U0001f44d\u2764\ufe0f ok", 3) == "\U0001f44d\u2026"  # a variation selector
    assert cut("cafe\u0301 au lait", 5) == "caf\u2026"  # the accent goes with its e
    text = "ab" + family + "cd"
    assert [grapheme_boundary(text, i) for i in range(len(text) + 1)] == [
        0,
        1,
        2,
        2,
        2,
        2,
        2,
        7,
        8,
        9,
    ]
    assert [grapheme_boundary(text, i, forward=True) for i in range(3, 7)] == [7, 7, 7, 7]
    assert grapheme_boundary("a\r\nb", 2) == 1


def test_shell_word_writes_an_emoji_sequence_as_sh_reads_it() -> None:
    """A joiner :func:`printable` keeps (in 👩‍💻) is text, written in ``shlex.quote``'s quotes:
    bash's ``$'...'`` is another word to ``sh`` (``$👩\\u200d💻``, audit unicode, item 9); a
    joiner joining nothing, a tab, a no-break space or a line separator is still escaped."""
    import shlex
    import subprocess

    from skillc_index import shell_word

    heading = "\U0001f469\u200d\U0001f4bb Developers"
    assert shell_word(heading) == f"'{heading}'"
    echoed = subprocess.run(
        ["sh", "-c", f"printf %s {shell_word(heading)}"], capture_output=True, check=True
    )
    assert echoed.stdout.decode("utf-8") == heading
    for text, word in [
        ("cafe\u200d", "$'cafe\\u200d'"),
        ("No\u00a0break", "$'No\\u00a0break'"),
        ("Tab\there", "$'Tab\\x09here'"),
        ("a\u2028b", "$'a\\u2028b'"),
        ("plain words", shlex.quote("plain words")),
    ]:
        assert shell_word(text) == word, ascii(text)


def test_a_skin_tone_and_a_keycap_take_the_columns_a_terminal_gives_them() -> None:
    """A skin tone after its emoji was counted again (👍🏽 4 columns) and a keycap (1️⃣) was
    1: a stats row with such a heading was pushed off its column (audit cjk, item 8)."""
    from skillc_index.columns import display_width, table_lines

    thumbs, keycap = "\U0001f44d\U0001f3fd", "1\ufe0f\u20e3"
    assert [display_width(t) for t in (thumbs, keycap, "#\ufe0f\u20e3", "\U0001f3fd")] == [2] * 4
    assert display_width(f"{thumbs} Approve") == 10 and display_width(f"{keycap}x") == 3
    assert display_width("\U0001f469\U0001f3fd\u200d\U0001f4bb") == 2  # a toned sequence
    lines = table_lines([["A", "B"], [f"{thumbs} Approve", "x"], ["Plain", "y"]])
    assert [display_width(line[:-1]) for line in lines[1:]] == [12, 12]


def test_tables_line_up_as_a_terminal_shows_them() -> None:
    """Cells were padded by code points: a CJK name (two columns a character), an emoji
    sequence or a decomposed accent pushed the next column off (audit unicode, item 6)."""
    from skillc_index.columns import display_width, table_lines

    assert [
        display_width(t) for t in ("abc", "日本語", "\U0001f469\u200d\U0001f4bb", "e\u0301")
    ] == [
        3,
        6,
        2,
        1,
    ]
    assert display_width("\u26a0\ufe0f ok") == 5 and display_width("ＰＤＦ") == 6
    rows = [
        ["NAME", "SCOPE", "WHERE"],
        ["日本語レビュー", "project", "x"],
        ["re\u0301sume\u0301", "global", "y"],
    ]
    lines = table_lines(rows)
    assert lines == [
        "NAME            SCOPE    WHERE",
        "日本語レビュー  project  x",
        "re\u0301sume\u0301          global   y",
    ]
    assert table_lines(
        [["COUNT", "SECTION", "FILE"], ["1", "👩\u200d💻 Dev", "SKILL.md"]], right=1
    ) == [
        "COUNT  SECTION  FILE",
        "    1  👩\u200d💻 Dev   SKILL.md",
    ]


def test_counted_is_the_one_count_in_words() -> None:
    """Every package's messages count with it (``1 skill``, ``2,320 skills``, an irregular
    plural given), so a summary never says ``1 skills`` nor prints 2320 in one message and
    2,320 in another."""
    from skillc_index import counted

    assert counted(1, "skill") == "1 skill"
    assert counted(0, "skill") == "0 skills"
    assert counted(2320, "skill") == "2,320 skills"
    assert counted(1, "access", "accesses") == "1 access"
    assert counted(3, "access", "accesses") == "3 accesses"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_a_file_with_a_utf16_or_utf32_bom_is_read_as_its_text(
    codec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A text file in UTF-16 or UTF-32 with its BOM (Windows PowerShell 5.1's ``>``) was read
    as UTF-8: a NUL in every line, no heading, no word. Every reader reads its text: whole
    (``files.decoded``) or by lines (``iter_line_bytes``, 7-byte chunks: a character cut
    between two), the BOM dropped; a file without one is read as before."""
    from skillc_index.files import decoded
    from skillc_index.text import as_utf8, count_line_bytes

    monkeypatch.setattr(_lines, "_CHUNK", 7)
    text = "# Gizmo é😀\r\n\r\nline two\rthree\n"
    data = (b"\xfe\xff" if codec == "utf-16-be" else b"") + text.encode(codec)
    assert decoded(data) == text
    assert list(iter_lines(io.BytesIO(data))) == split_lines(text)
    assert list(iter_line_bytes(io.BytesIO(data), 3)) == [b"line two\r", b"three\n"]
    assert count_line_bytes(data[:5], io.BytesIO(data[5:])) == 4
    assert b"".join(as_utf8([data[:3], data[3:]])) == text.encode()
    for plain in (text.encode(), b"\xef\xbb\xbf" + text.encode(), b"\xff\xfe"[:1] + b"x\0y"):
        assert b"".join(as_utf8([plain[:2], plain[2:]])) == plain  # no BOM of UTF-16: as it is
    assert decoded(b"\xef\xbb\xbfx") == "x" and decoded(b"\xff\xfex\x00\x00") == "x\ufffd"


def test_any_of_finds_its_words_with_their_spaces_as_given() -> None:
    """``any_of``'s words matched a space as written: a caller wanting any white space
    edited the pattern's source (``\\ `` to ``\\s+``); ``space`` says what a space is."""
    from skillc_index.text import any_of

    spaced = any_of(("bypass", "you are now", "system prompt"), "y", r"\s+")
    assert [m.group() for m in spaced.finditer("you  are\nnow; system\tprompt; bypass")] == [
        "you  are\nnow",
        "ystem\tprompt",  # each from its key
        "ypass",
    ]
    plain = any_of(("you are now", "a.b c"), "a")  # a space, and the rest, as written
    assert [m.group() for m in plain.finditer("you are now, you are\nnow, a.b c, axb c")] == [
        "are now",
        "a.b c",
    ]


def test_a_cell_is_cut_to_shown_characters_before_the_others_are_padded() -> None:
    """A cell of 200 KB padded every other row to 200 KB (`stats --group-by` printed 400 MB).
    A cell comes escaped (``printable``): it is cut with each escape whole (it showed
    ``\\u20…``)."""
    from skillc_index.columns import table_lines
    from skillc_index.text import CELL_CHARS, printable

    lines = table_lines(
        [["COUNT", "SECTION", "FILE"], ["1", "x" * 200_000, "-"], ["2", "a", "-"]], right=1
    )
    assert [len(line) for line in lines] == [
        7 + CELL_CHARS + 6,
        7 + CELL_CHARS + 3,
        7 + CELL_CHARS + 3,
    ]
    assert lines[1].endswith("x\u2026  -") and lines[2].startswith("    2  a  ")
    hidden = printable("\u200b\x1b" * 1000)  # a cell is printable already: its escapes whole
    (_, cell) = table_lines([["SECTION"], [hidden]])
    assert len(cell) <= CELL_CHARS and cell.endswith("\u2026"), len(cell)
    assert cell[:-1].replace("\\u200b", "").replace("\\x1b", "") == "", cell[-20:]


#: An escape as :func:`~skillc_index.text.printable` writes one (a test's own pattern).
_WHOLE_ESCAPE = re.compile(r"\\(?:[nr]|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})")


def _escapes_whole(shown: str) -> bool:
    """Whether each backslash of ``shown`` (a text of no backslash of its own) starts a whole
    escape: none cut to ``\\u20…``."""
    return all(_WHOLE_ESCAPE.match(shown, at) for at, char in enumerate(shown) if char == "\\")


def test_printable_cut_escapes_first_then_cuts_each_escape_whole() -> None:
    """Cut, then escaped: 200 zero-width spaces quoted in 200 characters showed 1,200, and a
    cut through an escape showed half of it. Escaped, then cut (``printable_cut``, the one
    cut of an escaped text, ``cut_escaped``): never longer than the limit, no escape split,
    at either side of a middle cut; a text with nothing to escape is cut as ``cut`` cuts."""
    from skillc_index.text import cut, cut_escaped, cut_middle, printable, printable_cut

    hidden = "\u200b\x1b\u202e\n\U000e0041" * 300  # 1,500 characters, each one escaped
    for limit in range(1, 230):
        for middle in (False, True):
            shown = printable_cut(hidden, limit, middle=middle)
            assert len(shown) <= limit and _escapes_whole(shown), (limit, middle, shown)
            assert shown == cut_escaped(printable(hidden), limit, middle=middle)
    assert printable_cut(hidden, 20) == "\\u200b\\x1b\\u202e\\n\u2026"
    assert printable_cut(hidden, 23, middle=True) == "\\u200b\\x1b\u2026\\U000e0041"
    assert printable_cut("name\u200b", 200) == "name\\u200b"  # it fits once escaped
    plain = "x y " * 60
    assert printable_cut(plain, 50) == cut(plain, 50)
    assert printable_cut(plain, 50, middle=True) == cut_middle(plain, 50)
    flags = "\U0001f1ef\U0001f1f5" * 400 + "\U0001f1eb"  # pairs from the run's start
    assert printable_cut(flags, 9, middle=True) == cut_middle(flags, 9)
