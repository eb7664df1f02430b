"""RULES.md §20, "this phone is Ann's": a phone says whose it is on the group page; the
history names who entered, corrected and ticked what, "on Cas's phone" where it was another's;
every page marks the phone's player. It grants nothing: the passphrase still decides."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.web.pages import HAND_1, HAND_2, PASSPHRASE, Phone, html

SEATS = ("Enda", "John", "Rex", "Finn")


def player_id(phone: Phone, name: str) -> str:
    page = html(phone.client.get(f"/g/{phone.slug}"))
    found = re.search(r'<option value="(\d+)"(?: selected)?>' + re.escape(name) + "</option>", page)
    assert found, page
    return found.group(1)


def claim(phone: Phone, name: str | None) -> str:
    """This phone says it is ``name``'s (None: nobody's); the group page after it."""
    chosen = player_id(phone, name) if name else ""
    response = phone.client.post(f"/g/{phone.slug}/phone", data={"player": chosen})
    assert response.status_code == 302, html(response)
    return group_page(phone)


def group_page(phone: Phone) -> str:
    return unescape(html(phone.client.get(f"/g/{phone.slug}")))


def second_phone(app, phone: Phone) -> Phone:
    other = Phone(app.test_client(), slug=phone.slug, session_id=phone.session_id)
    other.seats = phone.seats
    opened = other.client.post(
        "/open", data={"open-group": phone.slug, "open-passphrase": PASSPHRASE}
    )
    assert opened.status_code == 302
    return other


@pytest.fixture
def phone(client) -> Phone:
    """A phone at a new night of Spot of four: Finn deals first."""
    phone = Phone(client)
    phone.create_group()
    phone.add_players(*SEATS)
    phone.start(players=SEATS)
    return phone


def say(page: str) -> str:
    """A page's words as read without its stylesheet."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


def marked(page: str) -> list[str]:
    """The names on the scoreboard's lines marked as this phone's player's."""
    return re.findall(
        r'<li class="score[^"]*\bmine\b[^"]*"[^>]*>.*?<a [^>]*>([^<]+)</a>', page, re.S
    )


def history(phone: Phone) -> str:
    page = html(phone.client.get(f"{phone.board}/history"))
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_a_phone_says_whose_it_is_and_can_change_and_clear_it(phone):
    assert "This phone is nobody's yet" in group_page(phone)
    page = claim(phone, "Rex")
    assert "This phone is Rex's." in page
    assert re.search(r'<li class="player-row mine">\s*<a class="name"[^>]*>Rex</a>', page)
    page = claim(phone, "Enda")
    assert "This phone is Enda's." in page
    assert re.search(r'<li class="player-row mine">\s*<a class="name"[^>]*>Enda</a>', page)
    page = claim(phone, None)
    assert "This phone is nobody" in page and "player-row mine" not in page


def test_the_kept_scoreboard_marks_each_phones_own_player_and_says_you_deal(app, phone):
    finn = phone
    claim(finn, "Finn")
    rex = second_phone(app, phone)
    claim(rex, "Rex")
    nobody = second_phone(app, phone)

    finn_page = html(finn.client.get(finn.board))
    rex_page = html(rex.client.get(rex.board))  # the same kept build as Finn's
    nobody_page = html(nobody.client.get(nobody.board))

    assert marked(finn_page) == ["Finn"] and marked(rex_page) == ["Rex"]
    assert marked(nobody_page) == []
    # Finn deals first: "you deal" on Finn's phone alone (shown by the line's mark).
    assert re.search(r'<span class="mine">Deals:? <strong id="dealer">Finn</strong>', finn_page)
    assert re.search(r'<span class="">Deals:? <strong id="dealer">Finn</strong>', rex_page)
    for page in (finn_page, rex_page, nobody_page):
        assert "<mine-" not in page  # no slot is ever sent

    # After a hand Rex deals: the mark follows the deal.
    assert finn.enter(HAND_1).status_code == 302
    finn_page = html(finn.client.get(finn.board))
    rex_page = html(rex.client.get(rex.board))
    assert re.search(r'<span class="">Deals:? <strong id="dealer">Rex</strong>', finn_page)
    assert re.search(r'<span class="mine">Deals:? <strong id="dealer">Rex</strong>', rex_page)


