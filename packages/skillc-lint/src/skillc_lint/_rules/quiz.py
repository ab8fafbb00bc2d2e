"""The ``skillli`` profile, layer 4: quiz gates in the frontmatter (spec/004), SKL721-SKL726.

A quiz is written as a list of quiz blocks or as one block. Findings name the place in the
quiz (``quiz[0].questions[1].options``) and point at the ``quiz`` line. Branch targets must
resolve: ``goto`` a heading of SKILL.md, ``load-reference`` a file of the skill,
``load-skill`` a skill found next to this one or by name (project store, then global store).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from skillc_index import SKILL_FILE, skill_name_problem
from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import Findings, Options, field_line, frontmatter, type_name
from skillc_lint._skill import Skill, slug

__all__ = ["RULES"]

BRANCH_KEYS = ("goto", "load-skill", "load-reference", "message")
_GOTO_HEADING = re.compile(r"(#{1,6})\s+(.*)")


def _quizzes(skill: Skill) -> Iterator[tuple[str, Any]]:
    """``(label, block)`` for each quiz block (not checked)."""
    quiz = frontmatter(skill).get("quiz")
    if isinstance(quiz, list):
        for index, block in enumerate(quiz):
            yield f"quiz[{index}]", block
    elif quiz is not None:
        yield "quiz", quiz


def _questions(skill: Skill) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(label, question)`` for each question that is a mapping."""
    for label, block in _quizzes(skill):
        questions = block.get("questions") if isinstance(block, dict) else None
        for index, question in enumerate(questions if isinstance(questions, list) else []):
            if isinstance(question, dict):
                yield f"{label}.questions[{index}]", question


def _branches(skill: Skill) -> Iterator[tuple[str, dict[str, Any]]]:
    for label, question in _questions(skill):
        for key in ("on-correct", "on-incorrect"):
            branch = question.get(key)
            if isinstance(branch, dict):
                yield f"{label}.{key}", branch


def _structure_problems(skill: Skill) -> Iterator[str]:
    quiz = frontmatter(skill).get("quiz")
    if quiz is not None and not isinstance(quiz, (list, dict)):
        yield f"quiz must be a list of quiz blocks or one block, not {type_name(quiz)}"
        return
    for label, block in _quizzes(skill):
        if not isinstance(block, dict):
            yield f"{label} must be a mapping, not {type_name(block)}"
            continue
        for key in ("title", "description"):
            if key in block and not isinstance(block[key], str):
                yield f"{label}.{key} must be a string"
        if "gate" in block and not isinstance(block["gate"], bool):
            yield f"{label}.gate must be true or false"
        questions = block.get("questions")
        if not isinstance(questions, list) or not questions:
            yield f"{label}.questions must be a non-empty list"
            continue
        for index, question in enumerate(questions):
            if not isinstance(question, dict):
                yield f"{label}.questions[{index}] must be a mapping"
    for label, question in _questions(skill):
        text = question.get("question")
        if not isinstance(text, str) or not text.strip():
            yield f"{label}.question must be a non-empty string"
        if "explanation" in question and not isinstance(question["explanation"], str):
            yield f"{label}.explanation must be a string"
        for key in ("on-correct", "on-incorrect"):
            branch = question.get(key)
            if key in question and not isinstance(branch, dict):
                yield f"{label}.{key} must be a mapping of branch actions"
            elif isinstance(branch, dict):
                for action, target in branch.items():
                    if action not in BRANCH_KEYS:
                        yield (
                            f"{label}.{key}: unknown action '{action}' "
                            f"(one of {', '.join(BRANCH_KEYS)})"
                        )
                    elif not isinstance(target, str) or not target.strip():
                        yield f"{label}.{key}.{action} must be a non-empty string"


def quiz_structure(skill: Skill, options: Options) -> Findings:
    """SKL721: quizzes, questions and branches have the shape and types spec/004 gives."""
    line = field_line(skill, "quiz")
    for problem in _structure_problems(skill):
        yield Finding(problem, line=line)


def quiz_options(skill: Skill, options: Options) -> Findings:
    """SKL722: each question has 2 to 6 options with a ``label``, at least one correct."""
    line = field_line(skill, "quiz")
    for label, question in _questions(skill):
        choices = question.get("options")
        if not isinstance(choices, list):
            yield Finding(f"{label}.options must be a list of 2-6 options", line=line)
            continue
        if not 2 <= len(choices) <= 6:
            yield Finding(f"{label} has {len(choices)} options (2-6 allowed)", line=line)
        correct = 0
        for index, choice in enumerate(choices):
            where = f"{label}.options[{index}]"
            if not isinstance(choice, dict) or not isinstance(choice.get("label"), str):
                yield Finding(f"{where} needs a 'label' string", line=line)
                continue
            mark = choice.get("correct", False)
            if not isinstance(mark, bool):
                yield Finding(f"{where}.correct must be true or false", line=line)
            correct += mark is True
        if choices and correct == 0:
            yield Finding(f"{label} has no option marked 'correct: true'", line=line)


def quiz_passing_score(skill: Skill, options: Options) -> Findings:
    """SKL723: ``passing-score`` is a number from 0 to 100."""
    line = field_line(skill, "quiz")
    for label, block in _quizzes(skill):
        if not isinstance(block, dict) or "passing-score" not in block:
            continue
        score = block["passing-score"]
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 100:
            shown = repr(score) if isinstance(score, (int, float, str)) else type_name(score)
            yield Finding(f"{label}.passing-score must be 0-100, not {shown}", line=line)


