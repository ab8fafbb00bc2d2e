"""SKL108 ``description-triggers``: the description says when to use the skill."""

from __future__ import annotations

from skillc_index.index.scripts import spaceless
from skillc_lint._registry import Finding
from skillc_lint._rules.fields import Findings, Options, field_line, frontmatter
from skillc_lint._skill import Skill

__all__ = ["TRIGGER_PATTERNS", "TRIGGER_PHRASINGS", "description_triggers"]

#: French "when" (``lorsqu'`` with either apostrophe) and "for".
_FRENCH_WHEN = ("quand", "lorsque", "lorsqu'", "lorsqu’", "pour")
#: SKL108 activation trigger patterns, verbatim from the RFC (matched case-insensitively).
TRIGGER_PATTERNS = (
    "use when",
    "when to use",
    "use for",
    "triggers on",
    "triggers:",
    "activate when",
)
#: The RFC's "use when" and "use for" with the skill named in between, its other verbs and its
#: passive: how Anthropic's skills and its skill-creator guide say it ("Use this skill when
#: ...", "This skill should be used when ...") and how the corpus does ("Activate this skill
#: when", "Load this skill when", "Use this any time", "Trigger for: ...", "Use this skill ONLY
#: when", "Trigger on ...", "Trigger phrases: ...", "When the user asks ..."). Accepted by
#: default with the RFC's patterns; ``^`` anchors a pattern at the start of the description (and of
#: each other field SKL108 reads).
TRIGGER_PHRASINGS = (
    *(
        f"{verb} {what} {when}"
        for verb in ("use", "activate", "load", "invoke")
        for what in ("this skill", "this", "it")
        for when in ("when", "whenever", "any time", "anytime", "before", "for")
    ),
    # an adverb before "when" or "for": "Use this skill ONLY when", "Load this skill first when"
    *(
        f"{verb}{what}{adverb} {when}"
        for verb in ("use", "activate", "load", "invoke")
        for what in (" this skill", " this", " it", "")
        for adverb in (" only", " first")
        for when in ("when", "for")
    ),
    "use whenever",
    "should be used when",
    "trigger for",
    "trigger when",
    "trigger on",
    "trigger phrases",
    "trigger:",
    "trigger —",
    # a description that starts by saying when: "When the user asks which role to assign, ..."
    "^when",
    "^whenever",
    # the other languages' usual "use when" / "use for" (cjk audit: every description in
    # them warned), a verb with its "when" or "for" as in English, a bare "when" only at the
    # start: Chinese, Japanese, Korean (inside words: :func:`_word`), Russian, Vietnamese,
    # Spanish, French, German, Portuguese
    *("时使用", "用于", "ときに使用", "ときに参照", "場合に使用", "場合に参照", "때 사용"),
    *("경우에 사용", "используйте", "^когда", "dùng khi", "dùng cho", "sử dụng khi", "^khi"),
    *(f"{verb} {when}" for verb in ("usar", "úsalo", "utilizar") for when in ("cuando", "para")),
    *(f"{verb} {when}" for verb in ("utiliser", "utilisez") for when in _FRENCH_WHEN),
    *(f"{verb}{when}" for verb in ("verwenden", "nutzen") for when in (" wenn", ", wenn", " für")),
    *(f"{verb} {when}" for verb in ("use", "usar", "utilize") for when in ("quando", "para")),
    *(f"^{when}" for when in ("cuando", *_FRENCH_WHEN[:-1], "wenn", "quando")),
)


def _word(char: str) -> bool:
    """Whether ``char`` is part of a word a pattern must not cut: a letter, digit or ``_`` of
    a script written with spaces between words (``当用户需要提取表格数据时使用``, ``만들 때
    사용합니다`` hold ``时使用`` and ``때 사용``)."""
    return (char.isalnum() or char == "_") and not (char > "\u0dff" and spaceless(char))


def _holds(text: str, pattern: str) -> bool:
    """Whether ``text`` holds ``pattern`` as whole words: ``use when`` is not in ``because
    when`` (a ``str.find`` and a look at the characters around each place found: a regular
    expression of word boundaries took 20 times longer over the corpus); ``^when`` only at
    its start."""
    if pattern.startswith("^"):
        pattern = pattern[1:]
        end = len(pattern)
        return text.startswith(pattern) and not (end < len(text) and _word(text[end]))
    at = text.find(pattern)
    while at >= 0:
        end = at + len(pattern)
        if not (at and _word(pattern[0]) and _word(text[at - 1])) and not (
            end < len(text) and _word(pattern[-1]) and _word(text[end])
        ):
            return True
        at = text.find(pattern, at + 1)
    return False


def description_triggers(skill: Skill, options: Options) -> Findings:
    """SKL108: the description says when to use the skill (one of ``patterns``, as whole
    words), in it or in the other ``fields`` its agent lists with it (Claude Code's
    ``when_to_use``, with the ``claude-code`` profile)."""
    data = frontmatter(skill)
    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        return
    more = (data.get(key) for key in options["fields"] if key != "description")
    # each field on its own, so that ``^when`` anchors at the start of every one of them
    texts = [" ".join(v.lower().split()) for v in (description, *more) if isinstance(v, str)]
    patterns = [" ".join(p.lower().split()) for p in options["patterns"]]
    if not any(_holds(text, p) for text in texts for p in patterns):
        yield Finding(
            "missing activation trigger (say when to use the skill, e.g. 'Use when ...')",
            line=field_line(skill, "description"),
        )
