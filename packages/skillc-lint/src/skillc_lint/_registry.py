"""The rule registry: named rules that can be enabled, disabled, reordered and configured.

Shaped like markdown-it-py's rule chains: a rule is a small named function with its metadata,
the registry keeps them in order and switches them on and off by id, and an embedder adds its
own rules (``add``) or bundles several changes in a plugin function (``use``). Nothing here
knows any particular rule: the SKLxxx rules live in :mod:`skillc_lint._rules` (each module
ending with its ``RULES``), and :mod:`skillc_lint._profiles` says which a registry holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from skillc_index.layout import shown

if TYPE_CHECKING:
    from skillc_lint._fixes import Fix

__all__ = [
    "GUARDED_NOTE",
    "GUARDED_TAGS",
    "SEVERITIES",
    "Finding",
    "Fixable",
    "Rule",
    "RuleCheck",
    "RuleRegistry",
    "RuleScope",
    "RuleState",
    "Severity",
]

Severity = Literal["error", "warning"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning")
#: Values a rule setting may take besides a table: a severity, or on/off.
SWITCHES = ("off", "on", *SEVERITIES)
#: The tags of the rules a linted skill cannot switch off on itself (the security rules): no
#: ``skillc-lint`` comment of its text hides their findings, and a config file inside a
#: skill's folder (found, or named by ``--config``, wherever the working folder is) cannot
#: configure them; a config file outside every skill and the command line can
#: (:meth:`RuleRegistry.guarded`).
GUARDED_TAGS = frozenset({"security"})
#: Why a guarded config file's setting or per-file ignore of such a rule is ignored.
GUARDED_NOTE = (
    "a config file inside the linted skill cannot change the security rules (a config file "
    "outside the skill, named by --config, or --ignore can)"
)
Fixable = Literal["safe", "unsafe"]
"""A rule's fixes: ``safe`` when ``--fix`` fixes some of its findings, ``unsafe`` when only
``--unsafe-fixes`` does."""


@dataclass(frozen=True)
class Finding:
    """One problem a rule found: what, in which file (relative to the skill root), where.
    ``column`` (1-based, in characters) when the rule knows it; else the diagnostic points at
    the line's first non-blank character."""

    message: str
    file: str = "SKILL.md"
    line: int | None = None
    column: int | None = None
    fix: Fix | None = None
    """How to fix it (edits of ``file``), when the rule knows a fix."""
    warning: bool = False
    """A warning even when the rule is an error: a milder case of the rule (SKL303's link to
    an existing sibling skill, DECISIONS.md "Lint")."""
    detail: str = ""
    """Shown right after :attr:`message` but no part of what a baseline matches: names that
    change with every skill added (SKL923's dropped skills), so a baselined finding stays
    hidden (:attr:`LintDiagnostic.detail <skillc_lint.LintDiagnostic.detail>`)."""


RuleCheck = Callable[[Any, Mapping[str, Any]], Iterable[Finding]]
"""A rule's function: the parsed :class:`~skillc_lint._skill.Skill` (for a ``folder`` rule:
the folder's :class:`~pathlib.Path`) and the rule's options in, findings out."""
RuleScope = Literal["skill", "folder"]


