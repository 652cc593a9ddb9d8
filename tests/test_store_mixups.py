"""A league's season kept in the store, both games, and the slips made keeping it: a mistyped
`--replace` id, a header corrected outside `--replace`, a folder imported by mistake. Every
test that opens a store runs on SQLite and on PostgreSQL (the store_url fixture of test_store).
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from tests.test_correct import DATE, EVENT, cli, edited, night, record, runner
from tests.test_store import (  # noqa: F401  (engine, store_url: fixtures)
    _write,
    counts,
    engine,
    store_url,
)
from zfrec.cli import app
from zfrec.record import load


def json_cli(*args: str) -> tuple[int, Any]:
    """The exit code and the JSON document on standard output of `zfrec ARGS --json`."""
    result = runner.invoke(app, [*args, "--json"])
    return result.exit_code, json.loads(result.stdout)


SJ = Path(__file__).resolve().parent.parent / "sample_games" / "shengji" / "01-bashifen-match.zfn"


def _stored(store_url: str, tmp_path: Path) -> list[int]:  # noqa: F811
    """Two games of one night (1, 2) and a Sheng ji match (3) stored."""
    _write(tmp_path / "night.zfn", [night(1), night(2)])
    assert cli("import", str(tmp_path / "night.zfn"), str(SJ), "--db", store_url)[0] == 0
    return [1, 2, 3]


def test_replace_refuses_a_game_of_the_other_kind(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    _stored(store_url, tmp_path)
    match = dataclasses.replace(next(iter(load(SJ))), event="Another club")  # not stored yet
    _write(tmp_path / "sj.zfn", [match])
    before = counts(engine)
    code, output = cli("import", "--replace", "1", str(tmp_path / "sj.zfn"), "--db", store_url)
    assert code == 2, output
    assert "not a version of game 1" in output and "Zheng Fen" in output and "Sheng ji" in output
    assert f"{DATE}, {EVENT}: Ann, Bo Li, 王芳, Dieter" in output
    assert "--force" in output and len(output.strip().splitlines()) == 1
    assert counts(engine) == before and record(engine, 1) == night(1)
    code, doc = json_cli("import", "--replace", "1", str(tmp_path / "sj.zfn"), "--db", store_url)
    assert code == 2 and doc["replaced"] is False and "not a version of game 1" in doc["error"]
    assert counts(engine) == before
    # --force: the record is put in place all the same
    code, output = cli(
        "import", "--replace", "1", str(tmp_path / "sj.zfn"), "--db", store_url, "--force"
    )
    assert code == 0, output
    assert record(engine, 1).kind == "shengji"


def test_replace_refuses_a_game_with_nothing_in_common(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    _stored(store_url, tmp_path)
    other = dataclasses.replace(night(5), event="Train game", date="2026.12.01")
    _write(tmp_path / "other.zfn", [other])
    before = counts(engine)
    code, output = cli("import", "--replace", "2", str(tmp_path / "other.zfn"), "--db", store_url)
    assert code == 2, output
    assert "not a version of game 2" in output and "no deal in common" in output
    assert counts(engine) == before and record(engine, 2) == night(2)


def test_replace_takes_a_correction_without_a_word(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    _stored(store_url, tmp_path)
    # the date corrected (same deals), then the plays corrected (same event and date)
    fixed = dataclasses.replace(night(2), date="2026.11.28")
    _write(tmp_path / "fixed.zfn", [fixed])
    code, output = cli("import", "--replace", "2", str(tmp_path / "fixed.zfn"), "--db", store_url)
    assert code == 0 and "replaced by the record" in output, output
    assert record(engine, 2) == fixed
    moves = edited(night(1))
    _write(tmp_path / "moves.zfn", [moves])
    code, output = cli("import", "--replace", "1", str(tmp_path / "moves.zfn"), "--db", store_url)
    assert code == 0 and "replaced by the record" in output, output
    match = next(iter(load(SJ)))
    _write(tmp_path / "sj.zfn", [dataclasses.replace(match, event="Friday club (final)")])
    code, output = cli("import", "--replace", "3", str(tmp_path / "sj.zfn"), "--db", store_url)
    assert code == 0 and "replaced by the record" in output, output


def test_a_new_game_with_a_stored_games_deals_and_plays_is_noted(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    _stored(store_url, tmp_path)
    moved = dataclasses.replace(night(2), date="2026.11.20")  # a header corrected by hand
    _write(tmp_path / "moved.zfn", [moved])
    code, doc = json_cli("import", str(tmp_path / "moved.zfn"), "--db", store_url)
    assert code == 0, doc
    notes = doc["files"][0]["notes"]
    assert notes == [
        f"game 1: same deals and plays as stored game 2 ({DATE}, {EVENT}: Ann, Bo Li, 王芳, "
        "Dieter): stored as a new game; to correct game 2 use --replace 2"
    ]
    assert doc["summary"]["added"] == 1  # stored all the same
    # the old version imported again after a --replace that fixed the date: noted too
    _write(tmp_path / "fixed.zfn", [dataclasses.replace(night(1), date="2026.11.26")])
    assert cli("import", "--replace", "1", str(tmp_path / "fixed.zfn"), "--db", store_url)[0] == 0
    _write(tmp_path / "old.zfn", [night(1)])
    code, output = cli("import", str(tmp_path / "old.zfn"), "--db", store_url)
    assert code == 0
    assert "same deals and plays as stored game 1 (2026.11.26" in output
    assert "to correct game 1 use --replace 1" in output
    # a game that shares nothing is stored without a word
    _write(tmp_path / "new.zfn", [dataclasses.replace(night(9), event="Cup")])
    code, doc = json_cli("import", str(tmp_path / "new.zfn"), "--db", store_url)
    assert code == 0 and doc["files"][0]["notes"] == []


def test_a_postgres_url_of_another_driver_names_the_one_to_use(tmp_path: Path) -> None:
    for given, meant in [
        ("postgres://league:S3cret@db.example.org/season", "league:***@db.example.org/season"),
        ("postgresql+psycopg2://league:S3cret@db:5432/s?sslmode=require", "league:***@db:5432/s?"),
    ]:
        code, output = cli("games", "--db", given)
        assert code == 2 and len(output.strip().splitlines()) == 1, output
        assert f"use postgresql+psycopg://{meant}" in output
        assert "S3cret" not in output and "Traceback" not in output
        code, doc = json_cli("games", "--db", given)
        assert code == 2 and "use postgresql+psycopg://" in doc["error"]
        assert "S3cret" not in json.dumps(doc)


def test_a_file_in_gb18030_or_utf16_is_named_with_its_likely_encoding(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    text = _write(tmp_path / "night.zfn", [night(3)]).read_text(encoding="utf-8")
    (tmp_path / "gbk.zfn").write_bytes(text.encode("gb18030"))
    (tmp_path / "u16.zfn").write_bytes(text.encode("utf-16"))  # with its byte order mark
    (tmp_path / "u16le.zfn").write_bytes(text.encode("utf-16-le"))  # without
    for name, guess in [("gbk", "GB18030"), ("u16", "UTF-16"), ("u16le", "UTF-16")]:
        path = tmp_path / f"{name}.zfn"
        code, output = cli("import", str(path), "--db", store_url)
        assert code == 2, output
        assert f"cannot read {path}: not UTF-8 text: it looks like {guess}" in output
        copy = tmp_path / f"{name}.utf8.zfn"
        assert f"iconv -f {guess} -t UTF-8 {path} > {copy}" in " ".join(output.split())
        code, output = cli("validate", str(path))
        assert code == 2 and f"it looks like {guess}" in output
    assert counts(engine)["game"] == 0  # never read in that encoding


def test_a_file_in_latin1_or_cp1252_is_not_called_gb18030(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    text = _write(tmp_path / "night.zfn", [night(3)]).read_text(encoding="utf-8")
    names = '[Players "M\u00fcller, Jos\u00e9, Zo\u00eb, G\u00f6\u00dfmann"]'
    latin = re.sub(r"\[Players [^\n]*\]", lambda _: names, text, count=1)
    (tmp_path / "latin1.zfn").write_bytes(latin.encode("latin-1"))
    (tmp_path / "cp1252.zfn").write_bytes(latin.replace("{", "{\u2018", 1).encode("cp1252"))
    only = '[Players "M\u00fcller, Jun, Hao, Bo"]'  # one letter beyond ASCII
    (tmp_path / "mueller.zfn").write_bytes(latin.replace(names, only).encode("latin-1"))
    assert (tmp_path / "mueller.zfn").read_bytes().decode("gb18030")  # it reads as GB18030 too
    for name in ("latin1", "cp1252", "mueller"):
        path = tmp_path / f"{name}.zfn"
        code, output = cli("import", str(path), "--db", store_url)
        assert code == 2, output
        assert (
            f"cannot read {path}: not UTF-8 text: it looks like CP1252 (Windows-1252, "
            "Latin-1); convert it: iconv -f CP1252 -t UTF-8"
        ) in " ".join(output.split())
        code, output = cli("validate", str(path))
        assert code == 2 and "it looks like CP1252" in output and "GB18030" not in output
    assert counts(engine)["game"] == 0  # never read in that encoding


def test_the_hinted_conversion_gives_a_file_zfrec_reads(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    sheets = tmp_path / "club sheets"  # a space: the hint's commands quote the names
    sheets.mkdir()
    night_text = _write(tmp_path / "night.zfn", [night(3)]).read_text(encoding="utf-8")
    (sheets / "zf-07.zfn").write_bytes(night_text.encode("gb18030"))  # 王芳 among the players
    match = SJ.read_text(encoding="utf-8").replace("王芳", "Müller").replace("李娜", "José")
    (sheets / "sj 02.zfn").write_bytes(match.encode("cp1252"))
    hint = re.compile(r"convert it: (.+?), then replace the old file with it: (mv .+?) 1 file")
    for done, (name, encoding) in enumerate((("zf-07.zfn", "GB18030"), ("sj 02.zfn", "CP1252"))):
        old = sheets / name
        code, output = cli("validate", str(old))
        found = hint.search(" ".join(output.split()))
        assert code == 2 and found is not None, output
        iconv, mv = shlex.split(found[1]), shlex.split(found[2])
        assert iconv[:6] == ["iconv", "-f", encoding, "-t", "UTF-8", str(old)], iconv
        assert iconv[6] == ">" and mv == ["mv", iconv[7], str(old)], (iconv, mv)
        copy = Path(iconv[7])
        assert copy.suffix == ".zfn" and copy.parent == sheets
        copy.write_text(old.read_bytes().decode(encoding), encoding="utf-8")  # what iconv does
        code, output = cli("validate", str(copy))
        assert code == 0 and "cannot" not in output, output
        code, output = cli("validate", str(sheets))  # the copy is read, the old file still not
        read = f"3 file(s) ({2 - done} could not be read), {done + 1} game(s)"
        assert code == 2 and read in output, output
        copy.replace(old)  # the hint's mv
    code, output = cli("validate", str(sheets))
    assert code == 0 and "could not be read" not in output, output
    assert cli("import", str(sheets), "--db", store_url)[0] == 0
    assert counts(engine)["game"] == 2


def test_a_name_copied_with_invisible_characters_finds_its_player(
    store_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    _stored(store_url, tmp_path)
    copied = ["\u2068王芳\u2069", "王芳 ", "\u200e王芳\u200b", "\u2066bo li\u2069"]
    for asked in [*copied, "Bo\u00a0Li"]:  # a no-break space read as a space, as in [Players]
        code, doc = json_cli("games", "--player", asked, "--db", store_url)
        assert code == 0, doc
        assert [g["id"] for g in doc] == [1, 2, 3], asked
        code, output = cli("stats", "--player", asked, "--db", store_url)
        assert code == 0, output
    code, output = cli("games", "--player", "\u2068Nobody\u2069", "--db", store_url)
    assert code == 2 and "no player named" in output


def test_games_names_each_games_game_and_filters_by_it(
    store_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    _stored(store_url, tmp_path)
    code, doc = json_cli("games", "--db", store_url)
    assert code == 0 and [g["game"] for g in doc] == ["zhengfen", "zhengfen", "shengji"]
    code, doc = json_cli("games", "--game", "shengji", "--db", store_url)
    assert code == 0 and [g["id"] for g in doc] == [3]
    code, doc = json_cli("games", "--game", "ZhengFen", "--player", "王芳", "--db", store_url)
    assert code == 0 and [g["id"] for g in doc] == [1, 2]
    code, doc = json_cli("games", "--game", "bridge", "--db", store_url)
    assert code == 2 and "unknown game 'bridge'" in doc["error"]
    code, output = cli("games", "--db", store_url)
    assert code == 0
    lines = output.splitlines()
    assert lines[0].split()[:3] == ["id", "game", "date"]
    assert "Zheng Fen" in lines[1] and any("3  Sheng ji" in line for line in lines)
    code, output = cli("games", "--game", "shengji", "--db", store_url)
    assert "Zheng Fen" not in output and "rounds" in output.splitlines()[0]


def test_delete_takes_several_ids_all_or_nothing(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    _stored(store_url, tmp_path)
    before = counts(engine)
    code, doc = json_cli("delete", "1", "7", "3", "9", "--db", store_url)
    assert code == 2 and doc == {
        "error": "no games 7, 9 in the store; nothing was deleted (the 4 ids go together)"
    }
    assert counts(engine) == before
    code, doc = json_cli("delete", "3", "1", "3", "--db", store_url)
    assert code == 0, doc
    assert doc["deleted"] == 3 and [g["deleted"] for g in doc["games"]] == [3, 1]
    assert doc["games"][1]["players"] == ["Ann", "Bo Li", "王芳", "Dieter"]
    code, output = cli("games", "--db", store_url, "--json")
    assert [g["id"] for g in json.loads(output)] == [2]
    _write(tmp_path / "more.zfn", [dataclasses.replace(night(4), event="Cup")])
    (new,) = json_cli("import", str(tmp_path / "more.zfn"), "--db", store_url)[1]["files"][0][
        "game_ids"
    ]
    code, output = cli("delete", "2", str(new), "--db", store_url)
    assert code == 0 and "game 2 deleted" in output and f"game {new} deleted" in output
    assert "2 games deleted" in output


def test_games_stored_before_content_keys_are_found_after_the_upgrade(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    from alembic import command

    from zfrec.store.db import alembic_config

    _stored(store_url, tmp_path)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0006")  # a store of before game.content_key
    engine.dispose()
    _write(tmp_path / "moved.zfn", [dataclasses.replace(night(2), date="2026.11.20")])
    code, doc = json_cli("import", str(tmp_path / "moved.zfn"), "--db", store_url)
    assert code == 0, doc
    assert "same deals and plays as stored game 2 (" in doc["files"][0]["notes"][0]


def test_the_content_key_leaves_out_the_header_and_the_comments() -> None:
    from zfrec.record.jsonio import render_json
    from zfrec.store.content import content_key
    from zfrec.store.firstpass import canonical_json

    for game in (night(1), next(iter(load(SJ)))):
        text = canonical_json(game)
        key = content_key(text)
        data = json.loads(text)
        data.update(event="Another club", date="2026.01.01", comments=["a note"])
        units = data["hands"] if "hands" in data else data["rounds"]
        units[0]["comments"] = ["评论"]
        assert content_key(render_json(data)) == key
        assert content_key(text, canonical=False) == key
        units.pop()  # a hand or round less: other deals and plays
        assert content_key(render_json(data)) != key


def test_a_new_games_stored_twin_is_looked_up_by_its_index(tmp_path: Path) -> None:
    # by game.content_key's index, not by the kind's (which reads every game of the kind)
    from zfrec.store import open_store
    from zfrec.store.likeness import SameContent

    store = open_store(f"sqlite:///{tmp_path / 'plan.db'}")
    try:
        with store.connect() as conn:
            sql = str(SameContent(conn).query.compile(store))
            plan = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", ("0" * 64,)).all()
    finally:
        store.dispose()
    assert "ix_game_content_key" in " ".join(str(step[-1]) for step in plan), plan
