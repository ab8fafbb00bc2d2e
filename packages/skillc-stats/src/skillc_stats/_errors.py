"""The usage errors of skillc-stats' operations that name their parameters (E100).

The message names each parameter as the front end spells it: ``--dry-run`` and ``SKILL`` on
the command line (:data:`~skillc_index.CLI_SPELLING`), ``dry_run`` and ``skill`` for the
Python API and the MCP server (:data:`~skillc_index.PARAMETER_NAMES`).
"""

from __future__ import annotations

import string

from skillc_index import PARAMETER_NAMES, Diagnostic, InvalidOption, Spelling

__all__ = ["ParameterError"]

#: The parameters the command line takes as positional arguments (written in capitals there).
ARGUMENTS = frozenset({"skill"})


class ParameterError(InvalidOption):
    """E100: parameters given together that do not go together, or one missing;
    ``template`` is the message with each parameter written ``{name}`` (``"use one of {from}
    and {to}"``)."""

    def __init__(self, template: str) -> None:
        self.template = template
        super().__init__(self.worded(PARAMETER_NAMES))

    def worded(self, spelling: Spelling) -> str:
        names = {name for _, name, _, _ in string.Formatter().parse(self.template) if name}
        return self.template.format_map({name: _spelled(name, spelling) for name in names})

    def spelled(self, spelling: Spelling) -> Diagnostic:
        return self.diagnostic._replace(params={"message": self.worded(spelling)})


def _spelled(name: str, spelling: Spelling) -> str:
    if name in ARGUMENTS and spelling.option_prefix:  # the command line's argument
        return name.upper()
    return spelling.option(name)