def test_the_words_for_a_phones_own_player_are_in_that_phones_page_alone(app, phone):
    """The words "you" and "you deal" were in every phone's page, hidden by the stylesheet
    alone: read without it (copied, a reader mode) a phone that is nobody's said "Finn you
    deals"."""
    finn = phone
    claim(finn, "Finn")
    nobody = second_phone(app, phone)

    def line(page: str, name: str) -> str:
        """The words beside ``name`` on the scoreboard (up to the score)."""
        items = page.split('<li class="score')[1:]
        lines = [say(item.split(">", 1)[1].split("</small>")[0]) for item in items]
        return next(words for words in lines if words.split()[0] == name)

    finn_page = html(finn.client.get(finn.board))
    nobody_page = html(nobody.client.get(nobody.board))  # the same kept build
    assert line(finn_page, "Finn") == "Finn you you deal"
    assert line(nobody_page, "Finn") == "Finn deals"
    assert line(finn_page, "Rex") == line(nobody_page, "Rex") == "Rex"
    assert "(you deal)" in say(finn_page) and "you" not in say(nobody_page).split()


def test_a_rename_keeps_the_phone_and_a_player_gone_reads_as_nobody(app, phone):
    claim(phone, "Rex")
    rex = player_id(phone, "Rex")
    response = phone.client.post(f"/g/{phone.slug}/players/{rex}", data={"rename-name": "Rexy"})
    assert response.status_code == 302
    assert "This phone is Rexy's." in group_page(phone)
    assert marked(html(phone.client.get(phone.board))) == ["Rexy"]

    # Maeve, not at the table, enters a hand on her phone; then she is gone from the group
    # (no page removes a player yet: as a later one, or a merge, would).
    phone.add_players("Maeve")
    claim(phone, "Maeve")
    phone.seats = ["Enda", "John", "Rexy", "Finn"]
    assert phone.enter({**HAND_1, "Rexy": "2 9"}).status_code == 302
    assert "Maeve entered hand 1" in history(phone)
    with app.app_context():
        from sqlalchemy import delete

        from ledger.extensions import db
        from ledger.models import Player

        db.session.execute(delete(Player).where(Player.name == "Maeve"))
        db.session.commit()
    assert "This phone is nobody's yet" in group_page(phone)
    assert "A phone entered hand 1" in history(phone)


def correct(phone: Phone, number: int, cards: dict[str, str], out: str | None, **extra) -> None:
    path = f"{phone.board}/hands/{number}/edit"
    data = {**phone.hidden(path), **phone.hand_form(cards, out, **extra)}
    response = phone.client.post(path, data=data)
    assert response.status_code == 302, html(response)


def test_the_history_names_who_entered_corrected_and_undid_each_hand(app, phone):
    rex = phone
    claim(rex, "Rex")
    enda = second_phone(app, phone)
    claim(enda, "Enda")
    nobody = second_phone(app, phone)

    assert rex.enter(HAND_1).status_code == 302
    # On Enda's phone John corrects hand 1: the form names him.
    correct(enda, 1, {**HAND_1, "Finn": "Q K 2"}, None, by="John")
    assert nobody.enter(HAND_2, out="Enda").status_code == 302
    undo = nobody.client.post(f"{nobody.board}/undo", data={"number": "2"})
    assert undo.status_code == 302
    # Enda corrects it on her own phone, the form naming nobody else.
    correct(enda, 1, HAND_1, None, by="")

    said = history(rex)
    assert "Rex entered hand 1: Enda J 10" in said
    assert "John corrected hand 1 on Enda's phone: Finn Q K → Q K 2" in said
    assert "A phone entered hand 2: Enda out;" in said
    assert "A phone undid hand 2; it was: Enda out;" in said
    assert "Enda corrected hand 1: Finn Q K 2 → Q K" in said
    # The night's start and what is not a hand end with who did it: Rex's phone started
    # nothing here (the first phone had no player then), so "By a phone."
    assert re.search(
        r"Spot started with Enda, John, Rex and Finn; Finn deals first\. By a phone\.", said
    )


