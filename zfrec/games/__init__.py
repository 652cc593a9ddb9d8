"""The games zfrec knows beyond Zheng Fen's engine (zfrec.engine): one package per game."""
