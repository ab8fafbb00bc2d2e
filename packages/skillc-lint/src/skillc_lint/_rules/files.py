"""What the rules read of a skill's files beyond its Markdown: the side files an agent reads
beside SKILL.md (``agents/openai.yaml``), which SKL100 checks as skillc reads them, and the
file rule beyond RFC-0008's table, in its family of file rules (SKL4xx):

- SKL402 ``lfs-pointer`` (warning, ``agentskills`` profile): a file of the skill that is a Git
  LFS pointer, what a checkout made without ``git lfs pull`` holds instead of the file
  (:func:`skillc_index.files.lfs_pointer`, which ``skc build``, ``skc package`` and ``skc
  open`` warn of too).
"""

from __future__ import annotations

from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import Findings, Options
from skillc_lint._skill import Skill

__all__ = ["RULES", "side_files_left_out"]

#: How every Git LFS pointer starts (its ``version`` line): the quick test of a file's text.
_LFS_START = "version https://git-lfs.github.com/spec/"


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


def lfs_pointers(skill: Skill, options: Options) -> Findings:
    """SKL402: no file of the skill is a Git LFS pointer (:func:`skillc_index.files.lfs_pointer`,
    the test ``skc build`` and ``skc package`` make): the checkout was made without ``git lfs
    pull``, and the 130 bytes of the pointer would be built, packaged and read as the file.
    Each file's text is the one the other rules read (:meth:`Skill.text`), once."""
    from skillc_index.files import LFS_POINTER_MAX, lfs_pointer

    for rel in skill.files:
        text = skill.text(rel)
        if text is None or len(text) > LFS_POINTER_MAX or not text.startswith(_LFS_START):
            continue
        if lfs_pointer(text.encode("utf-8", "surrogatepass")):
            yield Finding("a Git LFS pointer, not the file: run git lfs pull", file=rel)


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL402",
        "lfs-pointer",
        "warning",
        lfs_pointers,
        "No file of the skill is a Git LFS pointer left by a checkout without git lfs pull.",
        category="agentskills",  # its profile's (RFC-0008 files SKL401 under "files")
        rationale="A repository that stores files with Git LFS, cloned where git-lfs is not "
        "installed (or with GIT_LFS_SKIP_SMUDGE=1), holds a short text pointer "
        "('version https://git-lfs.github.com/spec/v1', an oid, a size) where each such file "
        "should be: skc build and skc package ship the pointer as the file, and the agent reads "
        "it instead of the reference, or runs a script that is not there.",
        fix="Run `git lfs install` once, then `git lfs pull` in the checkout, and lint again; "
        "or commit the file itself rather than through Git LFS.",
    ),
)
