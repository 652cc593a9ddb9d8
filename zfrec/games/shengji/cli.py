"""The Sheng ji bodies of `zfrec classify`, `legal`, `trick`, `throw`, `score` and `simulate`
(`--game shengji`): the commands in zfrec/cli/engine_cmds.py and simulate_cmds.py reach them
through the kind's `command` hook (zfrec.games.shengji.commands).

Seats and plays are 1-based in play order. Exit codes as everywhere: 0 yes, 1 no (with the
reason), 2 bad input (one line).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from itertools import islice
from math import prod
from pathlib import Path
from typing import NoReturn

import typer

from zfrec.cli.common import fail, friendly_errors, out, print_json
from zfrec.errors import CardError, IllegalPlayError
from zfrec.games.shengji.cards import (
    card_ids,
    contains,
    count,
    distinct,
    format_cards,
    one,
    parse_hand,
    parse_ids,
    size,
)
from zfrec.games.shengji.follow import count_follows, judge_follow, legal_follows
from zfrec.games.shengji.formats import Format, classify, suit_of, unit_text
from zfrec.games.shengji.order import SUIT_WORDS, TRUMP, Order, parse_trump
from zfrec.games.shengji.rules import SjRules, parse_sj_option, sj_preset
from zfrec.games.shengji.scoring import kitty_multiplier, level_change
from zfrec.games.shengji.throws import check_throw_format, throw_penalty
from zfrec.games.shengji.trick import trick_points, trick_winner
from zfrec.games.shengji.unseen import less


def rules_of(rules: str | None, options: list[str] | None, decks: int | None) -> SjRules:
    """The preset with `--option`s and `--decks`, or exit 2 with the reason."""
    with friendly_errors():
        opts = dict(parse_sj_option(o) for o in options or [])
        if decks is not None:
            opts["decks"] = decks
        return sj_preset(rules or "bashifen", **opts)


def order_of(trump: str | None, needed: bool = True, default: str = "2") -> Order:
    """`--trump`, or exit 2 when it is needed and missing or unreadable."""
    if trump is None:
        if needed:
            fail(
                "Sheng ji needs the round's trump: give --trump 7c (rank 7, clubs trump) or "
                "--trump 7 (no-trump)"
            )
        trump = default
    with friendly_errors():
        return parse_trump(trump)


def cards_of(text: str, rules: SjRules, what: str | None = None) -> int:
    """Cards read for the rules' decks, or exit 2 with the reason (naming `what` they are)."""
    try:
        return parse_hand(text, rules.decks)
    except CardError as exc:
        fail(f"{what}: {exc.message}" if what else exc.message)


def play_text(order: Order, cards: int) -> str:
    """A play's cards from the highest down (trump first), as the units are written."""
    level, esuit = order.level, order.esuit
    return format_cards(sorted(card_ids(cards), key=lambda c: (-esuit[c], -level[c], c)))


def _lead(order: Order, cards: int) -> Format:
    try:
        return classify(order, cards)
    except IllegalPlayError as exc:
        fail(exc.message)


# --- classify ---------------------------------------------------------------------------------


def classify_cmd(text: str, trump: str | None, rules: str | None, options: list[str] | None,
                 decks: int | None, as_json: bool) -> NoReturn:  # fmt: skip
    """`zfrec classify --game shengji`: the format of a lead (exit 0), or why it is none (1)."""
    rs = rules_of(rules, options, decks)
    order = order_of(trump)
    cards = cards_of(text, rs)
    try:
        lead = classify(order, cards)
    except IllegalPlayError as exc:
        if as_json:
            print_json({"kind": None, "reason": exc.message})
        else:
            out.print(exc.message, markup=False)
        raise typer.Exit(1) from None
    units = [unit_text(u) for u in lead.units]
    if as_json:
        print_json({"kind": lead.kind, "suit": lead.suit_text, "units": units})
    else:
        out.print(f"{lead.kind} in {SUIT_WORDS[lead.esuit]}: {' | '.join(units)}", markup=False)
    raise typer.Exit(0)


# --- legal ------------------------------------------------------------------------------------


def _all_leads(order: Order, hand: int) -> Iterator[int]:
    for e in (TRUMP, 0, 1, 2, 3):
        held = hand & order.suit_mask[e]
        if held:
            yield from _sub_multisets(held)


def _sub_multisets(held: int) -> Iterator[int]:
    ids = distinct(held)

    def rec(i: int, acc: int) -> Iterator[int]:
        if i == len(ids):
            if acc:
                yield acc
            return
        c = ids[i]
        for take in range(count(held, c) + 1):
            yield from rec(i + 1, acc + take * one(c))

    yield from rec(0, 0)


