"""``skc package`` and the links of a skill to what no package holds (audit s50): a hidden
file, ``evals/``, a ``.pyc``, a folder skillc skips, what the ``.gitignore`` excludes, each
left out of the package while a packaged Markdown file links to it. Real folders; the
installed command in a process; skillc-lint's SKL301 says the same (its tests)."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skillc_index import Layout
from skillc_index.package.make import package_skills

BODY = (
    "[n](.notes/x.md) [e](.env.example) [c](evals/evals.json) [t](evals/)\n"
    "[p](scripts/m.pyc) [m](node_modules/x/index.js) [l](notes.md) [i](out/log.txt)\n"
    "[r](references/r.md) [g](gone.md) [h](.gone.md) [w](https://example.com/.x.md) [a](#x)\n"
    "Again [n](.notes/x.md).\n"
)
FILES: dict[str, str | bytes] = {
    ".notes/x.md": "# X\n",
    ".env.example": "E=1\n",
    ".gitignore": "out/\n",
    "out/log.txt": "log\n",
    "evals/evals.json": '{"evals": []}\n',
    "evals/README.md": "See [cases](evals.json) and [n](../.notes/x.md).\n",
    "scripts/m.pyc": b"\x00pyc",
    "node_modules/x/index.js": "x\n",
    "references/r.md": "# R\n\nSee [notes](../.notes/x.md).\n",
}
LEFT_OUT = (
    ", which the package leaves out ({}): the link is broken in the package (skillc-lint's SKL301)"
)
#: What package says of BODY and FILES: once per link, in the order of the files and links.
SAID = [
    "links: SKILL.md:8 links to '.notes/x.md'" + LEFT_OUT.format("hidden"),
    "links: SKILL.md:8 links to '.env.example'" + LEFT_OUT.format("hidden"),
    "links: SKILL.md:8 links to 'evals/evals.json'" + LEFT_OUT.format("the skill's tests, evals/"),
    "links: SKILL.md:8 links to 'evals/'" + LEFT_OUT.format("the skill's tests, evals/"),
    "links: SKILL.md:9 links to 'scripts/m.pyc'" + LEFT_OUT.format("compiled Python"),
    "links: SKILL.md:9 links to 'node_modules/x/index.js'"
    + LEFT_OUT.format("in node_modules/, a folder skillc skips"),
    "links: SKILL.md:9 links to 'notes.md'" + LEFT_OUT.format("leads to '.notes/x.md', hidden"),
    "links: SKILL.md:9 links to 'out/log.txt'" + LEFT_OUT.format(".gitignore excludes it"),
    "links: SKILL.md:11 links to '.notes/x.md'" + LEFT_OUT.format("hidden"),
    "links: references/r.md:3 links to '../.notes/x.md'" + LEFT_OUT.format("hidden"),
]


def _skill(write_skill: Callable[..., Path], folder: Path) -> Path:
    write_skill(folder, body=BODY, files=FILES)
    (folder / "notes.md").symlink_to(".notes/x.md")
    return folder


def test_a_link_to_what_the_package_leaves_out_is_a_warning(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """A SKILL.md (or reference) linking to ``.notes/x.md``, ``.env.example``, into ``evals/``
    and the rest was packaged without a word, each link broken in the package (the file left
    out). Each is a warning, once per link, saying why: the function skillc-lint's SKL301
    asks (:func:`~skillc_index.skill_files.never_packaged`), or the ``.gitignore``. A file of
    ``evals/`` (no package holds it) links where it likes; a missing file, a URL and an
    anchor are no concern of package's."""
    folder = _skill(write_skill, project / "links")
    result = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    said = [n.text for n in result.warnings if "broken in the package" in n.text]
    assert said == SAID
    with zipfile.ZipFile(tmp_path / "out" / "links.zip") as archive:
        names = archive.namelist()
    assert sorted(names) == ["links/SKILL.md", "links/references/r.md"]  # each left out, indeed


def test_the_installed_command_warns_of_each_broken_link(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path]
) -> None:
    """The same through the installed ``skillc-index package``, in a process: one warning
    line per link on stderr, the package written (exit 0), no traceback."""
    _skill(write_skill, project / "links")
    done = cli("skillc-index", script=True)("package", "links", "--to", "plugin", "-o", "out")
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if "broken in the package" in line]
    assert warned == [f"warning: {text}" for text in SAID]
    assert "Traceback" not in done.stderr
    assert (project / "out" / "links" / "skills" / "links" / "SKILL.md").is_file()


