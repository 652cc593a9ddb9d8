"""A player's name misspelt on the command line (`render --seat`, `solve --seat`, `stats
--player`, `games --player`): one line naming the players it may mean, exit 2, as a misspelt
name in a record is (zfrec.record.problems.name_matches), Chinese names too."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tests.test_store import store_url  # noqa: F401 - the SQLite and PostgreSQL stores
from zfrec.cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
SJ = SAMPLES / "shengji" / "03-failed-throw.zfn"  # Ann, 王芳, Bo Li, 李娜
ZF = SAMPLES / "02-three-players.zfn"  # Mei, Jun, Hao


def _one_line_error(args: list[str]) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, (args, res.output)
    assert res.stdout == "" and res.stderr.count("\n") == 1, res.stderr
    assert res.stderr.startswith("error: "), res.stderr
    return res.stderr


def test_render_seat_names_the_players_a_misspelt_name_may_mean(tmp_path: Path) -> None:
    out = tmp_path / "pages"
    for record, typed, meant in ((SJ, "王方", "王芳"), (SJ, "anne", "Ann"), (ZF, "Mie", "Mei")):
        line = _one_line_error(["render", str(record), "--seat", typed, "--out", str(out)])
        assert f"no player is called '{typed}'" in line
        assert line.endswith(f"; did you mean {meant}?\n"), line
    # a name close to nobody's: the seats, and no guess
    line = _one_line_error(["render", str(SJ), "--seat", "Xyz", "--out", str(out)])
    assert "the seats are 1 Ann, 2 王芳, 3 Bo Li, 4 李娜" in line and "did you mean" not in line
    assert not out.exists()  # nothing half-written
    # the right name still renders that seat's view
    res = runner.invoke(app, ["render", str(SJ), "--seat", "王芳", "--out", str(out)])
    assert res.exit_code == 0, res.output


def test_solve_seat_names_the_players_a_misspelt_name_may_mean() -> None:
    record = SAMPLES / "unfinished" / "three-players.zfn"  # East, South, West
    line = _one_line_error(["solve", str(record), "--seat", "Wset"])
    assert line.endswith("; did you mean West?\n"), line


def test_stats_player_names_the_stored_players_a_misspelt_name_may_mean(
    store_url: str,  # noqa: F811
) -> None:
    res = runner.invoke(app, ["import", str(SJ), str(ZF), "--db", store_url])
    assert res.exit_code == 0, res.output
    for command in ("stats", "games"):
        for typed, meant in (("王方", "王芳"), ("Mie", "Mei"), ("bo lee", "Bo Li")):
            line = _one_line_error([command, "--db", store_url, "--player", typed])
            assert f"no player named '{typed}' in the store; did you mean {meant}?\n" == (
                line.removeprefix("error: ")
            ), line
        line = _one_line_error([command, "--db", store_url, "--player", "Xyz"])
        assert "did you mean" not in line
    res = runner.invoke(app, ["stats", "--db", store_url, "--player", "王芳", "--game", "shengji"])
    assert res.exit_code == 0 and "王芳" in res.stdout
