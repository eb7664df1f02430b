/* The scoreboard follows hands entered on other phones.

   Every few seconds (only while the page is visible) it asks a small JSON address for the
   session's version; when that changed, it fetches the page again and swaps in the parts
   marked data-live, so a screen reader hears the new totals (they sit in aria-live regions). */
(function () {
  "use strict";
  var root = document.querySelector("[data-poll-url]");
  if (!root || !window.fetch || !window.DOMParser) return;
  var url = root.getAttribute("data-poll-url");
  var version = root.getAttribute("data-version");
  var every = 3000;
  var busy = false;
  var timer = null;

  function refresh() {
    return fetch(window.location.href, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
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
        // "Hand 5 saved." goes once that hand is undone or corrected elsewhere.
        var saved = document.getElementById("saved");
        var savedNow = page.getElementById("saved");
        if (saved && (!savedNow || savedNow.textContent !== saved.textContent)) saved.remove();
        version = fresh.getAttribute("data-version");
        root.setAttribute("data-version", version);
      });
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) {
        if (r.status === 401 || r.status === 404) {
          // Signed out (a new passphrase) or the session is gone: say so and stop following,
          // instead of showing scores that quietly stopped changing.
          var notice = document.getElementById("signed-out");
          if (notice) notice.hidden = false;
          window.clearInterval(timer);
          throw new Error(r.status);
        }
        if (!r.ok) throw new Error(r.status);
        return r.json();
      })
      .then(function (data) {
        if (String(data.version) !== String(version)) return refresh();
      })
      .catch(function () { /* offline for a moment: try again at the next tick */ })
      .then(function () { busy = false; });
  }

  timer = window.setInterval(poll, every);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
