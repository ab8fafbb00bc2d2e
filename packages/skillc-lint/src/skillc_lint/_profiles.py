"""Which rules a registry holds: RFC-0008's built-in rules, then the rules of the profiles.

Profiles are the one way to choose rule sets. A profile (the Agent Skills standard, or a
dialect built on it) is plain data: the rules it adds (a rules module's ``RULES``), the
frontmatter fields it makes known to SKL109, the profile it extends, and settings in the
``[lint]`` shape (so a dialect can widen an option or turn off a rule that does not fit it).
:func:`use_profile` is a registry plugin (``registry.use(use_profile, "claude-code")``), as
markdown-it-py's presets and plugins are. :func:`default_registry` and
:func:`configured_registry` build the registry a run uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skillc_index.markdown.targets import (
    CLAUDE_SUBSTITUTIONS,
    NO_SUBSTITUTIONS,
    Substitutions,
)
from skillc_lint._registry import Rule, RuleRegistry
from skillc_lint._rules import (
    agentskills,
    budget,
    claude_code,
    claude_guidance,
    collisions,
    files,
    gibberish,
    guidance,
    plugins,
    quiz,
    rfc0008,
    security,
    skillli,
    targets,
)

__all__ = [
    "BUILTIN_RULES",
    "DEFAULT_PROFILES",
    "PROFILES",
    "Profile",
    "configured_registry",
    "default_registry",
    "profiles_in",
    "substitutions_in",
    "use_profile",
]

#: RFC-0008:C-REGISTRY's rules, which every registry holds first, all of them enabled.
BUILTIN_RULES: tuple[Rule, ...] = rfc0008.RULES


@dataclass(frozen=True)
class Profile:
    """A dialect: its rules, the fields it makes known, what it extends, its settings, and
    the substitutions its agent makes in a skill's text (links are resolved through them)."""

    name: str
    description: str
    rules: tuple[Rule, ...]
    known_fields: tuple[str, ...] = ()
    extends: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    substitutions: Substitutions = NO_SUBSTITUTIONS


PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile(
            "agentskills",
            "the Agent Skills standard's optional fields (spec/004 layer 1), the Git LFS "
            "pointer rule, the security rules, the budget rules, the authoring guidance rules, "
            "the target rules (silent until targets are chosen) and the library collision rule "
            "(off unless turned on)",
            files.RULES
            + agentskills.RULES
            + guidance.RULES
            + security.RULES
            + budget.RULES
            + targets.RULES
            + collisions.RULES,
            # SKL924 (a library rule) is opt-in: `[lint.rules] SKL924 = "on"` or --select
            settings={"SKL924": "off"},
        ),
        Profile(
            "claude-code",
            "Claude Code's frontmatter extensions (spec/004 layer 2), what it does with a "
            "skill's text and tools, its plugins and marketplaces",
            claude_code.RULES + claude_guidance.RULES + plugins.RULES,
            claude_code.FIELDS,
            extends="agentskills",
            # Claude Code reads allowed-tools as a YAML list or a comma-separated string too,
            # and lists when_to_use with the description (where SKL108 looks for a trigger).
            settings={
                "SKL503": {"accept": ["string", "list", "commas"]},
                "SKL108": {"fields": ["description", "when_to_use"]},
            },
            substitutions=CLAUDE_SUBSTITUTIONS,  # skillc-index's record of Claude Code's
        ),
        Profile(
            "skillli",
            "skillli's registry fields and quizzes (spec/004 layers 3 and 4)",
            skillli.RULES + quiz.RULES,
            skillli.FIELDS,
            extends="agentskills",
            # spec/004 layer 1 as skillli implements it: compatibility may be a list.
            settings={"SKL501": {"accept": ["string", "list"]}},
        ),
        Profile(
            "gibberish",
            "gibb.eri.sh tool-defining skills (spec/003)",
            gibberish.RULES,
            gibberish.FIELDS,
            extends="agentskills",
            # Tool definitions are H3 sections: a body without an H1 is the norm (§3.1).
            settings={"SKL202": "off", "SKL204": "off"},
        ),
    )
}