def test_the_settle_up_tells_each_phone_what_its_player_owes_and_a_tick_names_them(app, phone):
    finn = phone
    claim(finn, "Finn")
    enda = second_phone(app, phone)
    claim(enda, "Enda")
    nobody = second_phone(app, phone)
    assert finn.enter(HAND_1).status_code == 302
    assert finn.enter(HAND_2, out="Enda").status_code == 302

    settle = f"{finn.board}/settle"
    finn_page = unescape(html(finn.client.get(settle)))
    assert '<p class="pot mine" id="yours">Finn, you owe €0.38.</p>' in finn_page
    assert re.search(r'<li class="transfer mine "', finn_page)  # Finn pays Enda: Finn's line
    enda_page = unescape(html(enda.client.get(settle)))
    assert '<p class="pot mine" id="yours">Enda, you are owed €0.44.</p>' in enda_page
    assert re.search(r'<li class="transfer  mine"', enda_page)
    assert 'id="yours"' not in html(nobody.client.get(settle))

    paid = finn.client.post(
        f"{finn.board}/payments", data={"from": "Finn", "to": "Enda", "units": "38"}
    )
    assert paid.status_code == 302
    assert "Finn paid Enda €0.38. By Finn." in history(finn)
    finn_page = unescape(html(finn.client.get(settle)))
    assert '<p class="pot mine" id="yours">Finn, you are square.</p>' in finn_page


def test_a_form_naming_someone_not_in_the_group_is_refused_and_nothing_is_stored(phone):
    claim(phone, "Rex")
    response = phone.client.post(f"{phone.board}/hands/new", data=phone.hand_form(HAND_1, by="Zed"))
    assert response.status_code == 400
    assert "There is no player called Zed in this group" in html(response)
    assert "hand 1" not in history(phone)


def test_the_history_in_dutch_and_german(app, phone):
    """Each case of a hand's line is a whole sentence in each language, so German puts "auf
    dem Handy von Enda" before the verb's prefix ("trug … ein") and Dutch before "in"."""
    claim(phone, "Rex")
    enda = second_phone(app, phone)
    claim(enda, "Enda")
    assert phone.enter(HAND_1).status_code == 302
    correct(enda, 1, {**HAND_1, "Finn": "Q K 2"}, None, by="John")
    entered = enda.enter(HAND_2, out="Enda", by="John")
    assert entered.status_code == 302, html(entered)
    phone.client.set_cookie("lang", "nl")
    said = history(phone)
    assert "Rex voerde hand 1 in: Enda " in said
    assert "John verbeterde hand 1 op de telefoon van Enda: Finn " in said
    assert "John voerde hand 2 op de telefoon van Enda in: " in said
    assert "Door een telefoon." in said
    phone.client.set_cookie("lang", "de")
    said = history(phone)
    assert "Rex trug Runde 1 ein: Enda " in said
    assert "John korrigierte Runde 1 auf dem Handy von Enda: Finn " in said
    assert "John trug Runde 2 auf dem Handy von Enda ein: " in said
    assert "Von einem Handy." in said
    assert "Telefon" not in said  # one word for a phone: Handy
    phone.client.set_cookie("lang", "en")
    assert "John entered hand 2 on Enda's phone: " in history(phone)


def phone_cookie(phone: Phone) -> tuple[str, str]:
    """The name and value of this browser's phone cookie (one group's)."""
    cookies = [c for c in phone.client._cookies.values() if c.key.startswith("phone-")]
    assert len(cookies) == 1, cookies
    return cookies[0].key, cookies[0].value


