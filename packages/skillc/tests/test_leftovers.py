"""What editors, OSes and merges leave in a skill's folder is no part of the skill, for every
command the user meets (skillc_index.skill_files.is_leftover, the one walk's rule)."""

from __future__ import annotations

import json
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., subprocess.CompletedProcess[str]]

#: Each leftover holds a word no real file of the skill holds.
LEFTOVERS = {
    "SKILL.md~": "# Old\nzebrabackup\n",
    "#SKILL.md#": "# Autosave\nzebraautosave\n",
    "4913": "",
    "SKILL.md.tmp": "# Tmp\nzebratmp half-writ",
    "SKILL.md___jb_tmp___": "# JB\nzebrajb\n",
    "SKILL.md.orig": "# Orig\nzebraorig [x](missing.md)\n",
    "SKILL.md.rej": "-zebrarej\n",
    "Thumbs.db": "\x00\x01",
    "desktop.ini": "[.ShellClassInfo]\r\n",
    "references/guide.md~": "# Ref old\nzebrarefbackup\n",
    "references/.guide.md.swp": "b0VIM",
    "references/guide.md.swp": "b0VIM",
}


def test_leftovers_are_not_listed_searched_packaged_linted_or_opened(
    cli: Callable[..., Run], project: Path, write_skill: Callable[..., Path]
) -> None:
    (project / ".git").mkdir()
    skill = write_skill(
        project / ".skillc/skills/demo",
        description="Demo skill of editor leftovers. Use when testing zebra handling.",
        body="# Demo\n\nReal zebra. See [guide](references/guide.md) and [bak](notes.md.bak).\n",
    )
    (skill / "references").mkdir()
    (skill / "references/guide.md").write_text("# Guide\n\nzebraguide\n", encoding="utf-8")
    (skill / "notes.md.bak").write_text("a backup a skill ships\n", encoding="utf-8")
    skc = cli("skc", script=True)
    built = skc("build", "demo", "--format", "json")
    assert built.returncode == 0, built.stderr
    for rel, text in LEFTOVERS.items():
        (skill / rel).write_text(text, encoding="utf-8")
    sources = skc("sources", "demo", "--format", "json")
    assert sources.returncode == 0, sources.stderr
    listed = json.dumps(json.loads(sources.stdout))
    assert "notes.md.bak" in listed and "references/guide.md" in listed
    assert not [rel for rel in LEFTOVERS if rel.rpartition("/")[2] in listed]
    for word in ("zebrabackup", "zebraautosave", "zebratmp", "zebrajb", "zebraorig"):
        found = skc("search", "demo", word, "--format", "json")
        assert json.loads(found.stdout)["results"] == [], found.stdout
    found = skc("search", "demo", "zebraguide", "--format", "json")
    assert [hit["file"] for hit in json.loads(found.stdout)["results"]] == ["references/guide.md"]
    lint = skc("lint", "demo", "--format", "json")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert not [rel for rel in LEFTOVERS if rel.rpartition("/")[2] in lint.stdout]
    again = skc("build", "demo", "--format", "json")  # the same source hash: nothing to do
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["up_to_date"] is True
    assert json.loads(again.stdout)["source_hash"] == json.loads(built.stdout)["source_hash"]
    packaged = skc("package", "demo", "-o", str(project / "out"))
    assert packaged.returncode == 0, packaged.stderr
    (archive,) = (project / "out").glob("*.zip")
    with zipfile.ZipFile(archive) as opened:
        names = sorted(name.partition("/")[2] for name in opened.namelist())
    assert names == ["SKILL.md", "notes.md.bak", "references/guide.md"]
    refused = skc("open", "demo", "SKILL.md~")
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr.startswith("error[E021]: ") and "leftover" in refused.stderr
    assert "Traceback" not in refused.stderr
    asked = skc("open", "demo", "SKILL.md~", "--hidden")
    assert (asked.returncode, asked.stdout) == (0, LEFTOVERS["SKILL.md~"]), asked.stderr
