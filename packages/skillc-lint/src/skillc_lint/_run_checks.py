"""What a lint run is asked, checked before it lints anything (:mod:`._run`): an option
``--explain`` or ``--list-rules`` has no use for (:func:`check_page_options`), and the files
``--sarif-file`` and ``--write-baseline`` name (:func:`check_outputs`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skillc_lint.operations import LintParams

__all__ = ["RULE_CHOICE", "RUN_ONLY", "check_outputs", "check_page_options"]


#: The options only a lint run uses: with ``--explain`` or ``--list-rules`` they are E100.
RUN_ONLY = (
    "fix",
    "unsafe_fixes",
    "diff",
    "baseline",
    "write_baseline",
    "statistics",
    "max_warnings",
    "add_suppressions",
    "show_fixes",
    "sarif_file",
)
#: The options that choose the rules: ``--list-rules`` shows their result, ``--explain`` not.
RULE_CHOICE = ("select", "ignore", "profile", "target", "config")


def check_page_options(params: LintParams, mode: str) -> None:
    """E100 for an option ``mode`` (``explain``, ``list_rules``) has no use for, which it
    dropped in silence (``--list-rules --sarif-file x``: exit 0, no file for CI to upload),
    as other commands refuse an option without the one it goes with; a value equal to the
    default is taken as not given."""
    from skillc_index.option_errors import ParameterError
    from skillc_index.parameters import given

    field = given(params, (*RUN_ONLY, *(RULE_CHOICE if mode == "explain" else ())))
    if field is not None:
        raise ParameterError(f"{{{field}}} goes with a lint run, not {{{mode}}}")


def check_outputs(params: LintParams, cwd: Path) -> None:
    """The files ``--sarif-file`` and ``--write-baseline`` name, checked before anything is
    linted (:func:`~skillc_index.atomic.file_target`, E100 ``cannot write`` where one cannot
    be written; a missing folder is made as the file is written), and a file that is no
    baseline of this skillc-lint is never replaced (E050, or E100 for one a newer skillc-lint
    wrote: :meth:`~skillc_lint._baseline.Baseline.replaces`), nor one that is no SARIF log
    (E050: :func:`~skillc_lint._output.sarif_replaces`). Two of them naming one file, by
    whatever spelling (``--write-baseline b.json --sarif-file b.json``: the baseline was
    written, then the log refused, half the run's work done), are E100."""
    from skillc_index.atomic import file_target

    named = [
        (field, os.path.realpath(Path(cwd, value)))
        for field in ("sarif_file", "write_baseline", "baseline")
        if (value := getattr(params, field)) is not None
    ]
    for i, (field, real) in enumerate(named):
        for other, other_real in named[i + 1 :]:
            if real == other_real:
                from skillc_index.option_errors import ParameterError

                raise ParameterError(f"{{{field}}} and {{{other}}} name the same file")
    if params.sarif_file is not None:
        from skillc_lint._output import sarif_replaces

        sarif_replaces(file_target(cwd, params.sarif_file), params.sarif_file)
    if params.write_baseline is not None:
        from skillc_lint._baseline import Baseline

        Baseline.replaces(file_target(cwd, params.write_baseline), params.write_baseline)
