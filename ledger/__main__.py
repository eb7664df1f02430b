"""`python -m ledger …` does what the `ledger` command does."""

from ledger.cli import main

main()
