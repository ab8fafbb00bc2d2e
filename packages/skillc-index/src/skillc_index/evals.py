"""The format of a skill's eval case files (``evals/evals.json`` and the other
:data:`~skillc_index.layout.CASE_FILES`), known to the two tools that read them: ``skc eval``
(skillc-gateway's ``evaluate.cases``), which leaves out an entry holding a key it does not
know (it may say what the case means), and skillc-lint's SKL529, which reports that key.
Both read a case file with :func:`read_case_file` and :func:`load_case` (its text,
:func:`case_text`: UTF-8, or UTF-16/32 with a BOM; a ``triggers.yaml`` read with
:func:`load_yaml`, a JSON case file with :func:`load_json`), and a ``triggers.yaml``'s lists
with :func:`yaml_list`; both report the entries' ids with :func:`id_problems`. A file holding
a key twice in one object or mapping is refused (:class:`KeyWrittenTwice`): its readers keep
one value, so cases written would go unread.
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
    "KeyWrittenTwice",
    "case_text",
    "id_problems",
    "integer_id",
    "load_case",
    "load_json",
    "load_yaml",
    "read_case_file",
    "unknown_keys",
    "yaml_list",
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
    from skillc_index.text import printable_cut

    quoted = ", ".join(repr(printable_cut(key, 40)) for key in keys)
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


def integer_id(value: Any) -> bool:
    """Whether ``value`` is an eval ``id`` as skill-creator's schema has it: an integer (not
    a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def id_problems(entries: Iterable[Any]) -> list[str]:
    """Why the entries' ``id`` breaks skill-creator's schema (a unique integer each), a line
    for each kind whatever the count (5,000 ids ``"e<N>"`` are one line, not 5,000): the ids
    that are no integer, the ids more than one entry holds, each line naming the first."""
    from collections import Counter

    from skillc_index.text import printable_cut

    ids = [entry["id"] for entry in entries if isinstance(entry, dict) and "id" in entry]
    problems = []
    odd = [each for each in ids if not integer_id(each)]
    if odd:
        first = printable_cut(repr(odd[0]), 40)
        problems.append(
            f"an id is not an integer: {first}"
            if len(odd) == 1
            else f"{len(odd):,} ids are not integers (first: {first})"
        )
    held = [(each, n) for each, n in Counter(filter(integer_id, ids)).items() if n > 1]
    if held:
        each, n = held[0]
        problems.append(
            f"id {each} is held by {n:,} evals"
            if len(held) == 1
            else f"{len(held):,} ids held by more than one eval (first: {each})"
        )
    return problems


class KeyWrittenTwice(ValueError):
    """A case file holding a key twice in one object or mapping (two files pasted together,
    a list started again): JSON's and YAML's readers keep the last value, the cases of the
    other unread. Its text: ``key 'evals' written twice``, with the lines in YAML."""


def case_text(data: bytes) -> str:
    """The text of a case file's bytes: UTF-8 (a BOM dropped), or UTF-16/32 with their BOM
    (:func:`skillc_index.text.decoded`). Raises :class:`ValueError` (``it is not UTF-8``,
    :func:`skillc_index.text.encoding_problem`'s words) for other bytes: read with U+FFFD in
    place of each one they were requests no one wrote."""
    from skillc_index.text import TEXT_NOT_UTF8, decoded, encoding_problem

    if encoding_problem(data) == TEXT_NOT_UTF8:
        raise ValueError(f"it {TEXT_NOT_UTF8}")
    return decoded(data)


def load_case(rel: str, data: bytes | str) -> Any:
    """The data of the case file ``rel`` (a ``.yaml`` one :func:`load_yaml`, else
    :func:`load_json`) from its bytes (:func:`case_text`) or its text, decoded already.
    Raises :class:`ValueError`."""
    text = data if isinstance(data, str) else case_text(data)
    return load_yaml(text) if rel.endswith(".yaml") else load_json(text)


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of a case file's JSON (``object_pairs_hook``), refusing a key written twice."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            from skillc_index.text import printable_cut

            raise KeyWrittenTwice(f"key {printable_cut(key, 40)!r} written twice")
        found[key] = value
    return found


def load_json(data: bytes | str) -> Any:
    """The JSON of a case file, within :data:`MAX_FILE_BYTES` and :data:`MAX_DEPTH`
    (:func:`skillc_index.bounded_json.loads_bounded`). Raises :class:`ValueError`
    (:class:`KeyWrittenTwice` for a key written twice in an object)."""
    from skillc_index.bounded_json import loads_bounded

    return loads_bounded(
        data, max_bytes=MAX_FILE_BYTES, max_depth=MAX_DEPTH, object_pairs_hook=_unique
    )


def load_yaml(text: str) -> Any:
    """The YAML document of a ``triggers.yaml``'s text, read with the frontmatter reader's
    bounds (size, depth, aliases; PyYAML's safe loader): a ``---`` line starting it is the
    document's marker; ``{}`` for nothing but comments. Raises :class:`ValueError`
    (:class:`KeyWrittenTwice` for a key written twice in a mapping)."""
    from skillc_index.markdown.frontmatter import (
        MAX_FRONTMATTER_BYTES,
        YAMLProblem,
        load_bounded_yaml,
    )

    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES:
        raise ValueError(f"YAML larger than {MAX_FRONTMATTER_BYTES >> 10} KiB")
    try:
        data, node, (_fields, repeated) = load_bounded_yaml(text, keys=True)
    except YAMLProblem as exc:
        raise ValueError(str(exc)) from None
    if repeated:
        from skillc_index.text import printable_cut

        key, lines = repeated[0], f"lines {repeated[0].first} and {repeated[0].again}"
        raise KeyWrittenTwice(f"key {printable_cut(key.key, 40)!r} written twice ({lines})")
    return {} if node is None else data


def yaml_list(data: dict[Any, Any], key: str) -> list[Any] | None:
    """The list under ``key`` (one of :data:`YAML_KEYS`) of a ``triggers.yaml``: ``[]`` when
    the key is not there or holds nothing (``should_not_trigger:``); None when it holds no
    list (``no``, a string, a mapping), which is no empty list."""
    found = data.get(key)
    if found is None:
        return []
    return found if isinstance(found, list) else None
