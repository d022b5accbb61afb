// quire's file attaching in the editor: pasting or dropping a file into the
// text, or choosing one with the file button, uploads it to the document and
// puts its Markdown where the cursor is. Without JavaScript the editor's
// Attach button sends the file with the text, and the text comes back with the
// Markdown at its end.
(function () {
  "use strict";

  function box(area) {
    var form = area && area.form;
    return form && form.querySelector("[data-attach]");
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
    if (!input.matches || !input.matches("[data-attach] input[type=file]")) return;
    var area = input.form && input.form.querySelector("textarea#body");
    if (!area || input.files.length === 0) return;
    upload(area, input.files);
    input.value = "";
  });
})();
