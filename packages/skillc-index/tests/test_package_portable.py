"""``skc package`` and the paths Windows or macOS cannot unpack (audit s42, portability): the
one home of the rules (:mod:`skillc_index.package.portable`), what package refuses and warns
of in every format. On real folders; skillc-lint's SKL933 says the same (its tests)."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout
from skillc_index.package.make import FORMATS, package_skills
from skillc_index.package.portable import clashes, path_problem

#: A file of each kind the audit built (its mk1.sh, mk4.sh), and what package says of it.
UNPORTABLE = {
    "CON.md": "'CON.md' names the device CON on Windows (whatever its extension)",
    "aux/notes.md": "'aux' names the device AUX on Windows (whatever its extension)",
    "aux/more.md": None,  # its folder's, said once
    "nul.txt": "'nul.txt' names the device NUL on Windows (whatever its extension)",
    "LPT1/y.md": "'LPT1' names the device LPT1 on Windows (whatever its extension)",
    "com1.d/z.md": "'com1.d' names the device COM1 on Windows (whatever its extension)",
    "refs/ab:c.md": "'refs/ab:c.md' holds ':', which no Windows file name may hold",
    "refs/star*.md": "'refs/star*.md' holds '*', which no Windows file name may hold",
    "refs/q?.md": "'refs/q?.md' holds '?', which no Windows file name may hold",
    'refs/q"q.md': "'refs/q\"q.md' holds '\"', which no Windows file name may hold",
    "refs/lt<gt>.md": "'refs/lt<gt>.md' holds '<', which no Windows file name may hold",
    "refs/pi|pe.md": "'refs/pi|pe.md' holds '|', which no Windows file name may hold",
    "refs/bell\a.md": "'refs/bell\\x07.md' holds a control character ('\\x07'), which no",
    "docs./x.md": "'docs.' ends with a dot, which Windows drops from a name",
    "refs/trail .md": None,  # a space before the extension: Windows keeps it
    "trail /x.md": "'trail ' ends with a space, which Windows drops from a name",
    "CONFIG.md": None,  # not a device: CON is the whole name before the extension
    "a" * 95 + "/" + "b" * 95 + "/c.md": None,  # 196 characters
    "a" * 95 + "/" + "b" * 95 + "/long-c.md": f"'{'a' * 95}/{'b' * 95}/long-c.md' is 201 char",
}


def test_each_name_windows_cannot_unpack_is_a_warning_in_every_format(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``CON.md``, ``aux/``, ``nul.txt``, ``a:b.md``, ``star*.md``, ``docs./``, a path of 320
    characters were packaged without a word (a backslash or a drive letter alone was refused):
    on Windows each fails to unpack, or is another file there. Each is a warning naming the
    part at fault (a folder once for all its files), in every format, and packaged."""
    folder = write_skill(project / "port", files=dict.fromkeys(UNPORTABLE, "x\n"))
    for fmt in FORMATS:
        output = tmp_path / fmt
        result = package_skills([str(folder)], layout, fmt=fmt, output=output, name="port")
        warned = [n.text for n in result.warnings if "Windows" in n.text]
        expected = [f"port: {text}" for text in UNPORTABLE.values() if text is not None]
        assert len(warned) == len(expected), warned
        for said in expected:
            assert [text for text in warned if text.startswith(said)], said
        assert output.exists()
    names = zipfile.ZipFile(tmp_path / "upload" / "port.zip").namelist()
    assert {f"port/{rel}" for rel in UNPORTABLE} <= set(names)


def test_the_command_line_warns_and_packages(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``skc package`` of a skill holding ``aux/notes.md``: a warning line, exit 0, the zip."""
    write_skill(project / "skills" / "port", files={"aux/notes.md": "x\n", "ok.md": "y\n"})
    skc = cli("skillc_index", process=True)
    done = skc("package", "skills/port", "-o", str(tmp_path / "out"), "--format", "json")
    assert done.returncode == 0, done.stderr
    warnings = json.loads(done.stdout)["warnings"]
    assert warnings == [
        "port: 'aux' names the device AUX on Windows (whatever its extension): it cannot be "
        "unpacked there"
    ]
    assert "Traceback" not in done.stderr
    assert (tmp_path / "out" / "port.zip").is_file()


@pytest.mark.parametrize(
    "rel", ["x\\y.md", "C:evil.txt", "sub/D:x", "refs/a:b.md", "caf\udce9.md", "caf\udce9/CON"]
)
def test_what_no_zip_may_hold_is_refused_as_before(rel: str) -> None:
    """A name that is not UTF-8, a backslash, or a drive letter starting any part: refused, as
    E070 always did (no second rule: :func:`~skillc_index.package.make.pack_skill` asks the
    same function, and so does skillc-lint, which failed on a name not UTF-8)."""
    problem = path_problem(rel)
    assert problem is not None and problem.refused
    start = "a file name that is not UTF-8" if "\udce9" in rel else "a file name that no zip"
    assert problem.text.startswith(start)


def test_a_file_and_a_folder_of_one_name_clash_and_sharp_s_does_not(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path
) -> None:
    """``guide`` (a file) and ``Guide/x.md`` went out without a word (only whole paths were
    compared): on macOS and Windows the folder cannot be made beside the file. ``straße.md``
    and ``strasse.md`` were called one file (``casefold`` makes ß ss; APFS and NTFS do not).
    Every folder of a path is compared, lower-cased as the file systems do."""
    files = {"guide": "a", "Guide/x.md": "b", "straße.md": "c", "strasse.md": "d"}
    files |= {"Refs/a.md": "e", "refs/b.md": "f"}  # two folders, one on Windows: no file lost
    folder = write_skill(project / "clash", files=files)
    result = package_skills([str(folder)], layout, fmt="upload", output=tmp_path / "out")
    said = [n.text for n in result.warnings if "differ only in case" in n.text]
    assert said == [
        "clash: 'guide' and the folder 'Guide' differ only in case or Unicode normalisation: "
        "one name on macOS and Windows, where the file and the folder cannot both be extracted"
    ]
    assert [p.path for p in clashes(["a/B/c.md", "a/b"])] == ["a/b"]
    assert [p.path for p in clashes(["x/Docs.md", "x/docs.MD", "x/ok.md"])] == ["x/docs.MD"]


def test_a_drive_letter_refusal_says_why(
    cli: Callable[..., Any], project: Path, write_skill: Callable[..., Path]
) -> None:
    """``docs/q:a.md`` is refused (E070: ``ntpath.join`` and an extractor on Windows read
    ``q:a.md`` as a path on the drive Q:, out of the folder), but the message said "a
    backslash or a drive letter such as C:", leaving the user to find which: it names the part
    and its drive letter. Nothing written, no traceback."""
    write_skill(project / "drv", files={"docs/q:a.md": "# Q\n"})
    done = cli("skillc-index", script=True)("package", "drv", "-o", "out")
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == (
        "error[E070]: cannot package 'drv' as upload: a file name that no zip "
        "may hold (a part starting with a drive letter ('q:' in 'q:a.md'), read as a path on "
        "Windows): docs/q:a.md"
    )
    assert "Traceback" not in done.stderr and not (project / "out").exists()
    problem = path_problem("x\\y.md")
    assert problem is not None and "(a backslash, read as a separator on Windows)" in problem.text
