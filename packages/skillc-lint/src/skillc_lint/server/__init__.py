"""``skillc-lint server``: skillc-lint as a language server (LSP over stdio) for editors.

Diagnostics as you type in SKILL.md and the Markdown files of a skill, quick fixes from the
safe fixers, hover and completion of frontmatter fields, document links and go-to-definition
for relative links and ``#anchors``, the outline, and diagnostics for a workspace of skills.
The protocol is pygls's (the ``lsp`` extra: ``pip install 'skillc-lint[lsp]'``), imported
only by :func:`serve`; the modules beside :mod:`.app` hold what the server knows without
it (:mod:`.session`, :mod:`.text`, :mod:`.navigation`, :mod:`.fields`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import BinaryIO

__all__ = ["serve"]


def serve(
    profiles: Sequence[str] = (),
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> None:
    """Run the language server on ``stdin``/``stdout`` (default: the process's) until the
    client says ``exit``, linting with ``profiles`` on top of the configuration. Raises
    :class:`~skillc_index.LanguageServerError` (E062) when the ``lsp`` extra is not
    installed."""
    try:
        from skillc_lint.server.app import make_server
    except ImportError as exc:
        from skillc_index import LanguageServerError

        raise LanguageServerError(
            f"needs the lsp extra ({(exc.name or 'pygls').partition('.')[0]} is not "
            "installed): "
            "pip install 'skillc-lint[lsp]'"
        ) from None
    make_server(profiles).start_io(stdin, stdout)
