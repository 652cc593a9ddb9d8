"""Sheng ji matches in the store: their rows (sj_round, sj_round_seat, sj_play) against what the
validator computes, the exact record back, show and stats, worker processes, deletes and
corrections, a store holding both games; and old stores (revisions 0003 and 0004) upgraded in
place. Every test that opens a store runs on SQLite and on PostgreSQL (tests/test_store.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import pytest
from alembic import command
from sqlalchemy import Engine, text
from typer.testing import CliRunner

from tests.test_import import _snapshot
from tests.test_store import _import, _write, counts, engine, games, store_url
from zfrec.cli import app
from zfrec.games.shengji.cards import parse_hand
from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.notation import dumps_sj
from zfrec.games.shengji.report import SjReport
from zfrec.games.shengji.rows import HALF, halves
from zfrec.games.shengji.rules import level_text, sj_preset
from zfrec.games.shengji.simrecords import match_to_record
from zfrec.record import Game, load
from zfrec.store import (
    export_game,
    get_game,
    import_file,
    import_workers,
    load_record,
    open_store,
    session,
)
from zfrec.store.db import SCHEMA_REVISION, alembic_config, current_revision
from zfrec.store.queries import player_stats
from zfrec.validate import validate

__all__ = ["engine", "games", "store_url"]  # fixtures, shared with tests/test_store.py

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
FILES = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".zfn", ".json"))
BROKEN = sorted(p for p in (SAMPLES / "broken").glob("*.zfn") if p.stem != "unreadable-card")
SJ_TABLES = ("sj_round", "sj_round_seat", "sj_play")
runner = CliRunner()


def _records(paths: list[Path]) -> list[Game]:
    return [g for p in paths for g in load(p)]


def _judged(game: Game) -> SjReport:
    report: Any = validate(game)
    assert isinstance(report, SjReport)
    return report


def _sj_counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {
            t: int(conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()) for t in SJ_TABLES
        }


def _moves(game: Game) -> int:
    return sum(len(r.bids) + sum(len(t.moves) for t in r.tricks) for r in game.rounds)


def _simulated(tmp_path: Path, matches: int = 3) -> Path:
    """Whole greedy matches: bashi fen, da bai fen, zhao pengyou (5 seats)."""
    presets = [sj_preset(), sj_preset("dabaifen"), sj_preset("zhaopengyou", players=5)]
    records = []
    for i in range(matches):
        rules = presets[i % 3]
        played = play_match(rules, 500 + i, ["greedy"] * rules.players, max_rounds=8)
        records.append(match_to_record(played))
    path = tmp_path / "sim.zfn"
    path.write_text(dumps_sj(records), encoding="utf-8")
    return path


def _rows(engine: Engine, sql: str, **params: Any) -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(text(sql), params))


# the rows ---------------------------------------------------------------------------------------


def test_the_rows_hold_what_the_validator_computes(engine: Engine) -> None:
    ids = [i for p in FILES + BROKEN for i in _import(engine, p).game_ids]
    records = _records(FILES + BROKEN)
    assert len(ids) == len(records) > 30
    assert _sj_counts(engine) == {
        "sj_round": sum(len(g.rounds) for g in records),
        "sj_round_seat": sum(len(g.rounds) * len(g.players) for g in records),
        "sj_play": sum(_moves(g) for g in records),
    }
    finished = 0
    for game_id, game in zip(ids, records, strict=True):
        report = _judged(game)
        (row,) = _rows(engine, "SELECT * FROM game WHERE id = :g", g=game_id)
        assert (row.kind, row.hands, row.valid, row.errors) == (
            "shengji",
            len(game.rounds),
            report.ok,
            report.errors,
        )
        seats = _rows(engine, "SELECT * FROM seat WHERE game_id = :g ORDER BY seat", g=game_id)
        assert [s.score for s in seats] == list(report.levels) or not report.levels
        assert [s.seat for s in seats if s.winner] == list(report.winners)
        stored = {
            r.number: r
            for r in _rows(engine, "SELECT * FROM sj_round WHERE game_id = :g", g=game_id)
        }
        for ledger in report.rounds:
            r = stored[ledger.number]
            res = ledger.result
            assert (r.dealer, r.reconstructed, r.finished) == (
                ledger.dealer,
                ledger.reconstructed,
                res is not None,
            )
            assert r.kitty == _text(ledger.discard)
            if res is None:
                assert r.points is None and r.declarers is None
                continue
            finished += 1
            assert (r.declarers, r.taken, r.points, r.kitty_points, r.multiplier) == (
                res.declarers,
                res.taken,
                res.total,
                res.kitty_points,
                res.multiplier,
            )
            assert (r.declarers_up, r.opponents_up, bool(r.swap), r.next_dealer) == (
                res.change.declarers,
                res.change.opponents,
                res.change.swap,
                res.next_dealer,
            )
            levels = _rows(
                engine,
                "SELECT seat, declarer, level, points FROM sj_round_seat WHERE round_id = :r "
                "ORDER BY seat",
                r=r.id,
            )
            assert tuple(s.level for s in levels) == ledger.levels
            assert [s.seat for s in levels if s.declarer] == [
                s for s in range(len(game.players)) if res.declarers >> s & 1
            ]
            assert {s.points for s in levels if not s.declarer} == {res.total}
    assert finished > 40


def _text(cards: int) -> str:
    from zfrec.games.shengji.cards import format_hand

    return format_hand(cards)


def test_plays_keep_two_decks_of_cards_exactly(engine: Engine, tmp_path: Path) -> None:
    path = _simulated(tmp_path)
    (game_id, *_) = _import(engine, path).game_ids
    game = _records([path])[0]
    plays = _rows(
        engine,
        "SELECT p.* FROM sj_play p JOIN sj_round r ON r.id = p.round_id WHERE r.game_id = :g "
        "ORDER BY p.id",
        g=game_id,
    )
    written = [
        (r.number, 0, turn, b, True) for r in game.rounds for turn, b in enumerate(r.bids, 1)
    ]
    assert len(plays) == _moves(game)
    pairs = 0
    for p in plays:
        packed = p.cards_lo | p.cards_hi << 2 * HALF
        assert packed == parse_hand(p.cards, 3)  # the halves are the cards written
        assert 0 <= p.cards_lo < 1 << 54 and 0 <= p.cards_hi < 1 << 54
        pairs += any(packed >> 2 * c & 3 == 2 for c in range(54))
    assert pairs > 10  # both copies of a card in one play: what a 64-bit mask could not hold
    bids = [(p.round_number, p.trick, p.turn, p.cards) for p in plays if p.is_bid]
    assert bids == [(n, t, turn, _text(b.cards)) for n, t, turn, b, _ in written]
    moves = [m for r in game.rounds for t in r.tricks for m in t.moves]
    assert [(p.seat, p.cards) for p in plays if not p.is_bid] == [
        (m.seat, _text(m.cards)) for m in moves
    ]
    jokers = parse_hand("BJ BJ")
    assert halves(jokers) == (0, 2 << 2 * (53 - HALF))


def test_failed_throws_annotations_and_comments_are_kept(engine: Engine) -> None:
    _import(engine, SAMPLES / "03-failed-throw.zfn")
    _import(engine, SAMPLES / "09-annotated.zfn")
    throws = _rows(engine, "SELECT cards, forced, blocker FROM sj_play WHERE forced IS NOT NULL")
    game = _records([SAMPLES / "03-failed-throw.zfn"])[0]
    failed = [m for r in game.rounds for t in r.tricks for m in t.moves if m.failed]
    assert (
        [(t.cards, t.forced, t.blocker) for t in throws]
        == [(_text(m.cards), _text(m.played), m.blocker) for m in failed]
        != []
    )
    noted = _rows(engine, "SELECT annotation, comment FROM sj_play WHERE annotation IS NOT NULL")
    assert noted and all(n.annotation in ("!", "?", "!!", "??", "!?", "?!") for n in noted)


def test_the_canonical_json_of_plays_as_one_line_texts_is_the_json_of_their_dicts(
    tmp_path: Path,
) -> None:
    # The import hashes the canonical JSON, which writes plain plays as ready texts (Flat):
    # it must be the text the plain dicts give, for one game and for several.
    from zfrec.record import dumps
    from zfrec.record.jsonio import _render, game_to_json

    records = _records([*FILES, *BROKEN, _simulated(tmp_path, 3)])
    for game in records:
        assert dumps(game, "json") == _render(game_to_json(game), 0, {})[1] + "\n"
    several = {"games": [game_to_json(g) for g in records]}
    assert dumps(records, "json") == _render(several, 0, {})[1] + "\n"


def test_export_gives_every_sample_back_byte_for_byte(engine: Engine) -> None:
    for path in FILES:
        (game_id,) = _import(engine, path).game_ids
        fmt: Literal["zfn", "json"] = "json" if path.suffix == ".json" else "zfn"
        with session(engine, readonly=True) as s:
            assert export_game(s, game_id=game_id, format=fmt) == path.read_text("utf-8")
            assert load_record(s, game_id) == _records([path])[0]


def test_workers_store_what_one_process_stores(
    engine: Engine, tmp_path: Path, games: list[Game], store_url: str
) -> None:
    mixed = tmp_path / "mixed.zfn"
    zf = _write(tmp_path / "zf.zfn", games[:4]).read_text("utf-8")
    sj = _simulated(tmp_path, 4).read_text("utf-8")
    mixed.write_text(zf + "\n" + sj + "\n" + (SAMPLES / "06-zhaopengyou.zfn").read_text("utf-8"))
    one = _import(engine, mixed)
    alone = _snapshot(engine) | _sj_snapshot(engine)
    with engine.begin() as conn:
        for table in (*SJ_TABLES[::-1], "play", "hand_seat", "hand", "diagnostic", "seat"):
            conn.execute(text(f"DELETE FROM {table}"))
        conn.execute(text("DELETE FROM game_source"))
        conn.execute(text("DELETE FROM game"))
    with import_workers(2) as workers, session(engine) as s:
        two = import_file(s, path=mixed, workers=workers)
    assert (two.added, two.hands) == (one.added, one.hands) == (9, one.hands)
    assert _snapshot(engine) | _sj_snapshot(engine) == alone


def _sj_snapshot(engine: Engine) -> dict[str, list[str]]:
    """The Sheng ji rows, with each id replaced by what it stands for."""
    with engine.connect() as conn:
        games: dict[Any, Any] = dict(conn.execute(text("SELECT id, content_hash FROM game")).all())
        rounds = {
            i: (games[g], n)
            for i, g, n in conn.execute(text("SELECT id, game_id, number FROM sj_round"))
        }
        players: dict[Any, Any] = dict(conn.execute(text("SELECT id, key FROM player")).all())
        stand_for = {"game_id": games, "round_id": rounds, "player_id": players}
        out = {}
        for table in SJ_TABLES:
            rows = conn.execute(text(f"SELECT * FROM {table}")).mappings()
            out[table] = sorted(
                repr(
                    sorted(
                        (k, stand_for[k][v] if k in stand_for else v)
                        for k, v in r.items()
                        if k != "id"
                    )
                )
                for r in rows
            )
    return out


def test_delete_and_replace_remove_a_match_s_rows(engine: Engine, tmp_path: Path) -> None:
    from zfrec.store import delete_game
    from zfrec.store.correct import replace_game

    first = _import(engine, SAMPLES / "01-bashifen-match.zfn").game_ids[0]
    second = _import(engine, SAMPLES / "02-no-trump.zfn").game_ids[0]
    before = _sj_counts(engine)
    with session(engine) as s:
        replace_game(s, game_id=second, path=SAMPLES / "04-kitty-multiplier.zfn")
    rounds = len(_records([SAMPLES / "04-kitty-multiplier.zfn"])[0].rounds)
    (number,) = _rows(engine, "SELECT count(*) FROM sj_round WHERE game_id = :g", g=second)[0]
    assert number == rounds
    with session(engine) as s:
        delete_game(s, game_id=first)
    left = _sj_counts(engine)
    assert left["sj_round"] == rounds < before["sj_round"]
    assert _rows(engine, "SELECT count(*) FROM sj_play WHERE game_id = :g", g=first)[0][0] == 0
    assert (
        _rows(engine, "SELECT count(*) FROM sj_round_seat WHERE game_id = :g", g=first)[0][0] == 0
    )


# show, games, stats ------------------------------------------------------------------------------


def test_show_games_and_stats_on_a_store_of_both_games(
    store_url: str, tmp_path: Path, games: list[Game]
) -> None:
    zf = _write(tmp_path / "zf.zfn", games[:3])
    only_zf = str(tmp_path / "zf-only.db")
    assert runner.invoke(app, ["import", "--db", only_zf, str(zf)]).exit_code == 0
    zf_stats = runner.invoke(app, ["stats", "--db", only_zf]).stdout
    zf_json = runner.invoke(app, ["stats", "--db", only_zf, "--json"]).stdout
    result = runner.invoke(app, ["import", "--db", store_url, str(zf), *map(str, FILES)])
    assert result.exit_code == 0, result.output
    listed = json.loads(runner.invoke(app, ["games", "--db", store_url, "--json"]).stdout)
    assert len(listed) == 3 + len(FILES)
    # Zheng Fen's statistics are those of its games alone, in text and JSON
    text_out = runner.invoke(app, ["stats", "--db", store_url]).stdout
    assert text_out.startswith(zf_stats)
    assert "Sheng ji" in text_out[len(zf_stats) :]
    assert runner.invoke(app, ["stats", "--db", store_url, "--json"]).stdout == zf_json
    # Sheng ji's, against the validator's reports
    out = runner.invoke(app, ["stats", "--db", store_url, "--game", "shengji", "--json"])
    assert out.exit_code == 0, out.output
    stats = {p["name"]: p for p in json.loads(out.stdout)}
    expect: dict[str, dict[str, int]] = {}
    for game in _records(FILES):
        report = _judged(game)
        for s, name in enumerate(game.players):
            e = expect.setdefault(name, dict.fromkeys(("games", "wins", "rounds", "decl", "held",
                                                       "opp", "points"), 0))  # fmt: skip
            e["games"] += 1
            e["wins"] += s in report.winners
            e["rounds"] += len(game.rounds)
            for ledger in report.rounds:
                res = ledger.result
                if res is None:
                    continue
                if res.declarers >> s & 1:
                    e["decl"] += 1
                    e["held"] += not res.change.swap
                else:
                    e["opp"] += 1
                    e["points"] += res.total
    assert {
        n: {"games": p["games"], "wins": p["wins"], "rounds": p["rounds"],
            "decl": p["declarer_rounds"], "held": p["held"], "opp": p["opponent_rounds"],
            "points": p["points"]}
        for n, p in stats.items()
    } == expect  # fmt: skip
    assert any(e["held"] for e in expect.values()) and any(e["wins"] for e in expect.values())
    # show: a match's rounds as computed
    sj_id = listed[3]["id"]
    shown = json.loads(runner.invoke(app, ["show", str(sj_id), "--db", store_url, "--json"]).stdout)
    report = _judged(_records(FILES[:1])[0])
    assert shown["game"] == "shengji" and "hand_results" not in shown
    assert [r["points"] for r in shown["round_results"]] == [
        r.result.total if r.result else None for r in report.rounds
    ]
    assert shown["round_results"][-1]["levels"] == [level_text(v) for v in report.levels]
    text_show = runner.invoke(app, ["show", str(sj_id), "--db", store_url])
    assert (
        text_show.exit_code == 0 and "round" in text_show.stdout and "winner:" in text_show.stdout
    )
    assert "target " not in text_show.stdout  # a match is played to A, not to a score
    zf_show = runner.invoke(app, ["show", str(listed[0]["id"]), "--db", store_url, "--json"])
    assert "hand_results" in json.loads(zf_show.stdout)
    zf_text = runner.invoke(app, ["show", str(listed[0]["id"]), "--db", store_url]).stdout
    assert "  target   " in zf_text
    bad = runner.invoke(app, ["stats", "--db", store_url, "--game", "shengjj"])
    assert bad.exit_code == 2 and "did you mean shengji" in bad.output


def test_stats_says_which_games_of_another_kind_the_store_holds(
    store_url: str, tmp_path: Path, games: list[Game]
) -> None:
    """A store of Sheng ji matches only: `stats --json` (Zheng Fen's, by default) still prints
    its `[]` for scripts, and says on standard error that --game shengji shows what is there;
    the text says it on standard output."""
    assert runner.invoke(app, ["import", "--db", store_url, *map(str, FILES)]).exit_code == 0
    hint = (
        "hint: the store holds no Zheng Fen games, only Sheng ji ones: add --game shengji for "
        "their statistics\n"
    )
    as_json = runner.invoke(app, ["stats", "--db", store_url, "--json"])
    assert (as_json.exit_code, as_json.stdout, as_json.stderr) == (0, "[]\n", hint)
    text = runner.invoke(app, ["stats", "--db", store_url, "--game", "zhengfen"])
    assert (text.exit_code, text.stdout, text.stderr) == (
        0,
        "no Zheng Fen games stored\n" + hint,
        "",
    )
    asked = runner.invoke(app, ["stats", "--db", store_url, "--game", "shengji", "--json"])
    assert asked.exit_code == 0 and json.loads(asked.stdout) and asked.stderr == ""
    whole = runner.invoke(app, ["stats", "--db", store_url])  # every kind shown: nothing to add
    assert "Sheng ji" in whole.stdout and "hint" not in whole.output
    zf = _write(tmp_path / "zf.zfn", games[:1])
    assert runner.invoke(app, ["import", "--db", store_url, str(zf)]).exit_code == 0
    both = runner.invoke(app, ["stats", "--db", store_url, "--json"])
    assert [p["games"] for p in json.loads(both.stdout)] == [1] * len(games[0].players)
    assert both.stderr == (
        "hint: the store also holds Sheng ji games: add --game shengji for their statistics\n"
    )


def test_player_stats_count_zheng_fen_games_only(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    _import(engine, _write(tmp_path / "zf.zfn", games[:2]))
    with session(engine, readonly=True) as s:
        before = player_stats(s)
    _import(engine, SAMPLES / "01-bashifen-match.zfn")
    with session(engine, readonly=True) as s:
        assert player_stats(s) == before
        assert player_stats(s, analysis=True)[0].games == before[0].games


# old stores upgrade in place ---------------------------------------------------------------------


@pytest.mark.parametrize("revision", ["0003", "0004"])
def test_an_old_store_with_games_upgrades_in_place_and_reads_them_back(
    engine: Engine, tmp_path: Path, games: list[Game], revision: str
) -> None:
    path = _write(tmp_path / "a.zfn", games[:3])
    ids = _import(engine, path).game_ids
    with session(engine, readonly=True) as s:
        exported = [export_game(s, game_id=i) for i in ids]
        details = [get_game(s, game_id=i).to_json() for i in ids]
    stored = _snapshot(engine)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), revision)
    assert current_revision(engine) == revision
    with engine.connect() as conn:
        tables = set(conn.dialect.get_table_names(conn))
    assert not tables & set(SJ_TABLES)
    engine.dispose()
    again = open_store(engine.url.render_as_string(hide_password=False))
    try:
        assert current_revision(again) == SCHEMA_REVISION
        assert _snapshot(again) == stored
        with session(again, readonly=True) as s:
            assert [export_game(s, game_id=i) for i in ids] == exported
            assert [get_game(s, game_id=i).to_json() for i in ids] == details
            assert [load_record(s, i) for i in ids] == games[:3]
        # and the store goes on, with both games
        assert _import(again, SAMPLES / "02-no-trump.zfn").added == 1
        assert counts(again)["game"] == 4 and _sj_counts(again)["sj_round"] == 2
    finally:
        again.dispose()


def test_the_import_bench_counts_sheng_ji_rounds(tmp_path: Path) -> None:
    from bench.import_bench import import_hands_per_s

    path = _simulated(tmp_path, 1)
    rate = import_hands_per_s([path])
    assert rate > 0
    rounds = len(_records([path])[0].rounds)
    engine = open_store(f"sqlite:///{tmp_path / 'count.db'}")
    try:
        assert _import(engine, path).hands == rounds > 1  # what the rate counts
    finally:
        engine.dispose()


def test_an_edited_match_is_recognised_as_a_correction(engine: Engine, tmp_path: Path) -> None:
    # Recognising a correction compares the plays of the match's own rows (sj_play).
    from zfrec.record import dumps

    game = _records([SAMPLES / "02-no-trump.zfn"])[0]
    game.date = "2026-11-27"
    (game_id,) = _import(engine, _write(tmp_path / "a.zfn", [game])).game_ids
    game.rounds[0].tricks[2].moves[1].comments.append("the scorer's note, added later")
    edited = tmp_path / "b.zfn"
    edited.write_text(dumps(game, "zfn"), encoding="utf-8")
    result = _import(engine, edited)
    assert (result.replaced, result.added, result.game_ids) == (1, 0, (game_id,))
    assert "100% of the plays agree" in result.notes[0]
    (comment,) = _rows(engine, "SELECT comment FROM sj_play WHERE comment IS NOT NULL")
    assert comment[0] == "the scorer's note, added later"
    assert counts(engine)["game"] == 1 and _sj_counts(engine)["sj_round"] == len(game.rounds)


def test_import_summaries_count_a_match_in_rounds(store_url: str) -> None:
    """`import --replace` and an import that stores nothing name a match's unit, the round."""
    fine, broken = SAMPLES / "01-bashifen-match.zfn", SAMPLES / "broken" / "wrong-dealer.zfn"
    first = runner.invoke(app, ["import", "--db", store_url, str(fine)])
    assert first.exit_code == 0, first.output
    assert "1 game(s) added (17 round(s))" in first.stdout
    other = str(SAMPLES / "02-no-trump.zfn")  # another match: --force
    replaced = runner.invoke(app, ["import", "--db", store_url, "--replace", "1", other, "--force"])
    assert replaced.exit_code == 0, replaced.output
    assert "(2 rounds) in " in replaced.stdout and "hand" not in replaced.stdout
    as_json = runner.invoke(
        app, ["import", "--db", store_url, "--replace", "1", str(fine), "--json", "--force"]
    )
    assert json.loads(as_json.stdout)["hands"] == 17 and "unit" not in json.loads(as_json.stdout)
    skipped = runner.invoke(app, ["import", "--db", store_url, "--only-valid", str(broken)])
    assert skipped.exit_code == 1, skipped.output
    assert "0 game(s) added (0 round(s))" in skipped.stdout and "hand" not in skipped.stdout
    again = runner.invoke(app, ["import", "--db", store_url, str(fine)])
    assert "0 game(s) added (0 round(s)), 1 already stored" in again.stdout
