"""The views: the frozen result objects every service answers, one module an area.

The pages, the exports and the API read them and never touch a row. Each view has
``to_json()``, the shape of shared/API.md: money as whole units and, where it is an amount,
a Decimal written as a string, never a float.

- ``base``: ``timestamp`` (a time as API.md writes it) and ``night_currency``;
- ``groups``: GroupRef (whose data it is), GameInfo, PlayerView, SessionSummary, GroupView;
- ``sessions``: SessionView, SeatView, ProgressView, AddedSession, ChangeView;
- ``hands``: HandView, ResultView, MovementView, AddedHand;
- ``money``: SettlementView, BalanceView, TransferView, PaymentView, AccountView;
- ``rounds``: RoundView, AddedRound;
- ``tab``: TabView, TabNightView, TabBalanceView, TabPaymentView.
"""
