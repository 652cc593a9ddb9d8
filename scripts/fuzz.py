"""A long fuzzing run of the readers and the validator: `python scripts/fuzz.py --count 100000`.

The inputs and the check are tests/fuzz_strategies.py, as in the bounded hypothesis run of
tests/test_hostile.py; here plain `random` drives the generators, which is many times faster
and repeats with --seed. Instead of stopping at the first failure, this counts every input that
raised anything but a ZfrecError (or did not write back unchanged), groups them by exception
and place, and prints one example of each. Exit code 0 if there were none, 1 otherwise.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzz_strategies import check, random_json, random_zfn
from zfrec.record import Format


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="inputs to try")
    parser.add_argument("--seed", type=int, default=16, help="random seed (runs repeat)")
    parser.add_argument("--every", type=int, default=5000, help="report progress this often")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    seen = Counter[str]()
    failures = Counter[str]()
    examples: dict[str, tuple[str, str, str]] = {}
    start = time.monotonic()
    for number in range(1, args.count + 1):
        form: Format = "zfn" if rng.random() < 0.6 else "json"
        text = random_zfn(rng) if form == "zfn" else random_json(rng)
        seen[form] += 1
        try:
            check(text, form)
        except Exception as exc:  # counting them is the point
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            key = f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}"
            failures[key] += 1
            examples.setdefault(key, (form, text[:300], str(exc)[:300]))
        if number % args.every == 0:
            rate = number / (time.monotonic() - start)
            print(f"{number:,} inputs, {failures.total()} uncaught, {rate:,.0f}/s", file=sys.stderr)

    elapsed = time.monotonic() - start
    print(
        f"{seen.total():,} inputs ({seen['zfn']:,} .zfn, {seen['json']:,} JSON) "
        f"in {elapsed:,.0f} s; {failures.total()} raised something other than a ZfrecError "
        "or did not write back"
    )
    for key, count in failures.most_common():
        kind, sample, message = examples[key]
        print(f"\n{count} x {key}: {message}\n  one {kind} input: {sample!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
