"""Fonts for the PNG charts, chosen by what they cover: whatever is installed that draws the names.

    >>> plan = font_plan("Ann wins")         # faces in fallback order, and what none covers
    >>> plan.missing, plan.face_of("A") is not None
    ('', True)

(`font_plan("王芳 wins").face_of("王")` is a face of a CJK font where one is installed, for
example Face('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', 2, 'Noto Sans CJK SC').)

fontconfig is asked which installed faces cover the characters (`fc-list :charset=…`) and which
of those it prefers (`fc-match -s`); without fontconfig, matplotlib's font manager lists the
fonts and FreeType's character maps say what each covers. No font name is hard-coded, so a
Korean, Arabic or Devanagari name draws as well as a Chinese one when a font for it is installed.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

FORMAT = "%{file}\t%{index}\t%{family[0]}\t%{style[0]}\n"


@dataclass(frozen=True, slots=True)
class Face:
    """One face of an installed font file (a .ttc file holds several)."""

    path: str
    index: int
    family: str
    style: str = "Regular"


@dataclass(frozen=True, slots=True)
class FontPlan:
    """Which face draws each character: `faces[0]` unless `chars` says otherwise."""

    faces: tuple[Face, ...]
    chars: dict[str, Face] = field(default_factory=dict)
    missing: str = ""  # characters no installed face covers

    def face_of(self, char: str) -> Face | None:
        return self.chars.get(char, self.faces[0] if self.faces else None)


def _drawn(text: str) -> list[str]:
    """The characters a face must cover: not spaces, not format or control characters."""
    return sorted(
        {c for c in text if not c.isspace() and unicodedata.category(c) not in ("Cc", "Cf")}
    )


@cache
def font_plan(text: str) -> FontPlan:
    """The faces that draw `text`, in fallback order: one face if any covers every character,
    else a base face and one per character it lacks. Characters no face covers are `missing`."""
    chars = _drawn(text)
    finder = _fontconfig if shutil.which("fc-list") and shutil.which("fc-match") else _matplotlib
    return finder(chars)


# --- fontconfig ----------------------------------------------------------------------------------


def _run(args: list[str]) -> list[Face]:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    faces = []
    for line in done.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) == 4 and parts[0] and parts[1].isdecimal():
            faces.append(Face(parts[0], int(parts[1]), parts[2], parts[3]))
    return faces


def _charset(chars: Iterable[str]) -> str:
    return " ".join(f"{ord(c):x}" for c in chars)


def _lang(chars: Iterable[str]) -> str:
    # Han characters look different in Chinese, Japanese and Korean fonts; Zheng Fen is a
    # Chinese game, so Chinese forms are preferred among the faces that cover them.
    return ":lang=zh-cn" if any("\u4e00" <= c <= "\u9fff" for c in chars) else ""


@cache
def _best_fc(chars: tuple[str, ...]) -> Face | None:
    """fontconfig's preferred regular sans face among those covering every one of `chars`."""
    pattern = f":charset={_charset(chars)}" if chars else ""
    covering = {(f.path, f.index) for f in _run(["fc-list", pattern or ":", "--format", FORMAT])}
    if not covering:
        return None
    ranked = _run(["fc-match", "-s", f"sans-serif{_lang(chars)}{pattern}", "--format", FORMAT])
    ranked.sort(key=lambda f: f.style.casefold() not in ("regular", "book", "normal"))
    for face in ranked:  # a stable sort: fontconfig's order among the regular faces
        if (face.path, face.index) in covering:
            return face
    return None


def _fontconfig(chars: list[str]) -> FontPlan:
    whole = _best_fc(tuple(chars))
    if whole is not None:
        return FontPlan((whole,))
    base = _best_fc(tuple(c for c in chars if c.isascii())) or _best_fc(())
    if base is None:
        return FontPlan((), missing="".join(chars))
    per: dict[str, Face] = {}
    missing = []
    faces = [base]
    base_covers = {c for c in chars if _covers_fc(base, c)}
    for c in chars:
        if c in base_covers:
            continue
        face = _best_fc((c,))
        if face is None:
            missing.append(c)
            continue
        per[c] = face
        if face not in faces:
            faces.append(face)
    return FontPlan(tuple(faces), per, "".join(missing))


@cache
def _covers_fc(face: Face, char: str) -> bool:
    family = "".join("\\" + c if c in "\\-:," else c for c in face.family)
    found = _run(["fc-list", f"{family}:charset={ord(char):x}", "--format", FORMAT])
    return any((f.path, f.index) == (face.path, face.index) for f in found)


# --- without fontconfig: matplotlib's font list and FreeType's character maps --------------------


@cache
def _charmap(path: str) -> frozenset[int]:
    from matplotlib import ft2font

    try:
        return frozenset(ft2font.FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return frozenset()


def _matplotlib(chars: list[str]) -> FontPlan:
    from matplotlib import font_manager

    entries = sorted(
        font_manager.fontManager.ttflist,
        key=lambda f: (f.name != "DejaVu Sans", f.style != "normal", f.weight != 400, f.name),
    )
    faces = [
        Face(f.fname, 0, f.name) for f in entries if f.fname.lower().endswith((".ttf", ".otf"))
    ]
    for face in faces:
        if all(ord(c) in _charmap(face.path) for c in chars):
            return FontPlan((face,))
    if not faces:
        return FontPlan((), missing="".join(chars))
    per: dict[str, Face] = {}
    used = [faces[0]]
    missing: list[str] = []
    for c in chars:
        if ord(c) in _charmap(faces[0].path):
            continue
        found = next((f for f in faces if ord(c) in _charmap(f.path)), None)
        if found is None:
            missing.append(c)
        else:
            per[c] = found
            if found not in used:
                used.append(found)
    return FontPlan(tuple(used), per, "".join(missing))


@cache
def fonts_fingerprint() -> str:
    """A digest of the installed font files: installing a font changes it (and the cache key)."""
    if shutil.which("fc-list"):
        faces = _run(["fc-list", ":", "--format", FORMAT])
        listing = sorted(f"{f.path}|{f.index}|{f.family}" for f in faces)
    else:
        from matplotlib import font_manager

        listing = sorted(font_manager.findSystemFonts())
    return hashlib.sha256("\n".join(listing).encode()).hexdigest()[:16]


def describe_missing(missing: str) -> str:
    """`王 (U+738B), ب (U+0628)` for a notice."""
    return ", ".join(f"{c} (U+{ord(c):04X})" for c in missing)


__all__ = ["Face", "FontPlan", "describe_missing", "font_plan", "fonts_fingerprint"]
