/* New session: the up and down buttons move a player in place (without a trip to the server),
   and only the chosen game's options show. Without this script the buttons send the form and
   the server redraws it in the new order. */
(function () {
  "use strict";
  var form = document.getElementById("new-session-form");
  if (!form) return;

  /* Looked up each time: adding a player swaps the list for the server's (static/app.js). */
  function renumber() {
    var list = document.getElementById("seats");
    if (!list) return;
    var rows = list.querySelectorAll(".seat");
    rows.forEach(function (row, i) {
      row.querySelector(".seat-number").textContent = String(i + 1);
      var up = row.querySelector("button[value^='up:']");
      var down = row.querySelector("button[value^='down:']");
      if (up) { up.value = "up:" + i; up.disabled = i === 0; }
      if (down) { down.value = "down:" + i; down.disabled = i === rows.length - 1; }
    });
  }

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button[name='move']");
    var list = document.getElementById("seats");
    if (!button || !list) return;
    event.preventDefault();
    var row = button.closest(".seat");
    var up = button.value.indexOf("up:") === 0;
    var other = up ? row.previousElementSibling : row.nextElementSibling;
    if (!other) return;
    if (up) list.insertBefore(row, other);
    else list.insertBefore(other, row);
    renumber();
    /* Keep the finger's place: the same button, unless it just became disabled. */
    var same = row.querySelector(up ? "button[value^='up:']" : "button[value^='down:']");
    var twin = row.querySelector(up ? "button[value^='down:']" : "button[value^='up:']");
    (same && !same.disabled ? same : twin).focus();
    var status = document.getElementById("seats-status");
    if (status) {
      var names = Array.prototype.map.call(list.querySelectorAll(".seat"), function (r) {
        return r.getAttribute("data-name");
      });
      status.textContent = names.join(", ");
    }
  });

  /* The dealer's seat unticked: the first player ticked, in seat order, deals instead (as the
     server would decide), and the page says so. */
  form.addEventListener("change", function (event) {
    var box = event.target;
    var row = box.name === "seated" && !box.checked && box.closest(".seat");
    var dealer = row && row.querySelector("input[name='dealer']");
    if (!dealer || !dealer.checked) return;
    var first = Array.prototype.find.call(document.querySelectorAll("#seats .seat"), function (r) {
      return r.querySelector("input[name='seated']").checked;
    });
    var note = document.getElementById("dealer-moved");
    if (!first || !note) return;
    first.querySelector("input[name='dealer']").checked = true;
    note.textContent = note.getAttribute("data-text")
      .split("{name}").join(row.getAttribute("data-name"))
      .split("{dealer}").join(first.getAttribute("data-name"));
  });

  function showOptions() {
    var chosen = form.querySelector("input[name='game']:checked");
    form.querySelectorAll(".game-options, .game-seats").forEach(function (box) {
      box.hidden = !chosen || box.getAttribute("data-game") !== chosen.value;
    });
  }
  form.addEventListener("change", function (event) {
    if (event.target.name === "game") showOptions();
  });
  showOptions();
})();
