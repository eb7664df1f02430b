"""The players' words: the engine's and the services' facts put into sentences and figures in
the page's language (Flask-Babel), for the pages, the PDFs and the history alike.

No route, form or HTML here: ledger/web registers these as the templates' filters and globals
(web/display.py) and calls them from its pages; ledger/paper.py writes them on paper. The
services and the engine never import this package (tests/test_words.py): they answer facts,
and the words are made from those facts.

- ``games``: the words about games (option labels, choices, "hand" or "round", engine texts);
- ``display``: numbers, money, cards and games written as the pages write them;
- ``language``: the language the cards are read in, a refusal in the page's language;
- ``hands``: a saved hand in a sentence or two;
- ``money``: a transfer, a payment, a round, the settle-up as text for the group chat;
- ``history``: a session's history, a sentence a change.
"""
