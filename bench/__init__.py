"""zfrec's benchmark suite: `make bench` (or `python -m bench`). See README, "Benchmarks"."""
