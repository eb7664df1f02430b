// Skat's deal form (templates/games/skat/entry.html): each announcement is offered once what it
// needs is ticked (schneider announced after hand, schwarz announced after it, ouvert after
// that; a Null game has only hand and ouvert); all passed leaves nothing else to say; the
// opponents' card points follow the declarer's; and what the deal comes to is asked of the
// server as the boxes change (the form sent with "preview": the engine works it out, nothing
// is saved), so the value, won or lost and any overbid show before the save. The server still
// checks everything.
(function () {
  "use strict";
  var deal = document.getElementById("skat-deal");
  var form = deal && deal.closest("form");
  if (!form) { return; }
  var asked = 0;
  var pending = null;

  function chosen(name) {
    var box = form.querySelector("input[name='" + name + "']:checked");
    return box ? box.value : "";
  }
  function declared() {  // null: nobody chosen yet; "": all passed; else the declarer
    var box = form.querySelector("input[name=declarer]:checked");
    return box ? box.value : null;
  }
  function ticked(id) {
    var box = document.getElementById(id);
    return !!(box && box.checked);
  }
  function show(element, shown) {
    if (!element) { return; }
    element.hidden = !shown;
    if (!shown) {
      element.querySelectorAll("input[type=checkbox]").forEach(function (box) { box.checked = false; });
    }
  }

  function arrange() {
    var game = chosen("game");
    var isNull = game === "null";
    show(document.getElementById("skat-played"), declared() !== "");
    show(document.getElementById("matadors-field"), !isNull);
    show(document.getElementById("points-field"), !isNull);
    form.querySelectorAll("#announcements label[data-needs]").forEach(function (label) {
      var needs = label.getAttribute("data-needs");
      var box = label.querySelector("input");
      // Null ouvert needs no announcement; Null has no schneider or schwarz to announce.
      var offered = isNull ? box.id === "ouvert" : ticked(needs);
      show(label, offered);
    });
    var most = game === "grand" ? 4 : 11;
    form.querySelectorAll("#matadors option").forEach(function (option) {
      option.disabled = option.value !== "" && parseInt(option.value, 10) > most;
    });
    var points = document.getElementById("card_points");
    var others = document.getElementById("others-points");
    if (points && others) {
      var text = (points.value || "").trim();
      if (/^[0-9]+$/.test(text) && parseInt(text, 10) <= 120) {
        others.textContent = others.getAttribute("data-says")
          .replace("{points}", text).replace("{rest}", String(120 - parseInt(text, 10)));
      }
    }
  }

  function preview() {
    if (declared() === null || !window.fetch || !window.DOMParser) { return; }
    var number = ++asked;
    var body = new FormData(form);
    body.append("preview", "1");
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        if (number !== asked) { return; } // a later change has asked again
        var page = new DOMParser().parseFromString(html, "text/html");
        var says = page.getElementById("preview-says");
        var errors = page.getElementById("form-errors");
        var here = document.getElementById("preview-says");
        if (!here || !says) { return; }
        here.replaceChildren();
        if (errors) {
          errors.querySelectorAll("p").forEach(function (p) {
            var line = document.createElement("p");
            line.className = "field-error";
            line.textContent = p.textContent;
            here.appendChild(line);
          });
        }
        if (!errors || !here.childNodes.length) {
          Array.prototype.forEach.call(says.childNodes, function (node) {
            here.appendChild(document.importNode(node, true));
          });
        }
      })
      .catch(function () { /* offline: the button still asks, and the save still checks */ });
  }

  function changed() {
    arrange();
    if (pending) { window.clearTimeout(pending); }
    pending = window.setTimeout(preview, 250);
  }
  form.addEventListener("change", changed);
  form.addEventListener("input", changed);
  arrange();
  if (declared() !== null) { preview(); }
})();
