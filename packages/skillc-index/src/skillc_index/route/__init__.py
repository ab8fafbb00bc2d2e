"""``skc route``: an agent folder's skills behind one router skill (issue 15, "constant
listing cost").

``install`` moves every skill of one agent skills folder into the store of the same scope,
compiles each, and puts ONE skill in the folder, the router, which tells the agent to find
the skill for its task with ``skc find``/``skc_find`` and read it with show/open. The agent's
listing then costs one entry, however many skills there are. ``uninstall`` puts every skill
back where it was and removes the router, once no skill is behind it; ``status`` says what
is routed.

What moves where (always one ``rename``: nothing is copied, nothing deleted):

- a skill folder (a real folder holding ``SKILL.md``) goes to ``<store>/<name>``;
- a deployment skillc made (a symlink to a runtime, or a ``--copy`` stub, of a skill that is
  in a store) is *parked* as it is in ``<base>/.skillc/router/<agent>/<name>``: the skill is
  already in the store, so the folder only needs to lose it; a symlink is renamed itself,
  never what it points to. One that is the same link as one already parked (a build
  deployed it again while routed) is just removed: the parked one puts it back.

Left in place, and reported (the rest of the command goes on): a symlink skillc did not make
(skillc never moves what a link points to), a skill whose name the store already has, one
git tracks (``git ls-files``, asked once), one on another file system, one that does not
compile (it is moved back). The whole command refuses, changing nothing, when the agent
folder (or the store) leads outside the project or the home folder, when something skillc
cannot move holds the router's name, or outside a project for a project folder.

The manifest ``<base>/.skillc/router/<agent>.json`` records each move (name, kind, the
moved entry's device and inode, which a rename keeps, and what it holds, which a copy of the
project keeps) and is written *before* anything moves, so an interrupted run is finished by
running the command again: a recorded entry is where the record says (moved) or still in the
folder (planned again), whichever the file system shows. ``uninstall`` moves back only what
is at its recorded place with its recorded inode (or, in a copy of the project, what it
holds), and only to a free place; anything else is reported and left. The manifest also
names the runtimes install built where there was none, and what each runtime that was there
before held: ``uninstall`` removes the first and takes out of the others what install added,
once their skill is back (:mod:`~skillc_index.route.runtimes`).

The modules, in the order they build on each other:

- :mod:`~skillc_index.route.result`: what a command returns (``RouteResult``,
  ``RoutedSkill``, ``SkillLeft``) and the errors it raises;
- :mod:`~skillc_index.route.manifest`: the manifest, the record of each move;
- :mod:`~skillc_index.route.router_skill`: the router skill, its text and its place;
- :mod:`~skillc_index.route.place`: the folders a route concerns, their checks, the lock;
- :mod:`~skillc_index.route.plan`: what install does with each entry of the agent folder;
- :mod:`~skillc_index.route.parked`: the ``--copy`` stubs parked, refreshed where they are
  (by a build of the skill, and by install);
- :mod:`~skillc_index.route.runtimes`: the runtimes install builds, which uninstall removes
  (only those install created; from one there before, what install added);
- :mod:`~skillc_index.route.commands`: ``route_install``, ``route_status`` and the steps
  uninstall shares with install;
- :mod:`~skillc_index.route.uninstall`: ``route_uninstall``;
- :mod:`~skillc_index.route.operations`: the three commands as operations (``ROUTE_INSTALL``,
  ``ROUTE_UNINSTALL``, ``ROUTE_STATUS``).

This ``__init__`` imports nothing (it holds :data:`ROUTES_DIR`, which a build asks about).
"""

#: ``<base>/.skillc/router/``: the manifests (``<agent>.json``) and parked deployments.
ROUTES_DIR = "router"