def test_the_drinks_form_names_who_entered_it_as_the_hand_form_does(phone):
    """§20's "Bob corrected hand 3 on Cas's phone" for drinks and food too: the form offers
    someone else, and the history says who, on whose phone."""
    claim(phone, "Rex")
    form = html(phone.client.get(f"{phone.board}/rounds/new"))
    assert "Someone else is entering this?" in form
    assert '<option value="">Rex (this phone)</option>' in form
    assert '<option value="John">John</option>' in form and '<option value="Rex">' not in form
    once = re.search(r'name="once" value="([0-9a-f]+)"', form).group(1)
    data = {"once": once, "for": list(SEATS), "paid_by": "John", "amount": "8", "by": "Enda"}
    assert phone.client.post(f"{phone.board}/rounds/new", data=data).status_code == 302
    round_id = re.search(r'id="round-(\d+)"', html(phone.client.get(phone.board))).group(1)
    change = html(phone.client.get(f"{phone.board}/rounds/{round_id}"))
    assert "Someone else is entering this?" in change
    data = {"for": list(SEATS), "paid_by": "John", "amount": "9"}  # Rex changes it himself
    assert phone.client.post(f"{phone.board}/rounds/{round_id}", data=data).status_code == 302
    said = history(phone)
    added = r"Drinks or food added: John paid €8\.00 [^.]*\. By Enda, on Rex's phone\."
    assert re.search(added, said)
    assert re.search(r"Drinks or food changed to: John paid €9\.00 .*? By Rex\.", said)


def test_a_players_own_page_is_marked_on_their_phone_alone(app, phone):
    claim(phone, "Rex")
    nobody = second_phone(app, phone)

    def heading(on: Phone, name: str) -> str:
        page = html(on.client.get(f"/g/{on.slug}/p/{name}"))
        return re.search(r"<h1[^>]*>.*?</h1>", page, re.S).group(0)

    rex = heading(phone, "Rex")
    assert 'class="mine"' in rex and say(rex) == "Rex you"
    assert say(heading(phone, "Enda")) == "Enda" and "mine" not in heading(phone, "Enda")
    assert say(heading(nobody, "Rex")) == "Rex" and "mine" not in heading(nobody, "Rex")


def test_a_phones_claim_opens_nothing_and_names_nobody_in_another_group(app, phone):
    claim(phone, "Rex")
    a_cookie, a_value = phone_cookie(phone)

    # Group B, made on another browser, whose players include a Rex of its own.
    b = Phone(app.test_client())
    b.create_group("The other pub")
    b.add_players(*SEATS)
    b.start(players=SEATS)
    claim(b, "Enda")
    b_cookie, _b_value = phone_cookie(b)
    assert b_cookie != a_cookie

    # A's claim, copied into B's cookie, on a browser not signed in to B: B stays shut.
    stranger = Phone(app.test_client(), slug=b.slug, session_id=b.session_id, seats=b.seats)
    stranger.client.set_cookie(b_cookie, a_value)
    assert stranger.client.get(f"/g/{b.slug}").status_code == 401
    assert stranger.client.get(b.board).status_code == 401
    assert stranger.client.get(f"{b.board}/history").status_code == 401
    assert stranger.enter(HAND_1).status_code == 401
    assert stranger.client.post(f"/g/{b.slug}/phone", data={"player": ""}).status_code == 401
    assert "hand 1" not in history(b)

    # Signed in to B with the passphrase, A's claim under B's name names nobody there (it is
    # signed for A alone), and a claim truly signed for B naming A's Rex names nobody either.
    opened = stranger.client.post(
        "/open", data={"open-group": b.slug, "open-passphrase": PASSPHRASE}
    )
    assert opened.status_code == 302
    assert "This phone is nobody's yet" in group_page(stranger)
    with app.test_request_context():
        from ledger.web.phone import _signer

        b_id = int(b_cookie.split("-")[1])
        a_rex = int(player_id(phone, "Rex"))
        stranger.client.set_cookie(b_cookie, _signer(b_id).dumps(a_rex))
    assert "This phone is nobody's yet" in group_page(stranger)
    assert marked(html(stranger.client.get(b.board))) == []
    assert stranger.enter(HAND_1).status_code == 302
    assert "A phone entered hand 1" in history(b)

    # Signing out of A leaves the claim on the phone, and it opens nothing there.
    assert phone.client.post(f"/g/{phone.slug}/sign-out").status_code == 302
    assert phone.client.get(phone.board).status_code == 401
    assert phone.enter(HAND_1).status_code == 401
    assert phone_cookie(phone) == (a_cookie, a_value)
