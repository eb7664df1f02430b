/* A session's pages keep in step with the server, and say when they cannot.

   A page that follows the table (the scoreboard, a night's settle-up, the tab) has all its
   content in one element carrying data-poll-url: a small JSON address for the version of
   what it shows. Every few seconds (only while the page is visible) this asks it; when the
   version changed, it fetches the page itself (the same address, as a reload would) and lays
   the server's content over the one shown (show(), below). So the phone shows what a reload
   would show, every line of the template, with no list of parts to keep up to date. Other
   scripts hand it a page to show the same way ("ledger:show": static/settle.js, with the
   answer to a tick).

   On every page of a session (scoreboard, settle-up, hand form), when the server cannot be
   reached it says so at the top, with the time of the last update, and greys the numbers
   that may be old; the notice goes when the server answers again. */
(function () {
  "use strict";
  var notice = document.getElementById("connection");
  var root = document.querySelector("[data-poll-url]");
  if (!window.fetch || !(root || notice)) return;
  var url = root ? root.getAttribute("data-poll-url") : notice.getAttribute("data-ping-url");
  // A page that shows news of other nights too (the scoreboard: a pot waiting from another
  // night) follows its page stamp, which moves with them as well; the others their version.
  var followed = root && root.hasAttribute("data-page") ? "page" : "version";
  var every = 3000;
  // An answer slower than this is no answer: the wifi that drops mostly hangs, not refuses.
  var patience = 5000;
  var busy = false;
  var timer = null;
  var failures = 0;
  // How many pages were shown: a page fetched before another was shown is older than it.
  var shown = 0;
  // When this phone last heard from the server about this session: kept across pages, so a
  // page shown again from the browser's cache while offline says how old it really is.
  var seenKey = "ledger-seen:" + url;

  /* --- The server's page over the one shown ---------------------------------------------- */

  /* Each element still there stays, so what the phone holds in it stays too: the focus, text
     typed and not yet sent, a <details> opened, its place on the screen, and a live region a
     screen reader knows (it announces changes inside a region, not a region put in anew).
     Text and attributes that changed are changed, new elements put in, gone ones taken out.
     An element marked data-keep (a line this phone writes, such as what a tap did) is left as
     the phone has it. */
  function sameKind(old, fresh) {
    return old.nodeType === fresh.nodeType && old.nodeName === fresh.nodeName &&
      (old.nodeType !== 1 || old.id === fresh.id);
  }

  function after(cursor, node) {
    return !!cursor && (cursor === node ||
      Boolean(cursor.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING));
  }

  function setAttributes(old, fresh) {
    // Opened or closed by a tap on this phone: a <details> stays as it is.
    function phones(name) { return name === "open" && old.nodeName === "DETAILS"; }
    Array.prototype.slice.call(old.attributes).forEach(function (a) {
      if (!fresh.hasAttribute(a.name) && !phones(a.name)) old.removeAttribute(a.name);
    });
    Array.prototype.forEach.call(fresh.attributes, function (a) {
      if (old.getAttribute(a.name) !== a.value && !phones(a.name)) old.setAttribute(a.name, a.value);
    });
  }

  function setChildren(old, fresh) {
    var cursor = old.firstChild;
    Array.prototype.slice.call(fresh.childNodes).forEach(function (node) {
      var match = cursor && sameKind(cursor, node) ? cursor : null;
      if (!match && node.id) {
        var found = document.getElementById(node.id);
        if (found && found.parentNode === old && sameKind(found, node) && after(cursor, found)) {
          match = found;
        }
      }
      if (!match) {
        old.insertBefore(document.importNode(node, true), cursor);
        return;
      }
      if (match === cursor) cursor = cursor.nextSibling;
      else old.insertBefore(match, cursor);
      update(match, node);
    });
    while (cursor) {
      var next = cursor.nextSibling;
      old.removeChild(cursor);
      cursor = next;
    }
  }

  function update(old, fresh) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
      return;
    }
    if (old.hasAttribute("data-keep")) return;
    var control = /^(INPUT|SELECT|TEXTAREA)$/.test(old.nodeName);
    var typed = control && old.value !== old.defaultValue;
    setAttributes(old, fresh);
    setChildren(old, fresh);
    // A control in use, or holding what was typed and not sent, is the phone's; the others
    // show the server's choice (a plan for the pot chosen on another phone).
    if (!control || old === document.activeElement) return;
    if (old.type === "checkbox" || old.type === "radio") old.checked = fresh.checked;
    else if (old.nodeName === "SELECT") old.selectedIndex = fresh.selectedIndex;
    else if (!typed) old.value = fresh.value;
  }

  // A finger on the page: nothing changes until it is lifted (static/app.js says when), so a
  // tap lands on what it started on. The page shown keeps its version, so the next look
  // (at once, when the finger lifts) fetches anew.
  function pressed() { return document.documentElement.hasAttribute("data-pressed"); }

  // What the eye is on: the box in use if it is on the screen, else what is a third (or two
  // thirds) of the way down it. Lines that come in above it do not push it away. At the top
  // of the page, the page stays at its top.
  function marks() {
    if (window.scrollY <= 0) return [];
    var x = window.innerWidth / 2;
    var seen = [document.activeElement, document.elementFromPoint(x, window.innerHeight / 3),
      document.elementFromPoint(x, window.innerHeight * 2 / 3)];
    return seen.filter(function (e) { return e && e !== root && root.contains(e); })
      .map(function (e) { return { element: e, top: e.getBoundingClientRect().top }; })
      .filter(function (m) { return m.top >= 0 && m.top < window.innerHeight; });
  }

  function keepInView(seen) {
    var mark = seen.filter(function (m) { return m.element.isConnected; })[0];
    if (mark) window.scrollBy(0, mark.element.getBoundingClientRect().top - mark.top);
  }

  /* Where the page sends this phone once what it shows moves on: an element with data-go
     (the address) and data-go-when (what it is about: a club evening's table drawn for the
     phone's player, templates/evenings/show.html). The page loaded says it and stays; a page
     shown over it that says something new takes the phone there, as a reload of a waiting
     phone's page does (its table, its seat said). */
  function goal() {
    var at = root.querySelector("[data-go]");
    return at ? { href: at.getAttribute("data-go"), when: at.getAttribute("data-go-when") } : null;
  }

  /* The page ``page`` (a parsed document) shown: false if it is no page that follows. */
  function show(page) {
    var fresh = page.querySelector("[data-poll-url]");
    if (!root || !fresh || fresh.getAttribute("data-poll-url") !== url) return false;
    if (pressed()) return true;
    var focused = document.activeElement;
    var seen = marks();
    var was = goal();
    update(root, fresh);
    var next = goal();
    if (next && (!was || was.when !== next.when)) {
      window.location.assign(next.href);
      return true;
    }
    keepInView(seen);
    shown += 1;
    if (focused && focused !== document.activeElement) {
      var again = focused.isConnected ? focused : document.getElementById(focused.id || "");
      if (again && root.contains(again)) again.focus({ preventScroll: true });
    }
    // Parts of the page are new: static/app.js writes their times on this phone's clock.
    document.dispatchEvent(new CustomEvent("ledger:updated"));
    return true;
  }

  document.addEventListener("ledger:show", function (event) {
    event.detail.shown = show(event.detail.page);
  });

  /* --- Asking the server ------------------------------------------------------------------- */

  function texts() {
    var block = document.getElementById("phone-texts");
    try { return JSON.parse(block.getAttribute("data-texts")); } catch (e) { return {}; }
  }

  var loadedAt = Date.now();

  function lastSeen() {
    var stored = null;
    try { stored = Number(window.localStorage.getItem(seenKey)); } catch (e) { /* private mode */ }
    return stored || loadedAt;
  }

  function heard() {
    failures = 0;
    try { window.localStorage.setItem(seenKey, String(Date.now())); } catch (e) { /* full */ }
    if (notice && !notice.hidden) {
      notice.hidden = true;
      notice.textContent = "";
      document.documentElement.classList.remove("offline");
      // Hands kept on this phone go now, not at their next turn (static/outbox.js).
      document.dispatchEvent(new CustomEvent("ledger:online"));
    }
  }

  function clock(moment) {
    var lang = document.documentElement.lang || "en";
    if (!window.Intl) return moment.toTimeString().slice(0, 5);
    return new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .format(moment);
  }

  function lost() {
    failures += 1;
    // One failed look may be a hiccup: a second, a moment later, is the server gone.
    if (failures === 1 && navigator.onLine !== false) {
      window.setTimeout(poll, 1000);
      return;
    }
    if (!notice) return;
    var text = (texts().offline || "").split("{time}").join(clock(new Date(lastSeen())));
    if (notice.textContent !== text) notice.textContent = text;
    notice.hidden = false;
    document.documentElement.classList.add("offline");
  }

  function timed(request) {
    if (!window.AbortController) return fetch(request.url, request.options);
    var stop = new AbortController();
    var alarm = window.setTimeout(function () { stop.abort(); }, patience);
    request.options.signal = stop.signal;
    return fetch(request.url, request.options).finally(function () { window.clearTimeout(alarm); });
  }

  // The page's address without "?saved=N": the line about the hand just saved is true only
  // until the table moves on, so a page that follows the table drops it.
  function plainAddress() {
    var address = new URL(window.location.href);
    address.searchParams.delete("saved");
    return address.pathname + address.search;
  }

  function refresh() {
    var before = shown;
    return fetch(plainAddress(), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        // A page shown meanwhile (the answer to a tick) is newer than this one.
        if (shown !== before || pressed()) return;
        if (!show(new DOMParser().parseFromString(html, "text/html"))) return;
        // The one-off messages ("Hand 1 is corrected.", a kept hand sent) spoke of the page
        // as it was: they go once anything changed since. So does "Hand 5 saved." (the page
        // fetched has none), and a reload then shows the plain page.
        document.querySelectorAll("#outbox-saved, #main > .flash[role=status]").forEach(function (p) {
          p.remove();
        });
        if (window.location.search.indexOf("saved=") >= 0 && window.history.replaceState) {
          window.history.replaceState(window.history.state, "", plainAddress());
        }
      });
  }

  function signedOut(status) {
    // Signed out (a new passphrase) or the session is gone: say so and stop following,
    // instead of showing scores that quietly stopped changing.
    var where = document.getElementById("signed-out");
    if (where) where.hidden = false;
    window.clearInterval(timer);
    throw new Error(status);
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    var request = {
      url: url,
      options: { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } }
    };
    timed(request)
      .then(function (r) {
        if (r.status === 401 || r.status === 404) {
          heard();
          signedOut(r.status);
        }
        if (!r.ok) throw new Error(r.status);
        return r.json();
      }, function (error) { lost(); throw error; })
      .then(function (data) {
        if (root && String(data[followed]) !== root.getAttribute("data-" + followed)) {
          return refresh().then(heard);
        }
        heard();
      })
      .catch(function (error) {
        // A server that answers with an error (a 5xx from it or its proxy) is lost too.
        if (/^5\d\d$/.test(String(error && error.message))) lost();
      })
      .then(function () { busy = false; });
  }

  timer = window.setInterval(poll, every);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  window.addEventListener("online", poll);
  document.addEventListener("ledger:released", poll);
  window.addEventListener("offline", function () { failures = 1; lost(); });
  // Shown again from the back-forward cache: the page may be old, so look at once.
  window.addEventListener("pageshow", function (event) { if (event.persisted) poll(); });
  poll();
})();
