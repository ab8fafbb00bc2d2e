"""Fixtures of the stress tests (issue 9): bad input, faults, load and large inputs.

The end-to-end fixtures of ``tests/conftest.py`` (``skc``, ``ok``, ``project``, ``home``,
``clean_env``, ``skc_path``...) apply here too: pytest loads that conftest for every test below
``tests/``. This one adds a built skill to break, and the Hypothesis settings.

Hypothesis runs with the ``stress`` profile (100 examples a property, 1,000 for the cheap
ones; no example database written into the repository, no per-example deadline: a real build
of a generated skill can take a while on a busy machine). ``HYPOTHESIS_PROFILE=stress-long``
runs thirty times as many (3,000 and 30,000), as issue 9's runs did: run it after changing the
model, the stub or the query builder.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The helpers live next to this file; pytest's importlib mode does not put it on sys.path.
sys.path.insert(0, str(Path(__file__).parent))

_COMMON = {
    "database": None,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
settings.register_profile("stress", max_examples=100, **_COMMON)
settings.register_profile("stress-long", max_examples=3000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "stress"))

DEMO_BODY = """# Demo

Intro text about widgets.

## Install

Run the installer to set up widgets.

## Usage

Call the widget API with a token.

### Advanced

Tune the widget cache.
"""

REFERENCE = """---
description: Reference notes about gadgets.
---
# Gadgets

Gadgets complement widgets.

## Gadget API

The gadget endpoint returns JSON.
"""


@pytest.fixture
def demo(ok: Callable[..., object], project: Path, write_skill: Callable[..., Path]) -> Path:
    """A built project skill ``demo`` (SKILL.md and references/gadgets.md); its source folder."""
    ok("init")
    source = write_skill(
        project / ".skillc" / "skills" / "demo",
        description="Use when testing widgets.",
        heading=False,
        body=DEMO_BODY,
        files={
            "references/gadgets.md": REFERENCE,
            "notes.txt": "plain text notes about sprockets\n",
        },
    )
    ok("build", "demo")
    return source


@pytest.fixture
def runtime(project: Path) -> Path:
    """The runtime folder of the ``demo`` skill."""
    return project / ".skillc" / "runtime" / "demo"
