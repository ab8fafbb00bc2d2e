"""The tool model of gibb.eri.sh skills (spec/003), which ``skc lint --profile gibberish``,
``skc tools`` and ``skc run`` share.

- :mod:`~skillc_index.tools.model`: ``read_tool_skill``, a SKILL.md whose body defines tools,
  parsed once into ``ToolSkill`` / ``Tool`` / ``Parameter`` and the issues found;
- :mod:`~skillc_index.tools.command`: a tool's command, split into words like a shell but
  never run by one (``parse_command``, ``CommandTemplate.render``);
- :mod:`~skillc_index.tools.code_values`: which of its values would be code (``CodeValue``:
  an interpreter's script, a wrapper's program), what ``CommandTemplate.code_values`` reports;
- :mod:`~skillc_index.tools.programs`: which words of a command are programs (the first, what
  each wrapper runs), read by the tables of :mod:`~skillc_index.tools.interpreters` (what
  each interpreter takes as code) and :mod:`~skillc_index.tools.wrappers` (what each wrapper
  and package runner runs);
- :mod:`~skillc_index.tools.errors`: the errors of a tool the skill lacks or cannot run
  (``UnknownSkillTool``, ``BrokenTool``, ``ToolArgumentError``, ``UnsupportedPlatform``).

This ``__init__`` imports nothing.
"""
