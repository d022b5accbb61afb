// quire's own script: the size counter, keyboard shortcuts and banners. Pages work
// without it; it only adds feedback. No framework, no inline code (strict CSP).
(function () {
  "use strict";
  var encoder = new TextEncoder();

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

  // Code blocks get a button that copies their text.
  function addCopyButtons() {
    if (!navigator.clipboard) return;
    document.querySelectorAll(".prose pre").forEach(function (pre) {
      if (pre.querySelector("button.copy")) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy";
      button.textContent = "Copy";
      pre.appendChild(button);
    });
  }

  // A button that copies a field's value (the public link).
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field || !navigator.clipboard) return;
    var label = button.textContent;
    navigator.clipboard.writeText(field.value).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = label; }, 2000);
    }, function () {
      field.select();
      button.textContent = "Select and copy the link";
    });
  });

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".prose pre button.copy");
    if (!button) return;
    var code = button.parentNode.querySelector("code") || button.parentNode;
    navigator.clipboard.writeText(code.textContent).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy"; }, 2000);
    }, function () {
      button.textContent = "Copy failed";
    });
  });

  // Formatting: the toolbar and Ctrl/Cmd+B, I, K edit the text as typing would,
  // so the browser's undo takes each change back.
  function replaceSelection(area, text, selectFrom, selectTo) {
    var start = area.selectionStart;
    area.focus();
    var typed = false;
    try { typed = document.execCommand("insertText", false, text); } catch (err) { typed = false; }
    if (!typed) {
      area.setRangeText(text, area.selectionStart, area.selectionEnd, "end");
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
    area.setSelectionRange(start + selectFrom, start + selectTo);
  }

  function wrap(area, before, after, placeholder) {
    var chosen = area.value.slice(area.selectionStart, area.selectionEnd) || placeholder;
    replaceSelection(area, before + chosen + after, before.length, before.length + chosen.length);
  }

  // Puts `prefix` before every line the selection touches (or takes it away).
  function prefixLines(area, prefix) {
    var value = area.value;
    var from = value.lastIndexOf("\n", area.selectionStart - 1) + 1;
    var to = value.indexOf("\n", area.selectionEnd);
    if (to < 0) to = value.length;
    var lines = value.slice(from, to).split("\n");
    var all = lines.every(function (l) { return l.indexOf(prefix) === 0; });
    var changed = lines.map(function (l) { return all ? l.slice(prefix.length) : prefix + l; }).join("\n");
    area.setSelectionRange(from, to);
    replaceSelection(area, changed, 0, changed.length);
  }

  function format(area, kind) {
    switch (kind) {
      case "bold": return wrap(area, "**", "**", "bold text");
      case "italic": return wrap(area, "*", "*", "italic text");
      case "link": {
        var label = area.value.slice(area.selectionStart, area.selectionEnd) || "link text";
        var text = "[" + label + "](https://)";
        return replaceSelection(area, text, label.length + 3, label.length + 11);
      }
      case "code": {
        var chosen = area.value.slice(area.selectionStart, area.selectionEnd);
        if (chosen.indexOf("\n") >= 0) return wrap(area, "```\n", "\n```", "");
        return wrap(area, "`", "`", "code");
      }
      case "heading": return prefixLines(area, "## ");
      case "list": return prefixLines(area, "- ");
      case "task": return prefixLines(area, "- [ ] ");
      case "quote": return prefixLines(area, "> ");
    }
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".toolbar [data-format]");
    if (!button) return;
    var area = button.closest("form").querySelector("textarea[name=body]");
    if (area) format(area, button.getAttribute("data-format"));
  });

  // Tab and Shift+Tab indent and outdent list items; elsewhere Tab moves focus.
  var LIST_ITEM = /^\s*([-*+]|\d+[.)])\s/;
  function indentList(area, outdent) {
    var value = area.value;
    var from = value.lastIndexOf("\n", area.selectionStart - 1) + 1;
    var to = value.indexOf("\n", area.selectionEnd);
    if (to < 0) to = value.length;
    var lines = value.slice(from, to).split("\n");
    if (!lines.every(function (l) { return LIST_ITEM.test(l) || l.trim() === ""; })) return false;
    var changed = lines.map(function (l) {
      if (!l.trim()) return l;
      return outdent ? l.replace(/^( {1,2}|\t)/, "") : "  " + l;
    }).join("\n");
    if (changed === value.slice(from, to)) return true;
    area.setSelectionRange(from, to);
    replaceSelection(area, changed, changed.length, changed.length);
    return true;
  }

  document.addEventListener("keydown", function (e) {
    var area = e.target;
    if (!area.matches || !area.matches("form.editor textarea[name=body]")) return;
    if (e.key === "Tab" && !e.ctrlKey && !e.metaKey && !e.altKey) {
      if (indentList(area, e.shiftKey)) e.preventDefault();
      return;
    }
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    var kind = { b: "bold", i: "italic", k: "link" }[e.key.toLowerCase()];
    if (!kind) return;
    e.preventDefault();
    format(area, kind);
  });

  // The merge view: each conflict's Keep mine / theirs / both rewrites that
  // conflict in the merged text (undo takes it back), and the merged text opens
  // at its first conflict.
  function conflicts(text) {
    var found = [], lines = text.split("\n"), at = 0, block = null;
    lines.forEach(function (line, i) {
      var next = at + line.length + (i < lines.length - 1 ? 1 : 0);
      if (!block && line === "<<<<<<< your text") {
        block = { start: at, mine: [], theirs: [], side: "mine" };
      } else if (block && block.side === "mine" && line === "=======") {
        block.side = "theirs";
      } else if (block && block.side === "theirs" && line.indexOf(">>>>>>> ") === 0) {
        block.end = next;
        found.push(block);
        block = null;
      } else if (block) {
        block[block.side].push(line);
      }
      at = next;
    });
    return found;
  }

  function asLines(list) { return list.length ? list.join("\n") + "\n" : ""; }
  function same(a, b) { return a.replace(/\n+$/, "") === b.replace(/\n+$/, ""); }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".merge-region [data-keep]");
    if (!button) return;
    var region = button.closest(".merge-region");
    var area = document.querySelector("#merge-form textarea[name=body]");
    if (!area) return;
    var side = function (cls) { var pre = region.querySelector(".side." + cls + " pre"); return pre ? pre.textContent : ""; };
    var mine = side("mine"), theirs = side("theirs");
    var block = conflicts(area.value).filter(function (b) {
      return same(asLines(b.mine), mine) && same(asLines(b.theirs), theirs);
    })[0];
    var note = region.querySelector(".kept");
    if (!block) {
      note.textContent = "This conflict is no longer marked in the merged text.";
      return;
    }
    var keep = button.getAttribute("data-keep");
    var text = keep === "mine" ? asLines(block.mine) : keep === "theirs" ? asLines(block.theirs)
      : asLines(block.mine) + asLines(block.theirs);
    area.setSelectionRange(block.start, block.end);
    replaceSelection(area, text, text.length, text.length);
    region.classList.add("resolved");
    note.textContent = { mine: "Kept your text.", theirs: "Kept theirs.", both: "Kept both." }[keep];
    updateCounter(area);
  });

  function openAtFirstConflict() {
    var area = document.querySelector("#merge-form textarea[name=body]");
    if (!area || area.getAttribute("data-opened")) return;
    area.setAttribute("data-opened", "1");
    var first = conflicts(area.value)[0];
    if (!first) return;
    var line = area.value.slice(0, first.start).split("\n").length - 1;
    var height = parseFloat(getComputedStyle(area).lineHeight) || 20;
    area.scrollTop = Math.max(0, (line - 2) * height);
  }

  // Task lists on the document page: for someone who may edit it, ticking a box
  // saves the document (a new revision). Without JavaScript the boxes stay read-only.
  function enableTasks() {
    var doc = document.querySelector("article.document[data-tasks]");
    if (!doc) return;
    doc.querySelectorAll(".prose label.task input[type=checkbox]").forEach(function (box) {
      box.disabled = false;
    });
  }

  document.addEventListener("change", function (e) {
    var box = e.target;
    var doc = box.closest && box.closest("article.document[data-tasks]");
    if (!doc || !box.matches(".prose label.task input[type=checkbox]")) return;
    var boxes = Array.prototype.slice.call(doc.querySelectorAll(".prose label.task input[type=checkbox]"));
    var body = new URLSearchParams();
    body.set("index", String(boxes.indexOf(box)));
    body.set("done", String(box.checked));
    body.set("version", doc.getAttribute("data-version"));
    var csrf = document.querySelector('input[name="csrf"]');
    boxes.forEach(function (b) { b.disabled = true; });
    fetch(doc.getAttribute("data-tasks"), {
      method: "POST",
      body: body,
      headers: { "X-CSRF-Token": csrf ? csrf.value : "" },
      credentials: "same-origin"
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (answer) {
        if (!res.ok) throw new Error(answer.error || ("the server answered " + res.status));
        doc.setAttribute("data-version", String(answer.version));
        clearFailure("save");
        show("flash", "ok", box.checked ? "Ticked and saved." : "Unticked and saved.");
      });
    }).catch(function (err) {
      box.checked = !box.checked;
      fail("save", "Not saved: " + err.message);
    }).then(function () {
      boxes.forEach(function (b) { b.disabled = false; });
    });
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
    addCopyButtons();
    openAtFirstConflict();
    enableTasks();
  });

  document.addEventListener("htmx:afterSettle", function (e) {
    document.querySelectorAll("textarea[data-cap]").forEach(updateCounter);
    enhance();
    showTimes();
    addCopyButtons();
    openAtFirstConflict();
    enableTasks();
    // A new page in #main settles whatever went wrong on the old one; an autosave
    // or a note loading elsewhere does not.
    if (e.detail && e.detail.target && e.detail.target.id === "main") {
      clearFailure();
      kept = edits;
    }
  });

  // A message stays until the next request, except the one that loads the page
  // the message is about (a save answers with the message, then HX-Location).
  var freshFlash = false;
  document.addEventListener("htmx:beforeRequest", function (e) {
    // Autosaves and notes loading into their own spots are not navigation.
    if (!e.detail.target || e.detail.target.id !== "main") return;
    if (leaving(e.detail.elt)) sendLastDraft();
    if (freshFlash) { freshFlash = false; return; }
    var flash = document.getElementById("flash");
    if (flash) flash.textContent = "";
  });

  document.addEventListener("quire:flash", function (e) {
    show("flash", "ok", e.detail && e.detail.value ? e.detail.value : "Done.");
    freshFlash = true;
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
    if (edits === kept || !status || !navigator.sendBeacon) return;
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
