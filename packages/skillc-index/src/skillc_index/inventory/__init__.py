"""The inventory: every installed skill, in one place, for every command (DECISIONS "Paths
and resolution").

- :mod:`.folders`: where installed skills are, in the order names resolve (the stores, the
  agent folders of the project, Codex's from the working directory up, the project's nested
  Claude Code folders, the home's, the installed Claude Code plugins; the config's
  ``[targets]`` among the agent folders), as :class:`Root` folders; which ``[targets]`` a
  command may trust;
- :mod:`.deployed`: what skillc deployed into an agent folder (the store skill an entry
  stands for) and the router's mark;
- :mod:`.entries`: the skills of those folders (:class:`InstalledSkill`, each with its
  :class:`Location` list: one source is one skill), :func:`installed_skills` (the set ``list``
  and ``stats --all`` count, and ``find`` searches);
- :mod:`.reads`: where a model may read (a project's agent folder linked out of the project
  counts for its skills alone), and E100 for a path it gives elsewhere;
- :mod:`.links`: the links of a store, which name the skills linked under another name;
- :mod:`.resolve`: a name resolved past the stores (:func:`skillc_index.resolve_skill`'s
  step 4), ``plugin:skill``, W001 for a name several skills have.

This ``__init__`` imports nothing: each command loads the module it uses.
"""
