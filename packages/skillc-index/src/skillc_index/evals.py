"""The format of a skill's eval case files (``evals/evals.json`` and the other
:data:`~skillc_index.layout.CASE_FILES`), known to the two tools that read them: ``skc eval``
(skillc-gateway's ``evaluate.cases``), which leaves out an entry holding a key it does not
know (it may say what the case means), and skillc-lint's SKL529, which reports that key.
Both read a case file with :func:`read_case_file`, a ``triggers.yaml`` with
:func:`load_yaml`, a JSON case file with :func:`load_json`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = [
    "ENTRY_KEYS",
    "FILE_KEYS",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "YAML_KEYS",
    "load_json",
    "load_yaml",
    "read_case_file",
    "unknown_keys",
]

#: The bounds of a case file: its size, and how deeply its JSON nests.
MAX_FILE_BYTES = 1 << 20
MAX_DEPTH = 16

#: The keys of an entry in the shapes read: Agent Skills' and skill-creator's evals,
#: skill-creator's trigger sets.
ENTRY_KEYS = (
    "query", "prompt", "should_trigger", "id", "expected_output", "files", "assertions",
    "expectations",
)  # fmt: skip
#: The keys of a JSON object holding an ``evals`` list.
FILE_KEYS = ("skill_name", "evals")
#: The keys of a ``triggers.yaml``: its two lists of queries.
YAML_KEYS = ("should_trigger", "should_not_trigger")


def unknown_keys(data: Iterable[Any], known: tuple[str, ...]) -> str:
    """``unknown key 'k'``: the keys of ``data`` not in ``known``, quoted for a message (""
    when none)."""
    keys = [str(key) for key in data if key not in known]
    if not keys:
        return ""
    from skillc_index.text import cut, printable

    quoted = ", ".join(repr(cut(printable(key), 40)) for key in keys)
    return f"unknown key{'s' if len(keys) > 1 else ''} {quoted}"


def read_case_file(root: Path, rel: str) -> bytes | None:
    """The bytes of the case file ``rel`` of the skill at ``root``, as ``skc eval`` and lint's
    SKL529 read it; None when it is not there. Raises :class:`ValueError` for a file over
    :data:`MAX_FILE_BYTES`, that is no regular file of the skill (a symlink out of it, a
    folder, a FIFO) or that cannot be opened (no permission); :class:`OSError` when a read
    fails."""
    from skillc_index.diagnostics import NotARegularFile, SkillcError, SkillFileNotFound
    from skillc_index.files import open_in_root

    try:
        with open_in_root(root, rel) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except NotARegularFile as exc:
        raise ValueError(f"it is {exc.kind}") from None
    except SkillFileNotFound:
        return None
    except SkillcError as exc:  # E012: a path leading out of the skill
        raise ValueError(str(exc)) from None
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"larger than {MAX_FILE_BYTES >> 20} MiB")
    return data


def load_json(data: bytes | str) -> Any:
    """The JSON of a case file, within :data:`MAX_FILE_BYTES` and :data:`MAX_DEPTH`
    (:func:`skillc_index.bounded_json.loads_bounded`). Raises :class:`ValueError`."""
    from skillc_index.bounded_json import loads_bounded

    return loads_bounded(data, max_bytes=MAX_FILE_BYTES, max_depth=MAX_DEPTH)


def load_yaml(text: str) -> Any:
    """The YAML document of a ``triggers.yaml``'s text, read with the frontmatter reader's
    bounds (size, depth, aliases; PyYAML's safe loader): a ``---`` line starting it is the
    document's marker; ``{}`` for nothing but comments. Raises :class:`ValueError`."""
    from skillc_index.markdown.frontmatter import (
        MAX_FRONTMATTER_BYTES,
        YAMLProblem,
        load_bounded_yaml,
    )

    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES:
        raise ValueError(f"YAML larger than {MAX_FRONTMATTER_BYTES >> 10} KiB")
    try:
        data, node, _lines = load_bounded_yaml(text)
    except YAMLProblem as exc:
        raise ValueError(str(exc)) from None
    return {} if node is None else data
