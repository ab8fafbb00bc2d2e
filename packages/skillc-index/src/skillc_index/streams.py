"""The process's standard streams, as every console script of the kit sets them up and ends
them: UTF-8 mode (:func:`utf8_process`), closed descriptors (:func:`open_closed_streams`),
stdout buffered even under ``-u`` (:func:`buffer_stdout`), a reader gone or a disk full
(:func:`release_streams`, :func:`closed_pipe`, :func:`flush_output`), output as UTF-8
whatever the stream's encoding (:func:`write_stdout`), and the exit statuses a
shell gives a process a signal ended (:data:`PIPE_CLOSED`, :data:`INTERRUPTED`).

Imports nothing but :mod:`sys` at module level: ``skc``'s fastest paths use it without
:mod:`skillc_index.console` (click and the diagnostics registry).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing itself not imported: this module imports only sys
if TYPE_CHECKING:
    from typing import BinaryIO


#: The ``-X`` option :func:`utf8_process` gives the process it runs again: the encoding and
#: error handler of its stdout in the locale (``iso8859-1:strict``), which text output keeps.
LOCALE_OUTPUT = "skillc_locale_output"


def utf8_process() -> None:
    """Run this process's own command line again in Python's UTF-8 mode (``-X utf8``) when it
    decodes file names and arguments otherwise (POSIX: ``PYTHONUTF8=0`` in the C locale gives
    ASCII, a Latin-1 locale Latin-1): skills, their folders' names and every database of the
    kit are UTF-8, and a folder ``déjà`` decoded as ASCII (with surrogates) was skipped by ``find``,
    made ``show`` and ``search`` fail with E003, and printed as ``d??j??``. Nothing has been
    read yet (stdin included); when the program cannot be run again the command goes on as it
    is. Text output stays in the locale's encoding (:data:`LOCALE_OUTPUT`: the process run
    again gives it back to stdout and stderr), where a Latin-1 terminal got UTF-8 bytes."""
    import os

    if os.name != "posix":
        return
    if sys.flags.utf8_mode:
        given = sys._xoptions.get(LOCALE_OUTPUT)
        if isinstance(given, str):  # the process run again: its output in the locale's
            _locale_output(*given.partition(":")[::2])
        return
    if sys.getfilesystemencoding() == "utf-8" or not sys.executable or len(sys.orig_argv) < 2:
        return
    options = ["-X", "utf8"]
    stdout = sys.stdout
    if stdout is not None and not _utf(stdout.encoding):
        options += ["-X", f"{LOCALE_OUTPUT}={stdout.encoding}:{stdout.errors}"]
    try:
        os.execv(sys.executable, [sys.executable, *options, *sys.orig_argv[1:]])
    except OSError:
        return


def _locale_output(encoding: str, errors: str) -> None:
    """Give stdout and stderr back the locale's ``encoding`` (and stdout its ``errors``, as
    :func:`escaping` makes them write every character) in the process :func:`utf8_process`
    ran again, before anything is written."""
    import codecs
    import io

    try:
        codecs.lookup(encoding)
        codecs.lookup_error(errors)
    except LookupError:
        return
    for stream, handler in ((sys.stdout, escaping(encoding, errors)), (sys.stderr, None)):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding=encoding, errors=handler or stream.errors)


def _utf(encoding: str) -> bool:
    return encoding.lower().replace("-", "").replace("_", "").startswith("utf")


#: Error handlers that write every character whatever the encoding lacks.
_WRITE_ALL = ("backslashreplace", "namereplace", "xmlcharrefreplace", "replace", "ignore")


def escaping(encoding: str, errors: str) -> str:
    """The error handler text output uses on a stream of ``encoding`` whose handler is
    ``errors``: one that writes a character the encoding lacks as an escape (``\\u2615``)
    where it raised ``UnicodeEncodeError``: ``strict`` is ``backslashreplace``,
    ``surrogateescape`` (the C locale's) and ``surrogatepass`` still write what they write (a
    lone surrogate ``\\udcff`` as the byte it stands for) and escape the rest
    (:func:`_then_escape`). A UTF encoding holds every character: ``errors`` as it is."""
    if _utf(encoding) or errors in _WRITE_ALL or errors.endswith("+backslashreplace"):
        return errors
    if errors == "strict":
        return "backslashreplace"
    return _then_escape(errors)


def _then_escape(errors: str) -> str:
    """The name of an error handler (registered once) that tries ``errors`` on each
    character the encoding lacks, and writes it as an escape when that handler fails too."""
    import codecs

    name = f"{errors}+backslashreplace"
    try:
        codecs.lookup_error(name)
    except LookupError:
        first = codecs.lookup_error(errors)

        def handle(exc: UnicodeError) -> tuple[str | bytes, int]:
            if not isinstance(exc, UnicodeEncodeError):
                return first(exc)
            one = UnicodeEncodeError(exc.encoding, exc.object, exc.start, exc.start + 1, exc.reason)
            try:
                return first(one)
            except UnicodeEncodeError:
                return codecs.backslashreplace_errors(one)

        codecs.register_error(name, handle)
    return name


def open_closed_streams() -> None:
    """Give ``sys.stdout``/``sys.stderr`` the null device when the process started with that
    descriptor closed (``2>&-``: Python makes it None): the command does its work and says
    nothing there, where ``None.isatty()`` made ``build`` and ``lint`` fail unseen and ``exec``
    run nothing. A closed stdin (``<&-``) is an input that has ended, as ``</dev/null`` is,
    descriptor 0 included (the MCP server reads it; a program started inherits it): the stdio
    servers ended with ``AttributeError`` or ``Bad file descriptor`` (E999). Each is made
    inheritable (Python opens a file non-inheritable): a program ``skc exec`` starts gets the
    null device on that descriptor too, where it got it closed (``cat: -: Bad file
    descriptor``)."""
    import os

    for number, name in enumerate(("stdin", "stdout", "stderr")):
        if getattr(sys, name) is None:
            null = os.open(os.devnull, os.O_WRONLY if number else os.O_RDONLY)  # lowest free
            os.set_inheritable(null, True)  # the descriptor closed: 0, 1 or 2
            mode = "w" if number else "r"
            setattr(sys, name, open(null, mode, encoding="utf-8", closefd=null > 2))  # noqa: SIM115


#: The exit status of a command whose reader left before it printed everything (``skc list |
#: head -1``): a shell's for a process SIGPIPE ended (128 + 13), as ``cat`` or ``grep`` give,
#: so a ``set -o pipefail`` script reads it as it reads theirs. Nothing is printed about it.
PIPE_CLOSED = 141


#: The exit status of a command Ctrl-C stopped (SIGINT: a ``KeyboardInterrupt``): a shell's
#: for a process SIGINT ended (128 + 2), which scripts and CI read as "stopped by the user".
#: Nothing is printed about it (RFC-0005 has no code for it): no ``Aborted.``, no traceback.
INTERRUPTED = 130


def closed_pipe() -> int:
    """The end of a command whose output's reader has gone (:func:`release_streams`):
    :data:`PIPE_CLOSED`. Every way a closed pipe reaches a console script ends here:
    :func:`handle_exception`, the final flush of :func:`run` and ``skc``'s ``main``, the
    ``invoke`` of each script's top command (:class:`CommandGroup`) before click's ``main``
    makes it an exit 1 of its own, and the eager ``--help``/``--version`` (``parse_args``)."""
    release_streams()
    return PIPE_CLOSED


def release_streams() -> None:
    """Point each standard stream that cannot be flushed any more (its reader gone, its disk
    full: ``> /dev/full``, an I/O error) at the null device, so that neither what the process
    still writes there nor Python's flush at exit fails or prints (``Exception ignored ...``,
    exit 120): an error that stops a command is its one diagnostic and exit 1, and a closed
    pipe is :func:`closed_pipe`'s quiet 141."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            try:
                fd = stream.fileno()
            except (OSError, ValueError):  # a stream of text only (an embedder's)
                continue
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, fd)
            os.close(null)


