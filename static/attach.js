// quire's file attaching in the editor: pasting or dropping a file into the
// text, or choosing one with the file button, uploads it to the document and
// puts its Markdown where the cursor is. Without JavaScript the editor's
// Attach button sends the file with the text, and the text comes back with the
// Markdown at its end. A new document is saved first, then the files go to it.
(function () {
  "use strict";

  function box(area) {
    var form = area && area.form;
    return form && form.querySelector("[data-attach], [data-attach-new]");
  }

  function say(place, kind, text) {
    var status = place.querySelector("[data-attach-status]");
    if (!status) return;
    status.className = "attach-status " + kind;
    status.textContent = text;
  }

  function insert(area, markdown) {
    var start = area.selectionStart, end = area.selectionEnd;
    var before = area.value.slice(0, start);
    var lead = before === "" || /\n$/.test(before) ? "" : "\n";
    area.setRangeText(lead + markdown + "\n", start, end, "end");
    area.dispatchEvent(new Event("input", { bubbles: true }));
    area.focus();
  }

  function upload(area, files) {
    var place = box(area);
    if (!place) return;
    if (place.hasAttribute("data-attach-new")) return createThenUpload(area, files, place);
    var csrf = area.form.querySelector('input[name="csrf"]');
    Array.prototype.forEach.call(files, function (file) {
      var sent = new FormData();
      sent.append("file", file, file.name || "pasted");
      say(place, "busy", "Attaching " + (file.name || "the file") + "…");
      fetch(place.getAttribute("data-attach"), {
        method: "POST",
        body: sent,
        headers: { "X-CSRF-Token": csrf ? csrf.value : "", "Accept": "application/json" },
        credentials: "same-origin"
      }).then(function (res) {
        // A session that ended answers with the sign-in page, not JSON.
        if (res.redirected) throw new Error("you are signed out; sign in again (copy your text first)");
        return res.json().catch(function () { return {}; }).then(function (answer) {
          if (!res.ok) throw new Error(answer.error || ("the server answered " + res.status));
          if (typeof answer.markdown !== "string") throw new Error("the server's answer was not understood");
          insert(area, answer.markdown);
          say(place, "ok", "Attached " + answer.name + ".");
        });
      }).catch(function (err) {
        say(place, "error", "Not attached: " + err.message);
      });
    });
  }

  // A file needs a document to belong to: a new one is saved as typed (named
  // after its first line, or "Untitled", when it has no title yet), its editor
  // takes this one's place with the text and the cursor where they were, and the
  // files are attached to it there.
  function createThenUpload(area, files, place) {
    var form = area.form;
    var title = form.querySelector('input[name="title"]');
    if (title && !title.value.trim()) {
      title.value = (area.value.split("\n")[0] || "").replace(/^[#>\-*\s]+/, "").slice(0, 120).trim() ||
        "Untitled";
    }
    var given = Array.prototype.slice.call(files);
    var caret = area.selectionStart;
    var sent = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") sent.append(name, value);
    });
    var csrf = form.querySelector('input[name="csrf"]');
    say(place, "busy", "Saving the document first, to attach to it…");
    fetch(form.getAttribute("action"), {
      method: "POST",
      body: sent,
      headers: { "HX-Request": "true", "HX-Target": "main", "X-CSRF-Token": csrf ? csrf.value : "" },
      credentials: "same-origin"
    }).then(function (res) {
      var to = res.headers.get("HX-Location");
      if (res.redirected) throw new Error("you are signed out; sign in again (copy your text first)");
      if (!res.ok || !to) throw new Error("the document could not be saved first; press Save to see why");
      var path = JSON.parse(to).path.split("?")[0];
      // The document holds the text now: nothing of this page is kept as a draft.
      var autosave = form.querySelector("[data-autosave]");
      if (autosave) autosave.remove();
      var typed = area.value;
      return window.htmx.ajax("GET", path + "/edit", { target: "#main", swap: "innerHTML", push: path + "/edit" })
        .then(function () {
          var next = document.querySelector("form.editor textarea#body");
          if (!next) throw new Error("the saved document's editor did not open");
          if (next.value !== typed) {
            next.value = typed;
            next.dispatchEvent(new Event("input", { bubbles: true }));
          }
          next.focus();
          next.setSelectionRange(caret, caret);
          upload(next, given);
        });
    }).catch(function (err) {
      say(place, "error", "Not attached: " + err.message);
    });
  }

  document.addEventListener("paste", function (e) {
    var area = e.target;
    if (!area.matches || !area.matches("textarea#body") || !box(area)) return;
    var files = e.clipboardData && e.clipboardData.files;
    if (!files || files.length === 0) return;
    e.preventDefault();
    upload(area, files);
  });

  document.addEventListener("dragover", function (e) {
    if (e.target.matches && e.target.matches("textarea#body") && box(e.target)) {
      e.preventDefault();
    }
  });

  document.addEventListener("drop", function (e) {
    var area = e.target;
    if (!area.matches || !area.matches("textarea#body") || !box(area)) return;
    var files = e.dataTransfer && e.dataTransfer.files;
    if (!files || files.length === 0) return;
    e.preventDefault();
    upload(area, files);
  });

  document.addEventListener("change", function (e) {
    var input = e.target;
    if (!input.matches || !input.matches("[data-attach] input[type=file], [data-attach-new] input[type=file]")) return;
    var area = input.form && input.form.querySelector("textarea#body");
    if (!area || input.files.length === 0) return;
    upload(area, input.files);
    input.value = "";
  });
})();
