"""`python -m zfrec`: the same as the `zfrec` command."""

from zfrec.cli import main

main()
