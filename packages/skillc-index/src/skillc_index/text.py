"""Text: its lines, and what arrives from outside made safe for where it goes.

**Lines.** A line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``, and nowhere else: not at a
form feed, a vertical tab, NEL (U+0085), U+2028 or U+2029, which ``str.splitlines`` also splits
on. This is how markdown-it sees lines (it turns ``\\r\\n`` and ``\\r`` into ``\\n`` and
splits on ``\\n``), so the line numbers the index stores (headings, sections) and the lines
``show`` and ``open`` read back are the same lines. Never use ``str.splitlines`` on file text:
:func:`split_lines`, :func:`iter_lines` and :func:`iter_line_bytes` are the one definition
every reader and the index share.

**Text from outside** (command-line arguments, file names, JSON strings, skills) made safe for
where it goes: SQLite, which refuses what is not valid UTF-8 (:func:`valid_utf8`), and a
terminal, which obeys the control characters in a skill's headings or file names
(:func:`printable`, :func:`one_line`, :func:`stub_label`), and a command line to paste into a shell
(:func:`shell_word`). Python hands over bytes that are not UTF-8 as lone
surrogates (``surrogateescape``), and a JSON string may hold escaped lone surrogates; encoding
either raises ``UnicodeEncodeError``.

How wide a text shows in a terminal, and the one table of text output, are
:mod:`skillc_index.columns`'; the text ``search``, ``find`` and ``show --section`` match
(``folded``, ``narrow``) is :mod:`skillc_index.folding`'s. Each is imported from its module.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from skillc_index.deceptive import (
    BIDI_CONTROLS,
    BIDI_MARKS,
    CONTEXTUAL_CHAR,
    SELECTORS,
    UNSEEN,
    char_class,
    code_escape,
    hidden_escaped,
)

__all__ = [
    "BOM",
    "BOM_BYTES",
    "CELL_CHARS",
    "ELLIPSIS",
    "MAX_SHOWN",
    "OTHER_BOMS",
    "TEXT_NOT_UTF8",
    "any_of",
    "as_utf8",
    "char_name",
    "composed",
    "composed_match",
    "composed_shown",
    "count_line_bytes",
    "count_lines",
    "cut",
    "cut_escaped",
    "cut_middle",
    "cut_quotes",
    "decoded",
    "encoding_problem",
    "grapheme_boundary",
    "iter_line_bytes",
    "iter_lines",
    "json_text",
    "normalize_newlines",
    "nul_shown",
    "one_line",
    "one_of",
    "other_bom",
    "printable",
    "printable_cut",
    "shell_word",
    "split_lines",
    "stub_label",
    "text_codec",
    "valid_utf8",
]

#: A byte order mark, which Windows editors write first: every reader drops a leading one.
BOM = "\ufeff"
#: :data:`BOM` as a file's first bytes (UTF-8).
BOM_BYTES = BOM.encode("utf-8")
#: The BOMs of the encodings other than UTF-8 a text file may start with, and the codec that
#: reads the text after one (UTF-32LE's first: it starts with UTF-16LE's). Windows PowerShell
#: 5.1 writes UTF-16LE with its BOM through ``>``.
OTHER_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)
#: Why a path holding a NUL byte (an MCP client can send one) names no file.
NUL_REASON = "a path cannot hold a NUL byte"


def nul_shown(path: str) -> str:
    """``path`` as a message writes it: each NUL byte as ``\\0`` (:data:`NUL_REASON`)."""
    return path.replace("\0", "\\0")


# -- lines -------------------------------------------------------------------------------------

_CHUNK = 1 << 16

# One whole line with its break. Only ever run over text that ends with a break (see
# _complete), so it never scans a line's characters twice.
_LINE = r"[^\r\n]*(?:\r\n|\r|\n)"  # compiled on first use (as diagnostics explains)


def normalize_newlines(text: str) -> str:
    """``text`` with every ``\\r\\n`` and lone ``\\r`` made ``\\n`` (same lines, same count)."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def count_lines(text: str) -> int:
    """Number of lines; a last line without a break counts, an empty text has 0."""
    if not text:
        return 0
    breaks = text.count("\n")
    if "\r" in text:  # (a text whose newlines are normalized has none: one pass less)
        breaks += text.count("\r") - text.count("\r\n")
    return breaks + (0 if text.endswith(("\n", "\r")) else 1)