def test_never_packaged_of_what_the_package_holds_is_nothing(
    project: Path, write_skill: Callable[..., Path]
) -> None:
    """What the package holds has no reason: a file, a folder, a symlink to one, a folder
    named like a skipped one but a file (``venv``: the walk keeps such a file)."""
    from skillc_index.skill_files import never_packaged

    folder = _skill(write_skill, project / "links")
    (folder / "venv").write_text("a file\n")
    (folder / "r.md").symlink_to("references/r.md")
    real = str(folder.resolve())
    for rel in ("SKILL.md", "references", "references/r.md", "r.md", "venv"):
        assert never_packaged(rel, real) == "", rel
    assert never_packaged("node_modules", real) == "node_modules/, a folder skillc skips"


def test_a_link_through_a_second_link_to_a_folder_is_a_warning(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``mirror -> refs`` (a second link to a folder: the walk takes ``refs/`` by its own path
    only) left ``[a](mirror/x.md)`` broken in every package without a word, while
    skillc-lint's SKL301 said so: :func:`~skillc_index.skill_files.never_packaged` says it
    now, naming the link it goes through (``self -> .``, ``refs/up -> ..`` too), for both. A
    file through it that is not there, the folder's own path and a symlink to a file (which
    the package holds) are no concern."""
    body = (
        "[a](mirror/x.md) [b](mirror/) [c](mirror/gone.md) [d](refs/x.md) [e](self/SKILL.md)\n"
        "[f](refs/up/refs/x.md) [g](x.md)\n"
    )
    folder = write_skill(project / "mirrored", body=body, files={"refs/x.md": "# X\n"})
    (folder / "mirror").symlink_to("refs", target_is_directory=True)
    (folder / "self").symlink_to(".", target_is_directory=True)
    (folder / "refs" / "up").symlink_to("..", target_is_directory=True)
    (folder / "x.md").symlink_to("refs/x.md")
    result = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    said = [n.text for n in result.warnings if "broken in the package" in n.text]
    why = "reached through '{}', a second link to a folder the skill has"
    assert said == [
        "mirrored: SKILL.md:8 links to 'mirror/x.md'" + LEFT_OUT.format(why.format("mirror")),
        "mirrored: SKILL.md:8 links to 'mirror/'" + LEFT_OUT.format(why.format("mirror")),
        "mirrored: SKILL.md:8 links to 'self/SKILL.md'" + LEFT_OUT.format(why.format("self")),
        "mirrored: SKILL.md:9 links to 'refs/up/refs/x.md'"
        + LEFT_OUT.format(why.format("refs/up")),
    ]
    with zipfile.ZipFile(tmp_path / "out" / "mirrored.zip") as archive:
        names = sorted(archive.namelist())
    assert names == ["mirrored/SKILL.md", "mirrored/refs/x.md", "mirrored/x.md"]


def test_a_link_through_claudes_placeholders_is_read_as_claude_reads_it(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``[n](${CLAUDE_SKILL_DIR}/.notes/x.md)`` (and ``{baseDir}/...``) is Claude's link to
    the skill's ``.notes/x.md``: an upload and a Claude Code plugin warn of it, as SKL301 does
    under ``--profile claude-code``; the formats of the standard's agents read the text as
    written (a path that is not there: no concern of package's)."""
    body = "[a](${CLAUDE_SKILL_DIR}/.notes/x.md) [b]({baseDir}/.notes/x.md)\n"
    folder = write_skill(project / "holders", body=body, files={".notes/x.md": "# X\n"})
    for fmt in ("upload", "claude-plugin", "plugin", "well-known"):
        result = package_skills([str(folder)], layout, fmt=fmt, output=tmp_path / fmt)
        said = [n.text for n in result.warnings if "broken in the package" in n.text]
        expected = [
            "holders: SKILL.md:8 links to '${CLAUDE_SKILL_DIR}/.notes/x.md'"
            + LEFT_OUT.format("hidden"),
            "holders: SKILL.md:8 links to '{baseDir}/.notes/x.md'" + LEFT_OUT.format("hidden"),
        ]
        assert said == (expected if fmt in ("upload", "claude-plugin") else []), fmt