def _count_leads(order: Order, hand: int) -> int:
    total = 0
    for e in range(5):
        held = hand & order.suit_mask[e]
        if held:
            total += prod(count(held, c) + 1 for c in distinct(held)) - 1
    return total


def legal_cmd(hand_text: str, lead_text: str | None, play_text_: str | None, limit: int,
              trump: str | None, rules: str | None, options: list[str] | None,
              decks: int | None, as_json: bool) -> NoReturn:  # fmt: skip
    """`zfrec legal --game shengji`: judge `--play` against `--lead` (exit 0 legal, 1 not), or
    list the legal follows (or leads, without `--lead`)."""
    rs = rules_of(rules, options, decks)
    order = order_of(trump)
    hand = cards_of(hand_text, rs)
    led = cards_of(lead_text, rs, "--lead") if lead_text is not None else None
    if led is not None:
        _one_table(rs, [hand, led])  # the lead is another seat's cards
    lead = _lead(order, led) if led is not None else None
    if lead is not None and size(hand) < lead.size:
        # every seat holds as many cards as the others: no hand is shorter than a lead
        fail(f"the hand holds {size(hand)} card{'s' if size(hand) != 1 else ''}, fewer than "
             f"the lead's {lead.size}: a seat holds as many cards as the one who led, so give "
             "the whole hand (ruling 7)")  # fmt: skip
    if play_text_ is not None:
        play = cards_of(play_text_, rs, "--play")
        if lead is None:
            reason = _lead_reason(order, hand, play)
        elif not contains(hand, play):  # what the hand lacks first: no count can mend it
            reason = "the hand does not hold " + play_text(order, less(play, hand))
        else:
            reason = judge_follow(order, lead, hand, play)
        legal = reason is None
        if legal:
            what = "lead" if lead is None else "follow to " + play_text(order, lead.cards)
            reason = f"a legal {what}"
        if as_json:
            print_json({"legal": legal, "reason": reason})
        else:
            out.print(("legal: " if legal else "illegal: ") + str(reason), markup=False)
        raise typer.Exit(0 if legal else 1)
    if lead is None:
        total = _count_leads(order, hand)
        listed = list(islice(_all_leads(order, hand), limit))
    else:
        total = count_follows(order, lead, hand)
        listed = list(islice(legal_follows(order, lead, hand), limit))
    texts = [play_text(order, p) for p in listed]
    if as_json:
        print_json({"count": total, "plays": texts, "truncated": total > len(texts)})
        raise typer.Exit(0)
    for t in texts:
        out.print(t, markup=False)
    kind = "lead" if lead is None else "follow"
    more = f" (the first {len(texts)} listed; --limit lists more)" if total > len(texts) else ""
    out.print(f"{total} legal {kind}{'s' if total != 1 else ''}{more}", markup=False)
    raise typer.Exit(0)


def _lead_reason(order: Order, hand: int, play: int) -> str | None:
    if not contains(hand, play):
        return "the hand does not hold " + play_text(order, play)
    if suit_of(order, play) is None:
        try:
            classify(order, play)
        except IllegalPlayError as exc:
            return exc.message
    return None


# --- trick and throw --------------------------------------------------------------------------


def trick_cmd(plays_text: list[str], trump: str | None, rules: str | None,
              options: list[str] | None, decks: int | None, as_json: bool) -> NoReturn:  # fmt: skip
    """`zfrec trick --game shengji`: the winning play (1-based) and the trick's points."""
    rs = rules_of(rules, options, decks)
    order = order_of(trump)
    if len(plays_text) < 2:
        fail("give the trick's plays in play order, the lead first: at least two")
    plays = [cards_of(t, rs, f"play {i}") for i, t in enumerate(plays_text, 1)]
    if len(plays) > rs.players:
        fail(f"a trick has a play by each seat: at most {rs.players} ({rs.preset}), not "
             f"{len(plays)}")  # fmt: skip
    _one_table(rs, plays)
    lead = _lead(order, plays[0])
    for i, p in enumerate(plays[1:], 2):
        if size(p) != lead.size:
            had = f"{size(p)} card{'s' if size(p) != 1 else ''}"
            fail(f"play {i} has {had}; every play has as many as the lead, "
                 f"{lead.size} (ruling 7)")  # fmt: skip
    winner = trick_winner(order, plays, lead) + 1
    pts = trick_points(plays)
    if as_json:
        print_json({"winner": winner, "points": pts})
    elif len(plays) < rs.players:  # a trick not yet over: who holds it so far
        out.print(f"play {winner} ({play_text(order, plays[winner - 1])}) holds the trick so "
                  f"far, with {pts} points in it ({len(plays)} of {rs.players} plays given: "
                  "the trick is not over)", markup=False)  # fmt: skip
    else:
        out.print(f"play {winner} ({play_text(order, plays[winner - 1])}) wins {pts} points",
                  markup=False)  # fmt: skip
    raise typer.Exit(0)