def count_line_bytes(data: bytes, handle: BinaryIO) -> int:
    """:func:`count_lines` of a file whose first bytes, ``data``, were read from ``handle`` in
    binary mode: the rest is read in chunks of 1 MiB (ten times faster than 64 KiB ones:
    0.2 s for 400 MB), memory holds one (a ``\n`` or ``\r`` byte is never part of a UTF-8
    sequence, so the bytes break where the text does; a UTF-16 file's are counted as UTF-8:
    :func:`as_utf8`)."""
    breaks, last = 0, b""
    for chunk in as_utf8(itertools.chain((data,), iter(lambda: handle.read(1 << 20), b""))):
        if not chunk:
            continue
        breaks += chunk.count(b"\n")
        if b"\r" in chunk:
            breaks += chunk.count(b"\r") - chunk.count(b"\r\n")
        breaks -= last == b"\r" and chunk.startswith(b"\n")  # a \r\n across two chunks
        last = chunk[-1:]
    return breaks + (last not in (b"\n", b"\r", b""))


def text_codec(head: bytes) -> str:
    """The codec of a text file whose bytes start with ``head``: UTF-16 or UTF-32 after its
    BOM (:data:`OTHER_BOMS`; the codec reads the BOM and drops it), else UTF-8."""
    for bom, codec in OTHER_BOMS:
        if head.startswith(bom):
            return codec
    return "UTF-8"


