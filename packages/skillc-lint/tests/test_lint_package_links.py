"""SKL301 and ``skc package`` on the links to what no package holds (review s50): both read
a link through :func:`skillc_index.markdown.targets.link_destination`, with the substitutions
of the agent concerned (Claude's ``${CLAUDE_SKILL_DIR}``, ``{baseDir}``: the ``claude-code``
profile, an upload), so they name the same links. Real folders, a real package."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout
from skillc_index.package.make import package_skills
from skillc_lint import default_registry, lint_skill

BODY = (
    "[a](${CLAUDE_SKILL_DIR}/.notes/x.md) [b]({baseDir}/.notes/x.md) [c](.notes/x.md)\n"
    "[d]({baseDir}/evals/evals.json) [e](${CLAUDE_SKILL_DIR}/references/r.md)\n"
    "[f]($ARGUMENTS/.notes/x.md) [g](${CLAUDE_SKILL_DIR}) [h]({baseDir}-old/.notes/x.md)\n"
)
FILES = {
    ".notes/x.md": "# X\n",
    "evals/evals.json": '{"evals": []}\n',
    "references/r.md": "# R\n\nSee [n]({baseDir}/.notes/x.md).\n",
}
#: A warning of package: ``<skill>: <file>:<line> links to '<link>', which the package...``.
_PACKAGE = re.compile(r"^[^:]+: (?P<file>[^:]+):(?P<line>\d+) links to '(?P<link>[^']*)'")
#: SKL301's message of a target that no package holds (its reason in brackets).
_LINT = re.compile(r"^link target (?:is never packaged|not found): '(?P<link>[^']*)' \(")


def _linked(tmp_path: Path, write_skill: Callable[..., Path], fmt: str, profile: str) -> tuple:
    folder = write_skill(tmp_path / "links", body=BODY, files=FILES)
    home = tmp_path / "home"
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    result = package_skills([str(folder)], layout, fmt=fmt, output=tmp_path / fmt)
    packaged = set()
    for notice in result.warnings:
        if "broken in the package" in notice.text and (match := _PACKAGE.match(notice.text)):
            packaged.add((match["file"], int(match["line"]), match["link"]))
    linted = set()
    for d in lint_skill(folder, registry=default_registry(profile)).diagnostics:
        if d.rule == "SKL301" and (match := _LINT.match(d.message)):
            linted.add((d.file, d.line, match["link"]))
    return packaged, linted


@pytest.mark.parametrize(
    ("fmt", "profile"), [("upload", "claude-code"), ("claude-plugin", "claude-code")]
)
def test_package_and_lint_name_the_same_links_with_claudes_substitutions(
    tmp_path: Path, write_skill: Callable[..., Path], fmt: str, profile: str
) -> None:
    """``[n](${CLAUDE_SKILL_DIR}/.notes/x.md)`` and ``{baseDir}/...`` were SKL301 errors
    under ``--profile claude-code`` while ``skc package`` (Claude's formats) said nothing:
    package sorted links by a copy of lint's rules without the substitutions. The same links
    now, from SKILL.md and from a reference; a runtime value (``$ARGUMENTS``), the skill
    folder itself and a name glued to the placeholder (``{baseDir}-old``) are none."""
    packaged, linted = _linked(tmp_path, write_skill, fmt, profile)
    assert (
        packaged
        == linted
        == {
            ("SKILL.md", 8, "${CLAUDE_SKILL_DIR}/.notes/x.md"),
            ("SKILL.md", 8, "{baseDir}/.notes/x.md"),
            ("SKILL.md", 8, ".notes/x.md"),
            ("SKILL.md", 9, "{baseDir}/evals/evals.json"),
            ("references/r.md", 3, "{baseDir}/.notes/x.md"),
        }
    )


def test_package_and_lint_agree_without_substitutions(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """The formats read by agents of the standard (``well-known``) and lint's default profile
    take the text as written: ``{baseDir}/.notes/x.md`` is a missing path (SKL301's "not
    found"), no link to what the package leaves out; ``.notes/x.md`` is, for both."""
    packaged, linted = _linked(tmp_path, write_skill, "well-known", "agentskills")
    assert packaged == linted == {("SKILL.md", 8, ".notes/x.md")}


def test_package_and_lint_agree_on_a_link_through_a_second_link_to_a_folder(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """``mirror -> refs`` (the walk takes ``refs/`` by its own path only): SKL301 named
    ``[a](mirror/x.md)`` while ``skc package`` said nothing of it, and said "... never
    packaged" of ``[c](mirror/gone.md)``, which is not there. Both name the links through
    it now, by one function (:func:`~skillc_index.skill_files.never_packaged`), and SKL301
    says the missing one is not found, and nothing more."""
    body = "[a](mirror/x.md) [b](mirror/) [c](mirror/gone.md) [d](refs/x.md)\n"
    folder = write_skill(tmp_path / "mirrored", body=body, files={"refs/x.md": "# X\n"})
    (folder / "mirror").symlink_to("refs", target_is_directory=True)
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(tmp_path / "home")})
    result = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    packaged = {
        (match["file"], int(match["line"]), match["link"])
        for notice in result.warnings
        if "broken in the package" in notice.text and (match := _PACKAGE.match(notice.text))
    }
    found = [
        d for d in lint_skill(folder, registry=default_registry("agentskills")).diagnostics
        if d.rule == "SKL301"
    ]  # fmt: skip
    linted = {(d.file, d.line, match["link"]) for d in found if (match := _LINT.match(d.message))}
    assert packaged == linted == {("SKILL.md", 8, "mirror/x.md"), ("SKILL.md", 8, "mirror/")}
    assert [d.message for d in found if "gone" in d.message] == [
        "link target not found: 'mirror/gone.md'"
    ]
