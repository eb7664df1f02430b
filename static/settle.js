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

   A tick (or a tick taken back) is sent without leaving the page; the page the server answers
   is shown the way static/live.js shows a page that changed on another phone ("ledger:show"),
   with the server's message read out. live.js also follows the other phones' ticks. Without
   script each tick is an ordinary form. */
(function () {
  "use strict";
  if (!document.querySelector("[data-poll-url]") || !window.fetch || !window.DOMParser ||
      !window.FormData) return;
  var status = document.getElementById("tick-status");

  /* The answer shown (false: it is not this page); the message the server flashed for this
     tick ("Ticked: …", or why it was refused) said. */
  function showAnswer(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var asked = { page: page, shown: false };
    document.dispatchEvent(new CustomEvent("ledger:show", { detail: asked }));
    if (!asked.shown) return false;
    var said = Array.prototype.map.call(page.querySelectorAll(".flash[role=status]"), function (p) {
      return p.textContent;
    }).join(" ");
    if (status && said) status.textContent = said;
    return true;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-tick")) return;
    event.preventDefault();
    if (form.getAttribute("data-sending") === "1") return;
    form.setAttribute("data-sending", "1");
    var button = form.querySelector("button");
    if (button) button.setAttribute("aria-busy", "true");
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) { if (!showAnswer(html)) throw new Error("no page"); })
      .catch(function () {
        /* Offline or refused: send it the ordinary way, which shows what happened. */
        form.removeAttribute("data-tick");
        form.submit();
      });
  });
})();
