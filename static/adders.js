// Quick buttons that add to a number box (a team's roem: +20, +50, +100, +200; several add
// up) or clear it: <button data-add="20" data-to="roem-1">, <button data-clear="roem-1">.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-add], button[data-clear]");
    if (!button) { return; }
    var box = document.getElementById(button.getAttribute("data-to") || button.getAttribute("data-clear"));
    if (!box) { return; }
    if (button.hasAttribute("data-clear")) {
      box.value = "";
    } else {
      var now = parseInt((box.value || "").trim(), 10) || 0;
      box.value = String(now + parseInt(button.getAttribute("data-add"), 10));
    }
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
})();
