"""``skc build`` and ``skc init``: a skill source in, its runtime and agent-folder deployments out
(RFC-0001, RFC-0006, RFC-0007 ``build``, ADR-0002).

- :mod:`~skillc_index.build.skill`: ``build_skill``, one skill: import, compile, deploy, every
  check first;
- :mod:`~skillc_index.build.origin`: the folder a store copy was imported from, imported again;
- :mod:`~skillc_index.build.projections`: each target's projection, and the files it holds;
- :mod:`~skillc_index.build.batch`: ``build_skills``, many skills in a process pool;
- :mod:`~skillc_index.build.store`: importing a folder given by its path into a store;
- :mod:`~skillc_index.build.compiler`: the runtime (stub, manifest, index) from the sources;
- :mod:`~skillc_index.build.sources`: the sources of one compile, read and parsed file by file;
- :mod:`~skillc_index.build.stub`: the stub ``SKILL.md`` agents read;
- :mod:`~skillc_index.build.manifest`: ``<runtime>/.skillc-meta/manifest.json``;
- :mod:`~skillc_index.build.deploy`: the runtime into agent folders (symlink or copy);
- :mod:`~skillc_index.build.agent_folders`: the agent folders a skill's copies are looked for in;
- :mod:`~skillc_index.build.scaffold`: ``skc init``, a project and a new skill.

This ``__init__`` imports nothing: each command loads only the modules it runs.
"""
