"""``skillc-lint server``: skillc-lint as a language server (LSP over stdio) for editors.

Diagnostics as you type in SKILL.md and the Markdown files of a skill, quick fixes from the
safe fixers, hover and completion of frontmatter fields, document links and go-to-definition
for relative links and ``#anchors``, the outline, and diagnostics for a workspace of skills.
The protocol is pygls's (the ``lsp`` extra: ``pip install 'skillc-lint[lsp]'``), imported
only by :func:`serve`; the modules beside :mod:`.app` hold what the server knows without
it (:mod:`.session`, :mod:`.text`, :mod:`.navigation`, :mod:`.fields`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import BinaryIO, NoReturn

__all__ = ["serve"]


def serve(
    profiles: Sequence[str] = (),
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Run the language server on ``stdin``/``stdout`` (default: the process's) until the
    client says ``exit`` or closes the input, linting with ``profiles`` on top of the
    configuration. Returns the exit code LSP asks for: 0 when the client asked the server to
    shut down first, else 1. Raises :class:`~skillc_index.LanguageServerError` (E062) when
    the ``lsp`` extra is not installed, or when the client sends a message over
    :data:`~skillc_lint.server.stream.MAX_MESSAGE_BYTES` or a header it cannot read
    (:class:`~skillc_lint.server.stream.BoundedInput`; the session ends there). When the
    client stops reading the output (closes it), the process ends at once
    (:func:`_end_unread`)."""
    from skillc_index import LanguageServerError
    from skillc_lint.server.stream import MAX_MESSAGE_BYTES, BoundedInput, EndingOutput

    try:
        from skillc_lint.server.app import make_server
    except ImportError as exc:
        raise LanguageServerError(
            f"needs the lsp extra ({(exc.name or 'pygls').partition('.')[0]} is not "
            "installed): "
            "pip install 'skillc-lint[lsp]'"
        ) from None
    server = make_server(profiles)
    reader = BoundedInput(stdin or sys.stdin.buffer)
    writer = EndingOutput(
        stdout or sys.stdout.buffer, lambda: _end_unread(server.protocol.shutdown_received)
    )
    server.start_io(reader, writer)  # type: ignore[arg-type]  # pygls reads readline/read
    if reader.refused is not None:
        raise LanguageServerError(
            f"a message of {reader.refused} bytes is over the bound of "
            f"{MAX_MESSAGE_BYTES >> 20} MiB: the session ends"
        )
    if reader.unreadable is not None:
        raise LanguageServerError(f"{reader.unreadable}: the session ends")
    return 0 if server.protocol.shutdown_received else 1


def _end_unread(shut_down: bool) -> NoReturn:
    """The client no longer reads the server's output: the session is over. The process
    ends at once with the exit code of an input that ends (0 after ``shutdown``, else 1, with
    one error line): pygls would wait for its thread reading stdin, which the client may keep
    open. The server keeps nothing on disk to finish."""
    import os

    from skillc_index import LanguageServerError, format_diagnostic

    if not shut_down:
        error = LanguageServerError("the client stopped reading the output: the session ends")
        print(format_diagnostic(error.diagnostic), file=sys.stderr, flush=True)
    os._exit(0 if shut_down else 1)
