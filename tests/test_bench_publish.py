"""The publish benchmark measures what `zfrec publish` does by default: with the solver's marks."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.publish_bench import _store, corpus, publish_site
from zfrec.cli.render_cmds import SOLVE_CARDS


@pytest.mark.slow
def test_the_publish_benchmark_publishes_with_the_default_solver_marks(tmp_path: Path) -> None:
    assert SOLVE_CARDS > 0  # the figure without marks is publish_nosolve_hands_per_s
    record, hands = corpus(tmp_path, 30)
    db = _store(tmp_path, [record])
    site = tmp_path / "site"
    assert publish_site(db, site, jobs=1) > 0
    pages = [p.read_text(encoding="utf-8") for p in site.glob("games/*/hand-*.html")]
    assert len(pages) == hands
    # each hand's end has a "perfect play from here" table on its steps
    assert sum('"perfect":[' in page for page in pages) >= hands // 2
    plain = tmp_path / "plain"
    db = _store(tmp_path, [record])
    assert publish_site(db, plain, jobs=1, solve_cards=0) > 0
    assert not any('"perfect":[' in p.read_text("utf-8") for p in plain.glob("games/*/hand-*.html"))