def _one_table(rules: SjRules, hands: list[int]) -> None:
    """Exit 2 unless `hands` could be at one table: no card more often than its decks hold it
    (a typo, or a card given to two players)."""
    copies = Counter(cid for h in hands for cid in card_ids(h))
    for cid, n in sorted(copies.items()):
        if n > rules.decks:
            fail(f"{format_cards([cid])} is given {n} times: {rules.decks} deck(s) hold it "
                 f"{rules.decks} time(s)")  # fmt: skip


def throw_cmd(play: str, others: list[str] | None, trump: str | None, rules: str | None,
              options: list[str] | None, decks: int | None, as_json: bool) -> NoReturn:  # fmt: skip
    """`zfrec throw --game shengji`: whether a throw stands (exit 0) or fails (exit 1), with the
    forced part, the cards taken back and the first player who could beat it."""
    rs = rules_of(rules, options, decks)
    order = order_of(trump)
    cards = cards_of(play, rs)
    written = parse_ids(play, rs.decks)
    held = [cards_of(o, rs, f"--other {i}") for i, o in enumerate(others or [], 1)]
    if not held:
        fail("give what each other player holds (or as much as is known): --other, once each")
    if len(held) >= rs.players:
        fail(f"--other is given once for each of the {rs.players - 1} other players "
             f"({rs.preset}), not {len(held)} times")  # fmt: skip
    _one_table(rs, [cards, *held])
    lead = _lead(order, cards)
    check = check_throw_format(order, lead, held, written)
    if as_json:
        print_json({
            "stands": check.stands,
            "forced": None if check.stands else play_text(order, check.forced),
            "back": None if check.stands else play_text(order, check.back),
            "blocker": None if check.blocker is None else check.blocker + 1,
        })  # fmt: skip
    elif check.stands:
        out.print(f"the throw {play_text(order, cards)} stands", markup=False)
    else:
        assert check.blocker is not None
        penalty = throw_penalty(check, rs.throw_penalty)
        cost = f" ({penalty} points' penalty)" if penalty else ""
        out.print(
            f"the throw fails: player {check.blocker + 1} after the thrower can beat "
            f"{play_text(order, check.forced)}; play it and take back "
            f"{play_text(order, check.back)}{cost}",
            markup=False,
        )
    raise typer.Exit(0 if check.stands else 1)


# --- score ------------------------------------------------------------------------------------


def score_cmd(points: int, kitty_points: int, last: str | None, last_winner: str | None,
              dealer: int, trump: str | None, rules: str | None, options: list[str] | None,
              decks: int | None, as_json: bool) -> NoReturn:  # fmt: skip
    """`zfrec score --game shengji`: the opponents' total with the kitty, the levels each team
    goes up, whether the teams swap and the next dealer (rulings 11 to 13)."""
    rs = rules_of(rules, options, decks)
    if last_winner not in (None, "opponents", "declarers"):
        fail(f"--last-winner is opponents or declarers, not {last_winner!r}")
    if not 1 <= dealer <= rs.players:
        fail(f"--dealer is a seat from 1 to {rs.players}")
    if kitty_points % 5 or kitty_points < 0 or points % 5:
        fail("points come in fives: --points and --kitty-points are multiples of 5")
    _within_the_decks(rs, points, kitty_points)
    added, multiplier, unit = 0, None, ""
    if last_winner == "opponents" and kitty_points:
        if last is None:
            fail("the kitty's multiplier needs the last trick's lead: --last \"Kd Kd\"")
        order = order_of(trump, needed=False)
        lead = _lead(order, cards_of(last, rs, "--last"))
        multiplier = kitty_multiplier(lead.units[0].pairs, rs.kitty_multiplier)
        added = kitty_points * multiplier
        u = lead.units[0]
        unit = u.kind + (f" of {u.pairs} pairs" if u.pairs > 1 else "")
    elif kitty_points and last_winner is None:
        fail("say who took the last trick: --last-winner opponents or declarers")
    total = points + added
    change = level_change(total, rs.decks)
    seat = dealer - 1
    n = rs.players
    if rs.fixed_partners:
        nxt = (seat + 1) % n if change.swap else (seat + 2) % n
    else:  # zhao pengyou: the dealer's friends are not known here
        nxt = (seat + 1) % n if change.swap else seat
    data = {
        "total": total,
        "declarers": change.declarers,
        "opponents": change.opponents,
        "swap": change.swap,
        "next_dealer": nxt + 1,
        "multiplier": multiplier,
        "kitty_added": added,
    }
    if as_json:
        print_json(data)
    else:
        up = (
            f"declarers +{change.declarers}" if change.declarers
            else f"opponents +{change.opponents}" if change.opponents else "no level change"
        )  # fmt: skip
        swap = "the teams swap" if change.swap else "the declarers stay"
        how = (f" ({points} + kitty {kitty_points} x{multiplier} = {added}: the last lead's "
               f"largest unit is a {unit})" if multiplier else
               " (the kitty does not count: the declarers took the last trick)"
               if kitty_points else "")  # fmt: skip
        out.print(f"opponents' total {total}{how}: {up}; {swap}; next dealer seat {nxt + 1}",
                  markup=False)  # fmt: skip
    raise typer.Exit(0)


