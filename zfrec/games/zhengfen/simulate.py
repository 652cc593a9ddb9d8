"""Self-play: bots that play legal Zheng Fen, and whole game records made from their play.

A bot sees its own hand, the top play and the trick so far, and picks an abstract move (or a
pass); the simulator then picks the physical cards. Records come out complete: full deals,
every play with its joker declarations, explicit passes, hand scores, running totals, result.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from zfrec.games.zhengfen.engine.actions import Logged, RevealEvent
from zfrec.games.zhengfen.engine.cards import Cards, points_of
from zfrec.games.zhengfen.engine.combos import Category, Combo
from zfrec.games.zhengfen.engine.game import GameState, HandState, PassEvent, deal_random
from zfrec.games.zhengfen.engine.movegen import Move, expand, legal_plays, move_size
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.record.model import Game, Hand, HandScore, Result, SeatDeal, Trick
from zfrec.record.model import Move as RecordMove


class Bot(Protocol):
    """Chooses a move for the seat to act, or None to pass (only when following)."""

    name: str

    def choose(self, hand: HandState, moves: list[Move], rng: random.Random) -> Move | None:
        """The move for the seat to act (`hand.turn`) among `moves`, or None to pass."""
        ...


class RandomBot:
    """Uniform over the legal abstract moves, a pass included when following."""

    name = "random"

    def choose(self, hand: HandState, moves: list[Move], rng: random.Random) -> Move | None:
        """Any legal move, or a pass when following, all equally likely."""
        options: list[Move | None] = [*moves]
        if hand.top is not None:
            options.append(None)
        return rng.choice(options)


class GreedyBot:
    """Plays the lowest move that beats the top; leads low, shedding the most cards it can.

    It keeps specials and jokers back unless the trick already holds counters worth winning.
    """

    name = "greedy"

    def choose(self, hand: HandState, moves: list[Move], rng: random.Random) -> Move | None:
        """The cheapest lead or beat, as the class says; None to pass."""
        if not moves:
            return None
        plain = [m for m in moves if m.jokers == 0 and m.category is not Category.special]
        if hand.top is None:
            pool = plain or moves
            return min(pool, key=lambda m: (m.rank, -move_size(m), m.category))
        worth_it = points_of(hand.trick_cards) >= 10
        pool = moves if worth_it else plain
        if not pool:
            return None
        return min(pool, key=lambda m: (m.category is Category.special, m.jokers, m.rank))


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str) -> Bot:
    """A bot by name (`random`, `greedy`); ValueError for another name."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: bots are {', '.join(BOTS)}") from None


@dataclass(frozen=True, slots=True)
class SimConfig:
    """What to simulate: the table size, the rules, the bot, and hands per game (None: play to
    the target)."""

    players: int
    rules: Ruleset
    bot: str = "random"
    hands_per_game: int | None = 1  # None: play until a score reaches the target


PLAYER_NAMES = ("East", "South", "West", "North", "Zhang 张", "Li 李")


def _pick_cards(hand: HandState, move: Move, bot: Bot, rng: random.Random) -> Combo:
    options = expand(hand.hands[hand.turn], move)
    if bot.name == "greedy":  # keep counters back: play the card set with the fewest points
        return min(options, key=lambda c: (points_of(c.mask), c.mask))
    return rng.choice(options)


def play_hand(hand: HandState, bot: Bot, rng: random.Random) -> list[Trick]:
    """Play a hand to its end, returning the tricks as a record writes them."""
    while not hand.over:
        seat = hand.turn
        move = bot.choose(hand, legal_plays(hand.hands[seat], hand.top, hand.rules), rng)
        if move is None:
            hand.pass_(seat)
        else:
            hand.play_combo(seat, _pick_cards(hand, move, bot, rng))
    return tricks_of(hand.log)


def tricks_of(log: Sequence[Logged]) -> list[Trick]:
    """The tricks of a hand's log as a record writes them: every play with its joker
    declarations and every pass, a trick closed by the action that ended it."""
    tricks: list[Trick] = []
    moves: list[RecordMove] = []
    for event in log:
        if isinstance(event, RevealEvent):
            continue  # not an action: the cards it traded are played by the next one
        if isinstance(event, PassEvent):
            moves.append(RecordMove.passes(event.seat))
        else:
            moves.append(RecordMove.plays(event.seat, event.combo.mask, event.combo.jokers))
        if event.trick_result is not None:
            tricks.append(Trick(moves))
            moves = []
    if moves:
        tricks.append(Trick(moves))
    return tricks


def simulate_game(config: SimConfig, seed: int) -> Game:
    """One whole game record. The same config and seed always give the same record."""
    rng = random.Random(seed)
    bot = make_bot(config.bot)
    n = config.players
    game = GameState(n, config.rules)
    hands: list[Hand] = []
    while not game.over and (config.hands_per_game is None or len(hands) < config.hands_per_game):
        shuffler = game.next_shuffler()
        if shuffler is None:
            shuffler = rng.randrange(n)
        first = game.next_first_drawer(shuffler)
        assert first is not None
        deal = deal_random(n, first, rng)
        state = game.start_hand(deal, shuffler)
        tricks = play_hand(state, bot, rng)
        assert state.result is not None
        game.finish_hand(state.result)
        hands.append(
            Hand(
                number=len(hands) + 1,
                shuffler=shuffler,
                deal=tuple(SeatDeal(known=Cards(m)) for m in deal),
                tricks=tricks,
                score=HandScore(state.result.points, tuple(game.scores)),
            )
        )
    return Game(
        players=list(PLAYER_NAMES[:n]),
        event="zfrec self-play",
        extra_tags=[("Bot", bot.name), ("Seed", str(seed))],
        preset=config.rules.preset,
        options=config.rules.overrides()
        and {k: v for k, v in config.rules.overrides().items() if k != "target"},
        target=config.rules.target,
        result=Result(tuple(game.scores), tuple(game.winners())),
        hands=hands,
    )


def simulate(config: SimConfig, games: int, seed: int) -> Iterator[Game]:
    """`games` records; game i uses seed `seed + i`, so any one can be regenerated alone."""
    for i in range(games):
        yield simulate_game(config, seed + i)
