/* Settle up: the payments shown are for the table's plan for the pot (carried on to a
   keeper, or given back), chosen on any phone. A change of the choice or the keeper is sent
   at once (as a tick is, below); without JavaScript the "Use this plan" button sends it. */
(function () {
  "use strict";
  function hideButton() {
    var button = document.getElementById("pot-show");
    if (button) button.parentNode.removeChild(button);
  }
  hideButton();
  document.addEventListener("ledger:updated", hideButton);
  document.addEventListener("change", function (event) {
    var box = event.target;
    var form = box.form;
    if (!form || form.id !== "pot-choice") return;
    if (box.name === "pot" && !box.checked) return;
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  });
})();

/* Settle up: the "paid" ticks are payments recorded in the session, shared by every phone.

   A tick (or a tick taken back) is sent without leaving the page, and the parts marked
   data-live are swapped for the page the server answers, with its message read out. Every few
   seconds (while the page is visible) the session's version is asked for; when another phone
   changed it, the page is fetched again and swapped in the same way. Without script each tick
   is an ordinary form. */
(function () {
  "use strict";
  var root = document.getElementById("settle-up");
  if (!root || !window.fetch || !window.DOMParser || !window.FormData) return;
  var pollUrl = root.getAttribute("data-poll-url");
  var version = root.getAttribute("data-version");
  var every = 3000;
  var busy = false;
  var status = document.getElementById("tick-status");

  function swap(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var fresh = page.getElementById("settle-up");
    if (!fresh) return false;
    /* The control in use (the pot's choice, the keeper) keeps the focus when it is swapped. */
    var focused = document.activeElement && document.activeElement.id;
    document.querySelectorAll("[data-live]").forEach(function (old) {
      var replacement = page.getElementById(old.id);
      if (!replacement) return;
      /* The element stays and only what is inside it changes, so a screen reader announces
         the change inside a live region it already knows. */
      old.replaceChildren.apply(old, Array.prototype.map.call(replacement.childNodes, function (node) {
        return document.importNode(node, true);
      }));
    });
    version = fresh.getAttribute("data-version");
    root.setAttribute("data-version", version);
    var again = focused && document.getElementById(focused);
    if (again && again !== document.activeElement) again.focus();
    /* The message the server flashed for this tick ("Ticked: …", or why it was refused). */
    var said = Array.prototype.map.call(page.querySelectorAll(".flash[role=status]"), function (p) {
      return p.textContent;
    }).join(" ");
    if (status && said) status.textContent = said;
    /* static/app.js writes the swapped-in payments' times on this phone's clock. */
    document.dispatchEvent(new CustomEvent("ledger:updated"));
    return true;
  }

  /* A finger on the page when another phone's change comes in: the swap waits until it is
     lifted (static/app.js says when), so a tap lands on the button it started on. */
  function pressed() { return document.documentElement.hasAttribute("data-pressed"); }

  function reload() {
    return fetch(window.location.href, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) { if (!pressed()) swap(html); });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-tick")) return;
    event.preventDefault();
    if (form.getAttribute("data-sending") === "1") return;
    form.setAttribute("data-sending", "1");
    var button = form.querySelector("button");
    if (button) button.setAttribute("aria-busy", "true");
    busy = true;
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) { if (!swap(html)) throw new Error("no page"); })
      .catch(function () {
        /* Offline or refused: send it the ordinary way, which shows what happened. */
        form.removeAttribute("data-tick");
        form.submit();
      })
      .then(function () { busy = false; });
  });

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(pollUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) { if (String(data.version) !== String(version)) return reload(); })
      .catch(function () { /* offline for a moment: try again at the next tick */ })
      .then(function () { busy = false; });
  }

  window.setInterval(poll, every);
  document.addEventListener("ledger:released", poll);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
