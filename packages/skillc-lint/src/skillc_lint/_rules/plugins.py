"""Claude Code plugin and marketplace manifests (SKL611-SKL612, folder rules of the
``claude-code`` profile): ``.claude-plugin/plugin.json`` and
``.claude-plugin/marketplace.json`` of a folder given as a target.

Claude Code's plugins reference: a plugin manifest is optional, and when present ``name``
(kebab-case) is its one required key; component paths (``skills``, ``commands``, ``agents``,
``outputStyles``, and ``hooks``, ``mcpServers``, ``lspServers`` when they are paths) are
relative to the plugin root, start with ``./`` and stay inside it. A marketplace needs
``name``, ``owner`` (an object with ``name``) and ``plugins``, each entry with a ``name`` and
a ``source``; a relative source (``./plugins/x``) is a plugin folder inside the marketplace.
The plugin's skills are linted as the skills of the folder (they are under it).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from skillc_index import (
    JsonRejected,
    NotARegularFile,
    PathEscapesRoot,
    SkillcError,
    SkillFileNotFound,
    loads_bounded,
    open_in_root,
    safe_join,
)
from skillc_index.dialect import plugin_name_rule
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import Findings, Options, type_name

__all__ = ["RULES"]

PLUGIN_FILE = ".claude-plugin/plugin.json"
MARKETPLACE_FILE = ".claude-plugin/marketplace.json"
#: The most of a manifest read: a real one is a few KiB.
MANIFEST_LIMIT = 1 << 20
#: Component fields that hold paths (a string or a list of strings).
PATH_FIELDS = ("skills", "commands", "agents", "outputStyles")
#: Component fields that hold a path or an inline definition (an object).
CONFIG_FIELDS = ("hooks", "mcpServers", "lspServers")
STRING_FIELDS = ("version", "description", "homepage", "license")


def _load(root: Path, rel: str) -> tuple[Any, str | None, int | None]:
    """The JSON of ``rel`` under ``root`` (None when the file is absent), and the problem
    reading it with its line. A folder or FIFO there (never opened: :func:`open_in_root`
    opens a regular file only) cannot be read, as a file without permission."""
    try:
        with open_in_root(root, rel, hidden=True) as handle:
            data = handle.read(MANIFEST_LIMIT + 1)
    except NotARegularFile as exc:  # there, but no manifest: not absent
        return None, f"cannot read {rel}: it is {exc.kind}, not a regular file", None
    except SkillFileNotFound:
        return None, None, None
    except PathEscapesRoot:  # as a component path that does (_path_problem)
        return None, f"'{rel}' leads outside the plugin root (through a symlink)", None
    except SkillcError as exc:  # its message, not its rendered error[EXXX] line
        return None, f"cannot read {rel}: {exc.diagnostic.message}", None
    except OSError as exc:
        return None, f"cannot read {rel}: {exc}", None
    if len(data) > MANIFEST_LIMIT:
        return None, f"{rel} is over {MANIFEST_LIMIT // 1024} KiB", None
    try:
        return loads_bounded(data.decode("utf-8", errors="replace")), None, None
    except JsonRejected as exc:
        return None, f"{rel} is {exc}", None
    except json.JSONDecodeError as exc:
        return None, f"{rel} is not valid JSON: {exc.msg}", exc.lineno


def _path_problem(root: Path, value: str, base: str = "") -> str | None:
    """Why a component path of the manifest is not a path inside ``root`` that exists."""
    if not value.startswith("./"):
        return f"'{value}' must be relative to the plugin root and start with './'"
    rel = posixpath.normpath(posixpath.join(base, value))
    if rel == ".." or rel.startswith("../"):
        return f"'{value}' leads outside the plugin root"
    try:
        target = safe_join(root, rel)
    except PathEscapesRoot:
        return f"'{value}' leads outside the plugin root (through a symlink)"
    except SkillFileNotFound:
        return f"'{value}' does not exist"
    if not target.exists():
        return f"'{value}' does not exist"
    return None


def _strings(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    return None


def plugin_problems(root: Path, data: Any, base: str = "") -> Iterator[str]:
    """What is wrong with the plugin manifest ``data`` of the plugin at ``root / base``."""
    if not isinstance(data, dict):
        yield f"the manifest must be a JSON object, not {type_name(data)}"
        return
    name = data.get("name")
    if not isinstance(name, str) or not name:
        yield "missing required field 'name' (a string)"
    elif rule := plugin_name_rule(name):
        yield f"name '{name}' must be {rule}"
    for key in STRING_FIELDS:
        if key in data and not isinstance(data[key], str):
            yield f"{key} must be a string, not {type_name(data[key])}"
    author = data.get("author")
    if "author" in data and not (isinstance(author, dict) and isinstance(author.get("name"), str)):
        yield "author must be an object with a 'name' string"
    if "keywords" in data and _strings(data["keywords"]) in (None, [data["keywords"]]):
        yield "keywords must be a list of strings"
    plugin_root = root / base if base else root
    for key in (*PATH_FIELDS, *CONFIG_FIELDS):
        if key not in data:
            continue
        value = data[key]
        if key in CONFIG_FIELDS and isinstance(value, dict):
            continue  # an inline definition
        paths = _strings(value)
        if key in CONFIG_FIELDS and isinstance(value, list) and paths is None:
            paths = [item for item in value if isinstance(item, str)]
        if paths is None:
            yield f"{key} must be a path or a list of paths, not {type_name(value)}"
            continue
        for path in paths:
            problem = _path_problem(plugin_root, path)
            if problem:
                yield f"{key}: {problem}"
            elif key == "skills":
                yield from _skills_problems(plugin_root, path)


def _skills_problems(root: Path, value: str) -> Iterator[str]:
    """A ``skills`` path is a skill folder or a folder of skill folders."""
    folder = root / posixpath.normpath(value)
    if (folder / "SKILL.md").is_file():
        return
    if folder.is_dir() and any((entry / "SKILL.md").is_file() for entry in folder.iterdir()):
        return
    yield f"skills: '{value}' holds no skill (no SKILL.md in it or in its folders)"


def plugin_manifest(folder: Path, options: Options) -> Findings:
    """SKL611 (a folder rule): ``.claude-plugin/plugin.json`` of a plugin given as a target
    is valid JSON with a kebab-case ``name``, fields of their types, and component paths that
    start with ``./``, exist, and stay inside the plugin (symlinks included)."""
    data, problem, line = _load(folder, PLUGIN_FILE)
    if problem:
        yield Finding(problem, file=PLUGIN_FILE, line=line)
    elif data is not None:
        for message in plugin_problems(folder, data):
            yield Finding(message, file=PLUGIN_FILE)


def marketplace_manifest(folder: Path, options: Options) -> Findings:
    """SKL612 (a folder rule): ``.claude-plugin/marketplace.json`` has ``name``, ``owner``
    with a ``name``, and ``plugins``, each with a unique ``name`` and a ``source``; a relative
    source is a folder inside the marketplace, and its own plugin manifest is checked as
    SKL611 checks one."""
    data, problem, line = _load(folder, MARKETPLACE_FILE)
    if problem:
        yield Finding(problem, file=MARKETPLACE_FILE, line=line)
        return
    if data is None:
        return
    for message in _marketplace_problems(folder, data):
        yield Finding(message, file=MARKETPLACE_FILE)


def _marketplace_problems(root: Path, data: Any) -> Iterator[str]:
    if not isinstance(data, dict):
        yield f"the manifest must be a JSON object, not {type_name(data)}"
        return
    if not isinstance(data.get("name"), str) or not data["name"]:
        yield "missing required field 'name' (a string)"
    owner = data.get("owner")
    if not (isinstance(owner, dict) and isinstance(owner.get("name"), str)):
        yield "owner must be an object with a 'name' string"
    plugins = data.get("plugins")
    if not isinstance(plugins, list):
        yield f"plugins must be a list of plugin entries, not {type_name(plugins)}"
        return
    metadata = data.get("metadata")
    base = metadata.get("pluginRoot", "") if isinstance(metadata, dict) else ""
    seen: set[str] = set()
    for index, entry in enumerate(plugins):
        where = f"plugins[{index}]"
        if not isinstance(entry, dict):
            yield f"{where} must be an object, not {type_name(entry)}"
            continue
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            yield f"{where} needs a 'name' string"
        elif name in seen:
            yield f"{where}: plugin name '{name}' is listed twice"
        else:
            seen.add(name)
            where = f"plugin '{name}'"
        source = entry.get("source")
        if isinstance(source, dict):
            continue  # github, url, git-subdir, npm...: not on this machine
        if not isinstance(source, str) or not source:
            yield f"{where} needs a 'source' (a relative path or a source object)"
            continue
        if not source.startswith("./") and isinstance(base, str) and base:
            source = "./" + posixpath.join(base.removeprefix("./"), source)
        problem = _path_problem(root, source)
        if problem:
            yield f"{where}: source {problem}"
            continue
        rel = posixpath.normpath(source)
        plugin, problem, _ = _load(root, posixpath.join(rel, PLUGIN_FILE))
        if problem:
            yield f"{where}: {problem}"
        elif plugin is not None:
            for message in plugin_problems(root, plugin, rel):
                yield f"{where} ({posixpath.join(rel, PLUGIN_FILE)}): {message}"


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL611",
        "plugin-manifest",
        "error",
        plugin_manifest,
        "A plugin's .claude-plugin/plugin.json is valid and its paths exist inside it.",
        category="claude-code",
        scope="folder",
        rationale="Claude Code refuses a plugin whose manifest has a type mismatch or a "
        "component path that is missing or leaves the plugin root; a non-kebab-case name is "
        "warned about by `claude plugin validate`.",
        fix="Give the manifest a kebab-case `name`; write component paths as `./dir/` "
        "relative to the plugin root, pointing at files that exist inside it.",
    ),
    Rule(
        "SKL612",
        "marketplace-manifest",
        "error",
        marketplace_manifest,
        "A marketplace's .claude-plugin/marketplace.json lists plugins that exist.",
        category="claude-code",
        scope="folder",
        rationale="A marketplace entry whose source is missing, outside the marketplace or "
        "has a broken plugin manifest fails when a user installs it, not when it is published.",
        fix="Give the marketplace `name`, `owner.name` and `plugins`; give each plugin a "
        "unique `name` and a `source` such as `./plugins/my-plugin` that holds the plugin.",
    ),
)
