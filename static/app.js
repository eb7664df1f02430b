/* Pub Ledger: small enhancements every page shares. The pages work without any of this. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  /* The first tap, key or focus on the page lets the Save bar float (static/style.css). */
  function started() {
    document.documentElement.classList.add("started");
    ["pointerdown", "keydown", "focusin"].forEach(function (kind) {
      document.removeEventListener(kind, started, true);
    });
  }
  ["pointerdown", "keydown", "focusin"].forEach(function (kind) {
    document.addEventListener(kind, started, true);
  });
  if (document.activeElement && document.activeElement !== document.body) started();

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
     swapped for the server's new ones, the text field takes the server's value and errors, and
     keeps the focus, so the phone's keyboard stays up for the next name. Without script, or
     when the answer holds no such parts, the form is sent as usual. */
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
    if (form.inplaceBusy) return;
    form.inplaceBusy = true;
    var body = new URLSearchParams(new FormData(form));
    if (button && button.name) body.append(button.name, button.value);
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (answer) {
        return answer.text().then(function (html) { swapIn(form, marked, field, answer, html); });
      })
      .catch(function () { form.submit(); })
      .then(function () { form.inplaceBusy = false; });
  });

  function swapIn(form, marked, field, answer, html) {
    if (!answer.ok && answer.status !== 422) { form.submit(); return; }
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var ids = marked.getAttribute("data-inplace").split(" ");
    if (!ids.every(function (id) { return fresh.getElementById(id) && document.getElementById(id); })) {
      window.location.assign(answer.url);
      return;
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
    var anchor = (field && field.closest(".inline-form")) || form;
    var status = anchor.nextElementSibling;
    if (!status || !status.classList.contains("inplace-status")) {
      status = document.createElement("p");
      status.className = "inplace-status muted small";
      status.setAttribute("role", "status");
      anchor.after(status);
    }
    status.textContent = news.join(" ");
    if (field) field.focus();
    document.dispatchEvent(new CustomEvent("ledger:updated"));
  }

  /* The server's version of a text field (value, error, aria) onto the one with the focus. */
  function takeField(field, fresh) {
    if (!fresh) return [];
    field.value = fresh.value;
    ["aria-invalid", "aria-describedby"].forEach(function (name) {
      if (fresh.hasAttribute(name)) field.setAttribute(name, fresh.getAttribute(name));
      else field.removeAttribute(name);
    });
    var box = field.parentNode;
    box.className = fresh.parentNode.className;
    box.querySelectorAll(".field-error").forEach(function (e) { e.remove(); });
    return Array.prototype.map.call(fresh.parentNode.querySelectorAll(".field-error"), function (e) {
      box.appendChild(document.importNode(e, true));
      return e.textContent.trim();
    });
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
