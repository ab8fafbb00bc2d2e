"""``skc search`` over skills written in other scripts, as the installed ``skc`` answers: the
query is matched on folded text, each result shown in the skill's own characters."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSkill = Callable[..., Path]

BODY = """## Πολυτονικό

Ἀρχὴ σοφίας φόβος Κυρίου. Τῆς γλώσσης ἡ ἀρετή.

## Ｐｙｔｈｏｎ

Ｐｙｔｈｏｎ スクリプト, ﾾﾡﾤ 반각 한글.

## تَرْجَمَةُ

تَرْجَمَةُ النُّصُوصِ مِنَ العَرَبِيَّةِ.

## תַּרְגּוּם

תַּרְגּוּם טְקְסְטִים מֵעִבְרִית.

## မြန်မာ

ဤကျွမ်းကျင်မှုသည် ဘာသာပြန်ခြင်းကို ပြုလုပ်သည်။
"""


@pytest.fixture
def scripts(project: Path, write_skill: WriteSkill) -> Path:
    return write_skill(project / "scripts", body=BODY)


def search(skc: Run, *args: str, tokenizer: str = "ascii") -> list[dict[str, Any]]:
    done = skc(
        "search", "./scripts", *args, "--format", "json", env_extra={"SKILLC_TOKENIZER": tokenizer}
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return list(json.loads(done.stdout)["results"])


@pytest.mark.parametrize("tokenizer", ["ascii", "cjk"])
@pytest.mark.parametrize(
    ("query", "section", "highlight"),
    [
        ("αρχη", "Πολυτονικό", "Ἀρχὴ"),  # polytonic Greek typed without its marks
        ("ΓΛΩΣΣΗΣ", "Πολυτονικό", "γλώσσης"),
        ("python", "Ｐｙｔｈｏｎ", "Ｐｙｔｈｏｎ"),  # full-width Latin
        ("ㅎㄱㄴ", "Ｐｙｔｈｏｎ", "ﾾﾡﾤ"),  # half-width Hangul
        ("ترجمة", "تَرْجَمَةُ", "تَرْجَمَةُ"),  # the text's harakat shown
        ("תרגום", "תַּרְגּוּם", "תַּרְגּוּם"),  # its points
        ("ဘာသာပြန်", "မြန်မာ", "ဘာသာပြန်"),  # no vowel sign cut off
    ],
)
def test_search_matches_folded_text_and_shows_it_as_written(
    cli: Callable[..., Run],
    scripts: Path,
    tokenizer: str,
    query: str,
    section: str,
    highlight: str,
) -> None:
    results = search(cli("skc", script=True), query, tokenizer=tokenizer)
    assert [hit["section"] for hit in results][:1] == [section], results
    assert f"[MATCH]{highlight}[/MATCH]" in results[0]["snippet"], results[0]


@pytest.mark.parametrize("tokenizer", ["ascii", "cjk"])
def test_full_width_text_that_folds_to_ascii_is_shown_as_written(
    cli: Callable[..., Run], project: Path, write_skill: WriteSkill, tokenizer: str
) -> None:
    """Full-width letters fold to ASCII, so the folded text alone cannot tell that it was
    folded: the heading and the snippet are still the skill's own (as ``outline`` shows)."""
    write_skill(project / "scripts", body="## ＰＤＦ merge\n\nUse Ｐｙｔｈｏｎ scripts.\n")
    skc = cli("skc", script=True)
    results = search(skc, "python", tokenizer=tokenizer)
    snippets = {hit["section"]: hit["snippet"] for hit in results}
    assert sorted(snippets) == ["scripts", "ＰＤＦ merge"], results
    assert "## ＰＤＦ merge\n\nUse [MATCH]Ｐｙｔｈｏｎ[/MATCH] scripts." in snippets["ＰＤＦ merge"]
    outline = skc("outline", "./scripts", env_extra={"SKILLC_TOKENIZER": tokenizer})
    assert "## ＰＤＦ merge" in outline.stdout, outline.stdout


def test_an_ascii_search_does_not_import_unicodedata(
    clean_env: dict[str, str], project: Path, write_skill: WriteSkill
) -> None:
    """``search``'s hot path stays lazy: folding, snippets and grapheme cuts import
    ``unicodedata`` only for a text that is not ASCII (near miss: a Greek query does)."""
    write_skill(project / "plain", body="## Install\n\nRun the installer.\n")
    code = (
        "import sys\n"
        "from skillc.cli import main\n"
        "try:\n"
        "    main(['search', './plain', sys.argv[1]])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('unicodedata' in sys.modules, file=sys.stderr)\n"
    )
    loaded = []
    for query in ("installer", "installer", "εγκατάσταση"):  # the first builds the index
        done = subprocess.run(
            [sys.executable, "-c", code, query],
            cwd=project,
            env=clean_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        loaded.append(done.stderr.splitlines()[-1])
    assert loaded[1:] == ["False", "True"]
