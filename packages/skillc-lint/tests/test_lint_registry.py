"""The rule registry: the rules tables, order, enable/disable, selectors, settings and plugins."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import skillc_lint
from skillc_index import format_diagnostic
from skillc_lint import (
    BUILTIN_RULES,
    PROFILES,
    Finding,
    Rule,
    RuleRegistry,
    Skill,
    UnknownRule,
    default_registry,
    lint_skill,
)

Writer = Callable[..., Path]

#: RFC-0008:C-REGISTRY's summary table: id, name, default severity (SKL001 has "n/a").
RFC_TABLE = [
    ("SKL001", "skip-compiled", None),
    ("SKL100", "frontmatter-valid", "error"),
    ("SKL101", "name-required", "error"),
    ("SKL102", "name-format", "error"),
    ("SKL103", "name-length", "error"),
    ("SKL104", "name-match-dir", "error"),  # DECISIONS.md: the standard's MUST
    ("SKL105", "description-required", "error"),
    ("SKL106", "description-nonempty", "error"),
    ("SKL107", "description-length", "warning"),
    ("SKL108", "description-triggers", "warning"),
    ("SKL109", "frontmatter-known", "warning"),
    ("SKL201", "skill-size", "warning"),
    ("SKL202", "heading-h1", "warning"),
    ("SKL203", "heading-match-name", "warning"),
    ("SKL204", "heading-first-h1", "warning"),
    ("SKL205", "heading-hierarchy", "warning"),
    ("SKL301", "link-file-exists", "error"),
    ("SKL302", "link-anchor-exists", "warning"),
    ("SKL303", "link-no-escape", "error"),
    ("SKL401", "no-orphans", "warning"),
]


def license_required(skill: Skill, options: Mapping[str, Any]) -> Iterator[Finding]:
    """An embedder's rule: every skill declares a license."""
    data = skill.frontmatter
    if data is not None and "license" not in data:
        yield Finding("missing frontmatter field: license", line=1)


LICENSE_RULE = Rule(
    "ACME001", "license-required", "error", license_required, "Every skill declares a license."
)


def ids(registry: RuleRegistry) -> list[str]:
    return [state.rule.id for state in registry.active()]


def test_builtin_rules_are_the_rfc_table() -> None:
    table = [(r.id, r.name, None if r.protected else r.severity) for r in BUILTIN_RULES]
    assert table == RFC_TABLE
    assert ids(default_registry(profiles=())) == [row[0] for row in RFC_TABLE]
    # the default profile, agentskills, adds the standard's own checks after them, then the
    # security rules and the budget rules
    assert ids(default_registry()) == [row[0] for row in RFC_TABLE] + [
        "SKL402",  # the lead's ruling: Git LFS pointers, in RFC-0008's family of file rules
        "SKL501",
        "SKL502",
        "SKL503",
        "SKL504",
        "SKL510",
        *[f"SKL5{i}" for i in range(20, 31)],  # the guidance rules (issue 39)
        *[f"SKL90{i}" for i in range(1, 9)],
        "SKL921",
        "SKL922",
        "SKL923",
        "SKL931",
        "SKL932",
        "SKL933",
    ]


def rule_tables() -> dict[str, tuple[Rule, ...]]:
    """The ``RULES`` table of each module of the rules package, by module name."""
    import importlib
    import pkgutil

    from skillc_lint import _rules

    modules = [
        importlib.import_module(f"{_rules.__name__}.{info.name}")
        for info in pkgutil.iter_modules(_rules.__path__)
    ]
    return {m.__name__.rpartition(".")[2]: m.RULES for m in modules if hasattr(m, "RULES")}


