/* Hands that are never lost at the table: the outbox and the drafts of the hand form.

   Saving a hand (or a correction) goes out by fetch with the form's request_id. Before it
   goes it is put in this phone's outbox (localStorage), and it leaves the outbox only once
   the server has answered: saved, or refused. A save that does not get through (no network,
   no answer in time, a 5xx) stays, the page says it is not sent yet, and it is sent again by
   itself: when the phone is back online, when any page of the app is shown again (a reload,
   Back, a phone woken up) and every few seconds while it waits. The server keeps one hand per
   request_id, so a save sent twice (the first answer lost on the way back) is one hand.

   A resend asks the server for a fresh CSRF token first (any page of the session carries
   one): a hand kept for hours must not be refused because its page's token is too old.

   A refusal (the form back with its mistakes marked, a 409 after another phone changed the
   session, the passphrase page) is not sent again: the form is sent once more the plain way,
   so the browser shows the server's own answer with its scripts, and the player fixes it.

   As the hand is typed, what is typed is kept as a draft per form and hand number, and offered
   again when the page is opened anew; it is cleared once the hand is saved. "Per form": one
   hand may have several forms in turn (Boerenbridge's bids, then its tricks), and a draft is
   offered only on the very form it was typed in, never on the next one, whose boxes it
   cannot fill.

   Without this script (or without localStorage) the form is a plain form, as it always was. */
