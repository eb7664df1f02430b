/* A deal of Cribbage on a phone: each show's count in parts as it is typed (the engine counts
   it: the form is sent with "preview", every game's one way to see a hand before it is saved,
   and the counts are taken from the page that comes back; nothing is stored), and on the card
   buttons the cards typed already anywhere in the deal greyed, so one pack's card is not typed
   twice. Without this script the boxes are plain text and the count comes with the saved deal. */
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  var deal = document.getElementById("crib-deal");
  if (!form || !deal) return;
  /* The page's own card letters (a Dutch page's H V B and r k, a German page's D B and
     kr pi he ka), given by the server as static/picker.js reads them. */
  var letters = JSON.parse(form.getAttribute("data-card-letters") || "{}");
  var RANK = { T: "10" };
  Object.keys(letters.ranks || {}).forEach(function (rank) {
    RANK[letters.ranks[rank].toUpperCase()] = rank;
  });
  var SUIT = { "\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C", S: "S", H: "H", D: "D",
               C: "C" };
  Object.keys(letters.suits || {}).forEach(function (suit) {
    SUIT[letters.suits[suit].toUpperCase()] = suit;
  });
  var boxes = Array.prototype.slice.call(form.querySelectorAll("input[data-picker]"));

  /* A token as rank and suit in English letters ("Vh" on a Dutch page is Q, H). */
  function card(token) {
    var m = /^(10|[2-9]|[A-Z])(.*)$/.exec(token.toUpperCase());
    if (!m) return null;
    var rank = RANK[m[1]] || m[1];
    if (!/^(10|[2-9AJQK])$/.test(rank)) return null;
    var suit = m[2] ? SUIT[m[2]] || "" : "";
    if (m[2] && !suit) return null;
    return { rank: rank, suit: suit };
  }

  function tokens(input) {
    return input.value.split(/[\s,\-]+/).filter(Boolean);
  }

  /* Every card typed in the deal, as "QH", with how often. */
  function used() {
    var seen = {};
    boxes.forEach(function (input) {
      tokens(input).forEach(function (t) {
        var c = card(t);
        if (c && c.suit) seen[c.rank + c.suit] = (seen[c.rank + c.suit] || 0) + 1;
      });
    });
    return seen;
  }

  function grey() {
    var seen = used();
    boxes.forEach(function (input) {
      var wrap = input.nextElementSibling;
      if (!wrap || !wrap.classList.contains("picker-wrap")) return;
      var list = tokens(input);
      var last = list.length ? card(list[list.length - 1]) : null;
      var waiting = last && !last.suit ? last.rank : null;  // a rank tapped, its suit to come
      wrap.querySelectorAll("button[data-rank]").forEach(function (b) {
        var c = card(b.getAttribute("data-rank"));
        var all = c && ["S", "H", "D", "C"].every(function (s) { return seen[c.rank + s]; });
        b.disabled = !!all;
      });
      wrap.querySelectorAll("button[data-suit]").forEach(function (b) {
        var suit = SUIT[b.getAttribute("data-suit").toUpperCase()];
        b.disabled = !!(waiting && seen[waiting + suit]);
      });
    });
  }

  var timer = null;
  var asked = 0;
  function ask() {
    if (!window.fetch || !window.DOMParser) return;
    var number = ++asked;
    var body = new FormData(form);
    body.append("preview", "1");
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        if (number !== asked) return;  // a later change has asked again
        var page = new DOMParser().parseFromString(html, "text/html");
        boxes.forEach(function (input) {
          var id = input.getAttribute("data-count") || "";
          var out = document.getElementById(id);
          var counted = id && page.getElementById(id);
          if (!out) return;
          out.replaceChildren();
          if (!counted) return;
          Array.prototype.forEach.call(counted.childNodes, function (node) {
            out.appendChild(document.importNode(node, true));
          });
        });
      })
      .catch(function () { /* offline: the count comes with the saved deal */ });
  }

  form.addEventListener("input", function (event) {
    if (boxes.indexOf(event.target) < 0) return;
    grey();
    window.clearTimeout(timer);
    timer = window.setTimeout(ask, 200);
  });
  form.addEventListener("click", function () { window.setTimeout(grey, 0); });
  grey();
  ask();
})();
