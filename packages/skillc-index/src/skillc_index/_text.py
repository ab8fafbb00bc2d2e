"""Text that arrives from outside (command-line arguments, file names, JSON strings) made
safe for SQLite, which refuses what is not valid UTF-8.

Python hands over bytes that are not UTF-8 as lone surrogates (``surrogateescape``), and a
JSON string may hold escaped lone surrogates; encoding either raises ``UnicodeEncodeError``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["json_text", "valid_utf8"]


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
