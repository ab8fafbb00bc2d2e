"""The bounds of a ``find`` request, in a module of their own: the ``skc find`` client, the
find server, the catalog and the operation's schema all check them, and the client imports
nothing else of the gateway to do so."""

#: A longer query is refused (E100).
MAX_QUERY_CHARS = 10_000
#: At most this many skills per answer.
MAX_FIND_LIMIT = 100
