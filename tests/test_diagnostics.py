"""The rules the diagnostic codes cite, in the code and in DIAGNOSTICS.md, agree.

A code cites rules in three ways: its `rule` (CODES, the `rule` of `--json`), and the rules its
messages end with, `(RULES.md R6, R26)` or `(RULES-SHENGJI.md R7, R11)`, either written in the
message or given as Sheng ji's `note(..., rule="7, 11")`. DIAGNOSTICS.md's table gives each code's
rules in its `rule` column. Every rule the code cites must be in that column, for both games; and
for Sheng ji, whose every citation goes through `note`, that column must cite nothing the code
never does. Zheng Fen's engine words some citations itself, away from any code (zfrec.games.
zhengfen.engine.combos), so its column may name more than can be found here.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from zfrec.diagnostics import CODES
from zfrec.validate import validate_path

ROOT = Path(__file__).resolve().parent.parent
CODE_RE = re.compile(r"(ZF|SJ)\d{3}")
CITE_RE = re.compile(r"\(RULES(?:-SHENGJI)?\.md (R\d+(?:, R\d+)*)\)")
ROW_RE = re.compile(r"^\| ((?:ZF|SJ)\d{3}) \| \w+ \| ([^|]*)\|", re.MULTILINE)


def _documented() -> dict[str, set[str]]:
    doc = (ROOT / "DIAGNOSTICS.md").read_text(encoding="utf-8")
    rows: dict[str, set[str]] = {}
    for m in ROW_RE.finditer(doc):
        assert m.group(1) not in rows, f"{m.group(1)} has two rows"
        rows[m.group(1)] = {r.strip() for r in m.group(2).split(",") if r.strip().startswith("R")}
    return rows


def _strings(nodes: list[ast.expr]) -> Iterator[str]:
    for node in nodes:
        for n in ast.walk(node):
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                yield n.value


def _cited_in_the_source() -> dict[str, set[str]]:
    """What each call that names a code (its first argument, written out) cites: the rules its
    message's text ends with, and its `rule=` (Sheng ji's `note`)."""
    cited: dict[str, set[str]] = defaultdict(set)
    for path in (ROOT / "zfrec").rglob("*.py"):
        for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(call, ast.Call) or not call.args:
                continue
            first = call.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            if not CODE_RE.fullmatch(first.value):
                continue
            for m in CITE_RE.finditer("".join(_strings(call.args[1:]))):
                cited[first.value].update(m.group(1).split(", "))
            for kw in call.keywords:
                if kw.arg == "rule" and isinstance(kw.value, ast.Constant):
                    rules = str(kw.value.value).split(",")
                    cited[first.value].update(f"R{r.strip()}" for r in rules)
    return cited


def _cited_by_the_samples() -> dict[str, set[str]]:
    """What the messages cite when the samples and test records are validated (citations the
    code words at run time: an engine's error, a rule chosen by the case)."""
    cited: dict[str, set[str]] = defaultdict(set)
    paths = [*(ROOT / "sample_games").rglob("*"), *(ROOT / "tests" / "data").rglob("*")]
    for path in sorted(p for p in paths if p.suffix in (".zfn", ".json")):
        for item in validate_path(path):
            for d in getattr(item, "diagnostics", [item]):
                for m in CITE_RE.finditer(d.message):
                    cited[d.code].update(m.group(1).split(", "))
    return cited


@pytest.fixture(scope="module")
def cited() -> dict[str, set[str]]:
    found = _cited_in_the_source()
    for code, rules in _cited_by_the_samples().items():
        found[code] |= rules
    for code, info in CODES.items():
        if info.rule:
            found[code].add(info.rule)
    return found


def test_every_code_has_one_row() -> None:
    assert set(_documented()) == set(CODES)


def test_every_rule_a_code_cites_is_cited_for_it_in_diagnostics_md(
    cited: dict[str, set[str]],
) -> None:
    documented = _documented()
    # both games: ZF and SJ codes alike
    assert {c[:2] for c in cited} == {"ZF", "SJ"}
    missing = {code: sorted(rules - documented[code]) for code, rules in cited.items()}
    assert {code: rules for code, rules in missing.items() if rules} == {}


def test_diagnostics_md_cites_no_rule_a_sheng_ji_code_never_does(
    cited: dict[str, set[str]],
) -> None:
    extra = {
        code: sorted(rules - cited.get(code, set()))
        for code, rules in _documented().items()
        if code.startswith("SJ")
    }
    assert {code: rules for code, rules in extra.items() if rules} == {}
