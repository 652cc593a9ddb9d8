"""Regenerate sample_games/ (the valid samples): `python scripts/make_samples.py [FOLDER]`
(FOLDER: write them there instead, to compare; tests/test_sample_scripts.py does).

The samples are self-play records made to look like club records: crafted deals where a
category must appear, the passes a person would not write left out, joker declarations left
out where the engine infers them, and comments and annotations written by hand below. Every
sample is checked to replay clean before it is written.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path

from zfrec.errors import IllegalPlayError
from zfrec.games.zhengfen.engine.cards import FULL_DECK, parse_cards
from zfrec.games.zhengfen.engine.combos import Category, resolve
from zfrec.games.zhengfen.engine.game import Event, GameState, HandState, deal_random, hand_sizes
from zfrec.games.zhengfen.engine.movegen import Move, expand, legal_plays, move_size
from zfrec.games.zhengfen.engine.rules import Ruleset, preset
from zfrec.games.zhengfen.simulate import GreedyBot
from zfrec.record import Format, dumps
from zfrec.record.model import Game, Hand, HandScore, Result, SeatDeal, Trick
from zfrec.record.model import Move as RMove
from zfrec.validate import validate

OUT = Path(__file__).resolve().parent.parent / "sample_games"


class ShowcaseBot(GreedyBot):
    """Shows the game off: leads a category not yet seen (its longest move in it), always
    beats its own play when the rules let it, and otherwise plays like the greedy bot."""

    name = "showcase"

    def __init__(self) -> None:
        self.shown: set[tuple[Category, int]] = set()

    def choose(self, hand: HandState, moves: list[Move], rng: random.Random) -> Move | None:
        if hand.top is None and moves:
            fresh = [m for m in moves if _kind(m) not in self.shown] or moves
            pick = max(fresh, key=lambda m: (move_size(m), -m.jokers, -m.rank))
        elif unseen := [
            m for m in moves if m.category is Category.special and _kind(m) not in self.shown
        ]:
            pick = unseen[0]
        elif hand.top_seat == hand.turn and moves:
            pick = min(moves, key=lambda m: (m.category is Category.special, m.jokers, m.rank))
        else:
            return super().choose(hand, moves, rng)
        self.shown.add(_kind(pick))
        return pick


def _kind(move: Move) -> tuple[Category, int]:
    """Categories, with the three specials told apart."""
    return move.category, move.rank if move.category is Category.special else 0


def play(
    players: list[str],
    rules: Ruleset,
    seed: int,
    hands: int | None,
    deals: list[list[int]] | None = None,
    bot: GreedyBot | None = None,
    infer_jokers: bool = False,
    keep_passes: bool = False,
    **tags: str,
) -> Game:
    rng = random.Random(seed)
    bot = bot or GreedyBot()
    n = len(players)
    game = GameState(n, rules)
    out: list[Hand] = []
    while not game.over and (hands is None or len(out) < hands):
        shuffler = game.next_shuffler()
        if shuffler is None and deals:  # the shuffler whose cutter draws these hand sizes
            sizes = [h.bit_count() for h in deals[0]]
            shuffler = next(s for s in range(n) if hand_sizes(n, (s + 1) % n) == sizes)
        if shuffler is None:
            shuffler = rng.randrange(n)
        first = game.next_first_drawer(shuffler)
        assert first is not None
        deal = deals[len(out)] if deals and len(out) < len(deals) else deal_random(n, first, rng)
        hs = game.start_hand(deal, shuffler)
        tricks: list[Trick] = []
        moves: list[RMove] = []
        while not hs.over:
            seat = hs.turn
            event: Event
            choice = bot.choose(hs, legal_plays(hs.hands[seat], hs.top, rules), rng)
            if choice is None:
                event = hs.pass_(seat)
                if keep_passes:
                    moves.append(RMove.passes(seat))
            else:
                combo = min(expand(hs.hands[seat], choice), key=lambda c: c.mask)
                decls = combo.jokers
                if infer_jokers and decls:
                    try:
                        if resolve(combo.mask, hs.top, rules).key == combo.key:
                            decls = ()
                    except IllegalPlayError:
                        pass
                event = hs.play_combo(seat, combo)
                moves.append(RMove.plays(seat, combo.mask, decls))
            if event.trick_result is not None:
                tricks.append(Trick(moves))
                moves = []
        assert hs.result is not None
        game.finish_hand(hs.result)
        out.append(
            Hand(
                len(out) + 1,
                shuffler,
                tuple(SeatDeal(known=m) for m in deal),
                tricks,
                HandScore(hs.result.points, tuple(game.scores)),
            )
        )
    result = Result(tuple(game.scores), tuple(game.winners())) if game.over else None
    extra = [(k.capitalize(), v) for k, v in tags.items() if k not in ("event", "site", "date")]
    return Game(
        players=players,
        event=tags.get("event"),
        site=tags.get("site"),
        date=tags.get("date"),
        extra_tags=extra,
        preset=rules.preset,
        options={k: v for k, v in rules.overrides().items() if k != "target"},
        target=rules.target,
        result=result,
        hands=out,
    )


def crafted(*groups: str) -> list[int]:
    """A deal from given hands; the last seat gets every card not named."""
    hands = [parse_cards(g) for g in groups]
    used = 0
    for h in hands:
        assert not used & h, "a card is named twice"
        used |= h
    return [*hands, FULL_DECK & ~used]


def annotate(game: Game, notes: dict[tuple[int, int, int], dict[str, object]]) -> Game:
    """Attach comments/annotations to moves at (hand, trick, move index), 1-based."""
    hands = []
    for h in game.hands:
        tricks = []
        for t_i, trick in enumerate(h.tricks, 1):
            moves = []
            for m_i, move in enumerate(trick.moves, 1):
                extra = notes.get((h.number, t_i, m_i))
                moves.append(dataclasses.replace(move, **extra) if extra else move)
            tricks.append(dataclasses.replace(trick, moves=moves))
        hands.append(dataclasses.replace(h, tricks=tricks))
    return dataclasses.replace(game, hands=hands)


def partial(game: Game, visible_seat: int) -> Game:
    """Keep one seat's hand; the others become unknown cards."""
    hands = []
    for h in game.hands:
        assert h.deal is not None
        deal = tuple(
            d if s == visible_seat else SeatDeal(unknown=d.known.bit_count())
            for s, d in enumerate(h.deal)
        )
        hands.append(dataclasses.replace(h, deal=deal))
    return dataclasses.replace(game, hands=hands)


