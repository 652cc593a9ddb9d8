"""Zheng Fen's live table as JSON: the state a client needs to show it (LIVE.md, "The state"),
made by `ZhengFenKind.live_state` for the generic table (`zfrec.live.table.cached_state`), and
the rules of a new table (`ZhengFenKind.live_rules`). Seats are 1-based here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zfrec.games.zhengfen.engine.cards import format_cards, points_of
from zfrec.games.zhengfen.engine.game import hand_sizes, next_seat
from zfrec.games.zhengfen.engine.movegen import example, legal_plays
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.live import LiveGame
from zfrec.games.zhengfen.pages.html import build_game_view, render_hand
from zfrec.record.model import Game


def hand_page(record: Game, number: int, seat: int | None) -> str | None:
    """The live server's replay page of hand `number` (`ZhengFenKind.live_hand_page`): the
    published hand page, drawn for `seat` (1-based) if given, or None before that hand."""
    view = build_game_view(
        record,
        viewer=None if seat is None else seat - 1,
        hand_href=lambda k: f"{k}" + ("" if seat is None else f"?seat={seat}"),
    )
    hands = {h.number: h for h in view.hands}
    if number not in hands:
        return None
    return render_hand(hands[number])


def check_table(
    players: Sequence[str], name: str | None, options: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """A new table's preset and overridden options, `target` always among them (the table
    stores it apart); RulesError if they do not stand together."""
    ruleset = preset(name or "pagat", **options)
    overrides = {k: v for k, v in ruleset.overrides().items() if k != "target"}
    return ruleset.preset, {**overrides, "target": ruleset.target}


def state_json(
    table_id: str, live: LiveGame, *, viewer: int | None = None, since: int = 0
) -> dict[str, Any]:
    """What a client needs to show the table (LIVE.md, "The state"). Seats are 1-based."""
    header, game, hs = live.header, live.game, live.hand
    n = live.n
    view = None if viewer is None else viewer - 1
    moves = live.move_list()
    over = game.over and (hs is None or hs.over)
    status = "new" if hs is None else "playing" if not hs.over else "over" if over else "between"
    out: dict[str, Any] = {
        "id": table_id,
        "version": live.version,
        "players": list(header.players),
        "rules": header.preset,
        "options": dict(header.options),
        "target": header.target,
        "event": header.event,
        "date": header.date,
        "status": status,
        "hand": hs.number if hs is not None else None,
        "hand_over": hs is not None and hs.over,
        "trick": None,
        "turn": None,
        "can_pass": False,
        "top": None,
        "top_seat": None,
        "top_reading": None,
        "trick_moves": [],
        "cards_left": [None] * n,
        "hands": [None] * n,
        "points": [0] * n,
        "out": [None] * n,
        "scores": list(game.scores),
        "moves": moves[since:],
        "moves_from": min(since, len(moves)),
        "moves_total": len(moves),
        "entries": len(live.entries),
        "legal": None,
        "played": "",
        "next": None,
        "last_hand": _result_json(live),
        "winners": [s + 1 for s in game.winners()],
    }
    if hs is not None:
        out.update(_hand_json(live, view))
    if (hs is None or hs.over) and not game.over:
        shuffler = game.next_shuffler()
        leader = game.previous.first if game.previous is not None else None
        # Hand sizes follow the draw order: from the previous first-out, or in hand 1 from
        # the seat after whoever shuffles (one list per possible shuffler).
        sizes = [hand_sizes(n, leader if leader is not None else next_seat(s, n)) for s in range(n)]
        out["next"] = {
            "hand": game.hands_played + 1,
            "shuffler": None if shuffler is None else shuffler + 1,
            "leader": None if leader is None else leader + 1,
            "sizes": sizes,
        }
    return out


def _hand_json(live: LiveGame, view: int | None) -> dict[str, Any]:
    hs = live.hand
    assert hs is not None
    n = hs.n
    hands: list[dict[str, Any] | None] = []
    for s in range(n):
        if view is not None and s != view:
            hands.append(None)
            continue
        known = live.seat_known(s)
        cards = hs.hands[s] if known or hs.deal is None else hs.hands[s] & hs.deal.known[s]
        hands.append(
            {
                "cards": format_cards(cards),
                "unknown": hs.hands[s].bit_count() - cards.bit_count(),
                "known": known,
            }
        )
    places: list[int | None] = [None] * n
    for place, seat in enumerate(hs.out_order, 1):
        places[seat] = place
    shuffler = live.shuffler()
    out: dict[str, Any] = {
        "trick": None if hs.over else hs.trick,
        "turn": None if hs.over else hs.turn + 1,
        "can_pass": not hs.over and hs.top is not None,
        "top": None if hs.top is None else hs.top.text(),
        "top_seat": None if hs.top_seat is None else hs.top_seat + 1,
        "top_reading": None if hs.top is None else hs.top.describe(),
        "trick_open": hs.top is not None,
        # For a page to name the passes a play by a later seat implies: the seats that would
        # pass in turn, and who leads once they all have.
        "pass_chain": [] if hs.over or hs.top is None else [p + 1 for p in hs.pass_chain()],
        "next_leader": None if (lead := hs.next_leader()) is None else lead + 1,
        "trick_moves": [
            {"seat": e.data["seat"] + 1, "play": e.data["play"]} for e in live.line_entries()
        ],
        "cards_left": [h.bit_count() for h in hs.hands],
        "hands": hands,
        "points": [points_of(w) for w in hs.won],
        "out": places,
        "played": format_cards(live.played()),
        "shuffler": None if shuffler is None else shuffler + 1,
        "leader": hs.turn + 1 if hs.trick == 1 and hs.turn_in_trick == 1 else None,
    }
    mover = hs.turn
    if not hs.over and (view is None or view == mover) and live.seat_known(mover):
        found = legal_plays(hs.hands[mover], hs.top, hs.rules)
        plays = [example(hs.hands[mover], m) for m in found]
        out["legal"] = [{"play": c.text(), "reading": c.describe()} for c in plays]
    return out


def _result_json(live: LiveGame) -> dict[str, Any] | None:
    r = live.last_result
    if r is None:
        return None
    game = live.game
    return {
        "hand": game.hands_played,
        "points": list(r.points),
        "first": r.first + 1,
        "last": r.last + 1,
        "out_order": [s + 1 for s in r.out_order],
        "transfer_points": r.transfer_points,
        "transfer_cards": format_cards(r.transfer_tricks | r.transfer_hand),
        "totals": list(game.scores),
    }
