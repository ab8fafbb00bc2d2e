"""skillli layer 4 quizzes (SKL721-SKL726): spec/004's own example lints clean, and each rule
triggers on a broken variant of it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from skillc_lint import default_registry, lint_skill

Writer = Callable[..., Path]

BASE = "name: auth-setup\ndescription: Guides auth setup. Use when setting up auth.\n"
QUIZ = """quiz:
  - title: "Auth Prerequisites Check"
    description: "Verify understanding of the auth flow before proceeding"
    gate: true
    passing-score: 100
    questions:
      - question: "Which token type does this API use for authentication?"
        options:
          - label: "JWT Bearer tokens"
            correct: true
          - label: "API key in query string"
          - label: "OAuth 1.0a signatures"
        explanation: "This API uses JWT Bearer tokens. See the auth reference."
        on-correct:
          goto: "## Setup Steps"
        on-incorrect:
          load-reference: "references/auth-overview.md"
          message: "Review the auth overview first, then retry."
      - question: "Where should refresh tokens be stored?"
        options:
          - label: "localStorage"
          - label: "httpOnly secure cookie"
            correct: true
          - label: "sessionStorage"
        on-incorrect:
          load-skill: "security-basics"
          message: "Load the security-basics skill for context on token storage."
"""
BODY = "See [the overview](references/auth-overview.md).\n\n## Setup Steps\n\n1. Do it.\n"
FILES = {"references/auth-overview.md": "# Auth overview\n"}


def quiz_skill(skill: Writer, quiz: str = QUIZ) -> Path:
    folder = skill("auth-setup", BODY, frontmatter=BASE + quiz, files=FILES)
    skill("security-basics")  # a sibling skill for load-skill
    return folder


def messages(folder: Path, rule: str) -> list[str]:
    registry = default_registry(profiles=("skillli",))
    result = lint_skill(folder, registry=registry)
    return [d.message for d in result.diagnostics if d.rule == rule]


def test_the_spec_example_lints_clean(skill: Writer) -> None:
    folder = quiz_skill(skill)
    result = lint_skill(folder, registry=default_registry(profiles=("skillli",)))
    assert [d for d in result.diagnostics if d.rule.startswith("SKL7")] == []
    assert [d for d in result.diagnostics if d.rule == "SKL109"] == []  # quiz is known


def test_a_single_quiz_block_is_accepted(skill: Writer) -> None:
    one = "quiz:\n  questions:\n    - question: Q?\n      options:\n"
    one += "        - label: a\n          correct: true\n        - label: b\n"
    assert messages(quiz_skill(skill, one), "SKL721") == []
    assert messages(quiz_skill(skill, one), "SKL722") == []


def test_skl721_structure(skill: Writer) -> None:
    assert messages(quiz_skill(skill, "quiz: true\n"), "SKL721") == [
        "quiz must be a list of quiz blocks or one block, not a boolean"
    ]
    broken = QUIZ.replace("gate: true", "gate: 'always'").replace("goto:", "jump:")
    broken = broken.replace('"Where should refresh tokens be stored?"', "")
    assert messages(quiz_skill(skill, broken), "SKL721") == [
        "quiz[0].gate must be true or false",
        "quiz[0].questions[0].on-correct: unknown action 'jump' "
        "(one of goto, load-skill, load-reference, message)",
        "quiz[0].questions[1].question must be a non-empty string",
    ]
    assert messages(quiz_skill(skill, "quiz:\n  - title: x\n"), "SKL721") == [
        "quiz[0].questions must be a non-empty list"
    ]


def test_skl722_options(skill: Writer) -> None:
    broken = QUIZ.replace('          - label: "API key in query string"\n', "")
    broken = broken.replace('          - label: "OAuth 1.0a signatures"\n', "")
    broken = broken.replace('            correct: true\n          - label: "sessionStorage"', "")
    assert messages(quiz_skill(skill, broken), "SKL722") == [
        "quiz[0].questions[0] has 1 options (2-6 allowed)",
        "quiz[0].questions[1] has no option marked 'correct: true'",
    ]
    seven = "".join(f"          - label: o{i}\n" for i in range(6))
    many = QUIZ.replace('          - label: "sessionStorage"\n', seven)
    assert messages(quiz_skill(skill, many), "SKL722") == [
        "quiz[0].questions[1] has 8 options (2-6 allowed)"
    ]


def test_skl723_passing_score(skill: Writer) -> None:
    folder = quiz_skill(skill, QUIZ.replace("passing-score: 100", "passing-score: 150"))
    assert messages(folder, "SKL723") == ["quiz[0].passing-score must be 0-100, not 150"]
    folder = quiz_skill(skill, QUIZ.replace("passing-score: 100", "passing-score: '80'"))
    assert messages(folder, "SKL723") == ["quiz[0].passing-score must be 0-100, not '80'"]
    folder = quiz_skill(skill, QUIZ.replace("passing-score: 100", "passing-score: 0"))
    assert messages(folder, "SKL723") == []


def test_skl724_goto(skill: Writer) -> None:
    folder = quiz_skill(skill, QUIZ.replace("## Setup Steps", "## Set Up"))
    assert messages(folder, "SKL724") == [
        "quiz[0].questions[0].on-correct.goto: no heading '## Set Up' in SKILL.md"
    ]
    folder = quiz_skill(skill, QUIZ.replace("## Setup Steps", "### Setup Steps"))
    assert len(messages(folder, "SKL724")) == 1  # the level counts too


def test_skl724_near_miss_anchor_and_plain_text(skill: Writer) -> None:
    for target in ("#setup-steps", "setup steps", "##  Setup   Steps"):
        folder = quiz_skill(skill, QUIZ.replace("## Setup Steps", target))
        assert messages(folder, "SKL724") == [], target


def test_skl724_compares_headings_as_show_section_does(skill: Writer) -> None:
    """SKL724 compared a ``goto`` and a heading by case only (s50 unicode3): a heading
    written decomposed (a Mac's ``Re\u0301sume\u0301``), ``## Resume`` for ``## Résumé``,
    ``istanbul`` for ``İstanbul``, an emoji without its U+FE0F and full-width letters were
    "no heading", though ``show --section`` reads each (``HeadingMatcher``, one rule). Near
    misses: another word, another level."""
    body = (
        "## Re\u0301sume\u0301\n\nx\n\n## \u0130stanbul\n\nx\n\n"
        "## \u26a0\ufe0f Warnung\n\nx\n\n## \uff30\uff24\uff26 merge\n\nx\n"
    )
    for target in (
        "## R\u00e9sum\u00e9", "## Resume", "RESUME", "istanbul", "## \u26a0 Warnung", "PDF merge",
    ):  # fmt: skip
        quiz = QUIZ.replace("## Setup Steps", target)
        folder = skill("auth-setup", BODY + body, frontmatter=BASE + quiz, files=FILES)
        skill("security-basics")
        assert messages(folder, "SKL724") == [], target
    quiz = QUIZ.replace("## Setup Steps", "### Resume")
    folder = skill("auth-setup", BODY + body, frontmatter=BASE + quiz, files=FILES)
    [message] = messages(folder, "SKL724")
    assert "'### Resume' is served as '## Re\u0301sume\u0301' (line " in message, message
    for target in ("## Resumes", "## Istanbull"):
        quiz = QUIZ.replace("## Setup Steps", target)
        folder = skill("auth-setup", BODY + body, frontmatter=BASE + quiz, files=FILES)
        assert messages(folder, "SKL724") == [
            f"quiz[0].questions[0].on-correct.goto: no heading '{target}' in SKILL.md"
        ], target


def test_skl724_takes_the_heading_show_serves_then_its_level(skill: Writer) -> None:
    """SKL724 kept the goto's level of headings before matching (s50 reva2): with ``###
    Résumé`` first and ``## Resume`` after it, ``## Résumé`` matched ``## Resume`` (accents
    aside) and passed, though ``show --section '## Résumé'`` serves the ``### Résumé``. The
    first heading show matches must be of the goto's level: ``### Resume`` matches ``##
    Resume`` first (as written) and fails too."""
    target = "## R\u00e9sum\u00e9"
    quiz = QUIZ.replace("## Setup Steps", target)
    body = BODY + "### R\u00e9sum\u00e9\n\nx\n\n## Resume\n\ny\n"
    folder = skill("auth-setup", body, frontmatter=BASE + quiz, files=FILES)
    skill("security-basics")
    [message] = messages(folder, "SKL724")
    assert message.startswith(
        f"quiz[0].questions[0].on-correct.goto: '{target}' is served as '### R\u00e9sum\u00e9'"
    ), message
    for served in ("R\u00e9sum\u00e9", "### R\u00e9sum\u00e9", "## Resume", "RESUME"):
        quiz = QUIZ.replace("## Setup Steps", served)
        folder = skill("auth-setup", body, frontmatter=BASE + quiz, files=FILES)
        assert messages(folder, "SKL724") == [], served
    quiz = QUIZ.replace("## Setup Steps", "### Resume")  # show serves the ## Resume
    folder = skill("auth-setup", body, frontmatter=BASE + quiz, files=FILES)
    assert len(messages(folder, "SKL724")) == 1


def test_skl724_names_the_heading_show_serves_when_its_level_differs(skill: Writer) -> None:
    """SKL724 said "no heading '## Setup Steps' in SKILL.md" when a ``### Setup Steps``
    came first (s50 revc4), though that ``##`` heading exists: ``show --section`` serves
    the ``###`` one, so the message names it, its level and its line."""
    body = BODY.replace("## Setup Steps", "### Setup Steps\n\nx\n\n## Setup Steps")
    folder = skill("auth-setup", body, frontmatter=BASE + QUIZ, files=FILES)
    skill("security-basics")
    lines = (folder / "SKILL.md").read_text(encoding="utf-8").splitlines()
    served = lines.index("### Setup Steps") + 1
    assert lines.index("## Setup Steps") + 1 > served
    assert messages(folder, "SKL724") == [
        "quiz[0].questions[0].on-correct.goto: '## Setup Steps' is served as"
        f" '### Setup Steps' (line {served}), a heading of level 3, not 2"
    ]
    quiz = QUIZ.replace("## Setup Steps", "### Setup Steps")  # the served one: clean
    folder = skill("auth-setup", body, frontmatter=BASE + quiz, files=FILES)
    assert messages(folder, "SKL724") == []


