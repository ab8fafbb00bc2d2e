"""A source's frontmatter as one agent reads it: its projection onto a dialect (issue 37).

:func:`project` keeps the fields the dialect reads and carries what it can of the others:
- ``when_to_use`` is folded into the description (as Claude Code's listing appends it),
  within the dialect's description limit;
- ``disable-model-invocation: true`` becomes ``policy.allow_implicit_invocation: false`` in
  ``agents/openai.yaml`` for a dialect that reads that file (Codex, ``.agents/skills``);
- a field the dialect's folder keeps for its other readers (``Dialect.shared``: Copilot's and
  Cursor's ``disable-model-invocation``... in ``.agents/skills``) is written as it is;
- ``version``, ``author`` and (where the agent does not read it) ``compatibility``, plain
  values, move under ``metadata``, where they are the same note;
- a list of ``allowed-tools`` becomes the specification's space-separated string (an item
  it cannot hold as it is, ``Bash(git add:*)``, named in the change), and
  ``metadata`` values that are not strings become strings (a ``metadata`` left empty is left
  out);
- a description (or compatibility note) over the limit is cut, and so is a
  ``metadata.short-description`` over the limit of a dialect Codex reads (its loader refuses
  the skill); an empty compatibility note is left out;
- anything else the dialect does not read is left out;
- the ``name`` is set to the folder's (``folder``: a build's), as the specification requires;
  a folder name that breaks the name rule is left as it is, with a warning (``warnings``).

For a build (``have``: the skill's files), a projection also names the skill's own files its
deployment holds beside the stub (:func:`named_files`): those a hook command the dialect
keeps runs and the icons the side file shows, from the deployed folder.

Every change is a :class:`FieldChange` naming the field and the agent; ``skc build`` reports
each once, and ``skc package`` and ``skillc-lint --target`` say the same thing from the same
record.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from skillc_index.dialect import (
    CODEX_SIDE_FILE,
    COMPATIBILITY_LIMIT,
    NAME_LIMIT,
    SHORT_DESCRIPTION,
    SKILL_DIR_PLACEHOLDER,
    Dialect,
    codex_name_refusal,
    fit_text,
    folded_text,
    is_text,
    skill_name_problem,
    text_fault,
    text_length,
)
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_index.build.shapes import FieldChangeShape

__all__ = [
    "MAX_NAMED_FILES",
    "SIDE_FILES",
    "FieldChange",
    "Projection",
    "named_files",
    "project",
    "project_frontmatter",
    "read_side_source",
    "side_file_text",
    "side_sources",
]

Action = Literal["dropped", "folded", "moved", "side-file", "converted", "cut"]

#: Fields the specification's own examples keep under ``metadata`` (agentskills.io
#: "metadata: author, version"): moved there, they keep their meaning.
_TO_METADATA = ("version", "author", "compatibility")


class FieldChange(Record):
    """One field a target drops or changes."""

    target: str
    agent: str
    field: str
    action: Action
    detail: str

    @property
    def text(self) -> str:
        """The warning's text: ``codex (Codex): 'argument-hint' dropped (not read)``."""
        return f"{self.target} ({self.agent}): '{self.field}' {self.detail}"

    def named(self, skill: str) -> str:
        """The warning's text naming the skill, as ``skc package`` and a batch ``skc build``
        print it among others': ``pdf-tool: codex (Codex): 'paths' dropped (not read)``."""
        return f"{skill}: {self.text}"

    def to_dict(self) -> FieldChangeShape:
        return {
            "target": self.target,
            "agent": self.agent,
            "field": self.field,
            "action": self.action,
            "detail": self.detail,
        }


class Projection(Record):
    """What one target gets: its frontmatter, its side files (path -> text) and the changes;
    for a build, the skill's files its deployment holds too (``files``), a warning for each
    file named that it cannot hold (``unheld``) and one for a folder name the target's agent
    may refuse (``warnings``)."""

    frontmatter: dict[str, Any]
    side_files: dict[str, str]
    changes: tuple[FieldChange, ...]
    files: tuple[str, ...] = ()
    unheld: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    """What the target's agent may refuse, said with the target (a folder name that breaks
    the name rule): the deployment is made all the same."""

    @property
    def changed(self) -> bool:
        """Whether the target gets anything but the source's frontmatter as it is."""
        return bool(self.changes or self.side_files)

    @property
    def own_folder(self) -> bool:
        """Whether a deployment gets a folder of its own (a copy), not a link to the runtime
        (which holds the stub alone): :attr:`changed`, or skill files to hold."""
        return self.changed or bool(self.files)


