"""The single-file viewer: one static page that shows any hand passed in its URL fragment.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.games.zhengfen.pages.html import build_game_view
    >>> page = render_viewer()                   # viewer.html, the same for every site
    >>> viewer_link(build_game_view(broken_example()).hands[0])[:14]
    'viewer.html#z='

The fragment carries a hand's replay data (what a replay page holds inline), deflated and
base64url-encoded: the page needs no server and makes no request, and the data never leaves the
reader's browser (a fragment is not sent to any server). The script draws it as a replay page
does, with text only, so a crafted link can show nonsense but run nothing.
"""

from __future__ import annotations

import base64
import json
import zlib

from zfrec.games.zhengfen.pages.views import HandView
from zfrec.render.html import environment

FRAGMENT_KEY = "z"


def render_viewer() -> str:
    """viewer.html: the replay page's layout and script, reading its hand from the fragment."""
    return (
        environment()
        .get_template("viewer.html.j2")
        .render(scripts=("movelist.js", "replay.js", "viewer.js"))
    )


def encode_hand(view: HandView) -> str:
    """A hand's replay data as a fragment value: JSON, raw-deflated, base64url without padding."""
    text = json.dumps(view.data(), ensure_ascii=False, separators=(",", ":"))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress(text.encode()) + packer.flush()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def viewer_link(view: HandView, viewer_href: str = "viewer.html") -> str:
    """The viewer's address showing `view`."""
    return f"{viewer_href}#{FRAGMENT_KEY}={encode_hand(view)}"


__all__ = ["FRAGMENT_KEY", "encode_hand", "render_viewer", "viewer_link"]
