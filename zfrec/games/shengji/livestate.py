"""The JSON state of a Sheng ji live table (LIVE.md, "Sheng ji", "The state"): what a client
needs to show the table, from the table's match in memory (`zfrec.games.shengji.live.SjLive`).
Seats are 1-based here, as in the JSON API."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zfrec.games.shengji.cards import format_hand, points, size
from zfrec.games.shengji.formats import classify, unit_text
from zfrec.games.shengji.notation import ordinal_text
from zfrec.games.shengji.offers import follow_offer, lead_count, lead_units, units_text
from zfrec.games.shengji.records import SjRound
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import level_text
from zfrec.games.shengji.trick import trick_winner

if TYPE_CHECKING:
    from zfrec.games.shengji.live import SjLive

__all__ = ["sj_live_state"]

MAX_LEGAL = 60  # legal plays listed for the seat to move (a lead may have thousands)


def sj_live_state(
    table_id: str, live: SjLive, *, viewer: int | None = None, since: int = 0
) -> dict[str, Any]:
    """What a client needs to show a Sheng ji table (LIVE.md, "Sheng ji"). Seats 1-based."""
    h, n = live.header, live.n
    view = None if viewer is None else viewer - 1
    moves = _move_list(live, view)
    rnd = live.rounds[-1] if live.rounds else None
    done = live.done[-1] if live.rounds else None
    state = live.cur.state if live.cur is not None else None
    over = bool(live.winners)
    status = "new" if rnd is None else "over" if over else "between" if done else "playing"
    fixed = live.rules.fixed_partners and n == 4
    out: dict[str, Any] = {
        "id": table_id, "version": live.version, "game": "shengji", "players": list(h.players),
        "rules": h.preset, "options": dict(h.options), "target": None, "event": h.event,
        "date": h.date, "status": status,
        "teams": [[1, 3], [2, 4]] if fixed else None,
        "levels": [level_text(v) for v in live.levels],
        "hand": None if rnd is None else rnd.number, "round": None if rnd is None else rnd.number,
        "hand_over": done is not None, "phase": None, "dealer": None, "rank": None,
        "trump": None, "declarers": [], "trick": None, "turn": None, "can_pass": False,
        "trick_moves": [], "winning": None, "points": 0, "cards_left": [None] * n,
        "hands": [None] * n, "moves": moves[since:], "moves_from": min(since, len(moves)),
        "moves_total": len(moves), "entries": len(live.entries), "legal": None,
        "offer": None, "picked_dealer": None,
        "bids": [], "kitty": None, "discard": None, "last_round": _round_end(live),
        "next": None, "winners": [s + 1 for s in live.winners],
    }  # fmt: skip
    if rnd is not None:
        dealer, picked = live.dealer(), live.overruled()
        out.update(
            dealer=None if dealer is None else dealer + 1, rank=level_text(rnd.rank or 2),
            picked_dealer=None if picked is None else picked + 1,
            trump=live.trump(), bids=[{"seat": b.seat + 1, "cards": format_hand(b.cards)}
                                      for b in rnd.bids],
        )  # fmt: skip
        if rnd.discard is not None and (view is None or view == dealer or done is not None):
            out["discard"] = format_hand(rnd.discard.known)
        if rnd.kitty is not None and (view is None or view == dealer or done is not None):
            out["kitty"] = format_hand(rnd.kitty.known)
    if state is not None and rnd is not None:
        out.update(_play_json(live, state, rnd, view))
    elif rnd is not None:
        out["phase"] = "bids"
    nxt = live.next_round()
    if nxt is not None:
        number, dealer_next, rank = nxt
        out["next"] = {"hand": number, "round": number, "rank": level_text(rank),
                       "dealer": None if dealer_next is None else dealer_next + 1}  # fmt: skip
    return out


def _with_kitty(rnd: SjRound, dealer: int) -> int:
    """The dealer's whole deal and the kitty, where both are known (else 0)."""
    if rnd.deal is None or rnd.kitty is None or rnd.kitty.unknown:
        return 0
    dealt = rnd.deal[dealer]
    return 0 if dealt.unknown or not dealt.known else dealt.known + rnd.kitty.known


