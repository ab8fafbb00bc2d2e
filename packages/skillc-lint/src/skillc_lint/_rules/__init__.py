"""The lint rules, one module per rule set, each ending with its ``RULES`` table.

Every module has the same shape, markdown-it-py's: small named functions
``check(skill, options) -> findings`` that read only the parsed model
(:class:`~skillc_lint._skill.Skill`, whose ``text`` reads a file once, bounded; a folder rule
gets the folder and reads its manifests itself, bounded), then
``RULES: tuple[Rule, ...]``, each check with its id, name, default severity, summary, options
and category, in the order the rules run. A dialect module also names the frontmatter
``FIELDS`` it makes known to SKL109.

- :mod:`.rfc0008`: the built-in rules of RFC-0008:C-REGISTRY (SKL001-SKL401), in every
  registry (:mod:`.files`: what SKL100 reads of the side files agents read, and SKL402, Git
  LFS pointers, in the ``agentskills`` profile);
- :mod:`.agentskills`: the Agent Skills standard's optional fields (SKL501-SKL504);
- :mod:`.security` and :mod:`.budget`: the security rules (SKL901-SKL908, tag ``security``;
  SKL903's phrases are read by :mod:`.injection`, SKL901's characters by :mod:`.invisible`)
  and the budget rules (SKL921-SKL923, tag ``budget``), in the ``agentskills`` profile;
- :mod:`.targets`: what the chosen agents and package formats drop, change or refuse
  (SKL931-SKL933, ``--target`` / ``[lint] targets``), in the ``agentskills`` profile;
- :mod:`.claude_code`: Claude Code's frontmatter extensions (SKL601-SKL606),
  :mod:`.claude_guidance` what it does with a skill's text and tools (SKL607-SKL609), and
  :mod:`.plugins` its plugin and marketplace manifests (SKL611-SKL612, folder rules);
- :mod:`.skillli` and :mod:`.quiz`: skillli's registry fields (SKL701-SKL705) and quiz gates
  (SKL721-SKL726);
- :mod:`.gibberish`: gibb.eri.sh tool-defining skills (SKL801-SKL820);
- :mod:`.fields`: what the rules share (frontmatter lookups, type names, semver).

Which rules a registry holds is decided in one place, :mod:`skillc_lint._profiles`.
"""
