"""The pages' Jinja2 environment and its helpers, for every game: templates shipped in
zfrec.templates (scripts and styles minified), autoescape, compact JSON, the CSP hash of an
inline script. Each game builds its own views and pages on it (Zheng Fen's:
zfrec.games.zhengfen.pages.html).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.resources
from collections.abc import Callable
from functools import cache
from typing import Any

import jinja2
import orjson
from markupsafe import Markup

from zfrec.numbering import repeat_suffix
from zfrec.render.views import card_prose, isolate, place_word

__all__ = ["environment", "lean", "script_hash"]


# --- Jinja2 -----------------------------------------------------------------------------------


def _load_template(name: str) -> tuple[str, str, Callable[[], bool]] | None:
    resource = importlib.resources.files("zfrec.templates").joinpath(name)
    if not resource.is_file():
        return None
    text = resource.read_text("utf-8")
    if name.endswith((".js", ".css")):
        text = lean(text, name.endswith(".css"))
    return text, name, lambda: True


def lean(text: str, css: bool) -> str:
    """Script or style text as it goes into every page: minified (rjsmin, rcssmin: whitespace
    and comments only, no renaming), which takes about a fifth off each replay page."""
    import rcssmin
    import rjsmin

    return str(rcssmin.cssmin(text) if css else rjsmin.jsmin(text))


def _dumps(obj: Any) -> str:
    """Compact JSON with the text as it is (no \\u escapes), as `json.dumps(obj,
    ensure_ascii=False, separators=(",", ":"))` writes it, in a quarter of the time (orjson):
    a replay page's data is some 17 kB."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


class _Template(jinja2.Template):
    """A template that lets go of what it was given once it has rendered it.

    Jinja's render context holds the values passed in (a whole game's view), and the macros a
    template defines refer back to the context: the context is garbage in a cycle, and the
    view lived on until the garbage collector went over it, which cost `zfrec publish` a tenth
    of its time (zfrec.gctuning.collected_after). Emptied, the context holds nothing: the view
    goes as soon as its last reference does."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        if self.environment.is_async:  # not ours: Jinja's own way
            return super().render(*args, **kwargs)
        context = self.new_context(dict(*args, **kwargs))
        try:
            return self.environment.concat(self.root_render_func(context))
        except Exception:
            self.environment.handle_exception()
        finally:
            context.vars.clear()
            context.parent.clear()  # a copy of the globals and the values passed in


@cache
def environment() -> jinja2.Environment:
    """The Jinja2 environment: templates shipped in zfrec.templates, autoescape always on."""
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_load_template),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.template_class = _Template
    # |tojson escapes < > & ' so the JSON cannot close the <script> element it sits in.
    env.policies["json.dumps_function"] = _dumps
    env.policies["json.dumps_kwargs"] = {}
    env.globals["place_word"] = place_word
    env.globals["repeat_suffix"] = repeat_suffix  # `round 1 (2nd)` (zfrec.numbering)
    env.filters["cards"] = lambda text, names=(): card_prose(str(text), tuple(names))
    env.filters["isolate"] = isolate
    env.globals["script_hash"] = script_hash
    return env


@cache
def script_hash(name: str) -> Markup:
    """The CSP source that allows exactly the inline script `name` (as it is included)."""
    text = environment().get_template(name).render()
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return Markup(f"'sha256-{digest}'")  # base64 and quotes only: nothing to escape
