"""``skc route``: an agent folder's skills behind one router skill (issue 15, "constant
listing cost").

This ``__init__`` imports nothing.
"""
