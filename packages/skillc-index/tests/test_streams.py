"""The standard streams as every console script sets them (:mod:`skillc_index.streams`): a
character the output's encoding lacks is an escape whatever its error handler, and a process
:func:`~skillc_index.streams.utf8_process` runs again in UTF-8 mode keeps the locale's
encoding on its text streams (a real process, in the C locale with UTF-8 mode off). What a
command writes goes through click, which writes UTF-8 to a stream whose encoding is ASCII:
the installed ``skc`` in the C locale writes UTF-8 (a known limit, the README's)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

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


@pytest.mark.skipif(os.name != "posix", reason="the kit runs itself again on POSIX only")
def test_the_process_run_again_in_utf8_mode_keeps_the_locales_output_encoding() -> None:
    """Run again with ``-X utf8``, stdout and stderr were UTF-8 whatever the locale said (a
    Latin-1 terminal got UTF-8 bytes): the text streams keep the encoding they had (ASCII in
    the C locale, its ``surrogateescape`` and an escape for the rest), which ``print`` shows
    here; a command's own output, written by click, is another matter
    (skillc's ``test_the_installed_skc_writes_utf8_in_the_c_locale``)."""
    code = (
        "import sys\n"
        "from skillc_index.streams import buffer_stdout, utf8_process\n"
        "utf8_process()\n"
        "buffer_stdout()\n"
        "print(sys.flags.utf8_mode, sys.getfilesystemencoding(), sys.stdout.encoding,"
        " sys.stdout.errors, sys.stderr.encoding, file=sys.stderr)\n"
        "print('caf\\u00e9 \\u2615')\n"
    )
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env.pop("PYTHONIOENCODING", None)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.split() == [
        b"1",
        b"utf-8",
        b"ascii",
        b"surrogateescape+backslashreplace",
        b"ascii",
    ]
    assert done.stdout == b"caf\\xe9 \\u2615\n"