def test_skl725_load_reference(skill: Writer) -> None:
    folder = quiz_skill(skill, QUIZ.replace("references/auth-overview.md", "references/gone.md"))
    assert messages(folder, "SKL725") == [
        "quiz[0].questions[0].on-incorrect.load-reference: file not found: 'references/gone.md'"
    ]
    folder = quiz_skill(skill, QUIZ.replace("references/auth-overview.md", "../secret.md"))
    assert messages(folder, "SKL725") == [
        "quiz[0].questions[0].on-incorrect.load-reference leaves the skill: '../secret.md'"
    ]


def test_skl726_load_skill(skill: Writer) -> None:
    folder = quiz_skill(skill, QUIZ.replace('"security-basics"', '"no-such-skill"'))
    assert messages(folder, "SKL726") == [
        "quiz[0].questions[1].on-incorrect.load-skill: skill 'no-such-skill' not found"
    ]
    folder = quiz_skill(skill, QUIZ.replace('"security-basics"', '"Security Basics"'))
    assert messages(folder, "SKL726") == [
        "quiz[0].questions[1].on-incorrect.load-skill: 'Security Basics' is not a skill name"
    ]


def test_quiz_findings_point_at_the_quiz_line(skill: Writer) -> None:
    folder = quiz_skill(skill, QUIZ.replace("passing-score: 100", "passing-score: 150"))
    result = lint_skill(folder, registry=default_registry(profiles=("skillli",)))
    [d] = [d for d in result.diagnostics if d.rule == "SKL723"]
    assert (d.file, d.line, d.severity) == ("SKILL.md", 4, "error")