def buffer_stdout() -> None:
    """Give ``sys.stdout`` a buffer when Python runs unbuffered (``PYTHONUNBUFFERED``, ``-u``):
    its text layer then writes to the file directly and drops what a short write left, so
    ``skc show`` of a long section piped to ``head -c1`` lost the rest without an error and
    exited 0. Buffered, the cut is a ``BrokenPipeError`` (:func:`closed_pipe`); lines still go
    out as they are printed (line buffering). A stdout whose encoding is not UTF-8
    (``PYTHONIOENCODING=latin-1``) writes a character it cannot hold as an escape (``\\u2615``)
    where text output stopped half-printed with E999 ``UnicodeEncodeError`` (machine output is
    UTF-8 whatever the encoding: :func:`write_stdout`). Only the process's own stdout
    (``sys.__stdout__``): one a caller put in its place (a test's capture, an embedder's) is
    theirs, and a second wrapper of its file would close it when collected."""
    import io

    stream = sys.stdout
    if stream is not sys.__stdout__ or not isinstance(stream, io.TextIOWrapper):
        return
    errors = escaping(stream.encoding, stream.errors or "strict")
    raw = getattr(stream, "buffer", None)
    if isinstance(raw, io.FileIO):
        sys.stdout = io.TextIOWrapper(
            io.BufferedWriter(raw), encoding=stream.encoding, errors=errors, line_buffering=True
        )
    elif errors != stream.errors:
        stream.reconfigure(errors=errors)


