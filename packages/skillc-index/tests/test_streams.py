"""The standard streams as every console script sets them (:mod:`skillc_index.streams`): a
character the output's encoding lacks is an escape whatever its error handler."""

from __future__ import annotations

from skillc_index.streams import escaping


def test_a_handler_that_cannot_write_a_character_escapes_it() -> None:
    """``surrogateescape`` and ``surrogatepass`` raised ``UnicodeEncodeError`` on a character
    Latin-1 lacks (only ``strict`` was swapped): they escape it, and ``surrogateescape`` still
    writes a lone surrogate as the byte it stands for."""
    text = "caf\u00e9 \u2615 \udcff"
    assert text.encode("iso8859-1", escaping("iso8859-1", "strict")) == b"caf\xe9 \\u2615 \\udcff"
    handler = escaping("iso8859-1", "surrogateescape")
    assert text.encode("iso8859-1", handler) == b"caf\xe9 \\u2615 \xff"
    assert text.encode("cp1252", escaping("cp1252", "surrogatepass")) == (
        b"caf\xe9 \\u2615 \\udcff"
    )
    assert escaping("iso8859-1", handler) == handler  # given again (buffer_stdout): the same
    for kept in ("replace", "backslashreplace", "xmlcharrefreplace"):
        assert escaping("iso8859-1", kept) == kept
    assert escaping("utf-8", "strict") == "strict"  # UTF-8 holds every character
