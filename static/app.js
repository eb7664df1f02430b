/* Pub Ledger: small enhancements every page shares. The pages work without any of this. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  /* A button that changes the history asks first: <button data-confirm="Undo hand 5?"> */
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) {
      event.preventDefault();
    }
  });

  /* A finger (or a mouse button) held on the page: <html data-pressed>, so the live updates
     (static/live.js) do not change the page under a tap; "ledger:released" once
     it is lifted and its click is through, for them to catch up at once. */
  var letGo = null;
  function releaseIn(ms) {
    window.clearTimeout(letGo);
    letGo = window.setTimeout(function () {
      document.documentElement.removeAttribute("data-pressed");
      document.dispatchEvent(new CustomEvent("ledger:released"));
    }, ms);
  }
  document.addEventListener("pointerdown", function () {
    document.documentElement.setAttribute("data-pressed", "");
    releaseIn(10000);  // a lift the page never heard of does not stop the updates for good
  }, true);
  ["pointerup", "pointercancel"].forEach(function (type) {
    document.addEventListener(type, function () { releaseIn(300); }, true);
  });

  /* A form is sent once: a second tap while the first is on its way does nothing.
     (The server also keeps a hand from being saved twice: see request_id.) */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.hasAttribute("data-once")) {
      if (form.getAttribute("data-sending") === "1") {
        event.preventDefault();
        return;
      }
      form.setAttribute("data-sending", "1");
      window.setTimeout(function () { form.removeAttribute("data-sending"); }, 8000);
    }
  });

  /* Adding a player without leaving the page. A form (or its button, or its text field on
     Enter) marked data-inplace="ids" is sent in the background; the elements of those ids are
     swapped for the server's new ones, and the text field keeps the focus, so the phone's
     keyboard stays up for the next name. Every name tapped in goes, in the order tapped,
     however slow the answers: each waits its turn in the form's queue, and the field is free
     for the next name at once. An answer never empties the field of what was typed since; a
     name the server refuses comes back into the field (if it is still empty) with the
     server's words beside it. Without script, or when the answer holds no such parts, the
     form is sent as usual. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !window.fetch || !window.DOMParser) return;
    var button = event.submitter;
    var active = document.activeElement;
    var marked = [button, active, form].filter(function (e) {
      return e && e.hasAttribute && e.hasAttribute("data-inplace") &&
        (e === form || e.form === form) && (e !== active || e.value.trim());
    })[0];
    if (!marked) return;
    event.preventDefault();
    form.removeAttribute("data-sending");  /* not the form's real sending (data-once) */
    var field = document.getElementById(marked.getAttribute("data-inplace-field") || "") ||
      (marked.tagName === "INPUT" ? marked : form.querySelector("input:not([type=hidden])"));
    if (field) field.focus();  /* within the tap: the keyboard stays */
    var queue = form.inplaceQueue || (form.inplaceQueue = []);
    var text = field ? field.value : "";
    if (!text.trim() && queue.length) return;  /* a second tap on Add: its name is on its way */
    queue.push({ marked: marked, button: button, text: text });
    if (field) field.value = "";
    if (queue.length === 1) sendNext(form, field);
    else say(form, field);
  });

  /* The name first in the queue, with the form as it is now (the seats the last answer drew). */
  function sendNext(form, field) {
    var queue = form.inplaceQueue;
    var entry = queue[0];
    if (!entry) return;
    say(form, field);
    var body = new URLSearchParams(new FormData(form));
    if (field && field.name) body.set(field.name, entry.text);
    if (entry.button && entry.button.name) body.append(entry.button.name, entry.button.value);
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (answer) {
        return answer.text().then(function (html) {
          if (swapIn(form, entry, field, answer, html)) sendNext(form, field);
        });
      }, function () {
        /* No answer (the wifi dropped): the same name again in a moment, the rest after it. */
        window.setTimeout(function () { sendNext(form, field); }, 2000);
      });
  }

  /* The line under the form: the last answer's words (``news``, else those said before), and
     the names still on their way. */
  function say(form, field, news) {
    if (news) form.inplaceNews = news;
    var anchor = (field && field.closest(".inline-form")) || form;
    var status = anchor.nextElementSibling;
    if (!status || !status.classList.contains("inplace-status")) {
      status = document.createElement("p");
      status.className = "inplace-status muted small";
      status.setAttribute("role", "status");
      anchor.after(status);
    }
    var waiting = form.inplaceQueue.map(function (e) { return e.text; });
    var words = (form.inplaceNews || []).slice();
    if (waiting.length) words.push(phoneText("sending") + " " + waiting.join(", "));
    status.textContent = words.join(" ");
  }

  /* The answer shown; false when the page was left for it (sent the plain way). */
  function swapIn(form, entry, field, answer, html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var ids = entry.marked.getAttribute("data-inplace").split(" ");
    var parts = ids.every(function (id) {
      return fresh.getElementById(id) && document.getElementById(id);
    });
    if ((!answer.ok && answer.status !== 422) || !parts) {
      /* Refused for another reason (signed out): the plain way shows the server's page. */
      if (field) field.value = entry.text;
      form.submit();
      return false;
    }
    ids.forEach(function (id) {
      document.getElementById(id).replaceWith(document.importNode(fresh.getElementById(id), true));
    });
    var news = Array.prototype.map.call(fresh.querySelectorAll(".flash"), function (f) {
      return f.textContent.trim();
    });
    if (field) news = news.concat(takeField(field, fresh.getElementById(field.id)));
    /* The last page's messages are gone on a reload: here too; this answer's go by the field. */
    document.querySelectorAll("main > .flash").forEach(function (f) { f.remove(); });
    form.inplaceQueue.shift();
    say(form, field, news);
    if (field) field.focus();
    document.dispatchEvent(new CustomEvent("ledger:updated"));
    return true;
  }

  /* The server's word on a text field (error, aria) onto the one with the focus; its value
     too when it refused the name and nothing was typed since. Its errors, for the status. */
  function takeField(field, fresh) {
    if (!fresh) return [];
    var errors = fresh.parentNode.querySelectorAll(".field-error");
    var back = errors.length && !field.value;
    if (back) field.value = fresh.value;
    ["aria-invalid", "aria-describedby"].forEach(function (name) {
      if (back && fresh.hasAttribute(name)) field.setAttribute(name, fresh.getAttribute(name));
      else field.removeAttribute(name);
    });
    var box = field.parentNode;
    box.classList.toggle("has-error", !!back);
    box.querySelectorAll(".field-error").forEach(function (e) { e.remove(); });
    return Array.prototype.map.call(errors, function (e) {
      if (back) box.appendChild(document.importNode(e, true));
      return e.textContent.trim();
    });
  }

  /* A sentence of the page's language for scripts (base.html's #phone-texts). */
  function phoneText(key) {
    var block = document.getElementById("phone-texts");
    try { return JSON.parse(block.getAttribute("data-texts"))[key] || ""; } catch (e) { return ""; }
  }

  /* "Copy" buttons: <button data-copy="id-of-element-with-the-text" data-copied="Copied"> */
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    var text = source.value !== undefined ? source.value : source.textContent;
    var status = document.getElementById(button.getAttribute("aria-describedby") || "");
    function done() {
      if (status) status.textContent = button.getAttribute("data-copied") || "";
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallback(source); done(); });
    } else {
      fallback(source);
      done();
    }
  });

  /* Times come in UTC (<time datetime="…Z" data-local>); each phone shows them on its own
     clock, in the page's language with the phone's regional habits ("22 Nov 2026, 21:05"):
     when the page loads, and again whenever a script swaps in parts of the page the server
     sent anew (static/live.js says so with "ledger:updated"). */
  function localTimes() {
    var stamps = document.querySelectorAll("time[data-local]");
    if (!stamps.length || !window.Intl) return;
    var page = document.documentElement.lang || "en";
    var phone = navigator.language || page;
    var locale = phone.split("-")[0] === page.split("-")[0] ? phone : page;
    var format = new Intl.DateTimeFormat(locale, {
      day: "numeric", month: "short", year: "numeric",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    });
    stamps.forEach(function (stamp) {
      var moment = new Date(stamp.dateTime);
      if (!isNaN(moment.getTime())) {
        stamp.textContent = format.format(moment);
      }
    });
  }
  localTimes();
  document.addEventListener("ledger:updated", localTimes);

  function fallback(source) {
    if (source.select) {
      source.hidden = false;
      source.select();
      try { document.execCommand("copy"); } catch (e) { /* the text stays selected */ }
    }
  }
})();
