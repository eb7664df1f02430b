/* Settle up: the "paid" ticks are kept on this phone (localStorage), per session version,
   so a reload keeps them and a changed result starts afresh. */
(function () {
  "use strict";
  var list = document.getElementById("transfers");
  if (!list) return;
  var key = list.getAttribute("data-storage-key");
  var paid = {};
  try { paid = JSON.parse(window.localStorage.getItem(key) || "{}") || {}; } catch (e) { paid = {}; }

  function show(box) {
    var item = box.closest(".transfer");
    if (item) item.classList.toggle("paid", box.checked);
  }

  list.querySelectorAll("input[data-paid]").forEach(function (box) {
    box.checked = !!paid[box.getAttribute("data-paid")];
    show(box);
    box.addEventListener("change", function () {
      paid[box.getAttribute("data-paid")] = box.checked;
      show(box);
      try { window.localStorage.setItem(key, JSON.stringify(paid)); } catch (e) { /* private mode */ }
    });
  });
})();
