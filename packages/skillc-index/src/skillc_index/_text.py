"""Text that arrives from outside (command-line arguments, file names, JSON strings) made
safe for SQLite, which refuses what is not valid UTF-8.

Python hands over bytes that are not UTF-8 as lone surrogates (``surrogateescape``), and a
JSON string may hold escaped lone surrogates; encoding either raises ``UnicodeEncodeError``.
"""

from __future__ import annotations

__all__ = ["valid_utf8"]


def valid_utf8(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (unchanged, and fast, when it is
    already valid UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)
    return text
