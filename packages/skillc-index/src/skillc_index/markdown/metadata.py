"""A skill's metadata (RFC-0001:C-INPUT): the ``name`` and ``description`` every SKILL.md must
have, read from its parsed frontmatter (:func:`read_skill_metadata`), and why a field written
is no text (:func:`not_text`, E011's hint)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skillc_index.command_errors import MissingFrontmatterField

if TYPE_CHECKING:
    from skillc_index.markdown.document import MarkdownDoc

__all__ = ["SkillMetadata", "not_text", "read_skill_metadata"]


@dataclass(frozen=True)
class SkillMetadata:
    """The two frontmatter fields every skill must have (RFC-0001:C-INPUT)."""

    name: str
    description: str


def read_skill_metadata(doc: MarkdownDoc, *, bom: str | None = None) -> SkillMetadata:
    """``name`` and ``description`` of a parsed SKILL.md (RFC-0001:C-INPUT).

    Raises :class:`MissingFrontmatterField` (E011) for ``name``, then ``description``, when
    the frontmatter is absent or invalid (its error, the YAML's say, is the hint; for a
    UTF-16 or UTF-32 file, ``bom`` is, what :func:`~skillc_index.files.other_bom` said of
    its bytes: skillc reads its frontmatter, agents and validators do not), or the
    field is not a non-empty string, as YAML 1.2 reads it (``name: yes`` is the text "yes",
    as agents and the stub read it). The name is stripped; the description has its
    whitespace collapsed (YAML folded scalars end in a newline).
    """
    front = doc.frontmatter
    if bom is not None:
        raise MissingFrontmatterField("name", f"SKILL.md {bom}: save it as UTF-8")
    name = front.field_12("name")
    if not isinstance(name, str) or not name.strip():
        raise MissingFrontmatterField("name", front.error or not_text(front.data_12, "name"))
    description = doc.description
    if description is None:
        raise MissingFrontmatterField("description", not_text(front.data_12, "description"))
    return SkillMetadata(name.strip(), description)


def not_text(data: Mapping[str, object] | None, key: str) -> str | None:
    """Why the frontmatter field ``key`` of ``data`` is no text although it is written (the
    hint of E011: ``name: 2024`` is a number, ``description: [a, b]`` a list); None when it
    is not written, or is text."""
    value = (data or {}).get(key)
    if value is None or isinstance(value, str):
        return None
    kinds = {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        list: "a list",
        dict: "a mapping",
    }
    kind = kinds.get(type(value), f"a YAML {type(value).__name__}")
    return f"'{key}' is {kind}, not text (quote it, or write it as one string)"
