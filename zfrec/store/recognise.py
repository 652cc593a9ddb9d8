"""When an import takes a new record for a correction of a stored game (STORE.md, "Correcting a
stored game").

A record that is not stored yet replaces the stored game G, which keeps its id, when

1. the record has an Event and a Date, and G has the same Event, Date and players in the same
   seats (names compared as records compare them, ignoring case);
2. at least half of the plays agree: the plays (hand, seat, cards; passes left out) the two
   records share, as a multiset, are at least half of the longer record's;
3. G is the only stored game that rules 1 and 2 find, the file does not hold G's own version
   elsewhere, and no earlier record of the file replaced G;
4. when the file held G before (it was edited and is imported again), no other file holds G:
   a copy of the record in another file keeps its version, and the edit is another game.

A record with errors that rules 1 and 2 match to a stored game without errors is neither put in
its place nor stored beside it (rule 5): it is most likely an older draft of that game, and
importing a folder of drafts must not put a broken version in place of the good one, nor a
second copy of the night beside it. The import keeps the stored game, counts the record as
skipped, shows its errors and says how to put it in place all the same (`--replace`).

Two games of one club night share event, date and players but not their cards: rule 2 tells
them apart, and rule 3 keeps an import from choosing between several. Where rule 1 finds a
stored game and the others do not hold, the record is stored as a new game and the import
says why (`zfrec import --replace ID FILE` replaces a game by hand), when the stored game may be
a version of it: of its kind (always, for every rule), and, where rule 2 fails, with a deal in
common (another game of the night is stored without a word).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, NamedTuple

from sqlalchemy import Connection, and_, select
from sqlmodel import SQLModel

from zfrec.store.likeness import deals
from zfrec.store.rows import HANDS, Layout
from zfrec.store.tables import GAME, PLAYER, SEAT, SOURCE, chunks

Key = tuple[str, str, tuple[str, ...]]  # event, date, player keys in seat order
AGREE = 0.5  # the share of plays that must agree (rule 3)


def record_key(event: str | None, date: str | None, players: Iterable[str]) -> Key | None:
    """The key a record is recognised by, or None when it lacks an Event or a Date."""
    if not event or not date:
        return None
    return event, date, tuple(players)


def stored_keys(conn: Connection, keys: Iterable[Key]) -> dict[Key, list[int]]:
    """The stored games with each of `keys`, by key (one query per few hundred events)."""
    wanted = set(keys)
    events = sorted({k[0] for k in wanted})
    dates = {k[1] for k in wanted}
    found: dict[int, tuple[str, str]] = {}
    for chunk in chunks(events):
        rows = conn.execute(
            select(GAME.c.id, GAME.c.event, GAME.c.date).where(GAME.c.event.in_(chunk))
        )
        found.update((int(i), (e, d)) for i, e, d in rows if d in dates)
    players: dict[int, list[tuple[int, str]]] = {i: [] for i in found}
    for chunk in chunks(sorted(found)):
        rows = conn.execute(
            select(SEAT.c.game_id, SEAT.c.seat, PLAYER.c.key)
            .join(PLAYER, PLAYER.c.id == SEAT.c.player_id)
            .where(SEAT.c.game_id.in_(chunk))
        )
        for game_id, seat, key in rows:
            players[int(game_id)].append((int(seat), str(key)))
    out: dict[Key, list[int]] = {}
    for game_id, (event, date) in sorted(found.items()):
        key = (event, date, tuple(k for _, k in sorted(players[game_id])))
        if key in wanted:
            out.setdefault(key, []).append(game_id)
    return out


def record_plays(plays: list[list[tuple[Any, ...]]]) -> Counter[tuple[int, int, str]]:
    """The plays of a record's rows (zfrec.store.rows: per hand, hand number first), passes
    left out."""
    return Counter(
        (int(p[0]), int(p[3]), str(p[5])) for hand in plays for p in hand if not p[4] and p[5]
    )


def stored_plays(
    conn: Connection, game_id: int, layout: Layout | None = None
) -> Counter[tuple[int, int, str]]:
    """The plays of a stored game, passes (or bids) left out; `layout`: the tables of its
    kind's rows (None: Zheng Fen's)."""
    layout = layout or HANDS
    tables = SQLModel.metadata.tables
    units, plays = tables[layout.units], tables[layout.plays]
    ids = select(units.c.id).where(units.c.game_id == game_id)
    rows = conn.execute(
        select(plays.c[layout.number], plays.c.seat, plays.c.cards).where(
            and_(plays.c[layout.key].in_(ids), plays.c[layout.skip].is_(False))
        )
    )
    return Counter((int(h), int(s), str(c)) for h, s, c in rows if c)


def agreement(a: Counter[tuple[int, int, str]], b: Counter[tuple[int, int, str]]) -> float:
    """The share of plays two records have in common, over the longer one's (0 when either has
    none: nothing tells them apart or together)."""
    longer = max(a.total(), b.total())
    if not longer or not a.total() or not b.total():
        return 0.0
    return (a & b).total() / longer


class Decision(NamedTuple):
    """What an import does with a new record: put it in place of stored game `replaces`, or
    (None) store it as a new game, unless `kept` names the stored game without errors that a
    record with errors leaves as it is (rule 5: the record is not stored)."""

    replaces: int | None = None
    kept: int | None = None


def corrected(
    conn: Connection,
    source: str,
    number: int,
    key: Key,
    plays: list[list[tuple[Any, ...]]],
    candidates: dict[Key, list[int]],
    taken: set[int],
    notes: list[str],
    layout: Layout | None = None,
    valid: bool = True,
    game: dict[str, Any] | None = None,
) -> Decision:
    """What to do with the new record at position `number` of its file, with `key`, the rows
    `plays` and whether it is `valid`, by the rules above; `game`: its game row (zfrec.store.
    rows), whose kind a stored game must have and whose deals name a version. `taken`: games
    it may not correct (the file holds them, or another of its records replaced them). `notes`
    says what was decided wherever a stored game has the same key."""
    found = [g for g in candidates.get(key, []) if g not in taken]
    if found and game is not None:  # a game of the other kind is never a version of it
        kinds = select(GAME.c.id).where(GAME.c.id.in_(found), GAME.c.kind == game["kind"])
        found = sorted(int(g) for g in conn.execute(kinds).scalars())
    if not found:
        return Decision()
    mine = record_plays(plays)
    shares = {g: agreement(mine, stored_plays(conn, g, layout)) for g in found}
    agreeing = [g for g in found if shares[g] >= AGREE]
    if len(agreeing) > 1:
        listed = ", ".join(map(str, agreeing))
        notes.append(
            f"game {number}: stored games {listed} have the same event, date and players and "
            "half of its plays: stored as a new game (--replace ID replaces one)"
        )
        return Decision()
    if not agreeing:
        if game is not None and not (found := _sharing_a_deal(conn, found, game)):
            return Decision()  # another game of the same night: nothing to say
        closest = max(found, key=lambda g: shares[g])
        notes.append(
            f"game {number}: same event, date and players as stored game"
            f"{'s' if len(found) > 1 else ''} {', '.join(map(str, found))}, but at most "
            f"{shares[closest]:.0%} of the plays agree: stored as a new game "
            f"(--replace {closest} would replace game {closest})"
        )
        return Decision()
    game_id = agreeing[0]
    if not valid and conn.execute(select(GAME.c.valid).where(GAME.c.id == game_id)).scalar():
        notes.append(
            f"game {number} has errors and matches stored game {game_id}, which has none (same "
            f"event, date and players; {shares[game_id]:.0%} of the plays agree): an older "
            f"draft? Not stored; game {game_id} is kept as it is (--replace {game_id} puts this "
            "record in its place)"
        )
        return Decision(kept=game_id)
    here = select(SOURCE.c.id).where(SOURCE.c.game_id == game_id, SOURCE.c.path == source)
    elsewhere = select(SOURCE.c.id).where(SOURCE.c.game_id == game_id, SOURCE.c.path != source)
    if conn.execute(here).first() is not None and conn.execute(elsewhere).first() is not None:
        notes.append(
            f"game {number}: this file held stored game {game_id} before, and so does another "
            "file, which keeps that version: stored as a new game"
        )
        return Decision()
    notes.append(
        f"game {number} replaces stored game {game_id} (same event, date and players; "
        f"{shares[game_id]:.0%} of the plays agree)"
    )
    return Decision(replaces=game_id)


def _sharing_a_deal(conn: Connection, found: list[int], game: dict[str, Any]) -> list[int]:
    """The games of `found` that may be versions of `game` by their deals: those with a deal in
    common with it; all of them when it or they record no deal (the plays alone tell then)."""
    mine = deals(str(game["record_json"]))
    if not mine:
        return found
    texts = conn.execute(select(GAME.c.id, GAME.c.record_json).where(GAME.c.id.in_(found)))
    theirs = {int(g): deals(str(text)) for g, text in texts}
    return [g for g in found if not theirs.get(g) or theirs[g] & mine]


__all__ = [
    "AGREE",
    "Decision",
    "Key",
    "agreement",
    "corrected",
    "record_key",
    "record_plays",
    "stored_keys",
    "stored_plays",
]
