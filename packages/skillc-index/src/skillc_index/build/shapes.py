"""The JSON shapes of ``init`` and ``build`` (one skill, or the command line's batch): what
``--format json`` prints and the MCP tools ``skc_init`` and ``skc_build`` return as
``structuredContent``, each a ``TypedDict`` that the result's ``to_dict()`` returns and from
which the tool's output schema is made (:mod:`skillc_index.shapes`).

Imported by type checkers and when the MCP server lists its tools, never by a command's run.
No ``from __future__ import annotations``: the annotations are evaluated once, as the classes
are made, not compiled from strings when the schema is made (the MCP server's first
``tools/list`` runs some 4.7M fewer instructions).
A shape with a key that is a Python keyword (``import``) is written in the functional form.
"""

from typing import Annotated, Literal, TypedDict

from skillc_index.operation import WARNING_LINES

__all__ = [
    "BatchBuildShape",
    "BatchFailureShape",
    "BatchShape",
    "BatchSummaryShape",
    "BuildShape",
    "DeploymentShape",
    "ErrorShape",
    "FieldChangeShape",
    "IndexShape",
    "InitShape",
    "ManifestShape",
]


# -- init (RFC-0006) ----------------------------------------------------------------------


class InitShape(TypedDict):
    """``init``: a project made (or found), the skillc home's global store, or a new skill
    (:class:`~skillc_index.build.scaffold.InitResult`)."""

    kind: Literal["project", "global", "skill"]
    name: str | None
    scope: Literal["project", "global", None]
    path: Annotated[
        str,
        "The project's .skillc/skills folder, or the new skill's folder (its SKILL.md is inside).",
    ]
    created: Annotated[bool, "False when the project already existed."]
    gitignore: Annotated[
        list[str],
        "Lines added to the project's .gitignore: .skillc/runtime/, .skillc/logs/ and, in a "
        "git work tree, the default agent folder (.claude/skills/), each only where git "
        "tracks nothing in it (the agent folder only where it holds no skill but skillc's "
        "deployments).",
    ]


# -- build (RFC-0001, RFC-0007) -----------------------------------------------------------


class ManifestShape(TypedDict):
    """The runtime's manifest (RFC-0001's four fields; a later release may add more)."""

    skill: str
    version: int
    built_at: str
    source_hash: str


class IndexShape(TypedDict):
    """The search index of the runtime (:class:`~skillc_index.build.compiler.IndexReport`)."""

    path: str
    action: Literal["created", "rebuilt", "up-to-date"]
    reason: str | None
    tokenizer: str
    sections: int | None
    headings: int | None


class DeploymentShape(TypedDict):
    """One agent folder entry (:class:`~skillc_index.build.deploy.Deployment`)."""

    target: str
    path: str
    method: Literal["symlink", "copy"]
    action: Literal["created", "replaced", "unchanged"]
    backup: str | None


class FieldChangeShape(TypedDict):
    """A frontmatter field a target drops or changes
    (:class:`~skillc_index.build.project.FieldChange`)."""

    target: str
    agent: str
    field: str
    action: Literal["dropped", "folded", "moved", "side-file", "converted", "cut"]
    detail: str


BuildShape = TypedDict(
    "BuildShape",
    {
        "skill": str,
        "scope": Literal["project", "global"],
        "source_path": str,
        "imported_from": str | None,
        "import": Literal["copy", "replace", "unchanged", None],
        "runtime_path": str,
        "up_to_date": Annotated[bool, "Nothing needed rebuilding."],
        "source_hash": str,
        "files": int,
        "stub": str,
        "manifest": ManifestShape,
        "index": IndexShape,
        "deployments": list[DeploymentShape],
        "gitignore": Annotated[
            list[str],
            "Lines added to the project's .gitignore: each agent folder of the project "
            "deployed into, where git tracks nothing in it and it holds no skill but skillc's "
            "deployments; else each deployment there (/<folder>/<name>).",
        ],
        "gitignore_file": Annotated[
            str | None,
            "The .gitignore those lines went to, relative to the working folder as the text "
            "output names it (a nested project's own in a batch); null when none was added.",
        ],
        "fields": Annotated[
            list[FieldChangeShape],
            "Frontmatter fields a target's agent does not read as written: dropped, folded "
            "into the description, moved under metadata or carried by a side file.",
        ],
        "warnings": Annotated[list[str], f"{WARNING_LINES} Empty when none."],
    },
)
"""``build`` of one skill (:class:`~skillc_index.build.skill.BuildResult`): what the tool
returns, and ``skc build SKILL --format json``."""


class _Error(TypedDict):
    code: str
    message: Annotated[str, "The error's message, without its 'error[EXXX]:' prefix."]


class ErrorShape(_Error, total=False):
    """An error as the kit's JSON holds it (:func:`skillc_index.diagnostic_json`), as
    skillc-lint's are."""

    detail: Annotated[str, "What the command line prints after the message (a hint)."]


class BatchBuildShape(BuildShape):
    """A skill of a batch that was built: the JSON of a single build, and why it was
    deployed nowhere."""

    deployed_nowhere: Annotated[
        str | None,
        "Why the skill was built and deployed to no agent folder (--all given no target: its "
        "default target's folder is the folder it was imported from, the skill is there "
        "already; or it is behind a router of skc route); null when deployed as asked.",
    ]


class BatchFailureShape(TypedDict):
    """A skill of a batch that was not built."""

    skill: str
    given: Annotated[str, "The skill as given (or as found in a folder of skills)."]
    error: ErrorShape


class BatchSummaryShape(TypedDict):
    skills: int
    built: int
    up_to_date: int
    failed: int


class BatchShape(TypedDict):
    """``skc build`` of several skills, folders of skills or ``--all`` (the command line's
    :class:`~skillc_index.build.batch.BatchResult`): one result per skill, in order."""

    results: list[BatchBuildShape | BatchFailureShape]
    summary: BatchSummaryShape
    warnings: Annotated[list[str], f"{WARNING_LINES} Empty when none."]
    interrupted: Annotated[bool, "Ctrl-C stopped the batch: the results are the skills done."]
