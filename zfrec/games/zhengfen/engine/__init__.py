"""Zheng Fen's rules engine: cards, combinations, presets, move generation and the hand/game state.

It knows nothing of records, stores or pages; everything else in zfrec asks it to judge, and
every rule lives here once. Imports run one way: cards -> combos -> rules -> movegen -> seats ->
deal -> hand -> game -> perft. The card words it reads are the generic zfrec.cardwords.
"""
