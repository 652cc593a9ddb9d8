"""The live table: games logged at the table, every entry judged as it is made (LIVE.md)."""
