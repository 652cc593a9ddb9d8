"""Analysis of records: decision analysis, dispute audit, repairs and record diff.

Everything here reads the one replay stream (zfrec.replay) and asks the engine to judge.

- `analyze`: every decision, its alternatives, missed beats and conceded counters, the points
  flow; its parts are `decisions`, `flow` and `stats` (players across games);
- `audit`: the rules under which a failing record is legal and the edits that repair it
  (`repair` searches them);
- `diff`: where two records of one game part;
- `example`: a small record to try all of it on.

    >>> from zfrec.games.zhengfen.analysis.analyze import analyze_game
    >>> from zfrec.games.zhengfen.analysis.audit import audit
    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> game = broken_example()
    >>> analyze_game(game).errors, audit(game).repairs[0].text()
    (2, 'legal if trick 1, turn 5 (Bo) was a pass')
"""
