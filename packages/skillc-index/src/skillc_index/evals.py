"""The format of a skill's eval case files (``evals/evals.json`` and the other
:data:`~skillc_index.layout.CASE_FILES`), known to the two tools that read them: ``skc eval``
(skillc-gateway's ``evaluate.cases``), which leaves out an entry holding a key it does not
know (it may say what the case means), and skillc-lint's SKL529, which reports that key.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["ENTRY_KEYS", "FILE_KEYS", "unknown_keys"]

#: The keys of an entry in the shapes read: Agent Skills' and skill-creator's evals,
#: skill-creator's trigger sets.
ENTRY_KEYS = (
    "query", "prompt", "should_trigger", "id", "expected_output", "files", "assertions",
    "expectations",
)  # fmt: skip
#: The keys of a JSON object holding an ``evals`` list.
FILE_KEYS = ("skill_name", "evals")


def unknown_keys(data: Iterable[Any], known: tuple[str, ...]) -> str:
    """``unknown key 'k'``: the keys of ``data`` not in ``known``, quoted for a message (""
    when none)."""
    keys = [str(key) for key in data if key not in known]
    if not keys:
        return ""
    from skillc_index.text import cut, printable

    quoted = ", ".join(repr(cut(printable(key), 40)) for key in keys)
    return f"unknown key{'s' if len(keys) > 1 else ''} {quoted}"
