"""Analysis of records: decision analysis, dispute audit, repairs and record diff.

Everything here reads the one replay stream (zfrec.replay) and asks the engine to judge.
"""