def test_every_rules_table_has_checks_and_complete_metadata() -> None:
    """One shape for every rule, built-in or dialect: a check ``(skill, options)`` with its
    id, name, severity, summary, category and typed option defaults, in id order; ids and
    names unique across the modules; each table in use (built-in, or one profile's)."""
    import inspect
    import re

    tables = rule_tables()
    assert set(tables) == {
        "rfc0008",
        "files",
        "agentskills",
        "security",
        "budget",
        "targets",
        "collisions",
        "guidance",
        "claude_code",
        "claude_guidance",
        "plugins",
        "skillli",
        "quiz",
        "gibberish",
    }
    every = [rule for rules in tables.values() for rule in rules]
    for rule in every:
        assert isinstance(rule, Rule), rule
        assert re.fullmatch(r"SKL\d{3}", rule.id), rule.id
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule.id
        assert rule.severity in ("error", "warning"), rule.id
        assert rule.summary.strip() and rule.summary.endswith("."), rule.id
        assert rule.category, rule.id
        assert callable(rule.check) and rule.check.__doc__, rule.id
        assert len(inspect.signature(rule.check).parameters) == 2, rule.id
        for key, default in rule.options.items():
            assert re.fullmatch(r"[a-z]+(-[a-z]+)*", key), (rule.id, key)
            strings = isinstance(default, list) and all(isinstance(v, str) for v in default)
            assert isinstance(default, (int, float, str)) or strings, (rule.id, key)
        assert rule.scope in ("skill", "folder"), rule.id
    for rules in tables.values():
        assert [r.id for r in rules] == sorted(r.id for r in rules)
    ids = [rule.id for rule in every]
    names = [rule.name for rule in every]
    assert sorted(ids) == sorted(set(ids)), [i for i in set(ids) if ids.count(i) > 1]
    assert sorted(names) == sorted(set(names)), [n for n in set(names) if names.count(n) > 1]
    assert tables["rfc0008"] == BUILTIN_RULES
    in_use = [rule.id for rule in BUILTIN_RULES]
    in_use += [rule.id for profile in PROFILES.values() for rule in profile.rules]
    assert sorted(in_use) == sorted(ids)


def test_each_default_registry_is_independent() -> None:
    first = default_registry()
    first.disable("SKL1")
    assert "SKL101" in ids(default_registry())


def test_selectors_by_id_prefix_and_name() -> None:
    registry = default_registry()
    assert registry.match("SKL10") == [f"SKL10{i}" for i in range(10)]
    assert registry.match("skl3") == ["SKL301", "SKL302", "SKL303"]
    assert registry.match("no-orphans") == ["SKL401"]
    assert registry.match("SKL99") == []
    with pytest.raises(KeyError):
        registry.disable("SKL99")


@pytest.mark.parametrize(
    ("method", "parameter"),
    [("disable", "ignore"), ("enable", "select"), ("enable_only", "select")],
)
def test_a_selector_naming_no_rule_is_unknown_rule(method: str, parameter: str) -> None:
    """The registry itself raises the README's E100 (a bare KeyError before); it is still a
    KeyError, what callers caught, and its text is the diagnostic."""
    with pytest.raises(UnknownRule) as caught:
        getattr(default_registry(), method)("SKL1O8")
    assert isinstance(caught.value, KeyError)
    assert (caught.value.selector, caught.value.parameter) == ("SKL1O8", parameter)
    assert caught.value.diagnostic.code == "E100"
    assert str(caught.value) == format_diagnostic(caught.value.diagnostic)


def test_selectors_by_tag() -> None:
    """A tag names every rule carrying it (``--select security`` in CI)."""
    registry = default_registry()
    assert registry.match("security") == [f"SKL90{i}" for i in range(1, 9)]
    assert registry.match("SECURITY") == registry.match("security")
    assert registry.match("budget") == ["SKL921", "SKL922", "SKL923"]
    registry.enable_only("security")
    assert ids(registry) == ["SKL001", *registry.match("security")]
    assert registry.match("secur") == []  # a tag is matched whole, not as a prefix


def test_enable_disable_enable_only_keep_the_protected_rule() -> None:
    registry = default_registry(profiles=())
    registry.disable("SKL1", "no-orphans")
    assert ids(registry) == [
        "SKL001",
        "SKL201",
        "SKL202",
        "SKL203",
        "SKL204",
        "SKL205",
        "SKL301",
        "SKL302",
        "SKL303",
    ]
    registry.enable("SKL108")
    assert "SKL108" in ids(registry)
    registry.enable_only("SKL3")
    assert ids(registry) == ["SKL001", "SKL301", "SKL302", "SKL303"]
    registry.disable("SKL")
    assert ids(registry) == ["SKL001"]


def test_configure_rfc_extension_shape() -> None:
    registry = default_registry()
    problems = registry.configure(
        {"SKL107": "off", "SKL108": "error", "SKL201": {"max-lines": 300}}
    )
    assert problems == []
    states = {s.rule.id: s for s in registry.states()}
    assert not states["SKL107"].enabled
    assert states["SKL108"].severity == "error"
    assert states["SKL201"].options["max-lines"] == 300
    assert states["SKL201"].severity == "warning"


