"""The checks of the skill-creator validators of Anthropic and OpenAI, restated (issue 37).

Read from ``skills/skill-creator/scripts/quick_validate.py`` and ``package_skill.py`` of
anthropics/skills, and ``skills/.system/skill-creator/scripts/quick_validate.py`` of
openai/skills; written here in our own words, not copied. What they check of a skill folder:

- a ``SKILL.md`` that starts with ``---`` and whose frontmatter (up to the next ``---`` line)
  is a YAML mapping;
- only the allowed keys: ``name``, ``description``, ``license``, ``allowed-tools``,
  ``metadata``, and for Anthropic also ``compatibility`` (OpenAI refuses it);
- ``name`` and ``description`` present, both strings;
- the name (stripped): lowercase letters, digits and hyphens, not starting or ending with a
  hyphen, no ``--``, at most 64 characters;
- the description (stripped): no ``<`` or ``>``, at most 1,024 characters;
- (Anthropic) ``compatibility``, when set, a string of at most 500 characters.

Anthropic's packager then zips the folder under its own name, leaving out ``__pycache__``,
``node_modules``, ``*.pyc``, ``.DS_Store`` and a root ``evals/``: :func:`package_problems`
checks that an upload archive holds one folder of the skill's name with a SKILL.md and none
of what the packager leaves out.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

import yaml

__all__ = ["anthropic_problems", "openai_problems", "package_problems"]

_BASE_KEYS = frozenset({"name", "description", "license", "allowed-tools", "metadata"})
_HYPHEN_CASE = re.compile(r"[a-z0-9-]+")


def _frontmatter(folder: Path) -> tuple[dict[str, Any] | None, str | None]:
    skill_md = folder / "SKILL.md"
    if not skill_md.is_file():
        return None, "no SKILL.md"
    text = skill_md.read_text(encoding="utf-8")
    if not text.startswith("---"):
        return None, "SKILL.md does not start with a frontmatter"
    block = re.match(r"---\n(.*?)\n---", text, re.DOTALL)
    if block is None:
        return None, "the frontmatter is not closed by a --- line"
    try:
        data = yaml.safe_load(block.group(1))
    except yaml.YAMLError as exc:
        return None, f"the frontmatter is not YAML: {exc}"
    if not isinstance(data, dict):
        return None, "the frontmatter is not a mapping"
    return data, None


def _problems(folder: Path, allowed: frozenset[str], compatibility: bool) -> list[str]:
    data, problem = _frontmatter(folder)
    if data is None:
        return [str(problem)]
    problems = []
    extra = sorted(set(data) - allowed)
    if extra:
        problems.append(f"keys not allowed: {', '.join(map(str, extra))}")
    for key in ("name", "description"):
        if key not in data:
            problems.append(f"no {key}")
        elif not isinstance(data[key], str):
            problems.append(f"{key} is not a string")
    name = data.get("name")
    if isinstance(name, str) and name.strip():
        name = name.strip()
        if not _HYPHEN_CASE.fullmatch(name):
            problems.append(f"name {name!r} is not hyphen-case")
        if name.startswith("-") or name.endswith("-") or "--" in name:
            problems.append(f"name {name!r} has a hyphen at an end or two in a row")
        if len(name) > 64:
            problems.append(f"name has {len(name)} characters, over 64")
    description = data.get("description")
    if isinstance(description, str) and description.strip():
        description = description.strip()
        if "<" in description or ">" in description:
            problems.append("description holds < or >")
        if len(description) > 1024:
            problems.append(f"description has {len(description)} characters, over 1,024")
    value = data.get("compatibility")
    if compatibility and value:
        if not isinstance(value, str):
            problems.append("compatibility is not a string")
        elif len(value) > 500:
            problems.append(f"compatibility has {len(value)} characters, over 500")
    return problems


def anthropic_problems(folder: Path) -> list[str]:
    """What Anthropic's ``quick_validate.py`` refuses in the skill at ``folder``."""
    return _problems(folder, _BASE_KEYS | {"compatibility"}, compatibility=True)


def openai_problems(folder: Path) -> list[str]:
    """What OpenAI's ``quick_validate.py`` refuses in the skill at ``folder``."""
    return _problems(folder, _BASE_KEYS, compatibility=False)


def package_problems(archive: Path, name: str) -> list[str]:
    """What an upload archive of skill ``name`` holds that Anthropic's packager would not."""
    with zipfile.ZipFile(archive) as opened:
        names = opened.namelist()
    problems = [
        f"{entry} is not under {name}/" for entry in names if not entry.startswith(f"{name}/")
    ]
    if f"{name}/SKILL.md" not in names:
        problems.append(f"no {name}/SKILL.md")
    for entry in names:
        parts = entry.split("/")
        if {"__pycache__", "node_modules"} & set(parts[:-1]) or entry.endswith(".pyc"):
            problems.append(f"{entry}: a build artifact")
        if parts[-1] == ".DS_Store" or (len(parts) > 2 and parts[1] == "evals"):
            problems.append(f"{entry}: left out by the packager")
    return problems
