"""``skc package --to claude-plugin`` / ``--to plugin`` (audit s46): a hook's script left out.
On real folders."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout
from skillc_index.package.make import package_skills

Run = Callable[..., subprocess.CompletedProcess[str]]

GUARD = """---
name: guard
description: Use when editing deploy files; blocks writes to prod config.
hooks:
  PreToolUse:
    - matcher: "Edit|Write"
      hooks:
        - type: command
          command: "${CLAUDE_SKILL_DIR}/.hooks/check.sh"
        - type: command
          command: "${CLAUDE_SKILL_DIR}/bin/check2.sh"
        - type: command
          command: "${CLAUDE_SKILL_DIR}/scripts/ok.sh"
---
# Guard
"""


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("fmt", ["claude-plugin", "upload"])
def test_a_hook_whose_script_is_left_out_is_a_warning_as_in_a_build(
    layout: Layout, project: Path, write_skill: Callable[..., Path], tmp_path: Path, fmt: str
) -> None:
    """A hook naming a hidden ``.hooks/check.sh`` and a ``bin/`` the skill's .gitignore
    excludes was packaged without a word (the hidden one dropped silently): the installed
    guard then failed with 127 and blocked nothing. Each is the warning ``skc build`` gives
    (``named_files``, the same words), naming the skill; a script packaged is none, and a
    format that drops ``hooks`` (upload) has none to say."""
    script = "#!/bin/sh\nexit 2\n"
    files = {".hooks/check.sh": script, "bin/check2.sh": script, "scripts/ok.sh": script}
    folder = write_skill(project / "guard", skill_md=GUARD, files={**files, ".gitignore": "bin/\n"})
    result = package_skills([str(folder)], layout, fmt=fmt, output=tmp_path / "out")
    hooks = [n.text for n in result.warnings if "hooks.PreToolUse" in n.text]
    if fmt == "upload":
        assert hooks == []
        return
    assert hooks == [
        "guard: hooks.PreToolUse[0].hooks[0] names ${CLAUDE_SKILL_DIR}/.hooks/check.sh, which "
        "the skill does not have",
        "guard: hooks.PreToolUse[0].hooks[1] names ${CLAUDE_SKILL_DIR}/bin/check2.sh, which the "
        "skill does not have",
    ]
    assert (tmp_path / "out/guard/skills/guard/scripts/ok.sh").is_file()