#: What ``skillc-lint`` uses without ``--profile`` or ``[lint] profiles``.
DEFAULT_PROFILES = ("agentskills",)


def profiles_in(registry: RuleRegistry) -> tuple[str, ...]:
    """The profiles whose rules ``registry`` holds (in :data:`PROFILES` order)."""
    ids = {rule.id for rule in registry}  # a set: each profile's rules looked up at once
    return tuple(
        name for name, profile in PROFILES.items() if all(rule.id in ids for rule in profile.rules)
    )


def substitutions_in(registry: RuleRegistry) -> Substitutions:
    """The substitutions of the profiles ``registry`` holds, together."""
    skill_dir: list[str] = []
    runtime: list[str] = []
    for name in profiles_in(registry):
        substitutions = PROFILES[name].substitutions
        skill_dir += substitutions.skill_dir
        if substitutions.runtime:
            runtime.append(substitutions.runtime)
    return Substitutions(tuple(dict.fromkeys(skill_dir)), "|".join(dict.fromkeys(runtime)))


def use_profile(registry: RuleRegistry, name: str) -> None:
    """Plugin: add profile ``name`` (and the one it extends, first) to ``registry``: its
    rules, its known fields for SKL109, its settings. Applying a profile twice is harmless.
    :class:`~skillc_lint.UnknownProfile` (E100, also a ``KeyError``) for an unknown profile."""
    profile = PROFILES.get(name)
    if profile is None:
        from skillc_lint._errors import UnknownProfile

        raise UnknownProfile(name, PROFILES)
    if profile.extends:
        use_profile(registry, profile.extends)
    if profile.rules and profile.rules[0].id in registry:
        return
    for rule in profile.rules:
        registry.add(rule)
    if profile.known_fields and "SKL109" in registry:
        known = registry.options("SKL109")["known-fields"]
        fields = list(dict.fromkeys([*known, *profile.known_fields]))
        registry.set_options("SKL109", **{"known-fields": fields})
    problems = registry.configure(profile.settings)
    if problems:  # a profile is code: a bad one is a bug, not a user error
        raise ValueError(f"profile {name!r}: {'; '.join(problems)}")


def default_registry(profiles: Sequence[str] | str | None = None) -> RuleRegistry:
    """A new registry holding the built-in rules, then the rules of each profile in
    ``profiles`` (default: ``agentskills``; ``()`` for RFC-0008 alone; one name as a ``str``
    is that profile). :class:`~skillc_lint.UnknownProfile` (E100) for an unknown profile,
    :class:`~skillc_lint.ParameterError` (E100) for ``profiles`` that are no names
    (:func:`profile_names`)."""
    registry = RuleRegistry(BUILTIN_RULES)
    for name in DEFAULT_PROFILES if profiles is None else profile_names(profiles):
        registry.use(use_profile, name)
    return registry


def profile_names(profiles: object) -> tuple[str, ...]:
    """The names of the API's ``profiles`` (one ``str`` is one name:
    :func:`~skillc_index.items.checked_items`), each a ``str``; else
    :class:`~skillc_lint.ParameterError` (E100), never a bare ``TypeError``
    (``profiles=5``, ``profiles=[5]``)."""
    from skillc_index.items import checked_items
    from skillc_lint._errors import ParameterError

    def wrong(value: object, _listed: bool) -> ParameterError:
        return ParameterError("profile", f"must be profile names (str), not {type(value).__name__}")

    return checked_items(profiles, str, wrong)


def known_profiles(names: object) -> tuple[list[str], list[str]]:
    """The names of the list ``names`` that are profiles, in order, and one problem for each
    other (:class:`~skillc_lint.UnknownProfile`'s text), for the configuration's ``[lint]
    profiles`` and the language server's initialization options, which skip them; none and
    one problem when ``names`` is no list of names (``"claude-code"``: then ignored)."""
    from skillc_lint._errors import UnknownProfile

    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return [], ["profiles must be a list of names; ignored"]
    known = [name for name in names if name in PROFILES]
    problems = [UnknownProfile(name, PROFILES).reason for name in names if name not in known]
    return known, problems


