/* A session's pages keep in step with the server, and say when they cannot.

   Every few seconds (only while the page is visible) it asks a small JSON address for the
   session's version. On the scoreboard, when that changed, it fetches the page again and swaps
   in the parts marked data-live, so a screen reader hears the new totals (they sit in
   aria-live regions). On every page of a session (scoreboard, settle-up, hand form), when the
   server cannot be reached it says so at the top, with the time of the last update, and greys
   the numbers that may be old; the notice goes when the server answers again. */
(function () {
  "use strict";
  var notice = document.getElementById("connection");
  var root = document.querySelector("[data-poll-url]");
  if (!window.fetch || !(root || notice)) return;
  var url = root ? root.getAttribute("data-poll-url") : notice.getAttribute("data-ping-url");
  var version = root ? root.getAttribute("data-version") : null;
  var every = 3000;
  // An answer slower than this is no answer: the wifi that drops mostly hangs, not refuses.
  var patience = 5000;
  var busy = false;
  var timer = null;
  var failures = 0;
  // When this phone last heard from the server about this session: kept across pages, so a
  // page shown again from the browser's cache while offline says how old it really is.
  var seenKey = "ledger-seen:" + url;

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
    return fetch(plainAddress(), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        // A finger on the page: the swap waits until it is lifted (static/app.js), so a tap
        // lands on what it started on. The version stays, so the next look fetches anew.
        if (document.documentElement.hasAttribute("data-pressed")) return;
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.querySelector("[data-poll-url]");
        if (!fresh) return;
        document.querySelectorAll("[data-live]").forEach(function (old) {
          var replacement = page.getElementById(old.id);
          if (!replacement) return;
          // The element stays and only what is inside it changes: a screen reader announces
          // changes inside a live region it knows, not a region that has just been put in.
          old.replaceChildren.apply(old, Array.prototype.map.call(replacement.childNodes, function (node) {
            return document.importNode(node, true);
          }));
          Array.prototype.forEach.call(replacement.attributes, function (attribute) {
            old.setAttribute(attribute.name, attribute.value);
          });
        });
        // "Hand 5 saved." goes once anything changed since (another hand, an undo, a
        // correction): it spoke of the page as it was. A reload then shows the plain page.
        // So do the one-off messages ("Hand 1 is corrected.", a kept hand sent).
        document.querySelectorAll("#outbox-saved, #main > .flash[role=status]").forEach(function (p) {
          p.remove();
        });
        var saved = document.getElementById("saved");
        if (saved) {
          saved.remove();
          if (window.history && window.history.replaceState) {
            window.history.replaceState(window.history.state, "", plainAddress());
          }
        }
        version = fresh.getAttribute("data-version");
        root.setAttribute("data-version", version);
        // Parts of the page are new: static/app.js writes their times on this phone's clock.
        document.dispatchEvent(new CustomEvent("ledger:updated"));
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
        if (root && String(data.version) !== String(version)) return refresh().then(heard);
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
