"""Each target's projection of a skill being built: its frontmatter as the target's dialect
reads it (:mod:`skillc_index.build.project`), and the skill's files the deployment holds (a
hook's script, an icon: at most :data:`MAX_HELD_FILE` each), read for the target's own copy."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.config import Config
from skillc_index.diagnostics import SkillcError
from skillc_index.digests import executable as is_executable
from skillc_index.layout import (
    SKILL_FILE,
    ResolvedSkill,
)
from skillc_index.text import counted

if TYPE_CHECKING:
    from skillc_index.build.project import Projection
    from skillc_index.markdown.frontmatter import Frontmatter

__all__ = ["MAX_HELD_FILE", "projected_files", "source_frontmatter", "target_projections"]


def target_projections(
    targets: Sequence[str], skill: ResolvedSkill, config: Config, have: Sequence[str]
) -> dict[str, Projection]:
    """Each built-in target's view of the source's frontmatter (a target of the config or a
    folder has no dialect: it gets the frontmatter as it is), with the skill's files
    (``have``) its deployment holds. Empty when the frontmatter cannot be read: the compile
    reports that."""
    from skillc_index.targets import agent_targets

    known = agent_targets(config.targets)
    dialects = {
        name: known[name].dialect
        for name in targets
        if name in known and known[name].dialect is not None
    }
    if not dialects:
        return {}
    front = source_frontmatter(skill.source)
    if front is None:
        return {}
    from skillc_index.build.project import project, side_sources
    from skillc_index.markdown.yaml12 import scalar_texts

    sides, texts, files = side_sources(skill.source), scalar_texts(front), frozenset(have)
    return {
        name: _held(project(front.data_12, dialect, name, sides, skill.name, texts, files), skill)
        for name, dialect in dialects.items()
        if dialect is not None
    }


#: The largest file of the skill a deployment holds (:attr:`Projection.files`: a hook's
#: script, an icon).
MAX_HELD_FILE = 8 << 20


def _held(projection: Projection, skill: ResolvedSkill) -> Projection:
    """``projection`` without the skill's files over :data:`MAX_HELD_FILE` (each a warning)
    and those past the first :data:`~.project.MAX_NAMED_FILES` (one warning counting them)."""
    from skillc_index.build.project import MAX_NAMED_FILES

    kept: list[str] = []
    unheld = list(projection.unheld)
    for number, rel in enumerate(projection.files):
        if len(kept) == MAX_NAMED_FILES:
            more = len(projection.files) - number
            unheld.append(
                f"{counted(more, 'more file', 'more files')} the skill's hooks or icons "
                f"name not deployed: a deployment holds at most {MAX_NAMED_FILES}"
            )
            break
        try:
            size = (skill.source / rel).stat().st_size
        except OSError:
            size = 0  # gone meanwhile: the read says so
        if size > MAX_HELD_FILE:
            unheld.append(f"{rel} not deployed: over {MAX_HELD_FILE:,} bytes")
        else:
            kept.append(rel)
    return projection._replace(files=tuple(kept), unheld=tuple(unheld))


def source_frontmatter(source: Path) -> Frontmatter | None:
    """SKILL.md's frontmatter (its ``data_12``: as an agent, a YAML 1.2 reader, loads it, as
    the stub holds it), from as much of SKILL.md as a parse reads (``read_parsed``: a few MiB
    of a file of any size); None when it cannot be read."""
    from skillc_index.files import open_in_root
    from skillc_index.markdown.frontmatter import parse_frontmatter
    from skillc_index.markdown.reading import read_parsed  # not the parser's modules

    try:
        with open_in_root(source, SKILL_FILE) as handle:
            text, _ = read_parsed(handle, count=False)
        front = parse_frontmatter(text)
    except (OSError, ValueError, SkillcError):
        return None
    return None if front.data is None or front.error else front


def projected_files(
    stub: Path, projection: Projection, source: Path
) -> tuple[dict[str, bytes], frozenset[str]]:
    """A target's own stub (the runtime's body under the projected frontmatter), side files
    and the skill's files it holds (read from ``source`` as regular files inside it: E012 for
    a symlink that leads out; at most :data:`MAX_HELD_FILE` of each, :func:`_held` said so);
    and those of them that are executable there (a hook's script is run as it is)."""

    from skillc_index.build.stub import with_frontmatter
    from skillc_index.files import open_in_root

    text = with_frontmatter(stub.read_text(encoding="utf-8"), projection.frontmatter)
    files = {SKILL_FILE: text.encode("utf-8")}
    executable: set[str] = set()
    for rel in projection.files:
        with open_in_root(source, rel) as handle:
            files[rel] = handle.read(MAX_HELD_FILE)
            if is_executable(os.fstat(handle.fileno()).st_mode):
                executable.add(rel)
    files.update((rel, body.encode("utf-8")) for rel, body in projection.side_files.items())
    return files, frozenset(executable)