def configured_registry(
    lint: Mapping[str, Any],
    profiles: Sequence[str] = (),
    origins: Mapping[str, str] | None = None,
    *,
    guard: bool = False,
) -> tuple[RuleRegistry, list[str]]:
    """The registry a run uses, from the ``[lint]`` table of the configuration (RFC-0009),
    and the problems found in that table, one message each (callers print them as
    ``config [lint]: <message>`` warnings; they never fail a run), at most
    :data:`~skillc_index.diagnostics.MAX_PROBLEMS`, then one for the rest.

    The profiles are ``profiles`` when given (one name as a ``str`` is that profile;
    UnknownProfile, E100, for one that is not), else
    ``[lint] profiles`` (unknown names skipped with a problem), always on top of
    ``agentskills``. Settings of rules from profiles not in use are left out without a
    problem: a config may tune a dialect's rules for the runs that select it.

    ``origins``: where each key came from (:attr:`skillc_index.Config.origins`, by
    ``lint.<key>``, and ``lint.rules.<rule>`` for each rule of ``rules``): the keys of each
    file are applied in turn, the global config's before the project's, so a rule the
    project sets under another name than the global config (``name-match-dir`` for
    ``SKL104``) is the project's, and only a rule set twice in one file is a problem.
    ``guard``: the project's file is one found inside the linted skill, which cannot
    configure the security rules (:meth:`RuleRegistry.configure`)."""
    settings = dict(lint)
    configured = settings.pop("profiles", None)
    settings.pop("per-file-ignores", None)  # no rule: the run reads it (operations.suppressions)
    chosen = settings.pop(targets.TARGETS_OPTION, None)  # the target rules' (issue 37)
    problems: list[str] = []
    names = list(profile_names(profiles))  # one str is one profile, as default_registry's
    if not names and configured is not None:
        names, problems = known_profiles(configured)
    registry = default_registry(profiles=tuple(dict.fromkeys(["agentskills", *names])))
    in_use = profiles_in(registry)
    idle = {
        key
        for name, profile in PROFILES.items()
        if name not in in_use
        for rule in profile.rules
        for key in (rule.id.lower(), rule.name)
    }
    from skillc_index.config import ORIGINS, RULES_PREFIX

    files: dict[int, dict[str, Any]] = {}  # the keys by where they came from, in precedence

    def keys_of(dotted: str) -> dict[str, Any]:
        origin = (origins or {}).get(dotted, "")
        return files.setdefault(ORIGINS.index(origin) if origin in ORIGINS else 0, {})

    for key, value in _without(settings, idle).items():
        if key == "rules" and isinstance(value, Mapping):  # [lint.rules]: each rule's own
            for rule, setting in value.items():
                keys_of(f"{RULES_PREFIX}{rule}").setdefault("rules", {})[rule] = setting
        else:
            keys_of(f"lint.{key}")[key] = value
    project = ORIGINS.index("project")
    off = registry.turned_off  # each security rule a file turned off (a later one may not)
    for origin, keys in sorted(files.items()):
        security = [rule.id for rule in registry if rule.guarded]
        on = {rule for rule in security if registry.is_enabled(rule)}
        problems += registry.configure(keys, guard=guard and origin == project)
        for rule in security:
            if registry.is_enabled(rule):
                off.pop(rule, None)
            elif rule in on:
                off[rule] = ORIGINS[origin]
    if chosen is not None:
        if not isinstance(chosen, list) or not all(isinstance(n, str) for n in chosen):
            problems.append("targets must be a list of names; ignored")
        else:
            from skillc_index.layout import shown

            unknown = targets.use_targets(registry, chosen)
            problems += [f"unknown target '{shown(name)}'; ignored" for name in unknown]
    from skillc_index.diagnostics import capped

    return registry, capped(problems, "... and {:,} more".format)


def _without(settings: Mapping[str, Any], idle: set[str]) -> dict[str, Any]:
    """``settings`` without the keys (rule ids or names, also under ``rules``) in ``idle``."""
    return {
        key: _without(value, idle) if key == "rules" and isinstance(value, Mapping) else value
        for key, value in settings.items()
        if str(key).lower() not in idle
    }