def _string(value: object, text: str | None = None) -> str | None:
    """A plain value as a string: a boolean or a number as the source writes it (``text``,
    its :func:`~skillc_index.markdown.yaml12.scalar_texts`: ``1.10``, ``0o17``), else as a
    YAML 1.2 reader would show it; None for a list or mapping."""
    if isinstance(value, (bool, int, float)) and text is not None:
        return text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


#: The specification's fields whose value is text (``metadata`` a mapping of strings, made
#: so above; ``allowed-tools`` a list of text is written as the space-separated string).
_TEXT_FIELDS = frozenset({"license", "compatibility", "allowed-tools", "metadata"})


def project(
    frontmatter: Mapping[str, Any],
    dialect: Dialect,
    target: str,
    side_sources: Mapping[str, Mapping[str, Any]] | None = None,
    folder: str | None = None,
    texts: Mapping[tuple[str, ...], str] | None = None,
    have: Collection[str] | None = None,
) -> Projection:
    """``frontmatter`` (a source's, as a YAML 1.2 reader loads it) as ``dialect`` reads it, for
    ``target`` (its name in the changes). ``side_sources``: the source's own side files
    (``agents/openai.yaml`` loaded), which the generated ones extend. ``folder``: the name of
    the folder the skill is deployed as; a dialect other than Claude Code's (whose command
    is the folder's name whatever the frontmatter says) gets it as ``name`` when the two
    differ, as the specification requires (a valid folder name only). ``texts``: the source's
    own text of its booleans and numbers (:func:`~skillc_index.markdown.yaml12.scalar_texts`),
    what one is written as when it becomes a string (``metadata: {version: 1.10}``: '1.10';
    without it, '1.1'). ``have``: the skill's files (a build's; :func:`named_files`)."""
    texts = texts or {}
    changes: list[FieldChange] = []

    def change(field: str, action: Action, detail: str) -> None:
        changes.append(FieldChange(target, dialect.agent, field, action, detail))

    superset = dialect.keeps_others
    out: dict[str, Any] = {}
    metadata: dict[str, Any] | None = None
    moved: dict[str, str] = {}
    policy: dict[str, Any] = {}
    for key, value in frontmatter.items():
        side_file = CODEX_SIDE_FILE in dialect.side_files
        if key == "disable-model-invocation" and side_file and value is True:
            policy["allow_implicit_invocation"] = False
            change(
                key,
                "side-file",
                f"carried by {CODEX_SIDE_FILE} as policy.allow_implicit_invocation: false",
            )
        if key in dialect.reads or key in dialect.shared or superset:
            if key == "allowed-tools" and isinstance(value, list) and not superset:
                words = [_string(item) for item in value]
                if all(word is not None for word in words):
                    out[key] = " ".join(str(word) for word in words)
                    change(key, "converted", _tools_detail([str(word) for word in words]))
                    continue
            if key == "metadata" and isinstance(value, dict) and not superset:
                metadata = dict(value)
                continue
            wrong = key == "metadata" or not is_text(value)  # (a mapping: above)
            if not superset and key in _TEXT_FIELDS and wrong:
                # a conformant client skips a skill whose standard field has another type
                kind = "a mapping of strings" if key == "metadata" else "text"
                change(key, "dropped", f"dropped (the specification's {key} is {kind})")
                continue
            out[key] = value
        elif key == "when_to_use" and isinstance(value, str):
            continue  # folded into the description below
        elif key == "disable-model-invocation" and side_file:
            if value is not True:  # (true: carried by the side file, above)
                change(key, "dropped", "dropped (not read; false is the default)")
        elif key in _TO_METADATA and _string(value) is not None and "metadata" in dialect.reads:
            moved[key] = str(_string(value, texts.get((key,))))
        else:
            why = "outside the Agent Skills specification" if dialect.strict else "not read"
            if key == "disable-model-invocation" and value is True:
                why += "; the model may invoke the skill there"
            change(key, "dropped", f"dropped ({why})")
    if metadata is not None or moved:
        inner = {path[1]: text for path, text in texts.items() if path[0] == "metadata"}
        kept = _metadata(metadata or {}, moved, change, inner, dialect.short_description_limit)
        if kept:
            out["metadata"] = kept
        else:  # written `metadata: {}`, a flow mapping skills-ref refuses
            change("metadata", "dropped", "dropped (nothing left in it)")
    _fold_description(out, frontmatter, dialect, change)
    warnings: list[str] = []
    if folder is not None and not superset:
        problem = skill_name_problem(folder)
        if problem is not None:  # deployed all the same (Claude Code's takes it): said
            warnings.append(_name_warning(target, dialect, folder, out, problem))
        elif out.get("name") != folder:
            out["name"] = folder
            change("name", "converted", f"set to '{folder}', the name of its folder")
    if isinstance(out.get("compatibility"), str) and not superset:
        if text_fault(out["compatibility"], COMPATIBILITY_LIMIT) == "empty":
            del out["compatibility"]  # a validator refuses the skill (quick_validate.py)
            note = f"the specification's is 1 to {COMPATIBILITY_LIMIT:,} characters"
            change("compatibility", "dropped", f"dropped (empty; {note})")
        else:
            _fit(out, "compatibility", COMPATIBILITY_LIMIT, change, "the specification's")
    side_files: dict[str, str] = {}
    # the skill's own side file goes with the stub, extended by the frontmatter's policy: a
    # deployment holds the stub alone, and Codex read no interface or policy of the author's
    own = (
        (side_sources or {}).get(CODEX_SIDE_FILE) if CODEX_SIDE_FILE in dialect.side_files else None
    )
    if policy or own:
        base = dict(own or {})
        old_policy = base.get("policy")
        base["policy"] = {**(old_policy if isinstance(old_policy, dict) else {}), **policy}
        if not base["policy"]:
            del base["policy"]
        side_files[CODEX_SIDE_FILE] = side_file_text(base)
    if have is None:
        return Projection(out, side_files, tuple(changes), warnings=tuple(warnings))
    files, unheld = named_files(out, own if side_files else None, have)
    return Projection(out, side_files, tuple(changes), files, unheld, tuple(warnings))