def no_deal(game: Game) -> Game:
    return dataclasses.replace(game, hands=[dataclasses.replace(h, deal=None) for h in game.hands])


def samples() -> dict[str, Game]:
    pagat, poppel, parlett = preset("pagat"), preset("poppel"), preset("parlett")
    s: dict[str, Game] = {}
    g = play(
        ["王芳", "Bo Li", "Ann", "Dieter"], pagat, 11, 1,
        event="Friday club night", site="Chengdu", date="2026.03.13",
    )  # fmt: skip
    g = annotate(
        g,
        {
            (1, 1, 1): {"comments": ["王芳 holds the three of hearts and leads."]},
            (1, 2, 2): {"annotation": "?!", "comments": ["Too early for a two."]},
            (1, 3, 1): {"annotation": "!", "comments": ["Leading low keeps the counters back."]},
            (1, 4, 3): {"disputed": True, "dispute_note": "Ann thought Dieter had passed"},
            (1, 5, 2): {"annotation": "??", "comments": ["Ten points thrown away."]},
            (1, 6, 1): {"annotation": "!!"},
        },
    )
    s["01-annotated-club-night.zfn"] = dataclasses.replace(
        g,
        comments=["Annotated by Bo Li for the club newsletter.", "Seats are in play order."],
    )
    s["02-three-players.zfn"] = play(["Mei", "Jun", "Hao"], pagat, 21, 2, event="Train game")
    s["03-five-players.zfn"] = play(
        ["Ana", "Ben", "Cai", "Dora", "Eli"], pagat, 31, 2, event="Club league", round="3"
    )
    s["04-six-players.zfn"] = play(
        ["赵", "钱", "孙", "李", "周", "吴"], pagat, 41, 1, event="Family new year"
    )
    s["05-full-game-to-500.zfn"] = play(
        ["North", "East", "South", "West"], pagat, 51, None, event="League final"
    )
    s["06-poppel-self-overplay.zfn"] = play(
        ["Axel", "Birgit", "Claus", "Doris"], poppel, 61, 1, bot=ShowcaseBot(), keep_passes=True,
        deals=[crafted(
            "3h 3d 3c 5s 5h 5d 7s 7h 7d 9s 9h 9d Js Jh",
            "3s 4s 5c 6s 7c 8s 9c Ts Jd Qs Ks As 2s SJ",
            "4h 6h 8h Th Qh Kh Ah 2h Jc 4d 6d 8d Td",
        )],
        event="Pöppel-Revue rules evening",
    )  # fmt: skip
    s["07-parlett.zfn"] = play(["Pat", "Quinn", "Robin", "Sam"], parlett, 71, 2, event="Parlett")
    s["08-partial-deal.zfn"] = partial(
        play(["Lan", "Wei", "Xiu"], pagat, 81, 1, infer_jokers=True, event="From Lan's notes"), 0
    )
    s["09-no-deal.zfn"] = no_deal(
        play(["Ivy", "Jack", "Kim", "Leo"], pagat, 91, 1, event="Plays written down only")
    )
    s["10-every-category.zfn"] = play(
        ["Ming", "Hui", "Tao", "Yan"], pagat, 101, 1, bot=ShowcaseBot(),
        deals=[crafted(
            "3s 3h 3d 3c 4s 4h 4d 4c 5s 5h SJ BJ 9d Jc",
            "6s 6d 6c 7s 7d 7c 8s 8d 8c 2s 2h 2d 2c Qc",
            "5c Tc Kc Qs Qh Js Jh Jd As Ah Ac 9c 8h",
        )],
        event="Showcase",
    )  # fmt: skip
    s["11-inferred-jokers.zfn"] = play(
        ["Olga", "Pavel", "Rita", "Sasha"], pagat, 111, 2, bot=ShowcaseBot(), infer_jokers=True,
        event="Quick notes",
    )  # fmt: skip
    s["12-lead-passes-on.json"] = play(
        ["Tom", "Uma", "Vic", "Wen", "Xia"], pagat, 121, 1, event="JSON export"
    )
    s["13-equal-lengths.zfn"] = play(
        ["Ada", "Bea", "Cy", "Di"], preset("pagat", sequence_lengths="equal"), 131, 1,
        bot=ShowcaseBot(),
        deals=[crafted(
            "3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h Qs Qh",
            "9s 9h 9d 9c Ts Th Td Tc 3d 4d 5d 6d 7d 8d",
            "3c 4c 5c 6c 7c 8c Js Jh Jd Ks Kh Kd Ac",
        )],
        event="House rules: equal sequence lengths",
    )  # fmt: skip
    return s


def main(out: Path = OUT) -> int:
    out.mkdir(exist_ok=True)
    seen: set[Category] = set()
    for name, game in samples().items():
        report = validate(game)
        if not report.ok:
            print(name, [str(d) for d in report.diagnostics][:3])
            return 1
        for h in game.hands:
            for t in h.tricks:
                for m in t.moves:
                    if not m.is_pass:
                        seen.add(_category(game, m))
        fmt: Format = "json" if name.endswith(".json") else "zfn"
        (out / name).write_text(dumps(game, fmt), encoding="utf-8")
        print(f"{name}: {len(game.hands)} hand(s), scores {report.scores}")
    missing = set(Category) - seen
    print("categories missing:", sorted(c.name for c in missing) or "none")
    return 0


def _category(game: Game, move: RMove) -> Category:
    from zfrec.games.zhengfen.engine.combos import readings

    found = readings(move.cards, game.ruleset(), dict(move.declarations))
    return found[0].category


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
