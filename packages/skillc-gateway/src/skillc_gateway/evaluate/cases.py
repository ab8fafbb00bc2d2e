"""The trigger cases of a skill, and the starter file ``skc eval --init`` writes.

A skill's cases are read from its ``evals/`` folder, every file of :data:`CASE_FILES` that is
there:

- ``evals/evals.json``: the Agent Skills format, ``{"skill_name": ..., "evals": [{"id",
  "prompt", "expected_output", "assertions": [...]}]}`` (skill-creator spells the checks
  ``expectations``). Each eval is a task the skill is meant for: a case that should trigger
  it, unless the entry says ``"should_trigger": false``. A top-level array is read as a
  trigger set.
- ``evals/trigger-eval.json`` (skill-creator's name), ``evals/triggers.json`` or
  agentskills.io's ``evals/eval_queries.json`` (its train/validation split, the same
  queries again, is not read): a trigger set, ``[{"query": ..., "should_trigger":
  true|false}]``, or ``{"evals": [...]}`` with ``prompt`` instead of ``query``.
- ``evals/triggers.yaml``, for people who start from nothing::

      should_trigger:
        - fill in the form in this PDF
      should_not_trigger:
        - write a PDF parser in Rust

Every file comes from a stranger: it is read through :func:`skillc_index.files.open_in_root`
(no symlink out of the skill, regular files only; an ``evals`` link out is one warning,
:func:`_folders_out`), at most :data:`MAX_FILE_BYTES`, JSON
nested at most :data:`~skillc_index.evals.MAX_DEPTH` levels (:mod:`skillc_index.bounded_json`),
YAML through the frontmatter reader's bounds; at most :data:`MAX_CASES` cases a skill, each
query at most :data:`MAX_QUERY_CHARS` characters. A file that breaks a bound or is not in one
of the shapes is skipped with a warning, never a failure (lint's SKL529 reports it too).

A key none of these shapes has is never read in silence: another tool's file (promptfoo's
``tests:``, skill-reach's ``expected_skill``) or a misspelled key (``should_trigge:``,
``"shouldTrigger": false``) may say what a case means, so it is never scored as if the key
were not there. A ``triggers.yaml`` with a key besides its two lists is skipped; an entry
with a key outside :data:`~skillc_index.evals.ENTRY_KEYS` is left out; an unknown key beside
an ``evals`` list is ignored; each with a warning naming the key (lint's SKL529 reports
them too). A ``skill_name`` that is not the skill's is a warning naming both. A file holding
a key twice in one mapping or object, or that is not UTF-8, is skipped
(:func:`~skillc_index.evals.load_case`); a ``triggers.yaml`` list that is no list
(``should_not_trigger: no``) is a warning, not an empty list, and so is an entry of one YAML
reads as no text (a request holding ``: `` read as a mapping), naming the list, the entry
and why (:func:`_no_text`); an ``id`` that is no integer or
that another entry holds is a warning, the cases scored all the same.

Each request counts once for the skill (:func:`_distinct`): a copy of one, in the same file or
another, is left out with a warning naming the two files, and a request marked both should
and should not trigger is left out, every copy of it, with a warning naming both files.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from skillc_index.evals import (  # the bounds and readers lint's SKL529 shares
    ENTRY_KEYS,
    FILE_KEYS,
    YAML_KEYS,
    id_problems,
    integer_id,
    load_case,
    read_case_file,
    unknown_keys,
    yaml_list,
)
from skillc_index.layout import CASE_FILES  # the files read, in this order

__all__ = [
    "CASE_FILES",
    "MAX_CASES",
    "Case",
    "SkillCases",
    "read_cases",
    "starter_text",
]

MAX_CASES = 1000
MAX_QUERY_CHARS = 4000
#: The request an older ``skc eval --init`` wrote for a description without a phrase: a
#: placeholder, never scored as a case (:func:`_yaml_cases`); a file holding that older
#: starter text, unedited, is replaced by ``--init`` (:func:`older_starter`).
OLD_PLACEHOLDER = "TODO: a request"
_NO_PHRASE = '  # - "a request a user would type" (the description has no phrase to start from)'


class Case(NamedTuple):
    query: str
    """The request, its white space collapsed: what is ranked and shown."""
    should_trigger: bool
    file: str
    """The file it comes from, relative to the skill."""
    checks: int = 0
    """How many ``assertions`` (or ``expectations``) the eval carries: not scored here."""
    prompt: str = ""
    """The request as written (its lines, a CSV block): what ``--live`` sends the agent."""
    id: int | None = None
    """The eval's ``id`` when it is an integer (skill-creator's schema)."""

    @property
    def request(self) -> str:
        """The request as written, for a live run (``query`` when none was kept)."""
        return self.prompt or self.query


class SkillCases(NamedTuple):
    cases: tuple[Case, ...]
    problems: tuple[str, ...]
    """One line per file skipped or entry left out, and why."""


def _json_cases(data: Any, rel: str, names: Sequence[str] = ()) -> list[Case | str]:
    """The cases of a JSON file (an Agent Skills eval is a task for the skill: it should
    trigger it), and why any is left out; and a ``skill_name`` that is none of ``names``
    (the skill's), which may be another skill's file copied with its folder: its cases are
    scored, with a warning naming both."""
    found: list[Case | str] = []
    if isinstance(data, dict) and isinstance(data.get("evals"), list):
        unknown = unknown_keys(data, FILE_KEYS)
        found += [f"{unknown} ignored"] if unknown else []
        named = data.get("skill_name")
        if names and isinstance(named, str) and named not in names:
            from skillc_index.layout import shown

            found.append(
                f"skill_name '{shown(named)}' is not this skill's name '{shown(names[0])}': "
                "its cases are scored as this skill's"
            )
        entries = data["evals"]
    elif isinstance(data, list):
        entries = data
    else:
        raise ValueError("expected a list of cases or an object with an 'evals' list")
    for entry in entries:
        unknown = unknown_keys(entry, ENTRY_KEYS) if isinstance(entry, dict) else ""
        if unknown:  # it may say what the case means: never scored without it
            found.append(f"an entry with the {unknown} is left out")
        else:
            found.append(_case(entry, rel, True))
    return found + id_problems(entries)  # one line a kind, never one an entry


def _case(entry: Any, rel: str, default: bool) -> Case | str:
    """One case (a JSON file's entry, its keys known; a ``triggers.yaml`` query), or why it
    is left out."""
    if not isinstance(entry, dict):
        return "an entry is not an object"
    query = entry.get("query", entry.get("prompt"))
    if not isinstance(query, str) or not query.strip():
        return "an entry has no 'query' or 'prompt' text"
    if len(query) > MAX_QUERY_CHARS:
        return f"a query is longer than {MAX_QUERY_CHARS:,} characters"
    should = entry.get("should_trigger", default)
    if not isinstance(should, bool):
        return "'should_trigger' is not true or false"
    checks = entry.get("assertions", entry.get("expectations", []))
    number = entry.get("id")
    return Case(
        " ".join(query.split()),
        should,
        rel,
        len(checks) if isinstance(checks, list) else 0,
        prompt=query,
        id=number if integer_id(number) else None,
    )


def _yaml_cases(data: Any, rel: str) -> list[Case | str]:
    if not isinstance(data, dict):
        raise ValueError("expected a mapping with should_trigger and should_not_trigger lists")
    unknown = unknown_keys(data, YAML_KEYS)
    if unknown:  # a misspelled list, or another tool's file: no case of it is read
        raise ValueError(f"{unknown} (it holds should_trigger and should_not_trigger lists)")
    found: list[Case | str] = []
    for key, should in zip(YAML_KEYS, (True, False), strict=True):
        queries = yaml_list(data, key)
        if queries is None:  # `should_not_trigger: no` is no empty list
            found.append(f"'{key}' is not a list: none of its cases is read")
            continue
        no_text: dict[str, list[int]] = {}  # why -> the entries (from 1) left out for it
        for number, query in enumerate(queries, 1):
            why = _no_text(query)
            if why is not None:
                no_text.setdefault(why, []).append(number)
            elif should and query == OLD_PLACEHOLDER:
                found.append(
                    f"the placeholder '{OLD_PLACEHOLDER}' an older 'skc eval --init' wrote is "
                    "no case: write requests there, or run 'skc eval --init' again"
                )
            else:
                found.append(_case({"query": query, "should_trigger": should}, rel, should))
        found += [f"{key} {_entries(numbers)} left out: {why}" for why, numbers in no_text.items()]
    return found


def _no_text(query: Any) -> str | None:
    """Why an entry of a ``triggers.yaml`` list is no request, as YAML read it (a request
    holding ``: ``, a bare ``yes`` or ``42``): None for text."""
    if isinstance(query, str):
        return None if query.strip() else "empty"
    if query is None:
        return "empty"
    if isinstance(query, dict):
        return "read as a mapping (a ': ' in the request); quote it"
    if isinstance(query, list):
        return "read as a list; quote it"
    import datetime

    if isinstance(query, bool):
        kind = "true or false"
    elif isinstance(query, (int, float)):
        kind = "a number"
    else:
        kind = "a date" if isinstance(query, datetime.date) else type(query).__name__
    return f"read as {kind}, not text; quote it"


def _entries(numbers: list[int]) -> str:
    """``entry 2 is`` or ``entries 2, 4 and 7 are`` (the first ten numbers, then how many
    more): where in its list each entry left out is."""
    if len(numbers) == 1:
        return f"entry {numbers[0]} is"
    shown = [str(number) for number in numbers[:10]]
    if len(numbers) > 10:
        shown.append(f"{len(numbers) - 10:,} more")
    return f"entries {', '.join(shown[:-1])} and {shown[-1]} are"


def read_cases(root: Path, names: Sequence[str] = ()) -> SkillCases:
    """Every case of the skill at ``root`` (see the module docstring), each request once
    (:func:`_distinct`), at most :data:`MAX_CASES`. ``names``: the skill's (its name first,
    then others it goes by: its folder's), which an ``evals.json``'s ``skill_name`` is one
    of unless the file is another skill's (:func:`_json_cases`)."""
    found_cases: list[Case] = []
    out = _folders_out(root)
    problems = [f"{folder} skipped: {why}" for folder, why in out.items()]
    for rel in CASE_FILES:
        if rel.rpartition("/")[0] in out:  # the folder's warning says it: one line, not five
            continue
        try:
            data = read_case_file(root, rel)
            if data is None:
                continue
            loaded = load_case(rel, data)  # not UTF-8, a key written twice: skipped
            if rel.endswith(".yaml"):
                found = _yaml_cases(loaded, rel)
            else:
                found = _json_cases(loaded, rel, names)
        except (OSError, ValueError) as exc:
            problems.append(f"{rel} skipped: {exc}")
            continue
        # each reason once, with how many entries it left out
        left_out = Counter(item for item in found if isinstance(item, str))
        problems += [f"{rel}: {why}" + _times(n) for why, n in left_out.items()]
        found_cases += [item for item in found if not isinstance(item, str)]
    cases, repeated = _distinct(found_cases)
    problems += repeated
    if len(cases) > MAX_CASES:  # the skill's total: the files read last lose theirs
        from skillc_index.text import counted

        over = Counter(case.file for case in cases[MAX_CASES:])
        problems.append(
            f"more than {MAX_CASES:,} cases for the skill: "
            + ", ".join(f"{counted(n, 'case')} of {rel}" for rel, n in over.items())
            + " left out"
        )
        cases = cases[:MAX_CASES]
    return SkillCases(tuple(cases), tuple(problems))


def _folders_out(root: Path) -> dict[str, str]:
    """The folders of :data:`CASE_FILES` (``evals``) of the skill at ``root`` that lead out
    of it (a symlink), each with its E012: none of their files is read
    (:func:`~skillc_index.evals.read_case_file` refuses each), and the run warns once of the
    link, not of each file name it looks for (five, where the folder held one)."""
    import os

    from skillc_index.diagnostics import PathEscapesRoot
    from skillc_index.files import within

    found: dict[str, str] = {}
    for folder in dict.fromkeys(rel.rpartition("/")[0] for rel in CASE_FILES):
        path = root / folder
        if folder and os.path.lexists(path) and not within(path, root):
            found[folder] = str(PathEscapesRoot(folder))
    return found


def _times(n: int) -> str:
    return f" ({n:,} times)" if n > 1 else ""


def _distinct(cases: list[Case]) -> tuple[list[Case], list[str]]:
    """``cases``, each request (its words, case aside) with each expectation once, across
    the skill's files: a copy (an ``evals.json`` and a trigger set drawn from the same
    prompts) weighed the recall as often as it was copied. A request marked both should
    and should not trigger is left out, every copy of it: neither can be scored. And a
    problem line for each."""
    from skillc_index.layout import shown
    from skillc_index.text import counted

    def key(case: Case) -> str:
        return case.query.casefold()

    first: dict[tuple[str, bool], Case] = {}
    for case in cases:
        first.setdefault((key(case), case.should_trigger), case)
    kept: list[Case] = []
    repeated: Counter[tuple[str, str]] = Counter()
    both: dict[tuple[str, str], list[str]] = {}  # the files -> the queries marked both ways
    for case in cases:
        should, should_not = first.get((key(case), True)), first.get((key(case), False))
        if should is not None and should_not is not None:
            if case is should:
                both.setdefault((should.file, should_not.file), []).append(case.query)
        elif case is first[(key(case), case.should_trigger)]:
            kept.append(case)
        else:
            repeated[(case.file, first[(key(case), case.should_trigger)].file)] += 1
    problems: list[str] = []
    for (yes, no), queries in both.items():  # a line for two files: a file may hold thousands
        more = len(queries) - 1
        others = f" (and {counted(more, 'other query', 'other queries')})" if more else ""
        problems.append(
            f"'{shown(queries[0])}' is marked should trigger ({yes}) and should not ({no}): "
            f"left out{others}"
        )
    problems += [
        f"{rel}: a query already in {earlier} is counted once" + _times(n)
        for (rel, earlier), n in repeated.items()
    ]
    return kept, problems


#: What a YAML stream may not hold raw (outside its printable set: DEL, the C1 controls, lone
#: surrogates, U+FFFE and U+FFFF) or reads as a line break (NEL, U+2028, U+2029): the reader
#: refused the whole starter file for one such character of a description.
_NOT_YAML = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def _escaped(text: str) -> str:
    """``text`` with each character of :data:`_NOT_YAML` written as its escape (skillc-index's
    ``deceptive.code_escape``, the one escape of a code point: YAML's double-quoted scalar
    reads ``\\u2028`` as Python writes it, ``\\U000e0041`` too, and a comment shows it)."""
    from skillc_index.deceptive import code_escape

    return _NOT_YAML.sub(lambda found: code_escape(ord(found.group())), text)


def _quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON's escapes are YAML's)."""
    import json

    return _escaped(json.dumps(text, ensure_ascii=False))


def _comment(text: str) -> str:
    """``text`` (a skill's name) in a comment line: its controls written as escapes."""
    from skillc_index.text import printable

    return _escaped(printable(text))


def starter_text(name: str, phrases: list[str], rivals: list[str]) -> str:
    """The ``evals/triggers.yaml`` of ``skc eval --init``: the description's phrases as
    requests that should trigger the skill (to be reworded as a user would say them), and
    a reminder to add near misses, with the skills whose listing is nearest (``rivals``).
    Without a phrase the list is empty, its example a comment: a placeholder written as a
    request was scored as the user's, a miss that failed a gate."""
    lines = [
        f"# Trigger cases of {_comment(name)} for `skc eval` (see `skc eval --help`).",
        "# should_trigger: requests a user would type when this skill is the right one.",
        "# Started from the phrases of the description: reword them as users ask, and add",
        "# requests that do not reuse the description's words.",
        "should_trigger:",
    ]
    lines += [f"  - {_quoted(phrase)}" for phrase in phrases] or [_NO_PHRASE]
    lines += [
        "# should_not_trigger: near misses, requests close to this skill that another skill",
        "# (or none) should take.",
    ]
    if rivals:
        lines.append("# The skills whose listing is nearest: " + ", ".join(map(_comment, rivals)))
    lines.append("should_not_trigger: []")
    return "\n".join(lines) + "\n"


def older_starter(text: str) -> str | None:
    """What an older ``skc eval --init`` wrote where :func:`starter_text` writes ``text``:
    for a description without a phrase, :data:`OLD_PLACEHOLDER` as a request; else None."""
    line = f"{_NO_PHRASE}\n"
    return text.replace(line, f"  - {_quoted(OLD_PLACEHOLDER)}\n") if line in text else None