def _name_warning(
    target: str, dialect: Dialect, folder: str, out: Mapping[str, Any], problem: str
) -> str:
    """The warning of a deployment to ``target`` as the folder ``folder``, whose name breaks
    the Agent Skills name rule (``problem``): the frontmatter's ``name`` is not set to it,
    and who refuses the skill; Codex surely when the name it takes (the frontmatter's, else
    the folder's) is over its limit (:func:`~skillc_index.dialect.codex_name_refusal`)."""
    codex = CODEX_SIDE_FILE in dialect.side_files
    if codex and codex_name_refusal(out.get("name"), folder) is not None:
        who = f"Codex refuses the skill (a name over {NAME_LIMIT} characters)"
    else:
        who = "skills-ref refuses the skill, and an agent that checks the rule may"
    return (
        f"{target} ({dialect.agent}): {who}: the folder name '{folder}' breaks the Agent Skills "
        f"name rule; {problem}; rename the folder"
    )


def _tools_detail(words: list[str]) -> str:
    """The change of a list of ``allowed-tools`` written as the specification's
    space-separated string: each item that string cannot hold as it is named (one holding
    white space, ``Bash(git add:*)``, is read back as two tools; an empty one as none)."""
    detail = "written as a space-separated string"
    unfaithful = [word for word in words if word.split() != [word]]
    if not unfaithful:
        return detail
    from skillc_index.text import cut_middle

    named = ", ".join(repr(cut_middle(word, 60)) for word in unfaithful[:5])
    more = f" and {len(unfaithful) - 5:,} more" if len(unfaithful) > 5 else ""
    return (
        f"{detail}, which cannot hold {named}{more} faithfully (an item with white space in it "
        "or empty: a reader splits the string at white space)"
    )


#: The name the package facade exports :func:`project` under (``skillc_index.project`` would
#: read as a project folder).
project_frontmatter = project


def _metadata(
    metadata: dict[str, Any],
    moved: Mapping[str, str],
    change: Any,
    texts: Mapping[str, str],
    short_limit: int | None = None,
) -> dict[str, str]:
    """The specification's ``metadata``: string keys to string values (a boolean or a number
    as ``texts``, the source, writes it), with ``moved`` added (a key it already has wins);
    its ``short-description`` within ``short_limit`` (the dialect's, Codex's) as Codex
    counts it, its white space folded: as it is when that fits, else folded and cut."""
    result: dict[str, str] = {}
    for key, value in metadata.items():
        text = _string(value, texts.get(str(key)))
        if text is None:
            change(f"metadata.{key}", "dropped", "dropped (metadata values are strings)")
            continue
        if not isinstance(value, str):
            change(f"metadata.{key}", "converted", f"written as the string '{text}'")
        result[str(key)] = text
    for key, value in moved.items():
        if key in result:
            change(key, "dropped", f"dropped (metadata.{key} is set already)")
        else:
            result[key] = value
            change(key, "moved", f"moved to metadata.{key}")
    short = folded_text(result.get(SHORT_DESCRIPTION))
    if short_limit is not None and text_length(short) > short_limit:
        result[SHORT_DESCRIPTION] = short  # what Codex counts and shows
        _fit(result, SHORT_DESCRIPTION, short_limit, change, "the agent's", "metadata.")
    return result


