/* The hand form's Enter key: the phone keyboard's Next/Done, not a save of a half-typed hand.

   Enter in a player's box moves to the next player's box. In the last box it saves only once
   every row is filled in; else it goes to the first row still empty. The keyboard's key says
   which ("next" or "done": enterkeyhint). Only the Save button saves at any time.

   Without this script Enter sends the form, as a plain form does. */
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  if (!form) return;
  var TYPED = /^(text|search|tel|number)$/;

  function shown(el) {
    return !el.disabled && el.getClientRects().length > 0;
  }

  /* The boxes a player types in, in the page's order: the rows' text boxes that show. */
  function boxes() {
    return Array.prototype.filter.call(form.querySelectorAll(".result-row input"), function (el) {
      return TYPED.test(el.type) && shown(el);
    });
  }

  /* A row is filled when one of its boxes holds something, or its player went out; a row
     with no box showing (folded away, sitting out) asks for nothing. */
  function empty(row) {
    var inRow = boxes().filter(function (el) { return row.contains(el); });
    if (!inRow.length) return false;
    var out = row.querySelector("input[name='out']");
    if (out && out.checked) return false;
    return !inRow.some(function (el) { return el.value.trim() !== ""; });
  }

  /* The first box of the first row still empty, leaving out the row of ``except`` (the box
     whose Enter is asked about: it will be filled when its Enter is pressed). */
  function firstEmpty(except) {
    var rows = Array.prototype.filter.call(form.querySelectorAll(".result-row"), function (row) {
      return !(except && row.contains(except)) && empty(row);
    });
    if (!rows.length) return null;
    return boxes().filter(function (el) { return rows[0].contains(el); })[0] || null;
  }

  function go(box) {
    box.focus({ preventScroll: true });
    // Centred: the rows above and below it in sight.
    box.scrollIntoView({ block: "center" });
  }

  function save() {
    var button = document.getElementById("save-hand");
    if (form.requestSubmit) form.requestSubmit(button || undefined);
    else if (button) button.click();
  }

  /* What each box's Enter key will do, as the keyboard shows it. */
  function hints() {
    var list = boxes();
    list.forEach(function (el, i) {
      var last = i === list.length - 1;
      var done = last && !firstEmpty(el);
      el.setAttribute("enterkeyhint", done ? "done" : "next");
    });
  }

  form.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.isComposing) return;
    var el = event.target;
    if (el.tagName !== "INPUT") return;
    // Enter on a tick box or in a box of the form is never a save (the Save button is).
    event.preventDefault();
    if (!TYPED.test(el.type)) return;
    var list = boxes();
    var i = list.indexOf(el);
    if (i < 0) return;
    if (i < list.length - 1) {
      go(list[i + 1]);
      return;
    }
    var gap = firstEmpty(null);
    if (gap) go(gap);
    else save();
  });

  /* A points box's ± key (Any game): a minus in front, or taken away, whatever keyboard the
     phone shows for numbers. */
  form.addEventListener("click", function (event) {
    var key = event.target.closest ? event.target.closest("[data-action='negate']") : null;
    if (!key) return;
    var box = key.parentNode.querySelector("input");
    if (!box) return;
    var text = box.value.trim();
    box.value = /^[-\u2212]/.test(text) ? text.slice(1) : "-" + text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.focus();
  });

  form.addEventListener("input", hints);
  form.addEventListener("change", hints);
  form.addEventListener("click", function () { window.setTimeout(hints, 0); });
  hints();
})();
