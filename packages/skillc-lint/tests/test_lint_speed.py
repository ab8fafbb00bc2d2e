"""What the first run's speed work and the result cache rely on: a lint's findings are the
same in every process (no order taken from a set of strings, whose order follows the hash
seed), and the Markdown is parsed only when a rule needs it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

Writer = Callable[..., Path]


def test_skl530_names_the_same_file_whatever_the_hash_seed(
    skill: Writer, clean_env: dict[str, str]
) -> None:
    files = {f"{name}.md": f"# {name}\n\nSee [x](x.md).\n" for name in "abcdef"}
    folder = skill(
        body="See " + ", ".join(f"[{n}]({n}.md)" for n in "abcdef") + ".\n",
        files={**files, "x.md": "# X\n"},
    )
    command = [sys.executable, "-m", "skillc_lint", str(folder), "--select", "SKL530"]
    printed = {
        subprocess.run(
            [*command, "--format", "json", "--no-cache"],
            env={**clean_env, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        for seed in range(6)
    }
    assert len(printed) == 1
    assert "x.md is reached only through" in printed.pop()