def _fit(
    out: dict[str, Any], key: str, limit: int, change: Any, whose: str, within: str = ""
) -> None:
    """``out[key]``, a text, within ``limit`` (:func:`~skillc_index.dialect.fit_text`): the
    white space around it dropped when that is enough (a ``|`` block's final line break),
    else cut; each said as a change of the field ``within + key`` (``whose``: the limit's,
    ``the agent's``)."""
    value = out[key]
    fitted, was_cut = fit_text(value, limit)
    if fitted == value:
        return
    out[key] = fitted
    if not was_cut:
        note = (
            f"the white space around it dropped ({whose} limit of {limit:,} characters counts it)"
        )
        change(within + key, "converted", note)
    else:
        change(within + key, "cut", f"cut to {limit:,} characters ({whose} limit)")


def _fold_description(
    out: dict[str, Any], frontmatter: Mapping[str, Any], dialect: Dialect, change: Any
) -> None:
    """``when_to_use`` appended to the description where the dialect does not read it, and
    the description cut to the dialect's limit."""
    description = out.get("description")
    if not isinstance(description, str):
        return
    when = frontmatter.get("when_to_use")
    limit = dialect.description_limit
    if isinstance(when, str) and "when_to_use" not in dialect.reads and when.strip():
        folded = f"{description.strip()} {when.strip()}"
        fitted, was_cut = (folded, False) if limit is None else fit_text(folded, limit)
        cut_note = f", cut to {limit:,} characters" if was_cut else ""
        out["description"] = fitted
        change("when_to_use", "folded", f"folded into the description{cut_note}")
    elif limit is not None:
        _fit(out, "description", limit, change, "the agent's")
    text = out["description"]
    if dialect.plain_description and ("<" in text or ">" in text):
        out["description"] = text.replace("<", "\u2039").replace(">", "\u203a")
        change("description", "converted", "< and > written as \u2039 and \u203a (read as tags)")


#: The most files of the skill a deployment holds beside the stub (:func:`named_files`).
MAX_NAMED_FILES = 64
#: The icons of Codex's side file: paths in the skill folder (developers.openai.com/codex/skills).
_ICONS = ("icon_small", "icon_large")


