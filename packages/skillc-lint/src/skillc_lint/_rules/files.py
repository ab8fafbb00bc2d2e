"""What the rules read of a skill's files beyond its Markdown: the side files an agent reads
beside SKILL.md (``agents/openai.yaml``), which SKL100 checks as skillc reads them."""

from __future__ import annotations

from skillc_lint._registry import Finding
from skillc_lint._rules.fields import Findings
from skillc_lint._skill import Skill

__all__ = ["side_files_left_out"]


def side_files_left_out(skill: Skill) -> Findings:
    """SKL100's warnings of the side files (:data:`skillc_index.build.project.SIDE_FILES`)
    that ``skc build``, ``skc package`` and ``skc list --budget`` leave out as if absent
    (:func:`~skillc_index.build.project.read_side_source`: over the frontmatter's bounds, no
    YAML, no mapping), as SKILL.md's frontmatter past them is SKL100's; at the line the
    problem is about."""
    from skillc_index.build.project import SIDE_FILES, read_side_source

    present = set(SIDE_FILES).intersection(skill.files)
    for rel in sorted(present):
        skill.text(rel)  # its text, which the result cache checks before reusing a result
        _loaded, why, line = read_side_source(skill.root, rel)
        if why:
            yield Finding(
                f"{rel} is left out by skc build and skc package, as if the skill had none: {why}",
                file=rel,
                line=line,
                warning=True,
            )