# --- simulate ---------------------------------------------------------------------------------


def _within_the_decks(rs: SjRules, points: int, kitty_points: int) -> None:
    """Exit 2 on points no round can give: a kitty holds at most its cards' points, and the
    tricks the rest of the decks' (ruling 2); below 0 or beyond only by throw penalties."""
    held = 100 * rs.decks
    tens = min(rs.kitty, 8 * rs.decks)  # the kitty's best: its 10s and Ks, then 5s
    most = 10 * tens + 5 * min(rs.kitty - tens, 4 * rs.decks)
    if kitty_points > most:
        fail(f"a kitty of {rs.kitty} cards holds at most {most} points, not {kitty_points} "
             "(ruling 2)")  # fmt: skip
    if rs.throw_penalty:
        return
    if points < 0:
        fail(f"the opponents' points are below 0 ({points}) only by throw penalties: "
             "--option throw_penalty=N (ruling 10)")  # fmt: skip
    if points + kitty_points > held:
        deck = "decks hold" if rs.decks > 1 else "deck holds"
        fail(f"the opponents cannot take {points} points in tricks with {kitty_points} in the "
             f"kitty: the {deck} {held} (ruling 2); more only by throw penalties: "
             "--option throw_penalty=N")  # fmt: skip


def simulate_cmd(out_path: Path, games: int, seed: int, bot: str, rules: str | None,
                 options: list[str] | None, decks: int | None,
                 fmt: str = "zfn") -> None:  # fmt: skip
    """`zfrec simulate --game shengji`: whole self-play matches (until a team wins), written
    as records (`--format zfn` or `json`, FORMAT.md, Sheng ji) to a file, one file per match
    in a directory, or standard output (`--out -`); `--format jsonl` writes the engine's
    event log instead, one JSON line per round."""
    from zfrec.games.shengji.jsonpart import dumps_sj_json
    from zfrec.games.shengji.match import BOT_NAMES, match_json_lines, play_match
    from zfrec.games.shengji.notation import dumps_sj
    from zfrec.games.shengji.simrecords import match_to_record

    if bot not in BOT_NAMES:
        fail(f"unknown bot {bot!r}: bots are {', '.join(BOT_NAMES)}")
    if fmt not in ("zfn", "json", "jsonl"):
        fail(f"--format is zfn, json or jsonl (Sheng ji's event log), not {fmt!r}")
    rs = rules_of(rules, options, decks)
    from zfrec.cli.simulate_cmds import _write

    to_stdout = str(out_path) == "-"
    per_file = not to_stdout and (out_path.is_dir() or not out_path.suffix)
    lines: list[str] = []
    records = []
    rounds = 0
    for i in range(games):
        match = play_match(rs, seed + i, [bot] * rs.players)
        rounds += len(match.rounds)
        if fmt == "jsonl":
            rows = match_json_lines(match, i + 1)
            text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        else:
            record = match_to_record(match)
            text = dumps_sj(record) if fmt == "zfn" else dumps_sj_json(record)
            records.append(record)
        if per_file:
            _write(out_path / f"match-{seed + i:06d}.{fmt}", text)
        else:
            lines.append(text)
    if not per_file:
        if fmt == "zfn":
            text = dumps_sj(records)
        elif fmt == "json":
            text = dumps_sj_json(records[0] if len(records) == 1 else records)
        else:
            text = "".join(lines)
        if to_stdout:
            sys.stdout.write(text)
            return
        _write(out_path, text)
    out.print(f"wrote {games} match(es), {rounds} round(s) to {out_path}", markup=False)