def named_files(
    frontmatter: Mapping[str, Any], side: Mapping[str, Any] | None, have: Collection[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The skill's own files (of ``have``, relative paths) that the agent runs or shows from
    the deployed folder, which holds the stub alone: each word of a ``hooks`` command that is
    a placeholder of the skill's folder and a path (``${CLAUDE_SKILL_DIR}/scripts/check.sh``:
    Claude Code runs it there) or a relative path naming a file of the skill
    (``./scripts/check.sh``), and the ``interface`` icons of the side file ``side``
    (``./assets/icon.png``); never SKILL.md (the build holds :data:`MAX_NAMED_FILES` of
    them at most, and says how many it did not). Also a warning
    for each placeholder path or icon it cannot hold: one the skill does not have, or that
    leads out of the skill (``..``; a symlink that leads out is E012 when the build walks the
    skill)."""
    import posixpath

    files: dict[str, None] = {}
    unheld: dict[str, None] = {}
    named = list(_hook_paths(frontmatter.get("hooks")))
    interface = (side or {}).get("interface")
    if isinstance(interface, dict):
        named += [
            (f"{CODEX_SIDE_FILE} interface.{key}", interface[key], interface[key], True)
            for key in _ICONS
            if isinstance(interface.get(key), str)
        ]
    for where, written, path, certain in named:
        rel = posixpath.normpath(path)
        if rel in have and rel != "SKILL.md":
            files[rel] = None
        elif certain and (rel == ".." or rel.startswith(("../", "/"))):
            unheld[f"{where} names {written}, which leads out of the skill: not deployed"] = None
        elif certain and rel not in (".", "SKILL.md"):
            unheld[f"{where} names {written}, which the skill does not have"] = None
    return tuple(files), tuple(unheld)


def _hook_paths(hooks: object) -> Iterator[tuple[str, str, str, bool]]:
    """``(where, word, path, certain)`` for each word of a ``hooks`` command naming a path:
    after a placeholder of the skill's folder (``certain``: the path is the skill's), or as
    it is (``./x.sh``: a path of the skill only if the skill has it). ``where``:
    ``hooks.PreToolUse[0].hooks[0]``. Malformed entries are skipped (lint's SKL605 says)."""
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        for index, group in enumerate(groups if isinstance(groups, list) else ()):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for number, handler in enumerate(handlers if isinstance(handlers, list) else ()):
                command = handler.get("command") if isinstance(handler, dict) else None
                if not isinstance(command, str):
                    continue
                where = f"hooks.{event}[{index}].hooks[{number}]"
                for word in _command_words(command):
                    found = list(SKILL_DIR_PLACEHOLDER.finditer(word))
                    for match in found:
                        path = word[match.end() :].split(":", 1)[0]
                        if path.startswith("/"):
                            yield where, word, path[1:] or ".", True
                    if not found and not word.startswith("-"):
                        yield where, word, word, False


def _command_words(command: str, depth: int = 0) -> Iterator[str]:
    """The words of a shell command line, as the shell splits them (quotes removed), with
    its operators (``;``, ``&&``, ``|``, ``>``, ``(``) words of their own, and the words of
    an ``sh -c '...'`` string (a few levels deep) in place of that string. Nothing is run."""
    import re
    import shlex

    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split, lexer.commenters = True, ""
    try:
        words = list(lexer)
    except ValueError:  # an unclosed quote: its words as written
        words = [word for word in re.split(r"[\s;&|<>()]+", command) if word]
    option = ""
    for word in words:
        if option[:1] == "-" and option[1:2] != "-" and option.endswith("c") and depth < 4:
            yield from _command_words(word, depth + 1)  # `sh -c 'a.sh && b'`: a command line
        else:
            yield word
        option = word


def side_file_text(data: Mapping[str, Any]) -> str:
    """A generated YAML side file: a comment saying where it comes from, then ``data``."""
    import yaml

    body: str = yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True)
    return "# Written by skillc (skc build): the skill's own, with SKILL.md's frontmatter.\n" + body


#: The most of a source's side file read (``agents/openai.yaml`` is a few lines).
_MAX_SIDE_FILE = 64 << 10
#: The side files a source may hold that projections extend.
SIDE_FILES = (CODEX_SIDE_FILE,)


def read_side_source(source: Path, rel: str) -> tuple[dict[str, Any] | None, str, int]:
    """The source's own side file ``rel`` (one of :data:`SIDE_FILES`) as projections extend
    it: its mapping, read within the frontmatter's bounds
    (:func:`~skillc_index.markdown.frontmatter.load_bounded_yaml`), or None with why it is
    left out as if absent (``""``: the source has none, or it leads outside the folder,
    which the lint reports as such) and the line of the file that is about (1 when none)."""
    from skillc_index.diagnostics import PathEscapesRoot, PathNotFound, SkillcError
    from skillc_index.files import open_in_root

    try:
        with open_in_root(source, rel) as handle:
            data = handle.read(_MAX_SIDE_FILE + 1)
    except (FileNotFoundError, PathNotFound, PathEscapesRoot):
        return None, "", 1
    except (OSError, ValueError, SkillcError):
        return None, "it cannot be read", 1
    if len(data) > _MAX_SIDE_FILE:
        return None, f"it is larger than {_MAX_SIDE_FILE >> 10} KiB", 1
    from skillc_index.markdown.frontmatter import YAMLProblem, load_bounded_yaml

    try:  # within the frontmatter's bounds: depth, aliases, unbuildable tags
        loaded, _node, _lines = load_bounded_yaml(data.decode("utf-8", errors="replace"))
    except YAMLProblem as problem:
        return None, f"invalid YAML: {problem}", problem.line
    if not isinstance(loaded, dict):
        return None, "it is no YAML mapping", 1
    return loaded, "", 1


def side_sources(source: Path) -> dict[str, dict[str, Any]]:
    """The skill's own side files that projections extend (``agents/openai.yaml``), each as
    a mapping; one it does not have (or that :func:`read_side_source` leaves out: not a
    small YAML mapping) is left out."""
    found: dict[str, dict[str, Any]] = {}
    for rel in SIDE_FILES:
        loaded, _why, _line = read_side_source(source, rel)
        if loaded is not None:
            found[rel] = loaded
    return found
