"""zfrec: the reference toolkit for Zheng Fen (挣分) game records."""

__version__ = "0.1.0"
