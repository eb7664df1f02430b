/* The hand form: a card picker with big buttons beside each player's text box, the running
   spot total as cards are tapped, a cards/total switch where totals are allowed, and rows
   that fold away for the player who went out or sits out.

   Without this script the form is plain text boxes, which the server reads the same way. */
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  if (!form) return;
  var values = JSON.parse(form.getAttribute("data-values") || "{}");
  var showTotal = form.getAttribute("data-show-total") === "1";
  var defaultMode = form.getAttribute("data-default-mode") || "cards";
  var pickerTemplate = document.getElementById("picker-template");
  var modeTemplate = document.getElementById("mode-template");
  var SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var SUIT_LETTER = { "\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C",
                      S: "S", H: "H", D: "D", C: "C" };
  /* The page's own card letters where they differ from the English codes (RULES.md §1, §20):
     a Dutch page's heer, vrouw, boer and h r k s, a German page's Dame, Bube and kr pi he ka.
     The server gives them (ledger/words/display.py, card_letters), so the buttons type, and
     the line under the box reads, what the page's players type. */
  var letters = JSON.parse(form.getAttribute("data-card-letters") || "{}");
  var SHOWN_RANK = letters.ranks || {};
  var RANK_OF = { T: "10" };
  Object.keys(SHOWN_RANK).forEach(function (rank) {
    RANK_OF[SHOWN_RANK[rank].toUpperCase()] = rank;
  });
  Object.keys(letters.suits || {}).forEach(function (suit) {
    SUIT_LETTER[letters.suits[suit].toUpperCase()] = suit;
  });
  function either(words) {  /* longest first: "KR" is read before a "K" could claim it */
    return words.sort(function (a, b) { return b.length - a.length; }).map(function (w) {
      return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }).join("|");
  }
  var CARD = new RegExp("^(10|[2-9]|" + either(["A", "J", "Q", "K"].concat(Object.keys(RANK_OF))) +
                        ")(" + either(Object.keys(SUIT_LETTER)) + ")?$");

  function tokens(text) {
    return text.split(/[\s,\-\u2010-\u2014\u2212]+/).filter(Boolean);
  }

  /* [{label, value}] for each token, value null when the token is not a card we know. */
  function read(text) {
    return tokens(text).map(function (token) {
      var upper = token.toUpperCase();
      if (upper === "JK" || upper === "*" || upper === "JOKER") {
        return { label: "JK", value: values.JK === undefined ? null : values.JK };
      }
      var m = CARD.exec(upper);
      if (!m) return { label: token + "?", value: null };
      var rank = RANK_OF[m[1]] || m[1];
      var suit = m[2] ? SUIT_SYMBOL[SUIT_LETTER[m[2]]] : "";
      var shown = SHOWN_RANK[rank] || rank;
      return { label: shown + suit, value: values[rank] === undefined ? null : values[rank] };
    });
  }

  function showPicked(input, output) {
    var cards = read(input.value);
    var labels = cards.map(function (c) { return c.label; }).join(" ");
    var text = labels;
    if (showTotal && cards.length) {
      var unknown = cards.some(function (c) { return c.value === null; });
      var total = cards.reduce(function (sum, c) { return sum + (c.value || 0); }, 0);
      var word = output.getAttribute(total === 1 && !unknown ? "data-spot-word" : "data-spots-word");
      text = labels + " = " + (unknown ? "?" : total) + " " + word;
    }
    output.textContent = text;
  }

  function change(input, text) {
    input.value = text;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function press(input, button) {
    var list = tokens(input.value);
    var rank = button.getAttribute("data-rank");
    var suit = button.getAttribute("data-suit");
    var action = button.getAttribute("data-action");
    if (rank) {
      list.push(rank);
    } else if (suit && list.length) {
      var last = list[list.length - 1].toUpperCase();
      var m = CARD.exec(last);
      if (m && !m[2]) list[list.length - 1] = last + suit;
      else if (m && m[2]) list[list.length - 1] = m[1] + suit;
    } else if (action === "back") {
      list.pop();
    } else if (action === "clear") {
      list = [];
    }
    change(input, list.join(" "));
  }

  var pickers = [];

  function openOnly(which) {
    pickers.forEach(function (p) {
      var open = p === which && p.panel.hidden;
      p.panel.hidden = !open;
      p.toggle.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }

  form.querySelectorAll("input[data-picker]").forEach(function (input) {
    if (!pickerTemplate) return;
    var fragment = pickerTemplate.content.cloneNode(true);
    var wrapper = fragment.querySelector(".picker-wrap");
    var toggle = wrapper.querySelector(".picker-toggle");
    var panel = wrapper.querySelector(".picker");
    var output = wrapper.querySelector(".picked");
    var name = input.getAttribute("data-player") || "";
    panel.id = input.id + "-picker";
    toggle.setAttribute("aria-controls", panel.id);
    toggle.querySelector(".who").textContent = name;
    panel.setAttribute("aria-label", (panel.getAttribute("aria-label") || "") + " " + name);
    panel.querySelectorAll("button").forEach(function (b) {
      b.addEventListener("click", function () { press(input, b); });
    });
    input.addEventListener("input", function () { showPicked(input, output); });
    input.parentNode.insertBefore(wrapper, input.nextSibling);
    var picker = { toggle: toggle, panel: panel, clash: wrapper.querySelector(".picked-clash") };
    toggle.addEventListener("click", function () { openOnly(picker); });
    pickers.push(picker);
    showPicked(input, output);
    picker.input = input;
  });

  /* A card held by more players than the deck has it (the K♥ in two hands of one pack) is
     flagged in each of their rows as it is typed, before Save; the server refuses it too. */
  var packs = parseInt(form.getAttribute("data-packs") || "1", 10);

  function holders() {
    var held = {};
    pickers.forEach(function (p) {
      if (!p.clash || p.input.disabled) return;
      read(p.input.value).forEach(function (card) {
        if (!/[\u2660\u2665\u2666\u2663]$/.test(card.label)) return;  // no suit: any of four
        (held[card.label] = held[card.label] || []).push(p.input.getAttribute("data-player"));
      });
    });
    return held;
  }

  function showClashes() {
    var held = holders();
    pickers.forEach(function (p) {
      if (!p.clash) return;
      var me = p.input.getAttribute("data-player");
      var lines = [];
      Object.keys(held).forEach(function (label) {
        var players = held[label];
        if (players.length <= packs || p.input.disabled || players.indexOf(me) < 0) return;
        var others = players.filter(function (name, i) {
          return name !== me && players.indexOf(name) === i;
        });
        var text = others.length ? p.clash.getAttribute("data-also") : p.clash.getAttribute("data-more");
        lines.push(text.replace("{card}", label).replace("{players}", others.join(", ")));
      });
      p.clash.textContent = lines.join(" ");
      p.clash.hidden = !lines.length;
    });
  }
  form.addEventListener("input", showClashes);
  form.addEventListener("change", function () { window.setTimeout(showClashes, 0); });
  showClashes();

  /* Cards or a total, where the session takes totals: one shows, the other is not sent. */
  var outFolds = form.getAttribute("data-out-folds") === "1";

  function setUp(row) {
    var fields = {};
    row.querySelectorAll(".entry-field[data-mode]").forEach(function (f) {
      fields[f.getAttribute("data-mode")] = f;
    });
    var state = { mode: null, buttons: [] };
    if (modeTemplate && row.hasAttribute("data-modes") && fields.cards && fields.total) {
      var switcher = modeTemplate.content.cloneNode(true).querySelector(".entry-mode");
      state.buttons = switcher.querySelectorAll("button[data-mode]");
      state.buttons.forEach(function (b) {
        b.setAttribute("aria-label", b.textContent + " " + (row.getAttribute("data-player") || ""));
        b.addEventListener("click", function () {
          state.mode = b.getAttribute("data-mode");
          apply();
          var input = fields[state.mode].querySelector("input");
          if (input) input.focus();
        });
      });
      fields.cards.parentNode.insertBefore(switcher, fields.cards);
      var total = fields.total.querySelector("input");
      var cards = fields.cards.querySelector("input");
      state.mode = total && total.value ? "total" : cards && cards.value ? "cards" : defaultMode;
    }

    /* Which boxes show and are sent: none when the row is folded, else the chosen mode's.
       Where the hand's ending is asked first (Gin Rummy), it says whether the player named
       has cards to enter (a knock: yes; gin: no) and whether the rows are asked at all. */
    function apply() {
      var out = row.querySelector("input[name='out']");
      var sitting = row.querySelector("input[name$='-sitting_out']");
      var asked = form.querySelector("input[name='ending']");
      var ending = form.querySelector("input[name='ending']:checked");
      var folds = outFolds && (!asked || !!(ending && ending.hasAttribute("data-out-empty")));
      var noRows = !!(ending && ending.hasAttribute("data-no-results"));
      var isOut = !!(out && out.checked) && folds;
      var isSitting = !!(sitting && sitting.checked);
      row.hidden = noRows;
      row.classList.toggle("is-out", isOut);
      row.classList.toggle("is-sitting", isSitting);
      if (out) out.disabled = isSitting || noRows;
      if (sitting) sitting.disabled = !!(out && out.checked);
      Object.keys(fields).forEach(function (key) {
        var shown = !state.mode || key === state.mode;
        fields[key].hidden = !shown;
        fields[key].querySelectorAll("input").forEach(function (i) {
          i.disabled = !shown || isOut || isSitting || noRows;
        });
      });
      state.buttons.forEach(function (b) {
        b.setAttribute("aria-pressed", b.getAttribute("data-mode") === state.mode ? "true" : "false");
      });
    }
    apply();
    return apply;
  }

  var rows = [];
  form.querySelectorAll(".result-row").forEach(function (row) { rows.push(setUp(row)); });
  form.addEventListener("change", function (event) {
    if (/^(out|ending)$/.test(event.target.name) || /-sitting_out$/.test(event.target.name)) {
      rows.forEach(function (apply) { apply(); });
    }
  });

  /* Open the buttons where typing is still to do: the first row the engine refused, else the
     first empty one. */
  var refused = form.querySelector(".result-row.has-error input[data-picker]");
  var first = refused || Array.prototype.find.call(
    form.querySelectorAll("input[data-picker]"), function (i) { return !i.value && !i.disabled; });
  pickers.forEach(function (p) { if (p.input === first) openOnly(p); });
  /* The first mistake on the page (a row, or "Who went out?"): in the middle of the screen,
     with the focus in it. The server's autofocus puts the focus there without script; this
     puts it where the rows around it show too. */
  var firstError = form.querySelector("[data-first-error]");
  if (firstError) {
    var target = firstError.querySelector("[autofocus]") || firstError;
    target.scrollIntoView({ block: "center" });
    if (document.activeElement !== target && typeof target.focus === "function") {
      target.focus({ preventScroll: true });
    }
  }
})();
