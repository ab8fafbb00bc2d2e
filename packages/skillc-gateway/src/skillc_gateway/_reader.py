"""``open``: one file of a skill, verbatim (RFC-0002:C-OPEN)."""

from __future__ import annotations

from typing import NamedTuple

from skillc_index import InternalError, ResolvedSkill, SkillFileNotFound, safe_join

#: Bytes looked at to tell text from binary content.
SNIFF = 8192


class FileText(NamedTuple):
    """A file's text, possibly cut to its first lines."""

    path: str
    text: str
    """The lines shown, as in the file (line endings kept)."""
    total_lines: int
    shown_lines: int

    @property
    def more_lines(self) -> int:
        return self.total_lines - self.shown_lines

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "content": self.text,
            "total_lines": self.total_lines,
            "shown_lines": self.shown_lines,
            "truncated": self.more_lines > 0,
        }


def cut_lines(text: str, max_lines: int | None) -> tuple[str, int, int]:
    """``text`` cut to its first ``max_lines`` lines: (shown text, total lines, shown lines)."""
    lines = text.splitlines(keepends=True)
    total = len(lines)
    if max_lines is None or total <= max_lines:
        return text, total, total
    return "".join(lines[:max_lines]), total, max_lines


def open_file(skill: ResolvedSkill, path: str, *, max_lines: int | None = None) -> FileText:
    """The content of ``path`` inside the skill (any file type, not only ``.md``).

    E012 for anything that resolves outside the skill root (``..``, absolute paths, symlinks
    pointing out); E021 when there is no such file, or when it is a folder. A binary file
    (one holding NUL bytes) is refused with E999: it cannot be shown as text.
    """
    target = safe_join(skill.source, path)
    if target.is_dir():
        raise SkillFileNotFound(
            path, hint=f"'{path}' is a folder; list it with 'skc sources --dir'"
        )
    try:
        data = target.read_bytes()
    except FileNotFoundError as exc:
        raise SkillFileNotFound(path) from exc
    except OSError as exc:
        raise InternalError(f"cannot read '{path}': {exc.strerror or exc}") from exc
    if b"\0" in data[:SNIFF]:
        raise InternalError(
            f"'{path}' is a binary file ({len(data)} bytes); it has no text to show"
        )
    text, total, shown = cut_lines(data.decode("utf-8", errors="replace"), max_lines)
    return FileText(path, text, total, shown)
