// quire's own script: the size counter, keyboard shortcuts and banners. Pages work
// without it; it only adds feedback. No framework, no inline code (strict CSP).
(function () {
  "use strict";
  var encoder = new TextEncoder();
  // What writing.js (loaded after this file) uses from here.
  window.quire = { show: show, fail: fail, clearFailure: clearFailure, updateCounter: updateCounter };

  function group(n) { return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  function updateCounter(area) {
    var cap = parseInt(area.getAttribute("data-cap"), 10);
    var counter = document.getElementById(area.getAttribute("aria-describedby"));
    if (!counter || !cap) return;
    var size = encoder.encode(area.value.replace(/\r?\n/g, "\n")).length;
    var out = counter.querySelector("[data-size]");
    if (out) out.textContent = group(size);
    counter.classList.toggle("over", size > cap);
    counter.title = size > cap ? "Over the limit by " + group(size - cap) + " bytes" : "";
  }

  function show(where, kind, text) {
    var box = document.getElementById(where);
    if (!box) return;
    box.textContent = "";
    var p = document.createElement("p");
    p.className = "banner " + kind;
    p.textContent = text;
    box.appendChild(p);
  }

  document.addEventListener("input", function (e) {
    if (e.target.matches && e.target.matches("textarea[data-cap]")) updateCounter(e.target);
  });

  // Parts of a page for one mode only: with JavaScript the preview follows the
  // text by itself (its button is for pages without), and narrow screens get a
  // Write/Preview switch.
  function enhance() {
    document.querySelectorAll("[data-with-js]").forEach(function (el) { el.hidden = false; });
    document.querySelectorAll("[data-without-js]").forEach(function (el) { el.hidden = true; });
    document.querySelectorAll("form.with-preview:not([data-view])").forEach(function (f) {
      f.setAttribute("data-view", "write");
    });
  }

  // Sort and filter take effect when chosen; their Show button is for pages without
  // JavaScript.
  document.addEventListener("change", function (e) {
    var form = e.target.closest && e.target.closest("form[data-submit-on-change]");
    if (form && e.target.matches("select")) form.requestSubmit();
  });

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".view-switch [data-view]");
    if (!button) return;
    var form = button.closest("form");
    var view = button.getAttribute("data-view");
    form.setAttribute("data-view", view);
    form.querySelectorAll(".view-switch [data-view]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b === button));
    });
    if (view === "write") {
      var area = form.querySelector("textarea");
      if (area) area.focus();
    }
  });

  // The phone menu closes once one of its links is followed in place.
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("details.nav-menu a");
    if (link) link.closest("details").open = false;
  });

  function isPreview(elt) {
    return !!(elt && elt.hasAttribute && elt.hasAttribute("data-preview"));
  }

  function previewNote(elt, text) {
    elt.textContent = "";
    var p = document.createElement("p");
    p.className = "preview-note";
    p.textContent = text;
    elt.appendChild(p);
  }

  // Times: the server writes UTC (what shows without JavaScript); here each
  // becomes relative ("3 minutes ago", or the local date when older than a week),
  // with the exact local time on hover.
  var exact = new Intl.DateTimeFormat(undefined, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short"
  });
  var dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
  var relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  var steps = [[60, "second"], [60, "minute"], [24, "hour"], [7, "day"]];

  function describe(when, now) {
    var amount = (when - now) / 1000;
    for (var i = 0; i < steps.length; i++) {
      if (Math.abs(amount) < steps[i][0]) return relative.format(Math.round(amount), steps[i][1]);
      amount /= steps[i][0];
    }
    return dateOnly.format(when);
  }

  function showTimes() {
    var now = Date.now();
    document.querySelectorAll("time[datetime]").forEach(function (el) {
      var when = Date.parse(el.getAttribute("datetime"));
      if (isNaN(when)) return;
      el.textContent = describe(when, now);
      el.title = exact.format(when);
    });
  }
  setInterval(showTimes, 30000);

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("textarea[data-cap]").forEach(updateCounter);
    enhance();
    showTimes();
  });

  document.addEventListener("htmx:afterSettle", function (e) {
    document.querySelectorAll("textarea[data-cap]").forEach(updateCounter);
    enhance();
    showTimes();
    // A new page in #main settles whatever went wrong on the old one; an autosave
    // or a note loading elsewhere does not.
    if (e.detail && e.detail.target && e.detail.target.id === "main") {
      clearFailure();
      kept = edits;
      saving = false;
      sayPending();
    }
  });

  // A message stays until the next page loads. A write that leads to a page
  // (HX-Location) says its message once that page has settled into #main
  // (see htmx:afterSettle above), never beside the page as it was before.
  var leadsToPage = false;
  var pendingFlash = null;
  document.addEventListener("htmx:beforeOnLoad", function (e) {
    var xhr = e.detail && e.detail.xhr;
    leadsToPage = !!(xhr && xhr.getResponseHeader("HX-Location"));
  });

  document.addEventListener("htmx:beforeRequest", function (e) {
    // Autosaves and notes loading into their own spots are not navigation.
    if (!e.detail.target || e.detail.target.id !== "main") return;
    if (leaving(e.detail.elt)) sendLastDraft();
    var flash = document.getElementById("flash");
    if (flash) flash.textContent = "";
  });

  document.addEventListener("quire:flash", function (e) {
    var text = e.detail && e.detail.value ? e.detail.value : "Done.";
    if (leadsToPage) pendingFlash = text;
    else show("flash", "ok", text);
  });

  function sayPending() {
    if (pendingFlash === null) return;
    show("flash", "ok", pendingFlash);
    pendingFlash = null;
  }

  // The write was done even if the page it leads to did not come: say so.
  document.addEventListener("htmx:afterRequest", function (e) {
    var d = e.detail;
    if (d && d.target && d.target.id === "main" && !d.successful && !isWrite(d)) sayPending();
  });

  // Failures are loud and stay: a banner in #failure (role=alert) until the same
  // kind of request succeeds or a new page loads. The page, and the text in the
  // editor, are never replaced by an error.
  function fail(source, text, link) {
    var box = document.getElementById("failure");
    if (!box) return;
    show("failure", "error", text);
    box.setAttribute("data-source", source);
    if (link) {
      var a = document.createElement("a");
      a.href = link.href;
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = link.text;
      box.firstChild.appendChild(document.createTextNode(" "));
      box.firstChild.appendChild(a);
    }
  }

  function clearFailure(source) {
    var box = document.getElementById("failure");
    if (!box) return;
    if (source && box.getAttribute("data-source") !== source) return;
    box.textContent = "";
    box.removeAttribute("data-source");
  }

  function isAutosave(elt) {
    return !!(elt && elt.hasAttribute && elt.hasAttribute("data-autosave"));
  }

  function sourceOf(elt) { return isAutosave(elt) ? "autosave" : "save"; }

  function isWrite(detail) {
    var verb = detail.requestConfig && detail.requestConfig.verb;
    return verb && verb.toLowerCase() !== "get";
  }

  // Where a request ended up after redirects: a write that lands on /login means
  // the session ended. The sign-in page must not replace the editor.
  function endedAtLogin(xhr) {
    try { return new URL(xhr.responseURL, location.href).pathname === "/login"; }
    catch (err) { return false; }
  }

  function signInLink() {
    var here = location.pathname + location.search;
    return { href: "/login?next=" + encodeURIComponent(here), text: "Sign in again (opens a new tab)" };
  }

  document.addEventListener("htmx:beforeSwap", function (e) {
    var d = e.detail;
    if (isPreview(d.elt) && endedAtLogin(d.xhr)) {
      d.shouldSwap = false;
      d.isError = false;
      previewNote(d.elt, "No preview: your session has ended. Your text is still here.");
      return;
    }
    if (!isWrite(d) || !endedAtLogin(d.xhr)) return;
    d.shouldSwap = false;
    d.isError = false;
    var source = sourceOf(d.elt);
    fail(source, source === "autosave"
      ? "Your session has ended, so quire can't keep drafts of what you type. Your text is still here."
      : "Not saved: your session has ended. Your text is still here; sign in, then come back and press Save.",
      signInLink());
  });

  document.addEventListener("htmx:afterRequest", function (e) {
    var d = e.detail;
    if (!isAutosave(d.elt) || !d.xhr || endedAtLogin(d.xhr)) return;
    var status = d.xhr.status;
    if (status >= 200 && status < 300) {
      markClean(d.elt);
      clearFailure("autosave");
    } else if (status === 413) {
      fail("autosave", "Your text is over the size limit, so quire can't keep a draft of it, and " +
        "saving will be refused. It is still here: shorten it or split it.");
    }
  });

  document.addEventListener("htmx:responseError", function (e) {
    var status = e.detail.xhr.status;
    if (isPreview(e.detail.elt)) {
      previewNote(e.detail.elt, "No preview just now (the server answered " + status + ").");
      return;
    }
    if (isAutosave(e.detail.elt)) {
      fail("autosave", "quire could not keep a draft (the server answered " + status + "). " +
        "Your text is still here; don't close this tab before saving.");
      return;
    }
    fail("save", (isWrite(e.detail) ? "Not saved: the server answered " : "The server answered ") +
      status + ". Nothing on this page was lost; try again.");
  });

  document.addEventListener("htmx:sendError", function (e) {
    if (isPreview(e.detail.elt)) {
      previewNote(e.detail.elt, "No preview: quire can't reach the server. Your text is still here.");
      return;
    }
    if (isAutosave(e.detail.elt)) {
      fail("autosave", "quire can't reach the server to keep a draft. Your text is still here; " +
        "keep this tab open, quire tries again as you type.");
      return;
    }
    fail("save", (isWrite(e.detail) ? "Not saved: " : "") + "quire could not reach the server. " +
      "Your text is still here; check the connection and try again.");
  });

  // Autosave itself is declarative (hx-trigger on #draft-status). Here: what has
  // changed since the last kept draft, and one last draft when the page is hidden
  // (tab closed, app switched), sent with the CSRF token as a form field.
  var edits = 0, kept = 0, sending = 0;
  document.addEventListener("input", function (e) {
    if (e.target.form && e.target.form.querySelector("[data-autosave]")) edits++;
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (isAutosave(e.detail.elt)) sending = edits;
  });
  function markClean() { kept = sending; }

  function sendLastDraft() {
    var status = document.querySelector("[data-autosave]");
    if (saving || edits === kept || !status || !navigator.sendBeacon) return;
    var form = status.closest("form");
    if (!form) return;
    var sent = navigator.sendBeacon(status.getAttribute("data-autosave"),
      new URLSearchParams(new FormData(form)));
    if (sent) kept = edits;
  }
  // After a failed autosave, try again as soon as there is reason to hope: the
  // connection is back, or the user returns to this tab (perhaps from signing in).
  function retryAutosave() {
    var box = document.getElementById("failure");
    var status = document.querySelector("[data-autosave]");
    if (!box || !status || !window.htmx || edits === kept) return;
    if (box.getAttribute("data-source") === "autosave") window.htmx.trigger(status, "quire:retry");
  }
  window.addEventListener("online", retryAutosave);
  window.addEventListener("focus", retryAutosave);

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") sendLastDraft();
  });
  window.addEventListener("pagehide", sendLastDraft);
  // Leaving the page (closing the tab, typing an address) keeps the text as a
  // draft; only when it could not be kept (no connection, or over what a page may
  // send as it closes) does the browser ask first.
  window.addEventListener("beforeunload", function (e) {
    if (saving || !document.querySelector("[data-autosave]")) return;
    sendLastDraft();
    if (edits !== kept) { e.preventDefault(); e.returnValue = ""; }
  });

  // A save waits for an autosave on its way, and no autosave follows it: a draft
  // that reached the server after the save would offer the text just saved again
  // (after a merge with someone's save it differs from the document, so it would
  // look unsaved).
  var autosaving = false, saving = false, heldSave = null;
  function isEditorSave(detail) {
    var elt = detail.elt;
    return !!(elt && elt.matches && elt.matches("form") && elt.querySelector("[data-autosave]") &&
      isWrite(detail));
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (isAutosave(e.detail.elt)) {
      if (saving) { e.preventDefault(); return; }
      autosaving = true;
    } else if (isEditorSave(e.detail)) {
      // Held with the button pressed ("Suggest instead" posts elsewhere).
      var ev = e.detail.requestConfig && e.detail.requestConfig.triggeringEvent;
      if (autosaving) { e.preventDefault(); heldSave = [e.detail.elt, ev && ev.submitter]; return; }
      saving = true;
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (isAutosave(e.detail.elt)) {
      autosaving = false;
      if (heldSave) { var held = heldSave; heldSave = null; held[0].requestSubmit(held[1] || undefined); }
    } else if (isEditorSave(e.detail) && !e.detail.successful) {
      saving = false;
    }
  });

  // Any text in the form that differs from what the page came with.
  function changed(form) {
    return Array.prototype.some.call(form.elements, function (el) {
      return (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && el.type === "text")) &&
        el.value !== el.defaultValue;
    });
  }

  // Whether a request or link from `elt` leaves the editor other than by saving
  // it or by answering the offer of an earlier draft: then what was typed is
  // kept as a draft first.
  function leaving(elt) {
    var editor = document.querySelector("form.editor");
    if (!editor || !elt || !elt.closest) return true;
    if (elt.closest(".draft-offer")) return false;
    return !editor.contains(elt) || elt.hasAttribute("data-cancel");
  }

  // A link followed without htmx (or before it takes over) also keeps the draft.
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[href]");
    if (link && leaving(link)) sendLastDraft();
  }, true);

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  document.addEventListener("keydown", function (e) {
    var editor = document.querySelector("form.editor");
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key === "s" && editor) {
      e.preventDefault();
      editor.requestSubmit();
      return;
    }
    if (e.key === "Escape" && editor && typing(document.activeElement)) {
      // Esc also ends an input method's composition: that is not leaving.
      if (e.isComposing || e.keyCode === 229) return;
      // Nor does it ever drop unsaved text: only an untouched editor is left.
      if (changed(editor)) {
        show("flash", "warn", "Esc leaves only an editor without changes. Save, or use Cancel " +
          "(quire keeps a draft of what you typed).");
        return;
      }
      var cancel = editor.querySelector("[data-cancel]");
      if (cancel) cancel.click();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || typing(document.activeElement)) return;
    if (e.key === "?") {
      var help = document.getElementById("editor-help") || document.getElementById("keys-help");
      if (help) {
        e.preventDefault();
        help.open = true;
        help.querySelector("summary").focus();
        help.scrollIntoView({ block: "nearest" });
      }
      return;
    }
    var target = document.querySelector('[data-key="' + e.key + '"]');
    if (target) {
      e.preventDefault();
      if (target.tagName === "INPUT") target.focus();
      else target.click();
    }
  });
})();
