/* Pub Ledger: small enhancements every page shares. The pages work without any of this. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  /* A button that changes the history asks first: <button data-confirm="Undo hand 5?"> */
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) {
      event.preventDefault();
    }
  });

  /* A finger (or a mouse button) held on the page: <html data-pressed>, so the live updates
     (static/live.js, settle.js) do not swap the page from under a tap; "ledger:released" once
     it is lifted and its click is through, for them to catch up at once. */
  var letGo = null;
  function releaseIn(ms) {
    window.clearTimeout(letGo);
    letGo = window.setTimeout(function () {
      document.documentElement.removeAttribute("data-pressed");
      document.dispatchEvent(new CustomEvent("ledger:released"));
    }, ms);
  }
  document.addEventListener("pointerdown", function () {
    document.documentElement.setAttribute("data-pressed", "");
    releaseIn(10000);  // a lift the page never heard of does not stop the updates for good
  }, true);
  ["pointerup", "pointercancel"].forEach(function (type) {
    document.addEventListener(type, function () { releaseIn(300); }, true);
  });

  /* A form is sent once: a second tap while the first is on its way does nothing.
     (The server also keeps a hand from being saved twice: see request_id.) */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.hasAttribute("data-once")) {
      if (form.getAttribute("data-sending") === "1") {
        event.preventDefault();
        return;
      }
      form.setAttribute("data-sending", "1");
      window.setTimeout(function () { form.removeAttribute("data-sending"); }, 8000);
    }
  });

  /* "Copy" buttons: <button data-copy="id-of-element-with-the-text" data-copied="Copied"> */
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    var text = source.value !== undefined ? source.value : source.textContent;
    var status = document.getElementById(button.getAttribute("aria-describedby") || "");
    function done() {
      if (status) status.textContent = button.getAttribute("data-copied") || "";
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallback(source); done(); });
    } else {
      fallback(source);
      done();
    }
  });

  /* Times come in UTC (<time datetime="…Z" data-local>); each phone shows them on its own
     clock, in the page's language with the phone's regional habits ("22 Nov 2026, 21:05"):
     when the page loads, and again whenever a script swaps in parts of the page the server
     sent anew (static/live.js and static/settle.js say so with "ledger:updated"). */
  function localTimes() {
    var stamps = document.querySelectorAll("time[data-local]");
    if (!stamps.length || !window.Intl) return;
    var page = document.documentElement.lang || "en";
    var phone = navigator.language || page;
    var locale = phone.split("-")[0] === page.split("-")[0] ? phone : page;
    var format = new Intl.DateTimeFormat(locale, {
      day: "numeric", month: "short", year: "numeric",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    });
    stamps.forEach(function (stamp) {
      var moment = new Date(stamp.dateTime);
      if (!isNaN(moment.getTime())) {
        stamp.textContent = format.format(moment);
      }
    });
  }
  localTimes();
  document.addEventListener("ledger:updated", localTimes);

  function fallback(source) {
    if (source.select) {
      source.hidden = false;
      source.select();
      try { document.execCommand("copy"); } catch (e) { /* the text stays selected */ }
    }
  }
})();
