"""A group's pages, a blueprint each: home.py (the start page: open a group, make one,
restore a backup), page.py (the group's page: its nights, players, leaderboard, invite and
passphrase), history.py (a player's page and a night's history), tab.py (the tab and bank
accounts) and seasons.py (seasons, ratings and paper)."""
