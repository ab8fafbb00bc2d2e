"""``skc package`` (issue 37), made from its operation
(:data:`skillc_index.package.operation.PACKAGE`); the function here only prints the result as text.
Module level imports only click, the console conventions and the operation table."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_index.console import Call, command
from skillc_index.package.operation import PACKAGE, PackageParams
from skillc_index.text import counted, printable

if TYPE_CHECKING:
    from skillc_index.package.result import PackageResult


@command(PACKAGE)
def package_command(result: PackageResult, call: Call[PackageParams]) -> None:
    """Package skills to publish them.

    Each package holds the skill's source files (not the stub), its SKILL.md frontmatter
    written as the package's readers take it; every field dropped or changed is a warning.
    Same skills, same bytes. Nothing is deleted in the output folder: files are written over
    (one holding the same bytes is left as it is: unchanged), and an index (index.json,
    marketplace.json) keeps the skills an earlier run listed there.
    Hidden files are left out, and so is what the skill's .gitignore files exclude (listed).

    \b
    Formats (--to):
      upload         OUTPUT/<name>.zip for claude.ai and the Skills API (standard fields
                     only; a reserved word or a tag in the name, or over 30 MB, refused)
      well-known     OUTPUT/.well-known/agent-skills/index.json (Agent Skills Discovery
                     RFC v0.2.0) and each skill's SKILL.md or zip, with sha256 digests
      plugin         OUTPUT/<plugin>/plugin.json and skills/ (Agent Plugins 1.0)
      claude-plugin  OUTPUT/<plugin>/.claude-plugin/plugin.json, skills/, and
                     OUTPUT/.claude-plugin/marketplace.json listing the plugin

    \b
    Examples:
      skc package pdf                         # dist/pdf.zip
      skc package pdf docx --to well-known -o site
      skc package pdf docx --to plugin --name office --version 2.0.0
      skc package pdf --to claude-plugin --author "Jane Doe"
    """
    output = result.output
    for left in result.ignored:
        why = f"{left.by} excludes it"
        if left.target is not None:  # a symlink: git commits the link, not what it leads to
            why = f"a link to {printable(left.target)}, which {left.by} excludes"
        click.echo(f"left out  {printable(left.skill + '/' + left.path)}  ({why})")
    for item in result.files:
        done = "unchanged" if item.action == "unchanged" else "wrote"
        click.echo(f"{done}  {printable(str(output / item.path))}  sha256:{item.sha256}")
    count = len(result.skills)
    click.echo(f"{counted(count, 'skill')} packaged as {result.format}")
