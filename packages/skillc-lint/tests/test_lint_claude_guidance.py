"""Claude Code's guidance rules (SKL607-SKL609, the ``claude-code`` profile, issue 39): each on
fixtures shaped like the real skills the lint README's table names, with the near misses
(the false positives the hand-read samples found) that must stay silent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_lint import default_registry, lint_skill

Writer = Callable[..., Path]

CLAUDE = ("claude-code",)


def found(folder: Path, rule: str, profiles: tuple[str, ...] = CLAUDE) -> list[tuple[int, str]]:
    result = lint_skill(folder, registry=default_registry(profiles=profiles))
    return [(d.line or 0, d.message) for d in result.diagnostics if d.rule == rule]


def fm(description: str, extra: str = "", name: str = "my-skill") -> str:
    return f"name: {name}\ndescription: {description}\n{extra}"


# -- SKL607 ------------------------------------------------------------------------------------

#: SKILL.md's code as real skills hold it: awk and a commit hash (superpowers'
#: requesting-code-review), a shell function's "$1" (latex-posters), SQL placeholders
#: (evernote-data-handling), a regex replacement (migration guides).
CODE = (
    "```bash\n"
    "BASE_SHA=$(git log --oneline | grep \"Task 1\" | head -1 | awk '{print $1}')\n"  # line 9
    'check_pdf() {\n  if [ ! -f "$1" ]; then echo missing; fi\n}\n'  # line 11
    "```\n\n"
    "```ts\nawait db.query('DELETE FROM notes WHERE user_id = $1', [userId]);\n```\n\n"  # 16
    "Replace with `s.replace(/^# (.+)$/gm, '<h1>$1</h1>')`.\n"  # line 19
)
#: What stays silent: prose (Claude Code's own use), ${1}, sums of money, $10 and longer
#: numbers, a reference file (not substituted).
QUIET = (
    "Rename $1 to $2 across the code base.\n\n"
    '```bash\necho "${1}" $10 $$1 \\$1\n```\n\n'
    "```text\nGTM:   Pipeline: $8.2M | Last: $7.8M | +$400K\n"
    "Storage: $0.25/GB-month, plans $0-20/mo, $50/mo\n"
    "50 DOT -> Keep   14.00%   $1,400   $0\n```\n"
)


def test_skl607_positional_arguments_in_skill_md_code(skill: Writer) -> None:
    folder = skill(body=CODE + "\n" + QUIET, files={"references/sql.md": "# SQL\n\n`$1`\n"})
    assert [(line, message.split(":")[0]) for line, message in found(folder, "SKL607")] == [
        (9, "'$1' in code"),
        (11, "'$1' in code"),
        (16, "'$1' in code"),
        (19, "'$1' in code"),
    ]
    assert "replaces it with the skill's argument 1" in found(folder, "SKL607")[0][1]


def test_skl607_is_claude_codes_and_only_its_profiles(skill: Writer) -> None:
    folder = skill(body=CODE)
    assert found(folder, "SKL607", profiles=("agentskills",)) == []


@pytest.mark.parametrize(
    "extra", ["argument-hint: <issue-number>\n", "arguments: [issue]\n", ""], ids=str
)
def test_skl607_in_a_skill_taking_arguments_only_quoted_code(skill: Writer, extra: str) -> None:
    """A skill that takes arguments may mean ``gh issue view $1``; ``awk '{print $2}'`` it
    cannot: only ``$N`` inside single quotes is reported there."""
    uses = "" if extra else "Fix issue $ARGUMENTS.\n\n"
    body = uses + ("```bash\ngh issue view $1 $ARGUMENTS[0]\ngit log | awk '{print $2}'\n```\n")
    folder = skill(frontmatter=fm("Fixes an issue. Use when asked to fix one.", extra), body=body)
    assert [message.split(":")[0] for _, message in found(folder, "SKL607")] == ["'$2' in code"]


# -- SKL608 ------------------------------------------------------------------------------------

GIT_COMMIT = (
    "Execute git commit with conventional commit message analysis and intelligent staging. "
    "Use when the user asks to commit changes."
)


@pytest.mark.parametrize(
    ("description", "body", "said", "run"),
    [
        (
            GIT_COMMIT,
            '```bash\ngit add -A\ngit commit -m "$MSG"\n```\n',
            "git commit",
            "git commit",
        ),
        (
            "Publish presentations and web content to GitHub Pages. Use when asked to share "
            "slides.",
            "```bash\nbash SKILL_DIR/scripts/publish.sh index.html my-repo public\n```\n",
            "Publish",
            "SKILL_DIR/scripts/publish.sh",
        ),
        (
            "Guides the agent through releasing a new version of a library end-to-end.",
            "Then `git push origin main --tags`.\n",
            "releasing a new version",
            "git push origin main --tags",
        ),
        (
            "Deploy LangChain integrations to production environments. Use when deploying.",
            "```bash\ngcloud run deploy my-service --source .\n```\n",
            "Deploy",
            "gcloud run deploy",
        ),
        (
            "Drops the unused tables of a staging database after a migration.",
            "```sql\nDROP TABLE IF EXISTS legacy_orders;\n```\n",
            "Drops the unused tables",
            "DROP TABLE",
        ),
        # up to 3 words of any kind between the verb and what it drops
        (
            "Drops the staging database of a preview app.",
            "```sql\nDROP DATABASE staging;\n```\n",
            "Drops the staging database",
            "DROP DATABASE",
        ),
        (
            "Drop the users table after an export.",
            "```sql\nDROP TABLE users;\n```\n",
            "Drop the users table",
            "DROP TABLE",
        ),
        (
            "Truncates and drops production tables after a load test.",
            "```sql\nDROP TABLE orders;\n```\n",
            "drops production tables",
            "DROP TABLE",
        ),
        (
            "Drop the oldest collection when the cluster is full.",
            "```js\ndb.logs.drop()\n```\n\n```sql\nDROP TABLE logs;\n```\n",
            "Drop the oldest collection",
            "DROP TABLE",
        ),
        # a hyphenated word, "of" after the first word, a pronoun read as a noun (IT)
        (
            "Drops in-memory tables after a benchmark.",
            "```sql\nDROP TABLE legacy;\n```\n",
            "Drops in-memory tables",
            "DROP TABLE",
        ),
        (
            "Drops out-of-date tables nightly.",
            "```sql\nDROP TABLE legacy;\n```\n",
            "Drops out-of-date tables",
            "DROP TABLE",
        ),
        (
            "Drops per-tenant databases when a tenant leaves.",
            "```sql\nDROP TABLE legacy;\n```\n",
            "Drops per-tenant databases",
            "DROP TABLE",
        ),
        (
            "Drop on-prem databases after the cloud migration.",
            "```sql\nDROP TABLE legacy;\n```\n",
            "Drop on-prem databases",
            "DROP TABLE",
        ),
        (
            "Drop all of the databases of a test cluster.",
            "```sql\nDROP TABLE legacy;\n```\n",
            "Drop all of the databases",
            "DROP TABLE",
        ),
        (
            "Drops it tables the audit marked obsolete.",
            "```sql\nDROP TABLE legacy;\n```\n",
            "Drops it tables",
            "DROP TABLE",
        ),
    ],
    ids=[
        "git-commit",
        "publish-to-pages",
        "github-release",
        "deploy-integration",
        "drop-tables",
        "drop-staging-database",
        "drop-users-table",
        "drops-production-tables",
        "drop-oldest-collection",
        "drops-in-memory-tables",
        "drops-out-of-date-tables",
        "drops-per-tenant-databases",
        "drop-on-prem-databases",
        "drop-all-of-the-databases",
        "drops-it-tables",
    ],
)
def test_skl608_side_effect_workflows_need_disable_model_invocation(
    skill: Writer, description: str, body: str, said: str, run: str
) -> None:
    folder = skill(frontmatter=fm(description), body=body)
    assert found(folder, "SKL608") == [
        (
            3,
            f"says '{said}' and runs '{run}' here, but Claude may start it on its own: set "
            "'disable-model-invocation: true'",
        )
    ]
    manual = skill(
        "manual",
        frontmatter=fm(description, "disable-model-invocation: true\n", name="manual"),
        body=body,
    )
    assert found(manual, "SKL608") == []


@pytest.mark.parametrize(
    ("description", "body"),
    [
        # gitmoji: writes commit messages, its examples commit
        (
            "Generates commit messages following the gitmoji convention. Use when asked to "
            "write a gitmoji commit.",
            "```bash\ngit commit -m ':sparkles: add login'\n```\n",
        ),
        # secret-scanning: a guide about push protection
        (
            "Guide for configuring GitHub secret scanning and push protection.",
            "```bash\ngit push origin main\n```\n",
        ),
        # github-actions-templates: writes CI files that deploy
        (
            "Create production-ready GitHub Actions templates for testing, building, and "
            "deploying applications.",
            "```yaml\n    - run: kubectl apply -f k8s/\n```\n",
        ),
        # says it deploys but runs nothing that does
        ("Deploy the docs site to Vercel.", "Open the Vercel dashboard and press Deploy.\n"),
        # runs a deploy but does not say it deploys (a Postgres skill's example)
        ("Designs Postgres schemas. Use when modelling data.", "```sql\nDROP TABLE old;\n```\n"),
        # "dropping" said of anything but a table, a database, a schema: no destruction
        # (caveman: "dropping filler"; its examples hold a DROP TABLE)
        (
            "Cuts token usage by dropping filler and pleasantries.",
            "```sql\nDROP TABLE users;\n```\n",
        ),
        ("Migrates schemas; dropping a column is rare.", "```sql\nDROP TABLE old;\n```\n"),
        ("Uploads drag-and-dropping files.", "```sql\nDROP TABLE old;\n```\n"),
        ("Sorts rows by drag-and-dropping them in tables.", "```sql\nDROP TABLE old;\n```\n"),
        # a preposition, a pronoun, a noun after drop: it destroys nothing
        ("Drop into the database shell to inspect rows.", "```sql\nDROP TABLE old;\n```\n"),
        ("psql drops you into the database prompt.", "```sql\nDROP TABLE old;\n```\n"),
        ("Lets users drag and drop files onto the table.", "```sql\nDROP TABLE old;\n```\n"),
        ("Tunes indexes for no drop in database latency.", "```sql\nDROP TABLE old;\n```\n"),
        ("Builds a drag and drop tables editor.", "```sql\nDROP TABLE old;\n```\n"),
        ("Charts the packet drop rate table.", "```sql\nDROP TABLE old;\n```\n"),
        ("Drop it into the users table to import a CSV.", "```sql\nDROP TABLE old;\n```\n"),
    ],
    ids=[
        "gitmoji",
        "secret-scanning",
        "actions-templates",
        "no-command",
        "no-claim",
        "dropping-filler",
        "dropping-a-column",
        "drag-and-dropping",
        "drag-and-dropping-in-tables",
        "drop-into-shell",
        "drops-you-into-prompt",
        "drag-and-drop-onto-table",
        "drop-in-latency",
        "drag-and-drop-tables",
        "drop-rate-table",
        "drop-it-into-table",
    ],
)
def test_skl608_near_misses_stay_silent(skill: Writer, description: str, body: str) -> None:
    assert found(skill(frontmatter=fm(description), body=body), "SKL608") == []


# -- SKL609 ------------------------------------------------------------------------------------


def test_skl609_tools_claude_code_does_not_have(skill: Writer) -> None:
    """copilot-cli-quickstart's Copilot CLI tools, azure-role-selector's list of Azure MCP
    tool titles, a lowercase built-in, a misspelt denial."""
    copilot = skill(
        "copilot",
        frontmatter=fm(
            "Teaches Copilot CLI. Use when new to it.",
            "allowed-tools: ask_user, sql, Read, bash\ndisallowed-tools: Writ\n",
            name="copilot",
        ),
    )
    assert [message for _, message in found(copilot, "SKL609")] == [
        "allowed-tools names 'ask_user', which is not a Claude Code tool: it grants or denies "
        "nothing",
        "allowed-tools names 'sql', which is not a Claude Code tool: it grants or denies nothing",
        "allowed-tools names 'bash', which is not a Claude Code tool (did you mean 'Bash'?): it "
        "grants or denies nothing",
        "disallowed-tools names 'Writ', which is not a Claude Code tool: it grants or denies "
        "nothing",
    ]
    azure = skill(
        "azure",
        frontmatter=fm(
            "Picks an Azure role. Use when assigning roles.",
            "allowed-tools: ['Azure MCP/documentation', 'Read']\n",
            name="azure",
        ),
    )
    assert [message.split(",")[0] for _, message in found(azure, "SKL609")] == [
        "allowed-tools names 'Azure MCP/documentation'"
    ]


def test_skl906_says_claude_code_reads_a_tool_in_another_case_as_no_tool(skill: Writer) -> None:
    """``bash`` grants nothing to Claude Code (its names are case-sensitive: SKL609) but may be
    any shell command to an agent that matches without case: SKL906 still warns, and says
    both, so the two rules no longer contradict each other."""
    folder = skill(
        frontmatter=fm(
            "Summarizes git history. Use when asked what changed.",
            "allowed-tools: bash webfetch Bash\n",
        )
    )
    lost = " where an agent matches tool names without case (Claude Code reads '{}' as no tool)"
    for profiles in (CLAUDE, ("agentskills",)):
        assert [message for _, message in found(folder, "SKL906", profiles)] == [
            f"allowed-tools grants 'bash': any shell command{lost.format('bash')}, without asking",
            f"allowed-tools grants 'webfetch': fetching any URL{lost.format('webfetch')}, "
            "without asking",
            "allowed-tools grants 'Bash': any shell command, without asking",
        ]


def test_skl609_known_tools_patterns_and_mcp_tools_pass(skill: Writer) -> None:
    folder = skill(
        frontmatter=fm(
            "Reviews pull requests. Use when asked to review.",
            "allowed-tools: Bash(git add:*) Read Grep Glob WebFetch(domain:docs.github.com) "
            "mcp__github__create_issue mcp__chrome-devtools__* Task Agent(Explore) "
            "Skill(pdf)\n",
        )
    )
    assert found(folder, "SKL609") == []
    assert found(folder, "SKL609", profiles=("agentskills",)) == []