def test_configure_rules_subtable_names_and_severity_in_a_table() -> None:
    registry = default_registry()
    problems = registry.configure(
        {"rules": {"no-orphans": "off", "SKL201": {"severity": "error", "max-lines": 10}}}
    )
    assert problems == []
    states = {s.rule.id: s for s in registry.states()}
    assert not states["SKL401"].enabled
    assert (states["SKL201"].severity, states["SKL201"].options["max-lines"]) == ("error", 10)


def test_configure_reports_bad_entries_and_keeps_going() -> None:
    registry = default_registry()
    problems = registry.configure(
        {
            "SKL999": "off",
            "SKL107": "loud",
            "SKL108": 3,
            "SKL201": {"max-lines": "many", "maxlines": 3},
            "SKL001": "off",
            "SKL104": "error",
        }
    )
    assert problems == [
        "unknown rule 'SKL999'",
        "SKL107: invalid severity 'loud' (expected one of off, on, error, warning); ignored",
        "SKL108: invalid setting 3 (expected 'off', 'error', 'warning' or a table of options); "
        "ignored",
        "SKL201: option 'max-lines' must be a positive integer, not 'many'; ignored",
        "SKL201: unknown option 'maxlines' (known: severity, max-lines); ignored",
        "SKL001 cannot be configured (use the force option); ignored",
    ]
    states = {s.rule.id: s for s in registry.states()}
    assert states["SKL104"].severity == "error"  # the good entry still applied
    assert states["SKL001"].enabled


def test_a_rule_set_twice_is_reported_whatever_the_order() -> None:
    """``SKL104 = "off"`` then ``name-match-dir = "error"`` (or in ``[lint.rules]``) exited 1,
    the other order 0, without a word: a rule set twice to different values is a problem
    naming both keys and the one used; the same value twice is no conflict."""
    for settings, first, used in (
        ({"SKL104": "off", "name-match-dir": "error"}, "SKL104", "name-match-dir"),
        ({"name-match-dir": "error", "skl104": "off"}, "name-match-dir", "skl104"),
        ({"SKL104": "off", "rules": {"name-match-dir": "error"}}, "SKL104", "name-match-dir"),
    ):
        assert default_registry().configure(settings) == [
            f"SKL104 is set twice ('{first}' and '{used}'); '{used}' is used"
        ]
    assert default_registry().configure({"SKL104": "off", "rules": {"SKL104": "off"}}) == []


def test_severity_override_changes_the_diagnostics(skill: Writer) -> None:
    folder = skill(frontmatter="name: my-skill\ndescription: Formats tables.\n")
    registry = default_registry()
    registry.configure({"SKL108": "error"})
    result = lint_skill(folder, registry=registry)
    [d] = result.diagnostics
    assert (d.rule, d.severity) == ("SKL108", "error")
    assert not result.ok
    registry.configure({"SKL108": "off"})
    assert lint_skill(folder, registry=registry).diagnostics == ()


def test_rule_options_reach_the_rule(skill: Writer) -> None:
    folder = skill(
        frontmatter="name: my-skill\ndescription: 'Formats tables. Usage: tables.'\nmodel: x\n",
        body="x\n" * 20,
    )
    registry = default_registry()
    registry.configure(
        {
            "SKL201": {"max-lines": 10},
            "SKL108": {"patterns": ["usage:"]},
            "SKL109": {"known-fields": ["name", "description", "model"]},
        }
    )
    result = lint_skill(folder, registry=registry)
    assert [d.rule for d in result.diagnostics] == ["SKL201"]


def test_add_with_order_replace_remove_and_use(skill: Writer) -> None:
    registry = default_registry()
    registry.add(LICENSE_RULE, after="SKL109")
    order = ids(registry)
    assert order[order.index("SKL109") + 1] == "ACME001"
    with pytest.raises(ValueError, match="already registered"):
        registry.add(LICENSE_RULE)
    result = lint_skill(skill(), registry=registry)
    assert [(d.rule, d.name, d.severity) for d in result.diagnostics] == [
        ("ACME001", "license-required", "error")
    ]

    def quiet(skill: Skill, options: Mapping[str, Any]) -> Iterator[Finding]:
        return iter(())

    registry.replace(Rule("ACME001", "license-required", "error", quiet, "Off."))
    assert lint_skill(skill(), registry=registry).diagnostics == ()
    registry.remove("ACME001")
    assert "ACME001" not in registry

    def plugin(registry: RuleRegistry, *, severity: str) -> None:
        registry.add(LICENSE_RULE, before="SKL100")
        registry.configure({"ACME001": severity})

    assert registry.use(plugin, severity="warning") is registry
    assert ids(registry)[1] == "ACME001"
    [d] = lint_skill(skill(), registry=registry).diagnostics
    assert d.severity == "warning"


