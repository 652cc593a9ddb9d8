"""Shared by the Sheng ji live-table tests: a simulated match turned into API calls (round
starts, bids, the exchange, plays and blocked throws), and wrong entries to try on the way."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zfrec.games.shengji.cards import card_ids, contains, distinct, format_hand, from_ids
from zfrec.games.shengji.follow import judge_follow
from zfrec.games.shengji.formats import Format, classify
from zfrec.games.shengji.kind import match_of
from zfrec.games.shengji.live import shows_a_beating_unit
from zfrec.games.shengji.notation import call_text
from zfrec.games.shengji.order import TRUMP, Order
from zfrec.games.shengji.records import SjMatch, SjRound
from zfrec.record import loads

ROOT = Path(__file__).resolve().parent.parent
Client = Any


def simulated(tmp: Path, seed: int = 38, *rules: str) -> SjMatch:
    """A whole bashi fen match from `zfrec simulate --game shengji` (seed 38: 16 rounds);
    `rules`: more options for it (`--rules zhaopengyou`)."""
    out = tmp / f"sj{seed}{len(rules)}.zfn"
    subprocess.run(
        [sys.executable, "-m", "zfrec", "simulate", "--game", "shengji", "--seed", str(seed),
         "-n", "1", "--out", str(out), *rules],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    return match_of(loads(out.read_text("utf-8"))[0])


@dataclass
class Step:
    """One API call: `kind` is "hand" or "move"; `wrong` the refused entries to try first,
    each (body, the codes it may be refused with)."""

    kind: str
    body: dict[str, Any]
    wrong: list[tuple[dict[str, Any], tuple[str, ...]]] = field(default_factory=list)
    round: int = 0


def _less(a: int, b: int) -> int:
    out = 0
    for c in distinct(a):
        k = (a >> 2 * c & 3) - (b >> 2 * c & 3)
        if k > 0:
            out |= k << 2 * c
    return out


def _lead_mixed(order: Order, hand: int) -> int | None:
    """Two single cards of two plain suits: no lead at all (a wrong format)."""
    by_suit: dict[int, int] = {}
    for c in distinct(hand):
        if order.esuit[c] != TRUMP:
            by_suit.setdefault(order.esuit[c], c)
    if len(by_suit) < 2:
        return None
    a, b = list(by_suit.values())[:2]
    return from_ids([a, b])


def _bad_follow(order: Order, lead: Format, hand: int, play: int) -> int | None:
    """A play of the right count that does not follow (the hand could have), if there is one."""
    rest = [c for c in card_ids(_less(hand, play))]
    for out in distinct(play):
        for c in rest:
            if c == out:
                continue
            cand = _less(play, from_ids([out])) + (1 << 2 * c)
            if contains(hand, cand) and judge_follow(order, lead, hand, cand) is not None:
                return cand
    return None


def match_steps(match: SjMatch, wrong_every: int = 0) -> Iterator[Step]:
    """The calls that log `match` move by move, full deals given; every `wrong_every`-th play
    (0: none) comes with wrong entries to try first: out of turn, a lead that is no lead or a
    follow of the wrong count, and a follow that does not follow."""
    n = len(match.players)
    k = 0
    for rnd in match.rounds:
        assert rnd.deal is not None and rnd.kitty is not None and rnd.discard is not None
        assert rnd.dealer is not None
        deals = {str(s + 1): format_hand(d.known) for s, d in enumerate(rnd.deal)}
        yield Step("hand", {"dealer": rnd.dealer + 1, "trump": rnd.trump, "deals": deals},
                   round=rnd.number)  # fmt: skip
        for b in rnd.bids:
            yield Step("move", {"seat": b.seat + 1, "bid": format_hand(b.cards)}, round=rnd.number)
        yield Step("move", {"seat": rnd.dealer + 1, "discard": format_hand(rnd.discard.known),
                            "kitty": format_hand(rnd.kitty.known)}, round=rnd.number)  # fmt: skip
        if rnd.calls:
            yield Step("move", {"seat": rnd.dealer + 1, "calls": call_text(rnd.calls)},
                       round=rnd.number)  # fmt: skip
        yield from _plays(rnd, n, wrong_every, k)
        k += sum(len(t.moves) for t in rnd.tricks)


def _shown_unit(order: Order, throw: int, hand: int) -> int:
    """What the blocker shows: one unit of its hand that beats a unit of the throw of its kind
    (a single or a pair; else the cards of the suit it holds, for a tractor)."""
    lead = classify(order, throw)
    held = [c for c in card_ids(hand) if order.esuit[c] == lead.esuit]
    units = [from_ids([c]) for c in held] + [
        from_ids([c, c]) for c in set(held) if held.count(c) > 1
    ]
    return next((u for u in units if shows_a_beating_unit(order, lead, u)), from_ids(held))


def _plays(rnd: SjRound, n: int, wrong_every: int, k0: int) -> Iterator[Step]:
    order = rnd.order()
    assert order is not None and rnd.deal is not None and rnd.dealer is not None
    assert rnd.kitty is not None and rnd.discard is not None
    hands = [d.known for d in rnd.deal]
    hands[rnd.dealer] = _less(hands[rnd.dealer] + rnd.kitty.known, rnd.discard.known)
    k = k0
    for trick in rnd.tricks:
        lead: Format | None = None
        for i, m in enumerate(trick.moves):
            k += 1
            body: dict[str, Any] = {"seat": m.seat + 1, "play": format_hand(m.cards)}
            if m.failed:
                assert m.blocker is not None
                shows = _shown_unit(order, m.cards, hands[m.blocker])
                body.update(blocked_by=m.blocker + 1, shows=format_hand(shows))
            step = Step("move", body, round=rnd.number)
            if wrong_every and k % wrong_every == 0:
                other = (m.seat + 1) % n
                if hands[other]:
                    some = format_hand(from_ids(card_ids(hands[other])[:1]))
                    step.wrong.append(({"seat": other + 1, "play": some}, ("SJ202", "SJ203")))
                hand = hands[m.seat]
                if lead is None:
                    mixed = _lead_mixed(order, hand)
                    if mixed is not None:
                        step.wrong.append(({"seat": m.seat + 1, "play": format_hand(mixed)},
                                           ("SJ101",)))  # fmt: skip
                else:
                    more = _less(hand, m.cards)
                    if more:
                        extra = m.cards + from_ids(card_ids(more)[:1])
                        step.wrong.append(({"seat": m.seat + 1, "play": format_hand(extra)},
                                           ("SJ201",)))  # fmt: skip
                    bad = _bad_follow(order, lead, hand, m.cards)
                    if bad is not None:
                        step.wrong.append(({"seat": m.seat + 1, "play": format_hand(bad)},
                                           ("SJ201",)))  # fmt: skip
            yield step
            hands[m.seat] = _less(hands[m.seat], m.played)
            if i == 0:
                lead = classify(order, m.played)


def send(client: Client, table: str, token: str, kind: str, body: dict[str, Any]) -> Any:
    path = f"/api/tables/{table}/{'hands' if kind == 'hand' else 'moves'}"
    return client.post(path, json=body, headers={"Authorization": f"Bearer {token}"})


def new_sj_table(client: Client, match: SjMatch) -> tuple[str, str]:
    r = client.post("/api/tables", json={"game": "shengji", "rules": match.preset,
                                         "players": list(match.players)})  # fmt: skip
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


def exported(client: Client, table: str) -> SjMatch:
    r = client.get(f"/api/tables/{table}/record.zfn")
    assert r.status_code == 200, r.text
    return match_of(loads(r.text)[0])


def try_wrong(client: Client, table: str, token: str, step: Step) -> int:
    """Send each wrong entry of `step`: each must be refused with 422 and one of its codes,
    and change nothing. Returns how many were tried."""
    for body, codes in step.wrong:
        before = client.get(f"/api/tables/{table}").json()["version"]
        r = send(client, table, token, "move", body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["code"] in codes, (body, r.json())
        assert r.json()["message"]
        assert client.get(f"/api/tables/{table}").json()["version"] == before
    return len(step.wrong)
