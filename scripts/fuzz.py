"""A long fuzzing run of the readers and the validator: `python scripts/fuzz.py --count 100000`.

The inputs and the check are tests/fuzz_strategies.py, as in the bounded run of
tests/test_hostile.py. Instead of stopping at the first failure, this counts every input that
raised anything but a ZfrecError (or did not write back unchanged), groups them by exception
and place, and prints one example of each. Exit code 0 if there were none, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from tests.fuzz_strategies import check, json_texts, zfn_texts
from zfrec.record import Format


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="inputs to try")
    parser.add_argument("--seed", type=int, default=16, help="random seed (runs repeat)")
    parser.add_argument("--every", type=int, default=5000, help="report progress this often")
    args = parser.parse_args()

    seen = Counter[str]()
    failures = Counter[str]()
    examples: dict[str, tuple[str, str, str]] = {}
    start = time.monotonic()
    cases = st.one_of(zfn_texts.map(lambda t: (t, "zfn")), json_texts.map(lambda t: (t, "json")))

    @seed(args.seed)
    @settings(
        max_examples=args.count,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(cases)
    def run(case: tuple[str, Format]) -> None:
        text, form = case
        seen[form] += 1
        total = seen.total()
        if total % args.every == 0:
            rate = total / (time.monotonic() - start)
            print(f"{total:,} inputs, {failures.total()} uncaught, {rate:,.0f}/s", file=sys.stderr)
        try:
            check(text, form)
        except Exception as exc:  # counting them is the point
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            key = f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}"
            failures[key] += 1
            examples.setdefault(key, (form, text[:300], str(exc)[:300]))

    run()
    elapsed = time.monotonic() - start
    print(
        f"{seen.total():,} inputs ({seen['zfn']:,} .zfn, {seen['json']:,} JSON) "
        f"in {elapsed:,.0f} s; {failures.total()} raised something other than a ZfrecError "
        "or did not write back"
    )
    for key, count in failures.most_common():
        form, text, message = examples[key]
        print(f"\n{count} x {key}: {message}\n  one {form} input: {text!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
