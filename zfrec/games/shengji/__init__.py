"""The Sheng ji (升级, Tractor) engine: bashi fen, da bai fen and zhao pengyou, as
/work/shared/RULINGS-SHENGJI.md reads the seed (rulings cited by number in the modules).

Cards are the card words' ids (`zfrec.cardwords`: `rank * 4 + suit`, rank 0..12 for 3..2,
suits s h d c, 52 SJ, 53 BJ), read and written as there (`7h`, `10c`/`Tc`, `SJ`, `BJ`). A hand
or a play is a **packed multiset**: an int with 2 bits per card id counting the copies held (up
to 3 decks). Seats are 0-based ints in play order; the command line shows them 1-based.

Public API (stable; everything below is importable from `zfrec.games.shengji`):

Cards (`cards`)
    parse_hand(text: str, decks: int = 2) -> int          CardError: unreadable, a copy too many
    parse_ids(text: str, decks: int = 2) -> list[int]      the card ids in the order written
    format_hand(hand: int) -> str                          canonical: ascending card id
    size(hand) -> int, count(hand, cid) -> int, contains(hand, part) -> bool, points(hand) -> int
    card_id(text: str) -> int, card_ids(hand) -> list[int], from_ids(ids) -> int, one(cid) -> int

The round's order (`order`, ruling 3)
    parse_trump(text: str) -> Order                        `7c`, `Th`, `7` (no-trump); CardError
    make_order(rank: int, trump: int | None) -> Order      rank index 0..12, suit 0..3 or None
    Order.esuit[cid] (0..3 plain, TRUMP=4), Order.level[cid] (higher is stronger, equal = equal)

Formats (`formats`, rulings 5-6)
    classify(order, cards: int) -> Format                  IllegalPlayError (rule 6) if no lead
    Format(kind: 'single'|'pair'|'tractor'|'throw', esuit, units: tuple[Unit, ...], size,
           tractors, pairs, cards); Unit(pairs: 0|1|L, top: level, ids: tuple[int, ...])
    suit_of(order, cards) -> int | None, unit_text(unit) -> str

Following (`follow`, ruling 7)
    judge_follow(order, lead: Format, hand: int, play: int) -> str | None   None: legal
    verify_follow(order, lead, hand, play) -> None         IllegalPlayError with the reason
    legal_follows(order, lead, hand) -> Iterator[int]      lazily, each card multiset once
    count_follows(order, lead, hand) -> int                without listing when short of suit

The trick (`trick`, rulings 8-9)
    trick_winner(order, plays: Sequence[int], lead: Format | None = None) -> int   0-based
    trick_points(plays: Sequence[int]) -> int

Throws (`throws`, ruling 10)
    check_throw(order, play: int, others: Sequence[int], written: Sequence[int] = ())
        -> ThrowCheck      `written`: the throw's ids as written (equal units: the first forced)
    ThrowCheck(stands: bool, forced: int, back: int, blocker: int | None, unit: Unit | None)
    throw_penalty(check: ThrowCheck, per_card: int) -> int

Rules and scores (`rules`, `scoring`, rulings 11-14)
    sj_preset(name='bashifen', **options) -> SjRules       presets bashifen, dabaifen,
        zhaopengyou; options kitty_multiplier, throw_penalty, no_bid, must_defend, players, decks
    parse_sj_option(text: str) -> tuple[str, Any]
    level_change(points: int, decks: int = 2) -> LevelChange(declarers, opponents, swap)
    kitty_multiplier(pairs: int, mode='power') -> int
    raise_level(level, steps, must_defend, declarer: bool) -> tuple[int, bool]

The round (`round`, rulings 1-16): `RoundState`, a state machine with an operation log and
`undo()`; every action as verify_x (raises IllegalPlayError) / can_x (bool) / x (applies it and
returns a frozen event, appended to `log`)
    RoundState.start(rules, deck: Sequence[int], rank: int, dealer: int | None) -> RoundState
        the draw: draw(seat), bid(seat, cards), settle(); then exchange(seat, discard),
        call(seat, calls) in zhao pengyou, then play(seat, cards) until `over`
    RoundState.from_hands(hands: Sequence[int], order: Order, leader: int,
                          rules: SjRules = sj_preset()) -> RoundState     straight to play
    state.turn, state.hands, state.lead, state.trick_plays, state.log, state.result, state.phase
    state.legal_leads() -> list[int], state.legal_plays() -> list[int], state.undo() -> event
    state.play_legal(seat, cards) (no check: for plays listed by legal_plays), state.snapshot()
    events (`events`): DrawEvent, BidEvent, SettleEvent, ExchangeEvent, CallEvent, PlayEvent
        (attempt, cards played, back, blocker, penalty, joined, trick_result, round_result),
        RoundResult(declarers, taken, kitty_points, multiplier, kitty_added, penalty, total,
        change, next_dealer, last_winner); event_json(event) -> dict

Perft (`perft`), bots and self-play (`bots`, `match`)
    perft(state: RoundState, depth: int) -> int, perft_counts(state, depth) -> list[int]
    play_match(rules: SjRules, seed: int, bots: Sequence[str], max_rounds=400) -> MatchRecord
        MatchRecord(rules, seed, bots, rounds: list[RoundRecord], winners: tuple[int, ...])
    replay_round(rules, deck, level, dealer, log) -> RoundState   every action verified again
    apply_event(state, event) -> event                              one action made again
    bots: RandomBot, GreedyBot (`zfrec.games.shengji.bots`), by name via make_bot("greedy")
"""

from __future__ import annotations

from zfrec.games.shengji.cards import (
    card_id,
    card_ids,
    contains,
    count,
    format_hand,
    from_ids,
    one,
    parse_hand,
    parse_ids,
    points,
    size,
)
from zfrec.games.shengji.events import RoundResult, event_json
from zfrec.games.shengji.follow import count_follows, judge_follow, legal_follows, verify_follow
from zfrec.games.shengji.formats import Format, Unit, classify, suit_of, unit_text
from zfrec.games.shengji.match import (
    MatchRecord,
    RoundRecord,
    apply_event,
    play_match,
    replay_round,
)
from zfrec.games.shengji.order import TRUMP, Order, make_order, parse_trump
from zfrec.games.shengji.perft import perft, perft_counts
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules, parse_sj_option, sj_preset
from zfrec.games.shengji.scoring import LevelChange, kitty_multiplier, level_change, raise_level
from zfrec.games.shengji.throws import ThrowCheck, check_throw, throw_penalty
from zfrec.games.shengji.trick import trick_points, trick_winner

__all__ = [
    "TRUMP",
    "Format",
    "LevelChange",
    "MatchRecord",
    "Order",
    "RoundRecord",
    "RoundResult",
    "RoundState",
    "SjRules",
    "ThrowCheck",
    "Unit",
    "apply_event",
    "card_id",
    "card_ids",
    "check_throw",
    "classify",
    "contains",
    "count",
    "count_follows",
    "event_json",
    "format_hand",
    "from_ids",
    "judge_follow",
    "kitty_multiplier",
    "legal_follows",
    "level_change",
    "make_order",
    "one",
    "parse_hand",
    "parse_ids",
    "parse_sj_option",
    "parse_trump",
    "perft",
    "perft_counts",
    "play_match",
    "points",
    "raise_level",
    "replay_round",
    "size",
    "sj_preset",
    "suit_of",
    "throw_penalty",
    "trick_points",
    "trick_winner",
    "unit_text",
    "verify_follow",
]
