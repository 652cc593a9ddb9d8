"""Shared by the live-table tests: simulated games turned into API entries, and the checks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from zfrec.games.zhengfen.engine.cards import format_cards
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import Game, loads
from zfrec.record.model import Hand, Trick

# FastAPI's TestClient or an httpx2 client on a real server: both have get() and post().
Client = Any


@dataclass(frozen=True)
class Step:
    """One API call that replays part of a record: a hand start or a move."""

    kind: str  # "hand" | "move"
    body: dict[str, Any]


class Tab:
    """A table and its writer token, with the calls the tests make; its players are `extra`'s
    `players`, or Ann, Bo Li and 王芳."""

    def __init__(self, client: Client, **extra: Any) -> None:
        body = {"players": ["Ann", "Bo Li", "王芳"], **extra}
        made = client.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        self.client, self.id = client, made.json()["id"]
        self.auth = {"Authorization": f"Bearer {made.json()['token']}"}

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(f"/api/tables/{self.id}/{path}", json=body, headers=self.auth)

    def move(self, seat: int, play: str, **extra: Any) -> Any:
        return self.post("moves", {"seat": seat, "play": play, **extra})

    def step(self, kind: str, body: dict[str, Any]) -> None:
        """One `Step`'s call, which must be taken."""
        r = self.post("hands" if kind == "hand" else "moves", body)
        assert r.status_code in (200, 201), (body, r.text)

    def state(self) -> dict[str, Any]:
        out: dict[str, Any] = self.client.get(f"/api/tables/{self.id}").json()
        return out

    def zfn(self) -> str:
        text: str = self.client.get(f"/api/tables/{self.id}/record.zfn").text
        return text


def sim(players: int, seed: int, rules: str = "pagat", hands: int | None = 1) -> Game:
    return simulate_game(SimConfig(players, preset(rules), "random", hands), seed)


def hand_body(hand: Hand, deals: str = "all", own: int = 0) -> dict[str, Any]:
    """The hand-start body for a simulated hand: deals `all`, `own` (one seat) or `none`."""
    assert hand.shuffler is not None and hand.deal is not None
    body: dict[str, Any] = {"shuffler": hand.shuffler + 1}
    if deals == "all":
        body["deals"] = {str(s + 1): format_cards(d.known) for s, d in enumerate(hand.deal)}
    elif deals == "own":
        body["deals"] = {str(own + 1): format_cards(hand.deal[own].known)}
    return body


def steps(game: Game, deals: str = "all", drop_passes: bool = False) -> Iterator[Step]:
    """The API calls that log `game`: each hand's start, then every move as recorded."""
    for hand in game.hands:
        yield Step("hand", hand_body(hand, deals, own=(hand.number - 1) % len(game.players)))
        for trick in hand.tricks:
            plays = [i for i, m in enumerate(trick.moves) if not m.is_pass]
            # The passes that close a trick are left out, except where the trick's winner went
            # out with it: then the next leader is also the next seat to act in the trick.
            winner_out = _went_out(hand, trick, plays[-1])
            for i, move in enumerate(trick.moves):
                if move.is_pass and drop_passes and (i < plays[-1] or not winner_out):
                    continue
                play = "-" if move.is_pass else move.play_text()
                yield Step("move", {"seat": move.seat + 1, "play": play})


def _went_out(hand: Hand, trick: Trick, index: int) -> bool:
    """Whether the seat of move `index` of `trick` holds no cards after it."""
    assert hand.deal is not None
    seat = trick.moves[index].seat
    left: int = hand.deal[seat].known
    for t in hand.tricks:
        for m in t.moves:
            if m.seat == seat and not m.is_pass:
                left &= ~m.cards
        if t is trick:
            break
    return left == 0


def send(client: Client, table: str, token: str, step: Step) -> Any:
    path = f"/api/tables/{table}/{'hands' if step.kind == 'hand' else 'moves'}"
    return client.post(path, json=step.body, headers={"Authorization": f"Bearer {token}"})


def new_table(client: Client, game: Game, **extra: Any) -> tuple[str, str]:
    rules = game.ruleset()
    body = {
        "players": game.players,
        "rules": rules.preset,
        "options": {k: v for k, v in rules.overrides().items() if k != "target"},
        "target": rules.target,
        **extra,
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


def exported(client: Client, table: str) -> Game:
    r = client.get(f"/api/tables/{table}/record.zfn")
    assert r.status_code == 200
    games = loads(r.text)
    assert len(games) == 1
    return games[0]


def without_passes(game: Game) -> list[list[list[tuple[int, str]]]]:
    """Per hand, per trick, the plays (seat, cards) with the passes left out."""
    return [
        [[(m.seat, m.play_text()) for m in t.moves if not m.is_pass] for t in h.tricks]
        for h in game.hands
    ]
