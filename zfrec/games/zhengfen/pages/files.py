"""A Zheng Fen game's files (`ZhengFenKind.render_files`): its page, a replay per hand, the
charts, the analysis marks, the verdicts on disputed moves and the audit page of a broken
record. The generic layer (zfrec.render.gamefiles) names the files and keys their cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from zfrec.diagnostics import Diagnostic
from zfrec.games.zhengfen.pages.analysis import analysed_view, render_audit
from zfrec.games.zhengfen.pages.html import build_game_view, render_game, render_hand
from zfrec.games.zhengfen.pages.views import DiagnosticView, Finding
from zfrec.record.model import Game
from zfrec.render.gamefiles import (
    AUDIT_PAGE,
    Decorate,
    GameMeta,
    OutputFile,
    RenderedGame,
    chart_files,
    hand_page,
    repeated_pages,
)

__all__ = ["render_zhengfen_files"]


def render_zhengfen_files(
    record: Game,
    *,
    viewer: int | None = None,
    index_href: str | None = None,
    player_hrefs: dict[str, str] | None = None,
    decorate: Decorate | None = None,
    charts: bool = True,
    analysis: bool = True,
    audit: bool = False,
    viewer_href: str | None = None,
    solve_cards: int = 0,
    reading: Sequence[Diagnostic] = (),
) -> RenderedGame:
    """A Zheng Fen game's files (its kind's `render_files`): pages, replays, charts, audit.

    `reading`: a stored game's reading findings (zfrec.render.gamefiles.stored_reading), shown
    first among the findings of the game page and the audit page, and counted with them."""
    from zfrec.games.zhengfen.pages.charts import game_charts

    # Disputed moves with other versions are judged in the same pass (not in a seat's view: a
    # verdict may tell what a hand held).
    judge = None
    if viewer is None and any(
        m.alternatives for h in record.hands for t in h.tricks for m in t.moves
    ):
        from zfrec.games.zhengfen.analysis.disputes import DisputeJudge

        judge = DisputeJudge(record)
    more = [judge] if judge is not None else []
    if analysis:  # one replay pass feeds the pages, the analysis and the disputes
        view = analysed_view(
            record, viewer=viewer, hand_href=hand_page, solve_cards=solve_cards, visitors=more
        )
    else:
        view = build_game_view(record, viewer=viewer, hand_href=hand_page, visitors=more)
    view.index_href = index_href
    view.player_hrefs = dict(player_hrefs or {})
    names = tuple(record.players)
    view.findings[:0] = [Finding(DiagnosticView.of(d, names), None) for d in reading]
    for d in reading:  # counted in its hand's row too
        loc = d.location
        for i, sm in enumerate(view.summaries):
            if (sm.number, sm.occurrence) == (loc.hand, loc.occurrence):
                add = (d.severity == "error", d.severity == "warning")
                view.summaries[i] = replace(sm, errors=sm.errors + add[0],
                                            warnings=sm.warnings + add[1])  # fmt: skip
                break
    for hand in view.hands:
        hand.game_href = "index.html"
        hand.viewer_href = viewer_href
    if judge is not None:
        from zfrec.games.zhengfen.pages.disputes import mark_disputes

        mark_disputes(view, record, judge.verdicts())
    extra: list[OutputFile] = []
    # The replay already found every diagnostic the validator would: a record without errors
    # is legal, and its audit would only validate it again.
    if audit and viewer is None and view.errors:
        from zfrec.games.zhengfen.analysis.audit import audit as audit_record

        report = audit_record(record)
        legal = report.legal  # the stored record's: no audit page when only its reading failed
        if reading:
            own = report.report
            report = replace(report, report=replace(own, diagnostics=(*reading, *own.diagnostics)))
        if not legal:
            view.audit_href = AUDIT_PAGE
            extra.append(OutputFile(AUDIT_PAGE, render_audit(view, report).encode()))
    if decorate is not None:
        decorate(view)
    files = [OutputFile(h.href, render_hand(h).encode()) for h in view.hands]
    embeds, notices = chart_files(game_charts(view) if charts else [], files)
    files.append(OutputFile("index.html", render_game(view, embeds).encode()))
    numbers = [h.number for h in view.hands]
    repeated = repeated_pages(numbers, [h.href for h in view.hands])
    meta = GameMeta(
        view.disputes, view.specials, view.audit_href is not None, tuple(notices),
        repeated=repeated,
    )  # fmt: skip
    return RenderedGame(files + extra, meta)
