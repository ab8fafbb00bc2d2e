"""Text that arrives from outside (command-line arguments, file names, JSON strings, skills)
made safe for where it goes: SQLite, which refuses what is not valid UTF-8, and a terminal,
which obeys the control characters in a skill's headings or file names.

Python hands over bytes that are not UTF-8 as lone surrogates (``surrogateescape``), and a
JSON string may hold escaped lone surrogates; encoding either raises ``UnicodeEncodeError``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["json_text", "one_line", "printable", "valid_utf8"]


def valid_utf8(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (unchanged, and fast, when it is
    already valid UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)
    return text


def json_text(data: Any) -> str:
    """The kit's machine output (``--format json``): stable, two-space indented JSON, UTF-8
    as it is (a file name that is not UTF-8 has U+FFFD here)."""
    import json  # not at module level: most runs print text

    return valid_utf8(json.dumps(data, indent=2, ensure_ascii=False))


#: What :func:`printable` shows as an escape: the C0 and C1 control characters but the tab,
#: and the bidirectional controls (they reorder what a terminal shows: "Trojan Source").
_CONTROLS = {
    code: ("\\n" if code == 10 else "\\r" if code == 13 else f"\\x{code:02x}")
    for code in (*range(0x20), *range(0x7F, 0xA0))
    if code != 9
} | {
    code: f"\\u{code:04x}"
    for code in (0x61C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
}


def printable(text: str) -> str:
    """``text`` as a line of text output may show it: control characters (an escape
    sequence, a newline in a file name, a bidirectional override) written as escapes
    (``\\x1b``, ``\\n``, ``\\u202e``), so that a skill's headings, names and file names
    never drive the terminal nor make up lines of their own. ``show`` and ``open`` print a
    file's text as it is; the names that lead to it go through here."""
    return text if text.isprintable() else text.translate(_CONTROLS)


#: What :func:`one_line` makes a space: the control characters and the Unicode line breaks.
_BREAKS = dict.fromkeys((*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029), " ")


def one_line(text: str) -> str:
    """``text`` as a label on one line: control characters and line breaks as spaces, runs
    of white space as one space, none at either end (how a stub lists a heading; ``show``
    finds a heading by it too)."""
    return " ".join(text.translate(_BREAKS).split())
