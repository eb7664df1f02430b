"""The card engine: parsing, deck checks, one module per game, settle-up. Pure Python."""