(function () {
  "use strict";
  if (!window.fetch || !window.URLSearchParams || !window.DOMParser || !storageWorks()) return;

  var OUTBOX = "ledger-outbox";
  var DRAFT = "ledger-draft:";
  var FLASH = "ledger-flash";
  var TOKEN = "csrf_token";
  var PATIENCE = 15000; // ms a save may take before it counts as not sent
  var EVERY = 5000; // ms between tries while hands wait
  var DRAFT_DAYS = 7;
  // ms the form stays after the tap that saved it, its Save button in place and saying so:
  // the second tap of a double tap lands on that button, not on whatever the scoreboard
  // draws there (a hand's row would open).
  var HOLD = 600;
  var sending = {};
  // The hands this page's form saved: a tap on its Save meanwhile (the second of a double
  // tap, while the saved form stays) sends nothing more, and the page leaves once.
  var savedHere = {};
  var texts = readTexts();
  var form = document.getElementById("hand-form");

  function storageWorks() {
    try {
      window.localStorage.setItem("ledger-test", "1");
      window.localStorage.removeItem("ledger-test");
      return true;
    } catch (e) {
      return false;
    }
  }

  function readTexts() {
    var block = document.getElementById("phone-texts");
    try { return JSON.parse(block.getAttribute("data-texts")); } catch (e) { return {}; }
  }

  function say(key, values) {
    var text = texts[key] || "";
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(values[name]);
    });
    return text;
  }

  /* --- The outbox in localStorage ------------------------------------------------------- */

  function isPath(text) {
    // Only addresses of this site: a stored hand is never sent anywhere else.
    return typeof text === "string" && text.charAt(0) === "/" && text.charAt(1) !== "/";
  }

  function valid(item) {
    return !!item && typeof item.id === "string" && isPath(item.action) &&
      isPath(item.board) && Array.isArray(item.fields);
  }

  function load() {
    try {
      var list = JSON.parse(window.localStorage.getItem(OUTBOX) || "[]");
      return Array.isArray(list) ? list.filter(valid) : [];
    } catch (e) {
      return [];
    }
  }

  function store(list) {
    try {
      if (list.length) window.localStorage.setItem(OUTBOX, JSON.stringify(list));
      else window.localStorage.removeItem(OUTBOX);
      return true;
    } catch (e) {
      return false;
    }
  }

  function put(item) {
    return store(load().filter(function (i) { return i.id !== item.id; }).concat([item]));
  }

  function drop(id) {
    store(load().filter(function (i) { return i.id !== id; }));
  }

  function find(test) {
    return load().filter(test)[0] || null;
  }

  /* --- The hand form's fields ------------------------------------------------------------ */

  function path(url) {
    var u = new URL(url, window.location.href);
    return u.pathname + u.search;
  }

  function field(name) {
    var el = form && form.elements.namedItem(name);
    return el && el.value !== undefined ? el.value : "";
  }

  /* The hand a save or a draft belongs to: the form's address and the hand's number (a new
     hand's form is for the next number; a correction's address names its hand). */
  function handKey() {
    return path(form.action) + "#" + field("number");
  }

  /* Which form of that hand this is: the names of the boxes a player fills, taken once, as
     the page drew them (the bids screen and the tricks screen of one round differ). */
  var boxes = null;
  function formShape() {
    if (boxes === null) {
      var names = [];
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.name === TOKEN || el.type === "hidden" || el.type === "submit" ||
            el.type === "button" || names.indexOf(el.name) >= 0) return;
        names.push(el.name);
      });
      boxes = names.join(",");
    }
    return boxes;
  }

  /* The form and hand a save or a draft belongs to. */
  function formKey() {
    return handKey() + "#" + formShape();
  }

  function players() {
    return Array.prototype.filter.call(form.elements, function (el) {
      return /^results-\d+-player$/.test(el.name);
    }).map(function (el) { return el.value; });
  }

  /* What the form would send, as [name, value] pairs, without its CSRF token. */
  function sent() {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== TOKEN && typeof value === "string") pairs.push([name, value]);
    });
    return pairs;
  }

  /* What the player typed or ticked (no hidden fields): a draft. */
  function typed() {
    return sent().filter(function (pair) {
      var el = form.elements.namedItem(pair[0]);
      var one = el && el.length !== undefined && !el.type ? el[0] : el;
      return !(one && one.type === "hidden");
    });
  }

  function anything(pairs) {
    return pairs.some(function (pair) { return pair[1] !== ""; });
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  /* Fill the form with pairs as sent() or typed() made them; the hidden fields too for a hand
     from the outbox (its request id and version are the ones it was sent with). Then the rows
     are laid out again: the total or the cards shown, the player who went out folded. */
  function fill(pairs, hiddenToo) {
    var values = {};
    pairs.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === TOKEN || el.type === "submit" || el.type === "button") return;
      if (/^results-\d+-player$/.test(el.name)) return;
      if (el.type === "hidden") {
        if (hiddenToo && values[el.name]) el.value = values[el.name][0];
      } else if (el.type === "checkbox" || el.type === "radio") {
        el.checked = (values[el.name] || []).indexOf(el.value) >= 0;
      } else {
        el.value = values[el.name] ? values[el.name][0] : "";
      }
    });
    form.querySelectorAll(".result-row").forEach(function (row) {
      var total = row.querySelector("input[name$='-spots']");
      var cards = row.querySelector("input[name$='-cards']");
      var mode = total && (values[total.name] || [""])[0] ? "total"
        : cards && (values[cards.name] || [""])[0] ? "cards" : null;
      var button = mode && row.querySelector(".entry-mode button[data-mode='" + mode + "']");
      if (button && button.getAttribute("aria-pressed") !== "true") button.click();
    });
    var out = form.querySelector("input[name='out']:checked") || form.querySelector("input[name='out']");
    if (out) out.dispatchEvent(new Event("change", { bubbles: true }));
    form.querySelectorAll("input[type='text'], input:not([type])").forEach(function (el) {
      el.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }

  /* --- Sending ----------------------------------------------------------------------------- */

  function timed(url, options) {
    if (!window.AbortController) return fetch(url, options);
    var stop = new AbortController();
    var alarm = window.setTimeout(function () { stop.abort(); }, PATIENCE);
    options.signal = stop.signal;
    return fetch(url, options).finally(function () { window.clearTimeout(alarm); });
  }

  /* A CSRF token as the server hands it out now, from the session's scoreboard. */
  function freshToken(item) {
    return timed(item.board, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (r.status >= 500) throw new Error(r.status);
        return r.text();
      })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var input = page.querySelector("input[name='" + TOKEN + "']");
        return input && input.value ? input.value : item.token;
      });
  }

  /* The messages a page showed at its top ("Hand 3 corrected."): the save's fetch followed the
     server's redirect and took them; the page opened next shows them instead. */
  function flashes(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    return Array.prototype.map.call(page.querySelectorAll("#main > .flash"), function (p) {
      return { className: p.className, text: p.textContent.trim() };
    });
  }

  /* One try: {kind: "saved", url, flashes} | {kind: "lost"} | {kind: "answer", token}. */
  function send(item, resend) {
    var token = item.token;
    return (resend ? freshToken(item) : Promise.resolve(item.token))
      .then(function (fresh) {
        token = fresh || "";
        var body = new URLSearchParams();
        item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
        body.append(TOKEN, token);
        return timed(item.action, {
          method: "POST", body: body, credentials: "same-origin", redirect: "follow"
        });
      })
      .then(function (r) {
        if (r.status >= 500 || r.status === 408 || r.status === 429) return { kind: "lost" };
        if (r.ok && r.redirected && new URL(r.url).origin === window.location.origin) {
          var done = { kind: "saved", url: path(r.url), flashes: [] };
          // Saved once the redirect came; the page it leads to may still be cut short.
          return r.text().then(function (html) {
            done.flashes = flashes(html);
            return done;
          }, function () { return done; });
        }
        return { kind: "answer", token: token };
      }, function () {
        return { kind: "lost" };
      });
  }

  /* Another page of this phone is sending it already (two tabs, a retry and a tap). */
  function claim(item) {
    var now = Date.now();
    var stored = find(function (i) { return i.id === item.id; });
    if (!stored || sending[item.id] || (stored.until || 0) > now) return null;
    stored.until = now + PATIENCE + 2000;
    put(stored);
    sending[item.id] = true;
    return stored;
  }

  function release(item) {
    delete sending[item.id];
    var stored = find(function (i) { return i.id === item.id; });
    if (stored) {
      delete stored.until;
      put(stored);
    }
  }

  /* resend: a try of the outbox's own, with a fresh token and no "Sending…" (the line keeps
     saying the hand waits, rather than flickering at every try). */
  function attempt(item, resend) {
    var claimed = claim(item);
    if (!claimed) return;
    if (!resend) status("sending", claimed);
    send(claimed, resend).catch(function () {
      return { kind: "lost" };
    }).then(function (result) {
      release(claimed);
      if (result.kind === "lost") {
        waiting(claimed);
      } else if (result.kind === "saved") {
        saved(claimed, result);
      } else {
        refused(claimed, result.token);
      }
    });
  }

  function tryAll() {
    if (navigator.onLine === false) return;
    load().forEach(function (item) {
      if (item.state !== "refused") attempt(item, true);
    });
  }

  function saved(item, result) {
    drop(item.id);
    removeDraft(item.key);
    removeHandDrafts(item.key.split("#").slice(0, 2).join("#"));
    var url = result.url;
    if (/[?&]saved=\d+/.test(url)) url += "#saved";
    var here = path(window.location.href);
    if (shownHere(item) || here === item.board) {
      try { window.sessionStorage.setItem(FLASH, JSON.stringify(result.flashes)); } catch (e) { /* */ }
      if (!shownHere(item)) {
        window.location.replace(url);
        return;
      }
      savedHere[item.id] = true;
      if (line) {
        line.textContent = say("saved", { hand: item.label });
        line.className = "outbox-status";
        line.hidden = false;
      }
      window.setTimeout(function () { window.location.assign(url); },
        Math.max(0, (item.queued || 0) + HOLD - Date.now()));
      return;
    }
    render(say("saved", { hand: item.label }));
  }

  function refused(item, token) {
    if (shownHere(item)) {
      resubmit(item, token);
      return;
    }
    item.state = "refused";
    item.token = token;
    put(item);
    render();
  }

  /* The plain way: a form sent by the browser, whose answer the browser shows. What was typed
     stays as a draft meanwhile, in case that answer never comes. */
  function resubmit(item, token) {
    drop(item.id);
    keepDraft(item.key, item.fields, item.players);
    var plain = document.createElement("form");
    plain.method = "post";
    plain.action = item.action;
    plain.hidden = true;
    item.fields.concat([[TOKEN, token || item.token]]).forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      plain.appendChild(input);
    });
    document.body.appendChild(plain);
    HTMLFormElement.prototype.submit.call(plain);
  }

  /* --- What the page shows ----------------------------------------------------------------- */

  /* The hand form on this page is the one this outbox entry was saved from. */
  function shownHere(item) {
    return !!form && item.key === formKey() && same(item.players || [], players());
  }

  var line = null; // the hand form's line under its Save button

  function status(what, item) {
    if (!line) return;
    line.textContent = what === "sending" ? say("sending") : what === "waiting" ? say("waiting") : "";
    line.className = "outbox-status" + (what === "waiting" ? " is-waiting" : "");
    line.hidden = !line.textContent;
  }

  function waiting(item) {
    if (shownHere(item)) status("waiting", item);
    render();
  }

  /* The list of hands waiting on this phone, at the top of every page (the hand form shows its
     own hand beside its Save button instead). */
  function render(message) {
    var box = document.getElementById("outbox");
    if (!box) return;
    var list = box.querySelector(".outbox-list");
    var items = load().filter(function (item) { return !shownHere(item); });
    list.replaceChildren.apply(list, items.map(function (item) {
      var li = document.createElement("li");
      var link = document.createElement("a");
      link.href = item.action;
      link.textContent = item.label;
      li.appendChild(link);
      if (item.state === "refused") {
        li.appendChild(document.createTextNode(" " + say("refused") + " "));
        var show = document.createElement("button");
        show.type = "button";
        show.className = "secondary";
        show.textContent = say("show");
        show.addEventListener("click", function () {
          freshToken(item).then(function (token) { resubmit(item, token); },
                                function () { resubmit(item, item.token); });
        });
        li.appendChild(show);
      }
      return li;
    }));
    box.hidden = !items.length;
    var note = document.getElementById("outbox-saved");
    if (message) {
      if (!note) {
        note = document.createElement("p");
        note.id = "outbox-saved";
        note.className = "flash flash-success";
        note.setAttribute("role", "status");
        box.parentNode.insertBefore(note, box);
      }
      note.textContent = message;
    }
  }

  /* Messages carried over from a save's answer (see flashes()). */
  function showCarried() {
    var carried;
    try {
      carried = JSON.parse(window.sessionStorage.getItem(FLASH) || "null");
      window.sessionStorage.removeItem(FLASH);
    } catch (e) {
      return;
    }
    var main = document.getElementById("main");
    if (!Array.isArray(carried) || !main || main.querySelector(":scope > .flash")) return;
    carried.slice().reverse().forEach(function (f) {
      var p = document.createElement("p");
      p.className = /^flash( flash-\w+)?$/.test(f.className) ? f.className : "flash";
      p.setAttribute("role", "status");
      p.textContent = String(f.text || "");
      main.insertBefore(p, main.firstChild);
    });
  }

  /* --- Drafts ------------------------------------------------------------------------------ */

  function readDraft(key) {
    try {
      var draft = JSON.parse(window.localStorage.getItem(DRAFT + key) || "null");
      return draft && Array.isArray(draft.fields) ? draft : null;
    } catch (e) {
      return null;
    }
  }

  function keepDraft(key, fields, seats) {
    try {
      if (anything(fields)) {
        window.localStorage.setItem(DRAFT + key, JSON.stringify(
          { at: Date.now(), fields: fields, players: seats || [] }));
      } else {
        window.localStorage.removeItem(DRAFT + key);
      }
    } catch (e) { /* full: the form itself still holds what is typed */ }
  }

  function removeDraft(key) {
    try { window.localStorage.removeItem(DRAFT + key); } catch (e) { /* */ }
  }

  /* Every draft of one hand, whichever of its forms it was typed in: the hand is saved (or
     was entered on another phone), so none of them is wanted again. */
  function removeHandDrafts(hand) {
    try {
      Object.keys(window.localStorage).forEach(function (name) {
        if (name.indexOf(DRAFT + hand + "#") === 0) window.localStorage.removeItem(name);
      });
    } catch (e) { /* */ }
  }

  /* A draft holds something typed into a box this form has: else there is nothing to put
     back here, whatever its key says. */
  function fits(draft) {
    return draft.fields.some(function (pair) {
      var el = pair[1] !== "" && form.elements.namedItem(pair[0]);
      var one = el && el.length !== undefined && !el.type ? el[0] : el;
      return !!one && one.type !== "hidden";
    });
  }

  function forgetOldDrafts() {
    var before = Date.now() - DRAFT_DAYS * 24 * 3600 * 1000;
    try {
      Object.keys(window.localStorage).forEach(function (name) {
        if (name.indexOf(DRAFT) !== 0) return;
        var draft = readDraft(name.slice(DRAFT.length));
        if (!draft || !(draft.at > before)) window.localStorage.removeItem(name);
      });
    } catch (e) { /* */ }
  }

  /* A draft of this very form and hand, typed for these same players, that differs from what
     the form holds: offered above the form, put back only if the player says so. */
  function offerDraft() {
    var draft = readDraft(formKey());
    if (!draft || !anything(draft.fields) || same(draft.fields, typed()) || !fits(draft)) return;
    if (!same(draft.players || [], players())) return;
    if (document.getElementById("form-errors")) return; // the server's answer holds the hand
    var offer = document.createElement("div");
    offer.className = "flash draft-offer";
    offer.id = "draft-offer";
    offer.setAttribute("role", "status");
    var text = document.createElement("p");
    text.textContent = say("draft");
    var actions = document.createElement("div");
    actions.className = "actions";
    var restore = document.createElement("button");
    restore.type = "button";
    restore.textContent = say("restore");
    var discard = document.createElement("button");
    discard.type = "button";
    discard.className = "secondary";
    discard.textContent = say("discard");
    actions.appendChild(restore);
    actions.appendChild(discard);
    offer.appendChild(text);
    offer.appendChild(actions);
    form.parentNode.insertBefore(offer, form);
    restore.addEventListener("click", function () {
      fill(draft.fields, false);
      keepDraft(formKey(), typed(), players());
      offer.remove();
      var first = form.querySelector("input[type='text']:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    });
    discard.addEventListener("click", function () {
      removeDraft(formKey());
      offer.remove();
    });
  }

  /* --- The hand form ----------------------------------------------------------------------- */

  function label() {
    if (form.hasAttribute("data-label")) return form.getAttribute("data-label");
    var heading = document.querySelector("h1");
    return heading ? heading.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function setUpForm() {
    var tokenInput = form.elements.namedItem(TOKEN);
    var save = form.querySelector(".save-bar");
    line = document.createElement("p");
    line.className = "outbox-status";
    line.setAttribute("role", "status");
    line.hidden = true;
    // Under the button, so that what it says never moves the button from under a finger.
    if (save) save.appendChild(line);

    var mine = find(shownHere);
    if (mine) {
      fill(mine.fields, true);
      // Opened from the list of hands waiting: the server's answer, with this page's token.
      if (mine.state === "refused") resubmit(mine, tokenInput ? tokenInput.value : mine.token);
      else status("waiting", mine);
    } else {
      offerDraft();
    }

    var pending = null;
    function draftNow() {
      pending = null;
      keepDraft(formKey(), typed(), players());
    }
    ["input", "change"].forEach(function (type) {
      form.addEventListener(type, function () {
        if (pending) window.clearTimeout(pending);
        pending = window.setTimeout(draftNow, 300);
      });
    });
    // A page left (or put away) keeps what was typed up to its last key.
    window.addEventListener("pagehide", function () { if (pending) draftNow(); });

    form.addEventListener("submit", function (event) {
      if (!field("request_id") || !tokenInput) return; // nothing to match a resend: plain
      // A button that posts the form elsewhere (a game's own call, Boerenbridge's bids) is
      // not the hand: the plain way, to its own address.
      if (event.submitter && event.submitter.hasAttribute("formaction")) return;
      event.preventDefault();
      if (savedHere[field("request_id")]) return; // saved: the page is about to leave
      var item = {
        id: field("request_id"),
        key: formKey(),
        action: path(form.action),
        board: form.getAttribute("data-board") || path(form.action),
        label: label(),
        fields: sent(),
        players: players(),
        token: tokenInput.value,
        queued: Date.now()
      };
      var before = find(function (i) { return i.id === item.id; });
      if (before && (sending[item.id] || (before.until || 0) > Date.now())) return; // on its way
      if (!put(item)) {
        HTMLFormElement.prototype.submit.call(form); // no room on the phone: the plain way
        return;
      }
      if (pending) window.clearTimeout(pending);
      pending = null;
      removeDraft(item.key);
      attempt(item, false);
    });
  }

  /* --- When to try again ------------------------------------------------------------------- */

  /* "Drop mine" after a hand was entered on another phone: what was typed for it goes, the
     draft kept for that hand's number too. */
  document.addEventListener("click", function (event) {
    var drop = event.target.closest && event.target.closest("[data-drop-draft]");
    if (!drop || !form) return;
    removeHandDrafts(path(form.action) + "#" + drop.getAttribute("data-drop-draft"));
    removeDraft(formKey());
  });

  function start() {
    showCarried();
    forgetOldDrafts();
    if (form && form.elements.namedItem("request_id")) setUpForm();
    render();
    tryAll();
  }

  // After the page's other scripts (picker.js lays out the rows a kept hand is put back in).
  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", start);
  window.addEventListener("online", tryAll);
  document.addEventListener("ledger:online", tryAll);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      // Back to a page that was kept whole: what it said about the outbox may be old.
      var mine = form && line ? find(shownHere) : null;
      if (line) status(mine ? "waiting" : "", mine);
      render();
      tryAll();
    }
  });
  // A page left while it sends (Back, a reload) gives up its claim, so the next page sends at
  // once instead of waiting the claim out; if the first send reached the server after all,
  // the hand's request id makes the second one the same hand.
  window.addEventListener("pagehide", function () {
    Object.keys(sending).forEach(function (id) { release({ id: id }); });
  });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) tryAll(); });
  window.addEventListener("storage", function (event) { if (event.key === OUTBOX) render(); });
  window.setInterval(function () { if (load().length) tryAll(); }, EVERY);
})();