@dataclass(frozen=True)
class Rule:
    """A lint rule: id (``SKL102``), name (``name-format``), default severity, and its check.

    ``options`` holds the rule's parameters with their defaults (``{"max-lines": 500}``); a
    setting may only change those keys, to a value of the same type. ``protected`` rules
    (SKL001, which ``--force`` controls) ignore settings and selectors. ``tags`` are names a
    selector may use for a group of rules (``security``); ``rationale`` says why the rule
    exists and ``fix`` how to make a finding go away (shown by ``--explain`` and in SARIF; every
    rule has both). A ``folder`` rule checks a folder of skills (the listing budget, plugin
    manifests) rather than one skill; its findings' files are relative to that folder.
    ``fixable``: whether the rule attaches fixes (``--fix``) to (some of) its findings, and the
    safest kind it attaches.
    """

    id: str
    name: str
    severity: Severity
    check: RuleCheck
    summary: str
    options: Mapping[str, Any] = field(default_factory=dict)
    category: str = ""
    protected: bool = False
    tags: tuple[str, ...] = ()
    scope: RuleScope = "skill"
    rationale: str = ""
    fix: str = ""
    fixable: Fixable | None = None
    frame: Callable[[str], str] | None = None
    """What its findings' code frames show of their line (SKL904: the line, its keys masked
    as the message masks them; the lint cache keeps that); None: the line as it is."""

    @property
    def guarded(self) -> bool:
        """A rule the linted skill cannot switch off on itself (:data:`GUARDED_TAGS`)."""
        return not GUARDED_TAGS.isdisjoint(self.tags)


@dataclass(frozen=True)
class RuleState:
    """A rule with what its settings made of it: on or off, severity, options."""

    rule: Rule
    enabled: bool
    severity: Severity
    options: Mapping[str, Any]


@dataclass
class _Entry:
    rule: Rule
    enabled: bool = True
    severity: Severity | None = None  # None: the rule's default
    options: dict[str, Any] = field(default_factory=dict)


