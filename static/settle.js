/* Settle up: the payments shown are for the pot's choice ticked above them (carried on or
   given back). Changing the choice loads the payments for it at once; without JavaScript the
   "Show the payments" button does. After the reload the choice keeps the focus. */
(function () {
  "use strict";
  var form = document.getElementById("pot-choice");
  if (!form) return;
  var button = document.getElementById("pot-show");
  if (button) button.parentNode.removeChild(button);
  form.addEventListener("change", function (event) {
    var box = event.target;
    var url = new URL(form.action, window.location.href);
    if (box.name === "keeper") {
      /* Who keeps the pot changes who is paid it: load those payments. */
      url.searchParams.set("pot", "carry");
      url.searchParams.set("keeper", box.value);
      window.location.replace(url.toString());
      return;
    }
    if (box.name !== "pot" || !box.checked) return;
    url.searchParams.set("pot", box.value);
    window.location.replace(url.toString());
  });
  if (new URLSearchParams(window.location.search).has("pot")) {
    var checked = form.querySelector("input[name=pot]:checked");
    if (checked) checked.focus();
  }
})();

/* Settle up: the "paid" ticks are kept on this phone (localStorage), one list per session.
   Each tick is kept under its line (from, to, amount), so finishing the night or a reload keeps
   it, and a line that a correction changed starts unticked. */
(function () {
  "use strict";
  var list = document.getElementById("transfers");
  if (!list) return;
  var key = list.getAttribute("data-storage-key");
  var boxes = list.querySelectorAll("input[data-paid]");
  var paid = {};
  try { paid = JSON.parse(window.localStorage.getItem(key) || "{}") || {}; } catch (e) { paid = {}; }

  function show(box) {
    var item = box.closest(".transfer");
    if (item) item.classList.toggle("paid", box.checked);
  }

  function save() {
    /* Only the lines on the page: ticks of lines that no longer exist are dropped. */
    var now = {};
    boxes.forEach(function (box) {
      if (box.checked) now[box.getAttribute("data-paid")] = true;
    });
    try { window.localStorage.setItem(key, JSON.stringify(now)); } catch (e) { /* private mode */ }
  }

  boxes.forEach(function (box) {
    box.checked = paid[box.getAttribute("data-paid")] === true;
    show(box);
    box.addEventListener("change", function () {
      show(box);
      save();
    });
  });
})();
