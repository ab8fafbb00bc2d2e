"""``skc list``: the skills of the stores (:mod:`~skillc_index.listing.skills`) and, with
``--budget``, what each agent folder costs the agent's skill listing
(:mod:`~skillc_index.listing.budget`, which returns :mod:`~skillc_index.listing.budget_result`'s
records).

This ``__init__`` imports nothing.
"""