def flush_output() -> None:
    """A command's last flush of its output: a reader that has gone shows here (a
    ``BrokenPipeError``: :func:`closed_pipe`), not at exit. A stdout the command closed itself
    (the language server's, at the client's ``exit``) has nothing left to flush."""
    if not sys.stdout.closed:
        sys.stdout.flush()


def write_stdout(text: str) -> None:
    """Write ``text`` on stdout as UTF-8 whatever the stream's encoding says
    (``PYTHONIOENCODING=latin-1``, a redirected stdout's Windows code page), then flush: every
    machine output (:func:`~skillc_index.console.print_json`) and ``skc find``'s answer. Through
    the text layer, a heading ``Café ☕`` made ``--format json`` an E999
    ``UnicodeEncodeError`` (click encodes as UTF-8 only for an ASCII-named encoding). A reader
    gone is a ``BrokenPipeError`` (:func:`closed_pipe`). A stream of text only (an embedder's,
    no ``buffer``) gets the text as it is."""
    stream = sys.stdout
    out = getattr(stream, "buffer", None)
    if out is None:
        stream.write(text)
        stream.flush()
        return
    stream.flush()  # what was written as text first stays first
    write_all(out, text.encode("utf-8", "replace"))  # unbuffered (-u) it may take a part
    out.flush()


def write_all(handle: BinaryIO, data: bytes) -> None:
    """``data`` written whole to ``handle``: a write the system cut short (an unbuffered
    stdout, a ``.gitignore`` opened unbuffered) goes on with the rest; one that takes
    nothing is ``OSError`` (EIO)."""
    view = memoryview(data)
    while view:
        count = handle.write(view)
        if not count:
            import errno
            import os

            raise OSError(errno.EIO, os.strerror(errno.EIO))
        view = view[count:]


def script(module: str, *args: object) -> int:
    """A console script: ``module``'s ``main(*args)``, the kit's command line there, run and
    its exit status returned. Its module imports click and the kit before ``main`` can catch
    anything, so a Ctrl-C while it loads (a few hundred milliseconds on a busy machine) is
    caught here: :data:`INTERRUPTED`, printing nothing, where Python printed a traceback."""
    try:
        from importlib import import_module

        main = import_module(module).main
    except KeyboardInterrupt:
        return INTERRUPTED
    code: int = main(*args)
    return code
