// quire's writing helpers: copy buttons, the formatting toolbar and its keys,
// list indenting, the merge view's Keep buttons, and task boxes that save. Loaded
// after quire.js (whose banners and size counter it uses); pages work without it.
(function () {
  "use strict";
  var quire = window.quire;

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
      button.textContent = "Selected: press Ctrl+C to copy";
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

  // The whole lines the selection touches: where they start and end, and them.
  function selectedLines(area) {
    var value = area.value;
    var from = value.lastIndexOf("\n", area.selectionStart - 1) + 1;
    var to = value.indexOf("\n", area.selectionEnd);
    if (to < 0) to = value.length;
    return { from: from, to: to, lines: value.slice(from, to).split("\n") };
  }

  // Puts `prefix` before every line the selection touches (or takes it away). With
  // no selection the caret stays where it was in the text, after the marker, so
  // what is typed next follows it ("## " then "Goals" is "## Goals").
  function prefixLines(area, prefix) {
    var picked = selectedLines(area), from = picked.from, to = picked.to, lines = picked.lines;
    var caret = area.selectionStart === area.selectionEnd ? area.selectionStart - from : -1;
    var all = lines.every(function (l) { return l.indexOf(prefix) === 0; });
    var changed = lines.map(function (l) { return all ? l.slice(prefix.length) : prefix + l; }).join("\n");
    area.setSelectionRange(from, to);
    if (caret < 0) return replaceSelection(area, changed, 0, changed.length);
    var at = all ? Math.max(0, caret - prefix.length) : caret + prefix.length;
    replaceSelection(area, changed, at, at);
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
    var picked = selectedLines(area), from = picked.from, to = picked.to, lines = picked.lines;
    if (!lines.some(function (l) { return LIST_ITEM.test(l); })) return false;
    if (!lines.every(function (l) { return LIST_ITEM.test(l) || l.trim() === ""; })) return false;
    var changed = lines.map(function (l) {
      if (!l.trim()) return l;
      return outdent ? l.replace(/^( {1,2}|\t)/, "") : "  " + l;
    }).join("\n");
    if (changed === lines.join("\n")) return true;
    area.setSelectionRange(from, to);
    replaceSelection(area, changed, changed.length, changed.length);
    return true;
  }

  // Enter on a list or task item starts the next item (numbered ones count on, a
  // new task is open); Enter on an item with nothing after its marker ends the list.
  var ITEM_MARKER = /^(\s*)([-*+]|(\d+)([.)]))(\s+)(\[[ xX]\]\s+)?/;
  function continueList(area) {
    if (area.selectionStart !== area.selectionEnd) return false;
    var at = area.selectionStart, value = area.value;
    var from = value.lastIndexOf("\n", at - 1) + 1;
    var end = value.indexOf("\n", at);
    var line = value.slice(from, end < 0 ? value.length : end);
    var m = ITEM_MARKER.exec(line);
    if (!m || at - from < m[0].length) return false;
    if (!line.slice(m[0].length).trim()) {
      area.setSelectionRange(from, from + line.length);
      replaceSelection(area, "", 0, 0);
      return true;
    }
    var marker = m[3] ? String(parseInt(m[3], 10) + 1) + m[4] : m[2];
    var next = "\n" + m[1] + marker + m[5] + (m[6] ? "[ ] " : "");
    replaceSelection(area, next, next.length, next.length);
    return true;
  }

  document.addEventListener("keydown", function (e) {
    var area = e.target;
    if (!area.matches || !area.matches("form.editor textarea[name=body]")) return;
    if (offering(area)) return;
    if (e.key === "Tab" && !e.ctrlKey && !e.metaKey && !e.altKey) {
      if (indentList(area, e.shiftKey)) e.preventDefault();
      return;
    }
    if (e.key === "Enter" && !e.isComposing && !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey) {
      if (continueList(area)) e.preventDefault();
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
    quire.updateCounter(area);
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
        var shown = doc.querySelector("[data-shown-version]");
        if (shown) shown.textContent = "version " + answer.version;
        quire.clearFailure("save");
        quire.show("flash", "ok", box.checked ? "Ticked and saved." : "Unticked and saved.");
      });
    }).catch(function (err) {
      box.checked = !box.checked;
      quire.fail("save", "Not saved: " + err.message);
    }).then(function () {
      boxes.forEach(function (b) { b.disabled = false; });
    });
  });

  // Links between documents: after "[[" the editor offers the titles that
  // hold what follows (up to "]]"); a click, Enter or Tab completes the link.
  // Without JavaScript the brackets are typed by hand.
  var offered = { area: null, start: 0, timer: null, asked: "" };
  function suggestions() { return document.getElementById("link-suggestions"); }
  function typedLink(area) {
    var before = area.value.slice(0, area.selectionStart);
    var open = before.lastIndexOf("[[");
    if (open < 0 || area.selectionStart !== area.selectionEnd) return null;
    var typed = before.slice(open + 2);
    if (/\]\]|\n|\|/.test(typed) || typed.length > 100) return null;
    return { start: open + 2, text: typed };
  }
  // The offer opens under the line being typed, where the eyes are: the caret's
  // place is measured on a hidden copy of the text box's text up to it.
  function placeAtCaret(list, area) {
    var style = getComputedStyle(area), copy = document.createElement("div");
    ["fontFamily", "fontSize", "fontWeight", "lineHeight", "letterSpacing", "tabSize",
      "paddingTop", "paddingRight", "paddingBottom", "paddingLeft",
      "borderTopWidth", "borderRightWidth", "borderBottomWidth", "borderLeftWidth"].forEach(function (p) {
      copy.style[p] = style[p];
    });
    copy.style.position = "absolute";
    copy.style.visibility = "hidden";
    copy.style.whiteSpace = "pre-wrap";
    copy.style.overflowWrap = "break-word";
    copy.style.boxSizing = "border-box";
    copy.style.width = area.offsetWidth + "px";
    copy.textContent = area.value.slice(0, area.selectionStart);
    var mark = document.createElement("span");
    mark.textContent = "\u200b";
    copy.appendChild(mark);
    document.body.appendChild(copy);
    var line = parseFloat(style.lineHeight) || mark.offsetHeight;
    var top = mark.offsetTop - area.scrollTop + line, left = mark.offsetLeft;
    document.body.removeChild(copy);
    top = Math.max(0, Math.min(top, area.offsetHeight));
    left = Math.max(0, Math.min(left, area.offsetWidth - list.offsetWidth));
    list.style.top = (area.offsetTop + top) + "px";
    list.style.left = (area.offsetLeft + left) + "px";
  }
  function offering(area) { var list = suggestions(); return offered.area === area && list && !list.hidden; }
  function hideSuggestions() {
    var list = suggestions();
    if (list) { list.hidden = true; list.innerHTML = ""; }
    offered.area = null;
  }
  function choose(option) {
    var area = offered.area;
    if (!area || !option) return;
    area.focus();
    area.setSelectionRange(offered.start, area.selectionStart);
    replaceSelection(area, option.getAttribute("data-target") + "]]", 0, 0);
    var end = offered.start + option.getAttribute("data-target").length + 2;
    area.setSelectionRange(end, end);
    hideSuggestions();
  }
  function moveChoice(list, step) {
    var options = Array.prototype.slice.call(list.querySelectorAll("[role=option]"));
    var at = options.findIndex(function (o) { return o.getAttribute("aria-selected") === "true"; });
    options.forEach(function (o) { o.setAttribute("aria-selected", "false"); });
    var next = options[(at + step + options.length) % options.length];
    next.setAttribute("aria-selected", "true");
    offered.area.setAttribute("aria-activedescendant", next.id);
  }
  document.addEventListener("input", function (e) {
    var area = e.target;
    if (!area.matches || !area.matches("textarea#body") || !suggestions()) return;
    clearTimeout(offered.timer);
    var typed = typedLink(area);
    if (!typed) { hideSuggestions(); return; }
    offered.timer = setTimeout(function () {
      offered.asked = typed.text;
      // The space chosen for a new document, or the edited one's: its titles first.
      var chosen = document.getElementById("space");
      var space = chosen ? chosen.value : (area.getAttribute("data-space") || "");
      fetch("/titles?q=" + encodeURIComponent(typed.text) + "&space=" + encodeURIComponent(space), {
        headers: { "HX-Request": "true", "HX-Target": "link-suggestions" },
        credentials: "same-origin"
      }).then(function (res) { return res.ok ? res.text() : ""; }).then(function (html) {
        var list = suggestions();
        if (!list || offered.asked !== typed.text) return;
        list.innerHTML = html;
        var any = list.querySelector("[role=option]");
        if (!any) { hideSuggestions(); return; }
        offered.area = area;
        offered.start = typed.start;
        any.setAttribute("aria-selected", "true");
        area.setAttribute("aria-activedescendant", any.id);
        list.hidden = false;
        placeAtCaret(list, area);
      }, hideSuggestions);
    }, 120);
  });
  document.addEventListener("keydown", function (e) {
    var list = suggestions();
    if (!list || list.hidden || e.target !== offered.area) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      moveChoice(list, e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      choose(list.querySelector("[aria-selected=true]"));
    } else if (e.key === "Escape") {
      e.preventDefault();
      hideSuggestions();
    }
  });
  document.addEventListener("mousedown", function (e) {
    var option = e.target.closest && e.target.closest("#link-suggestions [role=option]");
    if (!option) return;
    e.preventDefault();
    choose(option);
  });

  function ready() {
    addCopyButtons();
    openAtFirstConflict();
    enableTasks();
  }
  document.addEventListener("DOMContentLoaded", ready);
  document.addEventListener("htmx:afterSettle", ready);
})();