def _goto_problem(skill: Skill, target: str) -> str | None:
    """What is wrong with ``goto``'s target (``## Setup Steps``, ``#setup-steps`` or ``Setup
    Steps``), or None when it is a heading of SKILL.md: the heading ``show --section`` serves
    for it, the first it matches among all of them
    (:class:`~skillc_index.index.queries.HeadingMatcher`: case, composition, width and then
    accents aside, ``## Resume`` is ``## Résumé``, ``istanbul`` ``İstanbul``), runs of white
    space as one space; of that level, for ``## ...`` (``show`` reads the level of none: an
    earlier ``### Résumé`` is what ``## Résumé`` reaches, even with a ``## Resume`` after it,
    and the problem names that served heading and its line)."""
    target = target.strip()
    missing = f"no heading '{target}' in SKILL.md"
    match = _GOTO_HEADING.fullmatch(target)
    if match is None and target.startswith("#"):
        return None if slug(target[1:]) in skill.anchors("SKILL.md") else missing
    from skillc_index.index.queries import HeadingMatcher
    from skillc_index.index.schema import IndexedHeading

    matcher = HeadingMatcher(
        IndexedHeading(SKILL_FILE, " ".join(h.text.split()), h.level, h.line, h.end_line)
        for h in skill.skill_md.headings
    )
    found = matcher.matches(" ".join(target.split()))
    if not found:
        return missing
    served = found[0]
    if match is None or served.level == len(match.group(1)):
        return None
    return (
        f"'{target}' is served as '{'#' * served.level} {served.text}' (line {served.start_line}),"
        f" a heading of level {served.level}, not {len(match.group(1))}"
    )


def quiz_goto(skill: Skill, options: Options) -> Findings:
    """SKL724: a ``goto`` names a heading of SKILL.md, the one ``show --section`` serves."""
    line = field_line(skill, "quiz")
    for label, branch in _branches(skill):
        target = branch.get("goto")
        if not isinstance(target, str) or not target.strip():
            continue
        problem = _goto_problem(skill, target)
        if problem is not None:
            yield Finding(f"{label}.goto: {problem}", line=line)


def quiz_load_reference(skill: Skill, options: Options) -> Findings:
    """SKL725: a ``load-reference`` is a file of the skill (never outside it)."""
    import posixpath

    line = field_line(skill, "quiz")
    for label, branch in _branches(skill):
        target = branch.get("load-reference")
        if not isinstance(target, str) or not target.strip():
            continue
        path = posixpath.normpath(target.strip())
        if target.startswith(("/", "\\")) or path == ".." or path.startswith("../"):
            yield Finding(f"{label}.load-reference leaves the skill: '{target}'", line=line)
        elif not skill.exists(path):
            yield Finding(f"{label}.load-reference: file not found: '{target}'", line=line)


def quiz_load_skill(skill: Skill, options: Options) -> Findings:
    """SKL726: a ``load-skill`` is a skill name that resolves: a sibling folder of this
    skill, or a skill of the project or global store."""
    line = field_line(skill, "quiz")
    for label, branch in _branches(skill):
        name = branch.get("load-skill")
        if not isinstance(name, str) or not name.strip():
            continue
        if skill_name_problem(name.strip()) is not None:
            yield Finding(f"{label}.load-skill: '{name}' is not a skill name", line=line)
            continue
        if not skill.skill_resolves(name.strip()):
            yield Finding(f"{label}.load-skill: skill '{name}' not found", line=line)


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL721",
        "quiz-structure",
        "error",
        quiz_structure,
        "Quizzes, questions and branches have spec/004's shape.",
        category="skillli",
        rationale=(
            "skillli runs quizzes from the frontmatter; a quiz of the wrong shape cannot run."
        ),
        fix=(
            "Follow spec/004's quiz shape: quizzes of questions with options and branches, with "
            "the types it gives."
        ),
    ),
    Rule(
        "SKL722",
        "quiz-options",
        "error",
        quiz_options,
        "Each question has 2-6 labelled options, at least one correct.",
        category="skillli",
        rationale="A question needs choices to answer and a right answer to score.",
        fix="Give each question 2-6 options, each with a label, at least one marked correct.",
    ),
    Rule(
        "SKL723",
        "quiz-passing-score",
        "error",
        quiz_passing_score,
        "passing-score is a number from 0 to 100.",
        category="skillli",
        rationale="passing-score is a percentage; other values make every attempt pass or fail.",
        fix="Use a number from 0 to 100.",
    ),
    Rule(
        "SKL724",
        "quiz-goto",
        "error",
        quiz_goto,
        "A goto branch names a heading of SKILL.md.",
        category="skillli",
        rationale=(
            "A goto branch jumps to a section of SKILL.md; a heading that does not exist leaves "
            "the user nowhere."
        ),
        fix="Name an existing heading of SKILL.md, or add it.",
    ),
    Rule(
        "SKL725",
        "quiz-load-reference",
        "error",
        quiz_load_reference,
        "A load-reference branch names a file of the skill.",
        category="skillli",
        rationale=(
            "A load-reference branch loads a file of the skill; a missing file (or one outside the "
            "skill) cannot load."
        ),
        fix="Name a file inside the skill folder, relative to its root.",
    ),
    Rule(
        "SKL726",
        "quiz-load-skill",
        "error",
        quiz_load_skill,
        "A load-skill branch names a skill that resolves.",
        category="skillli",
        rationale="A load-skill branch loads another skill; one that does not resolve cannot load.",
        fix="Name a skill that exists beside this one or in a store.",
    ),
)
