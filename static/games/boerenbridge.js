// Boerenbridge's round form (templates/games/boerenbridge/entry.html): as the bids are typed,
// the dealer's note says which bid the dealer may not make; as the tricks are typed, their
// count against the round's cards. The server still checks both.
(function () {
  "use strict";
  var round = document.getElementById("round-entry");
  if (!round) { return; }
  var cards = parseInt(round.getAttribute("data-cards"), 10) || 0;
  function number(input) {
    var text = (input.value || "").trim();
    return /^[0-9]+$/.test(text) ? parseInt(text, 10) : null;
  }
  function hook() {
    var note = document.getElementById("hook-note");
    if (!note) { return; }
    var others = 0, all = true;
    document.querySelectorAll("input[data-bid]:not([data-dealer])").forEach(function (input) {
      var n = number(input);
      if (n === null) { all = false; } else { others += n; }
    });
    var left = cards - others;
    if (all && left >= 0 && left <= cards) {
      note.textContent = note.getAttribute("data-says").replace("{bid}", String(left));
      note.classList.add("field-error");
    }
  }
  function tricks() {
    var line = document.getElementById("tricks-total");
    if (!line) { return; }
    var taken = 0;
    document.querySelectorAll("input[data-tricks]").forEach(function (input) {
      taken += number(input) || 0;
    });
    line.textContent = line.getAttribute("data-says").replace("{taken}", String(taken));
    line.classList.toggle("field-error", taken > cards);
  }
  document.addEventListener("input", function (event) {
    if (event.target.matches("input[data-bid]")) { hook(); }
    if (event.target.matches("input[data-tricks]")) { tricks(); }
  });
  hook();
  tricks();
})();
