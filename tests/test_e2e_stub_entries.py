"""Every entry a stub lists reads itself when pasted as the stub says (RFC-0001:C-SECTIONS:
"use `skc show --section "Clap Patterns"`"): into the template ``skc show NAME --section
'<heading>'``, or the entry's own command when it gives one; in a real bash."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from e2e_support import paste, top_sections, write
from skillc_index.markdown import document

Run = Callable[..., "subprocess.CompletedProcess[str]"]

ENTRY = re.compile(r"^ *- (?P<label>.*?)(?: \(`(?P<command>skc [^`]*)`\))?$")


def _entries(stub: str) -> list[tuple[str, str | None]]:
    found = []
    for line in top_sections(stub):
        match = ENTRY.match(line)
        assert match is not None, line
        label = match["label"]
        if not label.startswith("References (") and not label.startswith("... ("):
            found.append((label.split(" — ")[0], match["command"]))
    return found


def _no_parse(*args: object, **kwargs: object) -> object:
    raise AssertionError("Markdown parsed")


def _template(stub: str, name: str) -> str:
    found = re.search(r"^- `(skc show [^`]*'<heading>'[^`]*)`", stub, flags=re.MULTILINE)
    assert found is not None, stub
    assert found[1] == f"skc show {name} --section '<heading>'"
    return found[1]


def _paste_json(command: str, cwd: Path, env: dict[str, str], bin_dir: Path) -> dict[str, object]:
    data = json.loads(paste(f"{command} --format json", cwd, env, bin_dir).stdout)
    assert isinstance(data, dict)
    return data


#: Headings as written in Markdown (an escaped backquote is kept in the heading's text).
HOSTILE = [
    "Setup $(touch {marker})",
    'Say "hi" and \\`touch {marker}\\`',
    "It's $HOME and ${{HOME}} and \\ back",
    "Bang! !! and !-1",
    "Installation",
]


def _text(heading: str, marker: Path) -> str:
    return heading.format(marker=marker).replace("\\`", "`")


def test_every_listed_entry_reads_itself_when_pasted(
    ok: Run,
    project: Path,
    bin_dir: Path,
    clean_env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    marker = tmp_path / "PWNED"
    ok("init")
    folder = project / ".skillc" / "skills" / "inj"
    body = "".join(f"## {h.format(marker=marker)}\n\nbody {n}\n\n" for n, h in enumerate(HOSTILE))
    write(
        folder / "SKILL.md",
        "---\nname: inj\ndescription: Demo. Use when testing.\n---\n\n# Inj\n\n"
        + body
        + "#### Cox Models\n\nA summary.\n",
    )
    # README.md sorts before SKILL.md: its "Installation" is the one show finds first
    write(folder / "README.md", "# Read me\n\n## Installation\n\nSee SKILL.md.\n")
    # SKILL.md's H4 "Cox Models" comes before this reference's title
    write(folder / "references" / "cox.md", "# Cox Models\n\nThe whole reference.\n")
    write(folder / "references" / "plain.md", "No heading at all.\n")
    write(folder / "references" / "guide.md", "---\ndescription: A guide.\n---\n## Only H2\n")
    proc = ok("build", "--format", "json", "inj")
    stub = Path(json.loads(proc.stdout)["stub"]).read_text(encoding="utf-8")
    template = _template(stub, "inj")
    expected = {
        "Inj": "SKILL.md",
        **{_text(h, marker): "SKILL.md" for h in HOSTILE},
        "Read me": "README.md",
        "Cox Models": "references/cox.md",
        "references/guide.md": "references/guide.md",
        "references/plain.md": "references/plain.md",
    }
    entries = _entries(stub)
    assert sorted(label for label, _ in entries) == sorted(expected), stub
    for label, command in entries:
        if command is None:
            command = template.replace("<heading>", label)
        data = _paste_json(command, project, clean_env, bin_dir)
        if command.startswith("skc open"):
            assert data["path"] == expected[label], (command, data)
        else:
            assert (data["file"], data["section"]) == (expected[label], label), (command, data)
    assert not marker.exists()
    # the entries that need it, and only those, give their own command
    commands = dict(entries)
    assert commands["Inj"] is None and commands["Bang! !! and !-1"] is None
    assert commands["Read me"] is None
    assert commands["Installation"] == "skc show inj --section Installation --file SKILL.md"
    assert commands["Cox Models"] == (
        "skc show inj --section 'Cox Models' --file references/cox.md"
    )
    assert commands["references/plain.md"] == "skc open inj references/plain.md"
    # a stub rewritten over the current index (no Markdown parsed: ok runs skc in this
    # process, where a parse now fails the build) lists the same
    stub_path = Path(json.loads(proc.stdout)["stub"])
    stub_path.unlink()
    monkeypatch.setattr(document, "parse_markdown", _no_parse)
    ok("build", "inj")
    assert stub_path.read_text(encoding="utf-8") == stub


def test_a_skill_without_headings_lists_skill_md_to_open(
    ok: Run, project: Path, bin_dir: Path, clean_env: dict[str, str]
) -> None:
    ok("init")
    folder = project / ".skillc" / "skills" / "flat"
    write(
        folder / "SKILL.md",
        "---\nname: flat\ndescription: Flat. Use when testing.\n---\n\nJust text.\n",
    )
    proc = ok("build", "--format", "json", "flat")
    stub = Path(json.loads(proc.stdout)["stub"]).read_text(encoding="utf-8")
    assert _entries(stub) == [("SKILL.md", "skc open flat SKILL.md")]
    data = _paste_json("skc open flat SKILL.md", project, clean_env, bin_dir)
    assert data["path"] == "SKILL.md" and "Just text." in str(data["content"])


def test_headings_of_one_text_each_read_their_own_section(
    ok: Run, project: Path, bin_dir: Path, clean_env: dict[str, str]
) -> None:
    """Two ``## Examples`` under different H1s (common in the corpus) were listed with one
    command, which showed the first (W001) for both: the second could not be read from the
    stub. Each now reads its own section, pasted as listed; so does each ``## Setup``, whose
    first is in README.md (before SKILL.md in file order)."""
    ok("init")
    folder = project / ".skillc" / "skills" / "twice"
    body = "".join(
        f"# {lang}\n\n## Examples\n\n{lang} examples\n\n## Setup\n\n{lang} setup\n\n"
        for lang in ("Python", "Rust", "Go")
    )
    write(
        folder / "SKILL.md",
        "---\nname: twice\ndescription: Demo. Use when testing.\n---\n\n" + body,
    )
    write(folder / "README.md", "# Read me\n\n## Setup\n\nreadme setup\n")
    proc = ok("build", "--format", "json", "twice")
    stub = Path(json.loads(proc.stdout)["stub"]).read_text(encoding="utf-8")
    template = _template(stub, "twice")
    read = []
    for label, command in _entries(stub):
        if label in ("Examples", "Setup"):
            pasted = command or template.replace("<heading>", label)
            data = _paste_json(pasted, project, clean_env, bin_dir)
            assert (data["file"], data["section"]) == ("SKILL.md", label), (pasted, data)
            read.append(str(data["content"]).split("\n")[2])
    assert read == [
        f"{lang} {what}" for lang in ("Python", "Rust", "Go") for what in ("examples", "setup")
    ]


#: Headings whose stub labels (white space folded to one space) are another's text, or equal
#: up to case, each written before and after its twin; one alone (its label reaches it).
ONE_LABEL_APART = [
    "Part 2  APIs",
    "Part 2 APIs",
    "Swapped one",
    "Swapped  one",
    "Tab\there",
    "Tab here",
    "No\u00a0break",
    "No break",
    "Setup",
    "SETUP",
    "Lone  gap",
]


def test_headings_one_label_apart_each_read_their_own_section(
    ok: Run, project: Path, bin_dir: Path, clean_env: dict[str, str]
) -> None:
    """``## Part 2  APIs`` beside ``## Part 2 APIs`` are both listed as ``Part 2 APIs``: the
    first entry gave ``--section 'Part 2 APIs' --file SKILL.md``, which read the other (an
    exact text beats a label's match), and the heading could not be read from the stub (so
    with a tab, a no-break space, the twins swapped). Each command is now computed by
    ``show``'s own matching: pasted as listed, every entry reads its own section."""
    ok("init")
    folder = project / ".skillc" / "skills" / "twins"
    body = "".join(f"## {text}\n\nbody {n}\n\n" for n, text in enumerate(ONE_LABEL_APART))
    write(
        folder / "SKILL.md",
        "---\nname: twins\ndescription: Demo. Use when testing.\n---\n\n# Twins\n\n" + body,
    )
    proc = ok("build", "--format", "json", "twins")
    stub = Path(json.loads(proc.stdout)["stub"]).read_text(encoding="utf-8")
    template = _template(stub, "twins")
    entries = _entries(stub)[1:]  # after the H1
    assert len(entries) == len(ONE_LABEL_APART), stub
    for n, (label, command) in enumerate(entries):
        pasted = command or template.replace("<heading>", label)
        data = _paste_json(pasted, project, clean_env, bin_dir)
        assert data["section"] == ONE_LABEL_APART[n], (pasted, data)
        assert str(data["content"]).split("\n")[2] == f"body {n}", (pasted, data)
    commands = dict(entries)
    assert commands["Lone gap"] is None  # its label reaches it alone: the template reads it
