"""The publish benchmark measures what `zfrec publish` does by default: with the solver's marks."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bench.publish_bench import _store, corpus, publish_site
from zfrec.cli.render_cmds import SOLVE_CARDS
from zfrec.games.zhengfen.analysis.costs import COST_BUDGET


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


@pytest.mark.slow
def test_the_publish_profile_profiles_one_publish_after_a_first(tmp_path: Path) -> None:
    from bench.publish_profile import lift_time_budgets, profile_publish
    from zfrec.games.zhengfen.pages import analysis

    stats, hands = profile_publish(tmp_path, 8, SOLVE_CARDS)
    assert hands > 0
    # one publish profiled, of the first of the corpus's four files (two games of eight), with
    # the solver's searches
    calls = {f[2]: nc for f, (_, nc, *_) in stats.stats.items()}  # type: ignore[attr-defined]
    assert calls["publish_site"] == 1
    assert calls["render_record_json"] == 2
    assert calls["value_bounds"] > 0
    assert (tmp_path / "site" / "index.html").is_file()
    seconds = analysis.PAGE_SECONDS
    try:
        lift_time_budgets()
        assert analysis.PAGE_SECONDS is None
    finally:
        analysis.PAGE_SECONDS = seconds
        analysis.COST_BUDGET = replace(analysis.COST_BUDGET, seconds=COST_BUDGET.seconds)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_the_callgrind_marks_bracket_the_publish_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from bench.publish_profile import marked_publish

    index = tmp_path / "site" / "index.html"
    seen: list[bool] = []  # at each mark: whether the measured publish's site is there
    plain = sys.getswitchinterval

    def mark() -> float:
        seen.append(index.is_file())
        return plain()

    monkeypatch.setattr(sys, "getswitchinterval", mark)
    assert marked_publish(tmp_path, 8, SOLVE_CARDS) > 0
    assert seen == [
        False,
        True,
    ]  # once before the publish (the first one's site removed), once after