def as_utf8(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """A file's bytes, read in ``chunks``, as UTF-8: as they are, or when the first chunk
    starts with a BOM of UTF-16 or UTF-32 (:func:`text_codec`), its text written as UTF-8,
    the BOM dropped and what the codec cannot read as U+FFFD (one chunk decoded at a time:
    memory holds one, as for a file in UTF-8). Every reader of a file's lines reads them
    through it, so they are the lines :func:`skillc_index.files.decoded` gives the index."""
    chunks, first = iter(chunks), b""
    for chunk in chunks:  # at least the 4 bytes a BOM may take
        first += chunk
        if len(first) >= 4:
            break
    codec = text_codec(first)
    if codec == "UTF-8":
        yield first
        yield from chunks
        return
    import codecs

    decoder = codecs.getincrementaldecoder(codec)("replace")
    for chunk in itertools.chain((first,), chunks):
        yield decoder.decode(chunk).encode("utf-8")
    yield decoder.decode(b"", final=True).encode("utf-8")


def _complete(text: str) -> tuple[list[str], str]:
    """The whole lines of ``text`` (breaks kept) and what follows the last break."""
    cut = max(text.rfind("\n"), text.rfind("\r")) + 1
    whole = text[:cut]
    lines = whole.splitlines(keepends=True)  # several times faster than _LINE.findall
    if len(lines) == whole.count("\n"):  # it broke at no lone '\r', FF, NEL, U+2028...
        return lines, text[cut:]
    return re.findall(_LINE, whole), text[cut:]


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, each with its line break (the last one may have none)."""
    lines, rest = _complete(text)
    if rest:
        lines.append(rest)
    return lines


def _chunks(handle: BinaryIO) -> Iterator[bytes]:
    """The bytes of a file opened in binary mode, in chunks that never end between the
    ``\r`` and the ``\n`` of a ``\r\n`` (a chunk's last ``\r`` opens the next one), as
    UTF-8 (:func:`as_utf8`: a UTF-16 file's text too)."""
    carry = b""
    for chunk in as_utf8(iter(lambda: handle.read(_CHUNK), b"")):
        if not chunk:
            continue
        if carry:
            chunk = carry + chunk
        chunk, carry = (chunk[:-1], b"\r") if chunk.endswith(b"\r") else (chunk, b"")
        if chunk:
            yield chunk
    if carry:
        yield carry


def iter_line_bytes(handle: BinaryIO, first: int = 1) -> Iterator[bytes]:
    """The lines of a file opened in binary mode, from line ``first`` (1-based) on, as bytes,
    each with its line break: the lines :func:`iter_lines` decodes (a ``\n`` or ``\r`` byte
    is never part of a UTF-8 sequence, so the bytes break where the text does, and each line
    decodes as it does inside the file). Read in chunks: memory holds one line, a line of any
    length costs time in proportion to its length, the lines before ``first`` are skipped
    without being copied, and a line is split off only when the one before it was taken (a
    reader that stops at a section's end splits nothing after it)."""
    number = 1  # the line the next byte belongs to
    parts: list[bytes] = []  # the pieces of that line, when it is one to yield
    for chunk in _chunks(handle):
        if b"\r" in chunk:  # \r\n or lone \r breaks: split the chunk (bytes split at those only)
            lines = chunk.splitlines(keepends=True)
            rest = b"" if lines[-1].endswith((b"\n", b"\r")) else lines.pop()
            if lines and parts:
                lines[0] = b"".join(parts) + lines[0]
                parts = []
            yield from lines[max(first - number, 0) :]
            number += len(lines)
        else:  # \n breaks only: find them one by one
            start = 0
            while number < first and (end := chunk.find(b"\n", start)) >= 0:
                start = end + 1
                number += 1
            if number < first:
                continue  # the rest of the chunk is part of a line before ``first``
            while (end := chunk.find(b"\n", start)) >= 0:
                line = chunk[start : end + 1]
                if parts:
                    line = b"".join(parts) + line
                    parts = []
                yield line
                start = end + 1
                number += 1
            rest = chunk[start:]
        if rest and number >= first:
            parts.append(rest)
    if parts:
        yield b"".join(parts)


def iter_lines(handle: BinaryIO) -> Iterator[str]:
    """The lines of a file opened in binary mode, as UTF-8 (bad bytes as U+FFFD), each with
    its line break, read in chunks: memory holds one line, and a line of any length costs
    time in proportion to its length (its pieces are joined once, when it ends)."""
    for line in iter_line_bytes(handle):
        yield line.decode("utf-8", "replace")


# -- text from outside ---------------------------------------------------------------------


def valid_utf8(text: str, replacement: str = "\ufffd") -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, or ``replacement`` (unchanged,
    and fast, when it is already valid UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(replacement if "\ud800" <= char <= "\udfff" else char for char in text)
    return text


def json_text(data: Any) -> str:
    """The kit's machine output (``--format json``): stable, two-space indented JSON, UTF-8
    as it is (a file name that is not UTF-8 has U+FFFD here)."""
    import json  # not at module level: most runs print text

    return valid_utf8(json.dumps(data, indent=2, ensure_ascii=False))


#: The format characters (Unicode 15's category Cf) that are neither hidden
#: (:mod:`skillc_index.deceptive`) nor joiners: the prepended concatenation marks, which show
#: over the digits after them, and the Egyptian hieroglyph format controls. Escaped all the same.
_FORMATS = (*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD)
_FORMATS += tuple(range(0x13430, 0x13440))
#: The hidden characters :meth:`str.isprintable` passes (the combining grapheme joiner, the
#: Hangul fillers, the variation selectors and their supplement): a quick first test of a text
#: it passes, whether it may hold one.
_MAY_BLANK = re.compile(
    f"[{char_class(code for code in UNSEEN | SELECTORS if chr(code).isprintable())}]"
)
#: What :func:`printable` shows as an escape: the C0 and C1 control characters but the tab,
#: the format characters and the hidden characters (:mod:`skillc_index.deceptive`): the
#: bidirectional controls and marks, which reorder what a terminal shows ("Trojan Source"),
#: and those that show as nothing (a zero-width space, a soft hyphen, a word joiner, a BOM,
#: tag characters, a Hangul filler), which make ``demo\u200b`` read as another skill's ``demo``.
_CONTROLS = {
    code: ("\\n" if code == 10 else "\\r" if code == 13 else f"\\x{code:02x}")
    for code in (*range(0x20), *range(0x7F, 0xA0))
    if code != 9
} | {code: code_escape(code) for code in (*_FORMATS, *BIDI_CONTROLS, *BIDI_MARKS, *UNSEEN)}


def printable(text: str) -> str:
    """``text`` as a line of text output may show it: control characters (an escape
    sequence, a newline in a file name, a bidirectional override) and characters that show
    as nothing (a zero-width space, a Hangul filler, a variation selector of no variant, a
    joiner joining nothing) written as escapes (``\\x1b``, ``\\n``, ``\\u202e``,
    ``\\u200b``), so that a skill's headings, names and file names never drive the terminal,
    make up lines of their own nor read as another's, and lone surrogates as U+FFFD (as
    :func:`valid_utf8`: a JSON string in a log may hold one, and no output encodes it).
    ``show`` and ``open`` print a file's text as it is; the names that lead to it go through
    here. A text with none of them is returned as it is (an ASCII one at once)."""
    if text.isprintable() and (text.isascii() or not _MAY_BLANK.search(text)):
        return text
    text = valid_utf8(text).translate(_CONTROLS)
    if not text.isascii():
        text = CONTEXTUAL_CHAR.sub(lambda char: code_escape(ord(char.group())), text)
    return text


def shell_word(text: str) -> str:
    """``text`` as one shell word that pastes as printed: ``shlex.quote`` when it is
    printable (a joiner that :func:`printable` keeps, inside an emoji sequence such as 👩‍💻,
    included: ``$'...'`` is bash's, which ``sh`` reads as other text), else bash's ``$'...'``
    with escapes (``\\x1b``, ``\\n``, ``\\u202e``, a tab, a no-break space), so a control
    character never drives the terminal nor a line break splits the line, and a backquote
    never ends a Markdown code span around the command (the stub's commands,
    ``run --dry-run``'s preview: :func:`shlex.join`, escaped)."""
    if "`" not in text and (
        text.isprintable() or (text.translate(_JOINERS).isprintable() and printable(text) == text)
    ):
        import shlex

        return shlex.quote(text)
    escaped = []
    for char in text:
        if char in "\\'":
            escaped.append("\\" + char)
        elif char.isprintable() and char != "`":
            escaped.append(char)
        elif ord(char) < 0x80:  # bash's \xHH is a byte: U+0080-U+00FF are \u00HH (UTF-8)
            escaped.append(f"\\x{ord(char):02x}")
        else:
            escaped.append(code_escape(ord(char)))
    return "$'" + "".join(escaped) + "'"


#: The joiners :func:`shell_word` writes as they are where :func:`printable` keeps them.
_JOINERS = dict.fromkeys((0x200C, 0x200D))


def counted(count: int, one: str, many: str | None = None) -> str:
    """``1 skill``, ``2,320 skills`` (``many``: the plural when it is not ``one`` + ``s``): the
    one count in words of the kit's messages."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"


#: What ends a text :func:`cut` short.
ELLIPSIS = "\u2026"


#: What a character never starts a grapheme of its own with, though it is no combining mark:
#: Thai and Lao SARA AM (:data:`~skillc_index.index.scripts.ATTACHED_LETTERS`, the list the
#: index's graphemes take too), the joiner, emoji skin tones and tag characters (compiled on
#: first use).
_ATTACHED: re.Pattern[str] | None = None
_REGIONAL = range(0x1F1E6, 0x1F200)


def _within(text: str, index: int) -> bool:
    """Whether ``text[index]`` belongs to the grapheme (the character a reader sees) of
    ``text[index - 1]``: a combining mark (an accent, a Thai tone mark, a Devanagari vowel
    sign, a variation selector), what :data:`_ATTACHED` holds, the character after a joiner or
    a virama, a line feed after a carriage return, the second of a pair of flag letters."""
    char, before = text[index], text[index - 1]
    if before == "\u200d" or (before == "\r" and char == "\n"):
        return True
    if ord(char) < 0x300:
        return False
    global _ATTACHED
    import unicodedata

    if _ATTACHED is None:
        from skillc_index.index.scripts import ATTACHED_LETTERS

        _ATTACHED = re.compile(
            f"[{ATTACHED_LETTERS}\u200d\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f]"
        )
    if unicodedata.category(char)[0] == "M" or _ATTACHED.match(char):
        return True
    if unicodedata.combining(before) == 9 and char.isalpha() and before != "\u103a":
        return True  # a virama joins a conjunct (Myanmar's visible asat ends a syllable)
    if ord(char) in _REGIONAL and ord(before) in _REGIONAL:
        first = index - 1  # a flag is a pair: the letters before it since the last non-letter
        while first > 0 and ord(text[first - 1]) in _REGIONAL:
            first -= 1
        return (index - first) % 2 == 1
    return False


def grapheme_boundary(text: str, index: int, *, forward: bool = False) -> int:
    """``index`` moved back (``forward``: on) to the nearest place in ``text`` that does not
    split a grapheme: a cut there never leaves an accent, a tone mark or a vowel sign without
    its letter, half an emoji sequence, a dangling joiner nor a lone flag letter. The one test
    every shortening of the kit cuts at (:func:`cut`, the labels of ``stats --html``, the keys
    of the team store)."""
    index = max(0, min(index, len(text)))
    while 0 < index < len(text) and _within(text, index):
        index += 1 if forward else -1
    return index


def cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: as it is when it fits, else its start, cut
    where no grapheme splits (:func:`grapheme_boundary`), without the white space the cut
    leaves at its end, and :data:`ELLIPSIS` (counted in ``limit``). The one cut of the kit: a
    stub's descriptions, a projection's description and compatibility note, ``skc find``'s
    lines, what a message quotes (:func:`~skillc_index.layout.shown`)."""
    if len(text) <= limit:
        return text
    return text[: grapheme_boundary(text, limit - 1)].rstrip() + ELLIPSIS


def cut_middle(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: as it is when it fits, else its start and end
    with :data:`ELLIPSIS` between (in ``limit``: 200 is 100, ``…``, 99), cut as :func:`cut`
    is. What a message quotes of a value (:func:`cut_quotes`): a path keeps its file's name."""
    if len(text) <= limit:
        return text
    head = grapheme_boundary(text, limit // 2)
    tail = grapheme_boundary(text, len(text) - (limit - 1 - limit // 2), forward=True)
    return text[:head].rstrip() + ELLIPSIS + text[tail:].lstrip()


#: An escape as :func:`printable` and :func:`stub_label` write one (``\\x1b``, ``\\n``,
#: ``\\u200b``, ``\\U000e0041``: a backslash, then no other): what :func:`cut_escaped` never
#: cuts in half. Compiled on first use (:func:`_escape_around`).
_ESCAPE = r"\\(?:[nr]|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})"
_ESCAPE_AT: re.Pattern[str] | None = None


def _escape_around(text: str, index: int) -> tuple[int, int] | None:
    """The start and the end of the escape in ``text`` that a cut at ``index`` would split
    (``index`` inside it, not at its start); None when there is none. An escape holds one
    backslash, its first character, and at most 10 (``\\U000e0041``)."""
    global _ESCAPE_AT
    start = text.rfind("\\", max(0, index - 9), index)
    if start < 0:
        return None
    if _ESCAPE_AT is None:
        _ESCAPE_AT = re.compile(_ESCAPE)
    found = _ESCAPE_AT.match(text, start)
    return found.span() if found is not None and found.end() > index else None


def _cut_at(text: str, index: int, *, forward: bool = False) -> int:
    """``index`` moved back (``forward``: on) to where a cut of an escaped ``text`` splits
    neither a grapheme (:func:`grapheme_boundary`) nor an escape (:func:`_escape_around`)."""
    while True:
        index = grapheme_boundary(text, index, forward=forward)
        around = _escape_around(text, index)
        if around is None:
            return index
        index = around[1] if forward else around[0]


def cut_escaped(text: str, limit: int, *, middle: bool = False) -> str:
    """:func:`cut` (``middle``: :func:`cut_middle`) of a text already escaped
    (:func:`printable`'s, :func:`stub_label`'s), each escape kept whole: a cut that would
    split one goes before it (after it, for the end ``middle`` keeps). So the text shown is
    never longer than ``limit``, escapes counted as written (``\\u200b`` is 6), and never
    ends in half an escape (``\\u20…``), as a cut before the escaping made both."""
    if len(text) <= limit:
        return text
    if not middle:
        return text[: _cut_at(text, limit - 1)].rstrip() + ELLIPSIS
    head = _cut_at(text, limit // 2)
    tail = _cut_at(text, len(text) - (limit - 1 - limit // 2), forward=True)
    return text[:head].rstrip() + ELLIPSIS + text[tail:].lstrip()


def printable_cut(text: str, limit: int, *, middle: bool = False) -> str:
    """``text`` as text output shows it (:func:`printable`) in at most ``limit`` characters:
    escaped first, then cut with each escape whole (:func:`cut_escaped`; ``middle``: its start
    and its end kept). What a line quotes of a name, a description or a key (``shown``,
    ``find``'s descriptions, ``stats --html``'s cells). Only what a cut may keep is escaped,
    with the characters beside it that tell whether a joiner shows: a 1 MB text costs what
    ``limit`` characters do."""
    reach = limit + 2
    if len(text) <= (2 * reach if middle else reach):
        return cut_escaped(printable(text), limit, middle=middle)
    head = printable(text[:reach])
    if not middle:
        return cut_escaped(head, limit)
    start = run = len(text) - reach
    while run > 0 and ord(text[run - 1]) in _REGIONAL:
        run -= 1  # flag letters pair from their run's start (:func:`_within`): as many kept
    start -= (start - run) % 2
    return cut_escaped(f"{head} {printable(text[start:])}", limit, middle=True)


def one_of(names: tuple[str, ...] | list[str]) -> str:
    """``'a'``, ``'a' or 'b'``, ``'a', 'b' or 'c'``: names quoted for a hint."""
    quoted = [f"'{name}'" for name in names]
    return " or ".join(quoted) if len(quoted) < 3 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


#: The longest a message quotes what it was given (a 1 MB name from a model is not echoed).
MAX_SHOWN = 200
#: The most characters of a value a table's cell (``columns.table_lines``, ``stats --html``)
#: shows: one logged section of 200 KB made ``stats --group-by sections`` print 400 MB.
CELL_CHARS = 1000


def cut_quotes(text: str, *, whole: bool = False) -> str:
    """A message that may quote what it was given (``unknown target '...'``, click's ``Got
    unexpected extra argument (...)``) with each quote, and each run without white space,
    longer than :data:`MAX_SHOWN` characters cut to it, its start and its end kept
    (:func:`cut_middle`; quote marks kept). A quote is between ``'``, ``"`` or parentheses;
    an apostrophe inside a word (``it's``) opens none. ``whole``: ``text`` is all quoted (a
    name, a path, a heading), cut as one."""
    if len(text) <= MAX_SHOWN or whole:
        return cut_middle(text, MAX_SHOWN)
    more = f"{{{MAX_SHOWN + 1},}}"
    quote = rf"(?<![^\W_])'[^'\n]{more}'(?![^\W_])|\"[^\"\n]{more}\"|\([^()\n]{more}\)"

    def shorter(match: re.Match[str]) -> str:
        found = match.group(0)
        if match.lastindex is None:  # a quote: its marks around its cut inside
            return found[0] + cut_middle(found[1:-1], MAX_SHOWN) + found[-1]
        return cut_middle(found, MAX_SHOWN)

    return re.sub(rf"{quote}|(\S{more})", shorter, text)


def composed(text: str) -> str:
    """``text`` composed (NFC: ``e`` and U+0301 as ``é``), the form a keyboard, Linux and a
    language model write: what names and paths are compared by when their bytes differ (a
    folder copied from a Mac is decomposed, NFD). An ASCII text as it is, at once."""
    if text.isascii():
        return text
    import unicodedata  # a C module

    return unicodedata.normalize("NFC", text)


def composed_match(name: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` (a folder's entries, a skill's paths) that is ``name`` written
    composed otherwise, ``résumé.md`` typed for the ``re\u0301sume\u0301.md`` on disk: the
    one home of that comparison (:func:`~skillc_index.files.entry_named`, ``open``, lint's
    SKL104 and SKL301). None when none is, or several are (which one is meant is unknown),
    and at once for an ASCII ``name``: only a text with an accent has another composition."""
    if name.isascii():
        return None
    key = composed(name)
    found = [other for other in names if other != name and composed(other) == key]
    return found[0] if len(found) == 1 else None


def composed_shown(text: str) -> str:
    """``text`` as a message quotes it next to its composed twin: escaped (``re\u0301sume``)
    when it is not composed, since the two look the same (as ``package`` names the pairs of
    paths that one file system would take for one)."""
    return text if composed(text) == text else ascii(text)[1:-1]


def char_name(char: str) -> str:
    """A character as a message names one it cannot show (a combining mark would stack on
    the quote, an invisible one shows as nothing): ``U+0307 COMBINING DOT ABOVE``."""
    import unicodedata  # a C module

    return f"U+{ord(char):04X} {unicodedata.name(char, '') or '(unnamed)'}"


#: What :func:`one_line` makes a space: the control characters and the Unicode line breaks.
_BREAKS = dict.fromkeys((*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029), " ")


def one_line(text: str) -> str:
    """``text`` as a label on one line: control characters and line breaks as spaces, runs
    of white space as one space, none at either end (what a label shown escaped,
    :func:`printable` or :func:`stub_label`, or quoted by ``repr`` starts from)."""
    return " ".join(text.translate(_BREAKS).split())


def stub_label(text: str, *, code: bool = False, limit: int | None = None) -> str:
    """``text`` as the stub lists it (a heading, a reference's title and description, the
    skill's name): on one line (:func:`one_line`), each character that hides where it stands
    written as an escape (:func:`~skillc_index.deceptive.hidden_escaped`: ``Install
    \\u202e(txt.hcs)\\u202c now``, which ``cat`` of the stub showed reordered), a mark of
    right-to-left text and an emoji's joiner kept (``Arabic نص\\u200f.`` as it is).
    ``code``: ``text`` is a path or a name, where a soft hyphen, a non-joiner or a mark is
    escaped too, as SKL901 reports it (:func:`~skillc_index.deceptive.hides`).
    ``show --section`` finds a heading by it too. ``limit``: the label written in at most
    that many characters, each escape counted as written (``\\u202e`` is 6) and never cut
    in half (the cut goes before it), cut as :func:`cut` cuts (:func:`cut_escaped`; a
    reference's description: 300 overrides were 715 characters when cut first, then escaped)."""
    text = hidden_escaped(one_line(text), code=code)
    return text if limit is None else cut_escaped(text, limit)


def any_of(words: tuple[str, ...], key: str, space: str = " ") -> re.Pattern[str]:
    """A pattern matching where one of ``words`` is (each holding the character ``key``):
    at the word's first ``key``, the rest of the word around it checked there. One search
    of a text for it costs about one ``str.find`` (the regular expression engine looks for
    a literal first character fast), not one for each word. ``space``: the pattern a space
    of a word stands for (``r"\\s+"``: any white space, a line break too; then no space
    before a word's ``key``, looked behind at, whose width must be fixed)."""

    def spaced(part: str) -> str:
        return space.join(map(re.escape, part.split(" ")))

    parts = []
    for word in words:
        at = word.index(key)
        before = f"(?<={spaced(word[: at + 1])})" if at else ""
        parts.append(before + spaced(word[at + 1 :]))
    return re.compile(f"{re.escape(key)}(?:{'|'.join(parts)})")


def decoded(data: bytes) -> str:
    """A file's bytes as text: UTF-8 with undecodable bytes replaced, a leading BOM dropped;
    UTF-16 or UTF-32 when they start with its BOM (:func:`text_codec`)."""
    return data.decode(text_codec(data), errors="replace").removeprefix(BOM)


#: What :func:`encoding_problem` says of bytes that are not UTF-8 and start with no BOM.
TEXT_NOT_UTF8 = "is not UTF-8"


def other_bom(data: bytes) -> str | None:
    """The BOM of UTF-16 or UTF-32 a text file's bytes start with, said after the file's
    name (``SKILL.md is UTF-16 (BOM FF FE)``); None when there is none."""
    for bom, name in OTHER_BOMS:
        if data.startswith(bom):
            return f"is {name} (BOM {bom.hex(' ').upper()})"
    return None


def encoding_problem(data: bytes, *, cut: bool = False) -> str | None:
    """What is wrong with a text file's bytes for a reader of UTF-8 (an agent; skillc's own
    readers, :func:`decoded`, read a BOM's UTF-16 too), said after the file's name
    (``SKILL.md is UTF-16 (BOM FF FE)``): a BOM of UTF-16 or UTF-32 (:func:`other_bom`), or
    bytes UTF-8 cannot read (:data:`TEXT_NOT_UTF8`); None for UTF-8.
    ``cut``: ``data`` is the file's start, so a character it cuts in two is no problem."""
    bom = other_bom(data)
    if bom is not None:
        return bom
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if not (cut and exc.reason == "unexpected end of data"):
            return TEXT_NOT_UTF8
    return None
