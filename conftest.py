"""pytest: what the doctest collection over zfrec/ leaves out (see pyproject.toml).

`python -m zfrec` and the Alembic migration scripts run when imported. The other modules listed
show their use with `>>>` lines that are sketches (they need a file, a database or a game at
hand) rather than runnable examples; each is a candidate for a real doctest.
"""

from __future__ import annotations

collect_ignore = [
    "zfrec/__main__.py",
    "zfrec/store/migrations",
    # `>>>` sketches, not doctests:
    "zfrec/record/__init__.py",
    "zfrec/render/__init__.py",
    "zfrec/render/html.py",
    "zfrec/render/site.py",
    "zfrec/cli/site_writer.py",
    "zfrec/store/__init__.py",
    "zfrec/store/db.py",
    "zfrec/store/store.py",
]
