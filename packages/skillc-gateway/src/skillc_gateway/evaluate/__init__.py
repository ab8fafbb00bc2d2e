"""``skc eval``: will the agent pick this skill? Trigger cases scored offline against the
listing the agent really sees (issue 38).

- :mod:`.cases`: the trigger cases of a skill (``evals/evals.json`` in the Agent Skills and
  skill-creator spellings, skill-creator trigger sets, ``evals/triggers.yaml``) and the
  starter file of ``--init``;
- :mod:`.library`: the library the cases are scored against (its listing per agent) and
  the lexical ranking of a case over it, made of ``skc find``'s ranker over the listing's
  text only;
- :mod:`.agent_library`: the library of a run (the skills under the folders given, or the
  installed skills the agent lists and those behind its router);
- :mod:`.routed`: the skills behind the router of ``skc route`` (ranked as ``find`` ranks
  them), and the installed skills with cases the agent meets neither way;
- :mod:`.overlap`: collisions (skills taking each other's cases, near-duplicate
  descriptions) and the mutation check (which phrases of a description the cases need);
- :mod:`.live`: the optional live mode (a user's agent command per case, no shell);
- :mod:`.report`: the result, its JSON, table, SARIF and GitHub annotations;
- :mod:`.run`: the evaluation as a whole (what the ``eval`` operation calls).

Why in skillc-gateway: the score is a ranking over the installed skills' listing, and the
ranker (:mod:`skillc_gateway.catalog.rank`) lives here; skillc-index owns the listing model
(:mod:`skillc_index.listing.agents`) that both ``skc list --budget`` and this use.
"""
