"""The console adapter: a whole group chat in a terminal, no accounts needed.

Nothing is imported here: the command line loads this package's plugin (`cli.py`) at every
start, and the session pulls in the whole service and the ORM (see tests/unit/test_startup.py).
"""
