"""A record's content key: the sha256 of its deals and plays, kept in game.content_key so that
an import finds a stored game with a new game's deals and plays by an index, without reading
any stored record (zfrec.store.likeness). Pure functions of the canonical JSON: migration 0007
fills the key of the games stored before it with them.

Records are compared by their canonical JSON (zfrec.store.firstpass.canonical_json), whatever
their kind: the header (the tags, the players, the rules, the result, the comments) is left
out, and what remains is the body, the record's hands or rounds, each with its `deal`. Two
records with the same body, comments left out, have the same deals and plays.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from zfrec.record.jsonio import render_json

# The keys of a canonical record that are not its body (its hands or rounds)
HEADER = frozenset(
    {"game", "event", "site", "date", "players", "rules", "target", "result", "extra_tags",
     "comments"}
)  # fmt: skip


def body(text: str) -> dict[str, Any]:
    """The body of the canonical JSON `text`: its hands or rounds, comments left out."""
    data = json.loads(text)
    if not isinstance(data, dict):
        return {}
    found = {k: v for k, v in data.items() if k not in HEADER}
    # No "comments" key anywhere (most records): nothing to take out of the body.
    return _bare(found) if '"comments"' in text else found


def _bare(value: Any) -> Any:
    """`value` without its comments (a comment is not a deal or a play)."""
    if isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items() if k != "comments"}
    if isinstance(value, list):
        return [_bare(v) for v in value]
    return value


# A member of the record's object, as canonical JSON writes it: one a line at indent 2, its
# value on that line or on the lines after it, indented deeper.
_MEMBER = re.compile(r'\n  "([^"\\\n]+)": ')


def content_key(text: str, *, canonical: bool = True) -> str:
    """The sha256 of a record's deals and plays (its body, comments left out), from its
    canonical JSON `text`: the same for two records that differ only in their header or
    comments. The body's members are hashed as canonical JSON writes them, read off the text
    when it holds no comment and was written by this version (`canonical`), else from the
    record parsed, its comments taken out, and written again."""
    if not canonical or '"comments"' in text:
        data = json.loads(text)
        text = render_json(_bare(data)) if isinstance(data, dict) else "{}\n"
    digest = hashlib.sha256()
    members = list(_MEMBER.finditer(text))
    end = text.rstrip().rfind("}")
    for i, member in enumerate(members):
        if member.group(1) not in HEADER:
            stop = members[i + 1].start() if i + 1 < len(members) else end
            digest.update(text[member.start() + 1 : stop].rstrip().rstrip(",").encode())
            digest.update(b"\n")
    return digest.hexdigest()


__all__ = ["HEADER", "body", "content_key"]