class RuleRegistry:
    """An ordered set of rules, each enabled or not, with its severity and options.

    Rules run in registry order. Selectors name rules by id (``SKL102``), id prefix (``SKL1``,
    ``SKL``), name (``name-format``) or tag (``security``: every rule with that tag),
    case-insensitively.
    """

    def __init__(self, rules: Iterable[Rule] = ()) -> None:
        self._entries: list[_Entry] = []
        self.turned_off: dict[str, str] = {}
        """The security rules the configuration turned off, each with the origin that did
        (:data:`skillc_index.config.ORIGINS`: ``project``, ``global``), set by
        :func:`~skillc_lint.configured_registry`; a run runs them and hides their findings,
        counted (:meth:`PathIgnores.watch <skillc_lint._suppress.PathIgnores.watch>`)."""
        for rule in rules:
            self.add(rule)

    # -- the rules ---------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Rule]:
        return (entry.rule for entry in self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, rule_id: object) -> bool:
        return any(entry.rule.id == rule_id for entry in self._entries)

    def get(self, rule_id: str) -> Rule:
        """The rule with this id (or name); ``KeyError`` if there is none."""
        return self._entry(rule_id).rule

    def _entry(self, key: str) -> _Entry:
        wanted = key.lower()
        for entry in self._entries:
            if entry.rule.id.lower() == wanted or entry.rule.name == wanted:
                return entry
        raise KeyError(key)

    def _index(self, rule_id: str) -> int:
        return self._entries.index(self._entry(rule_id))

    def add(self, rule: Rule, *, before: str | None = None, after: str | None = None) -> None:
        """Add a rule at the end, or just before/after an existing one (by id)."""
        if rule.id in self:
            raise ValueError(f"rule {rule.id} is already registered (use replace)")
        if any(entry.rule.name == rule.name for entry in self._entries):
            raise ValueError(f"a rule named {rule.name!r} is already registered")
        entry = _Entry(rule)
        if before is not None:
            self._entries.insert(self._index(before), entry)
        elif after is not None:
            self._entries.insert(self._index(after) + 1, entry)
        else:
            self._entries.append(entry)

    def replace(self, rule: Rule) -> None:
        """Put ``rule`` in place of the registered rule with the same id (settings reset)."""
        self._entries[self._index(rule.id)] = _Entry(rule)

    def remove(self, rule_id: str) -> None:
        del self._entries[self._index(rule_id)]

    def use(self, plugin: Callable[..., None], *args: Any, **kwargs: Any) -> RuleRegistry:
        """Apply a plugin, ``plugin(registry, *args, **kwargs)``; returns the registry."""
        plugin(self, *args, **kwargs)
        return self

    def copy(self) -> RuleRegistry:
        clone = RuleRegistry()
        clone._entries = [
            _Entry(e.rule, e.enabled, e.severity, dict(e.options)) for e in self._entries
        ]
        clone.turned_off = dict(self.turned_off)
        return clone

    # -- selecting ---------------------------------------------------------------------------
    def match(self, selector: str) -> list[str]:
        """Ids of the rules a selector names (an id, an id prefix, a name or a tag)."""
        wanted = selector.strip().lower()
        if not wanted:
            return []
        return [
            e.rule.id
            for e in self._entries
            if e.rule.id.lower().startswith(wanted)
            or e.rule.name == wanted
            or wanted in e.rule.tags
        ]

    def _matching(self, selectors: Iterable[str], parameter: str) -> set[str]:
        """The ids the selectors name; :class:`~skillc_lint.UnknownRule` (E100, also a
        ``KeyError``) of ``parameter`` for a selector that names no rule."""
        ids: set[str] = set()
        for selector in selectors:
            found = self.match(selector)
            if not found:
                from skillc_lint._errors import UnknownRule

                raise UnknownRule(selector, parameter)
            ids.update(found)
        return ids

    def enable(self, *selectors: str) -> None:
        """Switch the named rules on (``UnknownRule``, E100, for a selector that names no
        rule; so do :meth:`disable` and :meth:`enable_only`)."""
        ids = self._matching(selectors, "select")
        for entry in self._entries:
            if entry.rule.id in ids:
                entry.enabled = True

    def disable(self, *selectors: str) -> None:
        """Switch the named rules off; protected rules stay on."""
        ids = self._matching(selectors, "ignore")
        for entry in self._entries:
            if entry.rule.id in ids and not entry.rule.protected:
                entry.enabled = False

    def enable_only(self, *selectors: str) -> None:
        """Switch the named rules on and every other one off (protected rules stay on)."""
        ids = self._matching(selectors, "select")
        for entry in self._entries:
            entry.enabled = entry.rule.protected or entry.rule.id in ids

    def guarded(self, ids: Iterable[str]) -> frozenset[str]:
        """Those of the rule ids ``ids`` whose rules carry a :data:`GUARDED_TAGS` tag (the
        rules looked at once, not searched for each id)."""
        wanted = set(ids)
        return frozenset(e.rule.id for e in self._entries if e.rule.id in wanted and e.rule.guarded)

    def is_enabled(self, rule_id: str) -> bool:
        return self._entry(rule_id).enabled

    def options(self, rule_id: str) -> Mapping[str, Any]:
        """A rule's effective options: its defaults with its settings applied."""
        entry = self._entry(rule_id)
        return {**entry.rule.options, **entry.options}

    # -- configuring -------------------------------------------------------------------------
    def set_severity(self, rule_id: str, severity: Severity) -> None:
        if severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}")
        self._entry(rule_id).severity = severity

    def set_options(self, rule_id: str, **options: Any) -> None:
        """Change a rule's options (``KeyError`` for an option the rule does not have,
        ``ValueError`` for a value of the wrong type)."""
        entry = self._entry(rule_id)
        for key, value in options.items():
            problem = _option_problem(entry.rule, key, value)
            if problem:
                raise (KeyError if key not in entry.rule.options else ValueError)(problem)
        entry.options.update(options)

    def configure(
        self,
        settings: Mapping[str, Any],
        _set: dict[str, tuple[str, Any]] | None = None,
        *,
        guard: bool = False,
    ) -> list[str]:
        """Apply settings in the ``[lint]`` shape (RFC-0008:C-EXTENSIONS) and return the
        problems found, one message each; a bad entry is skipped, never fatal.

        ``{"SKL107": "off", "SKL108": "error", "SKL201": {"max-lines": 300}}``: a rule (by id
        or name) maps to ``"off"``, ``"on"``, ``"error"``, ``"warning"``, or a table of its
        options that may also hold ``severity``. A ``rules`` sub-table holds the same. A rule
        set twice to different values (by id and by name, in ``rules`` too) is a problem:
        the last key wins, and the verdict should not hang on the order of the lines.
        ``guard``: the settings are a config file's found inside the linted skill, whose
        settings of :data:`GUARDED_TAGS` rules are problems, ignored.
        """
        problems: list[str] = []
        set_by = {} if _set is None else _set  # rule id -> the key that set it, and its value
        for key, value in settings.items():
            if key == "rules" and isinstance(value, Mapping):
                problems += self.configure(value, set_by, guard=guard)
                continue
            try:
                entry = self._entry(str(key))
            except KeyError:
                problems.append(f"unknown rule '{shown(str(key))}'")
                continue
            rule = entry.rule
            if rule.protected:
                problems.append(f"{rule.id} cannot be configured (use the force option); ignored")
                continue
            if guard and rule.guarded:
                problems.append(f"{rule.id}: {GUARDED_NOTE}; ignored")
                continue
            earlier = set_by.get(rule.id)
            set_by[rule.id] = (str(key), value)
            if earlier is not None and earlier[1] != value:
                problems.append(
                    f"{rule.id} is set twice ('{shown(earlier[0])}' and '{shown(str(key))}'); "
                    f"'{shown(str(key))}' is used"
                )
            table: Mapping[str, Any]
            if isinstance(value, str):
                table = {"severity": value}
            elif isinstance(value, Mapping):
                table = value
            else:
                problems.append(
                    f"{rule.id}: invalid setting {shown(repr(value))} (expected 'off', 'error', "
                    "'warning' or a table of options); ignored"
                )
                continue
            for option, option_value in table.items():
                if option == "severity":
                    if option_value not in SWITCHES:
                        problems.append(
                            f"{rule.id}: invalid severity {shown(repr(option_value))} "
                            f"(expected one of {', '.join(SWITCHES)}); ignored"
                        )
                    elif option_value in ("off", "on"):
                        entry.enabled = option_value == "on"
                    else:
                        entry.enabled = True
                        entry.severity = option_value
                    continue
                problem = _option_problem(rule, str(option), option_value)
                if problem:
                    problems.append(f"{rule.id}: {problem}; ignored")
                else:
                    entry.options[str(option)] = option_value
        return problems

    # -- running -----------------------------------------------------------------------------
    def states(self) -> list[RuleState]:
        """Every rule in order, with whether it is on, its severity and its options."""
        return [
            RuleState(
                e.rule, e.enabled, e.severity or e.rule.severity, {**e.rule.options, **e.options}
            )
            for e in self._entries
        ]

    def active(self) -> list[RuleState]:
        """The enabled rules in order, as they run."""
        return [state for state in self.states() if state.enabled]


def _option_problem(rule: Rule, key: str, value: Any) -> str | None:
    """Why ``value`` is not a valid ``key`` option of ``rule``, or None."""
    if key not in rule.options:
        known = ", ".join(["severity", *rule.options])
        return f"unknown option '{shown(key)}' (known: {known})"
    default = rule.options[key]
    if isinstance(default, int) and not isinstance(default, bool):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"option '{key}' must be a positive integer, not {shown(repr(value))}"
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            return f"option '{key}' must be a positive number, not {shown(repr(value))}"
    elif isinstance(default, str):
        if not isinstance(value, str):
            return f"option '{key}' must be a string, not {shown(repr(value))}"
    elif isinstance(default, (list, tuple)):
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            return f"option '{key}' must be a list of strings, not {shown(repr(value))}"
        if not all(v.strip() for v in value):  # an empty pattern, field or file name means nothing
            return (
                f"option '{key}' must not hold an empty or blank string, not {shown(repr(value))}"
            )
    return None