def test_copy_is_deep_enough() -> None:
    registry = default_registry()
    clone = registry.copy()
    clone.configure({"SKL201": {"max-lines": 3}, "SKL104": "off"})
    states = {s.rule.id: s for s in registry.states()}
    assert states["SKL201"].options["max-lines"] == 500
    assert states["SKL104"].enabled


def test_set_options_and_severity_validate() -> None:
    registry = default_registry()
    registry.set_options("SKL201", **{"max-lines": 42})
    registry.set_severity("SKL201", "error")
    state = next(s for s in registry.states() if s.rule.id == "SKL201")
    assert (state.severity, state.options["max-lines"]) == ("error", 42)
    with pytest.raises(KeyError):
        registry.set_options("SKL201", width=3)
    with pytest.raises(ValueError):
        registry.set_options("SKL201", **{"max-lines": True})
    with pytest.raises(ValueError):
        registry.set_severity("SKL201", "loud")  # type: ignore[arg-type]


def test_public_api_is_lazy_and_complete() -> None:
    import subprocess
    import sys

    code = "import sys, skillc_lint; print(sorted({'markdown_it', 'yaml'} & set(sys.modules)))"
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert fresh.stdout.strip() == "[]", fresh.stdout + fresh.stderr  # nothing heavy on import
    for name in skillc_lint.__all__:
        assert getattr(skillc_lint, name) is not None
    with pytest.raises(AttributeError):
        skillc_lint.nothing_here  # noqa: B018


def test_find_skills_still_resolves_with_a_warning_naming_its_new_name() -> None:
    """0.1.0's ``skillc_lint.find_skills`` is ``find_skill_folders``: the old name works for
    one release, warned, instead of a bare AttributeError."""
    with pytest.warns(DeprecationWarning, match="use 'from skillc_lint import find_skill_folders'"):
        found = skillc_lint.find_skills
    assert found is skillc_lint.find_skill_folders
    assert "find_skills" not in dir(skillc_lint)


def test_result_to_dict_is_the_guide_shape(skill: Writer) -> None:
    folder = skill(frontmatter="name: my-skill\ndescription: Formats tables.\n")
    data = lint_skill(folder).to_dict()
    assert data == {
        "skill": "my-skill",
        "diagnostics": [
            {
                "rule": "SKL108",
                "severity": "warning",
                "file": "SKILL.md",
                "line": 3,
                "column": 1,
                "message": "missing activation trigger (say when to use the skill, e.g. "
                "'Use when ...')",
            }
        ],
    }


def test_readme_python_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's Python API examples, run in order in one namespace on a real skill."""
    import re

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Python API", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 4
    skill_dir = tmp_path / "skills" / "my-skill"
    skill_dir.mkdir(parents=True)
    (skill_dir / "SKILL.md").write_text(
        "---\nname: my-skill\ndescription: Formats tables.\n---\n\n# my-skill\n", encoding="utf-8"
    )
    (tmp_path / "skills" / "git").mkdir()
    (tmp_path / "skills" / "git" / "SKILL.md").write_text(
        "---\nname: git\ndescription: Git. Use for git.\n---\n\n### git_status\n\n#### Command\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)
    result = namespace["result"]
    assert [d.rule for d in result.diagnostics] == ["ACME001"]
    assert namespace["problems"] == []
    assert {d.rule for d in namespace["tools"].diagnostics} == {"SKL801", "SKL813", "SKL817"}


def test_the_issue_17_rules_carry_their_documentation() -> None:
    """Each security, budget, Claude Code field and plugin rule says why it exists and how to
    fix a finding (the text ``--explain`` shows), and the tags a selector uses."""
    tables = rule_tables()
    rules = [
        *tables["security"],
        *tables["budget"],
        *tables["plugins"],
        *[r for r in tables["claude_code"] if r.id == "SKL606"],
    ]
    assert len(rules) == 14
    for rule in rules:
        assert rule.rationale.strip() and rule.fix.strip(), rule.id
    assert {r.id for r in rules if "security" in r.tags} == {f"SKL90{i}" for i in range(1, 9)}
    assert {r.id for r in rules if r.scope == "folder"} == {"SKL923", "SKL611", "SKL612"}