def _play_json(live: SjLive, state: RoundState, rnd: SjRound, view: int | None) -> dict[str, Any]:
    n = live.n
    rb = live.cur.rebuilt if live.cur is not None else None
    over = state.result is not None
    phase = "over" if over else "play" if rnd.tricks else "exchange" if rnd.discard is None \
        else "play"  # fmt: skip
    if not rnd.tricks and not rnd.discard and not rnd.trump and not rnd.bids:
        phase = "bids"
    declarers = [s + 1 for s in range(n) if state.declarers >> s & 1]
    hands: list[dict[str, Any] | None] = []
    for s in range(n):
        if view is not None and s != view:
            hands.append(None)
            continue
        if phase == "exchange" and s == live.dealer() and (whole := _with_kitty(rnd, s)):
            # the dealer's deal and the kitty, both known: the cards the discard comes from
            hands.append({"cards": format_hand(whole), "unknown": 0, "known": True})
            continue
        guessed = rb.guessed[s] if rb is not None else 0
        known = _less(state.hands[s], guessed)
        hands.append({"cards": format_hand(known), "unknown": size(state.hands[s]) - size(known),
                      "known": not guessed})  # fmt: skip
    trick_moves, winning = [], None
    shown = list(state.trick_plays)
    if not shown and rnd.tricks and not over and len(rnd.tricks[-1].moves) == n:
        shown = []  # the last trick is complete: the next one starts empty
    order = state.order
    for i, (seat, cards) in enumerate(shown):
        item: dict[str, Any] = {"seat": seat + 1, "play": format_hand(cards)}
        if i == 0 and order is not None:
            try:
                fmt = classify(order, cards)
                item["units"] = [unit_text(u) for u in fmt.units]
                item["kind"] = fmt.kind
            except Exception:  # a lead the replay judged no lead: shown as written
                item["units"] = [format_hand(cards)]
        trick_moves.append(item)
    if shown and order is not None and state.lead is not None:
        at = trick_winner(order, [c for _, c in shown], state.lead)
        winning = shown[at][0] + 1
    taken = sum(state.won[s] for s in range(n) if not state.declarers >> s & 1)
    out: dict[str, Any] = {
        "phase": phase, "declarers": declarers, "trick": None if over else state.trick,
        "turn": None if over else state.turn + 1, "trick_moves": trick_moves,
        "winning": winning, "points": taken, "cards_left": [size(x) for x in state.hands],
        "hands": hands, "trick_points": points(sum(c for _, c in shown)),
        "last_trick": _last_trick(rnd, n, over),
    }  # fmt: skip
    mover = state.turn
    if not over and (view is None or view == mover) and rb is not None and not rb.guessed[mover]:
        out["offer"] = offer = _offer(state, mover)
        plays = _few_plays(state, offer)
        if plays is not None:
            out["legal"] = [{"play": p} for p in plays]
    return out


def _few_plays(state: RoundState, offer: dict[str, Any] | None) -> list[str] | None:
    """`state.legal_plays()` as text where there are at most MAX_LEGAL, else None: a follow's
    are the `offer`'s (`_offer`, listed up to its own cap), and a lead's are counted first, as a
    hand of many trumps has a million leads (a second to list)."""
    if offer is not None and not offer["lead"]:
        return offer["plays"] if offer["count"] <= MAX_LEGAL else None
    order, hand = state.order, state.hands[state.turn]
    at_lead = state.phase == "play" and state.lead is None
    if at_lead and order is not None and lead_count(order, hand) > MAX_LEGAL:
        return None
    return [format_hand(p) for p in state.legal_plays()]


def _offer(state: RoundState, mover: int) -> dict[str, Any] | None:
    """The plays to tap for the seat to move, whose hand is known (LIVE.md, `offer`)."""
    order, hand = state.order, state.hands[mover]
    if order is None or not hand or state.phase != "play":
        return None
    if state.lead is None:
        units = lead_units(order, hand)
        return {"seat": mover + 1, "lead": True, "plays": units_text(units),
                "count": len(units), "must": None, "more": 0}  # fmt: skip
    return {"seat": mover + 1, "lead": False, **follow_offer(order, state.lead, hand)}


def _last_trick(rnd: SjRound, n: int, over: bool) -> list[dict[str, Any]] | None:
    full = [t for t in rnd.tricks if len(t.moves) == n]
    if not full:
        return None
    return [{"seat": m.seat + 1, "play": format_hand(m.cards),
             **({"forced": format_hand(m.played)} if m.failed else {})}
            for m in full[-1].moves]  # fmt: skip


def _round_end(live: SjLive) -> dict[str, Any] | None:
    done = live.last_result
    if done is None or not live.rounds:
        return None
    i = max(k for k, d in enumerate(live.done) if d is not None)
    r, rnd = done.result, live.rounds[i]
    counted = not r.declarers >> r.last_winner & 1  # the kitty counts for the opponents only
    return {
        "round": rnd.number, "declarers": [s + 1 for s in range(live.n) if r.declarers >> s & 1],
        "taken": r.taken, "kitty": format_hand(rnd.discard.known) if rnd.discard else None,
        "kitty_points": r.kitty_points if counted else None,
        "multiplier": r.multiplier if counted else None, "penalty": r.penalty,
        "total": r.total, "change": {"declarers": r.change.declarers,
                                     "opponents": r.change.opponents, "swap": r.change.swap},
        "next_dealer": r.next_dealer + 1, "levels": [level_text(v) for v in done.levels],
    }  # fmt: skip


def _move_list(live: SjLive, view: int | None = None) -> list[dict[str, Any]]:
    """The moves entered; a dealer's discard is left out of another seat's view (`view`)
    until its round is over."""
    out: list[dict[str, Any]] = []
    rnd = 0
    for e in live.entries:
        if e.kind == "hand":
            rnd += 1
            continue
        d = e.data
        item: dict[str, Any] = {"hand": rnd, "round": rnd, "seat": int(d["seat"]) + 1,
                                "entry": e.seq}  # fmt: skip
        for k in ("play", "bid", "discard", "forced", "shows", "joins"):
            if k in d:
                item[k] = d[k]
        if "calls" in d:
            item["calls"] = " ".join(f"{ordinal_text(o)} {format_hand(1 << 2 * c)}"
                                     for c, o in d["calls"])  # fmt: skip
        hidden = view is not None and view != d["seat"] and live.done[rnd - 1] is None
        if "discard" in d and hidden:
            item["discard"] = "(hidden)"
        if "blocker" in d:
            item["blocked_by"] = int(d["blocker"]) + 1
        out.append(item)
    return out


def _less(a: int, b: int) -> int:
    """The multiset `a` without the copies in `b` (as far as `a` holds them)."""
    out = 0
    for k in range(54):
        have, drop = a >> 2 * k & 3, b >> 2 * k & 3
        if have > drop:
            out |= (have - drop) << 2 * k
    return out
