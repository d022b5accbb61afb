// quire's comments: selecting a passage of a document shows a "Comment"
// button beside it, which puts the passage in the new comment's quote and the
// cursor in its text; Ctrl/Cmd+Enter sends a comment. Without JavaScript the
// quote is typed (or pasted) into the form's "Quote a passage" box.
(function () {
  "use strict";

  var button = null;

  function selectedPassage() {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || sel.rangeCount === 0) return null;
    var range = sel.getRangeAt(0);
    var prose = document.querySelector("#doc .prose");
    if (!prose || !prose.contains(range.commonAncestorContainer)) return null;
    var text = sel.toString().replace(/\s+/g, " ").trim();
    return text ? { text: text, rect: range.getBoundingClientRect() } : null;
  }

  function hide() {
    if (button) button.hidden = true;
  }

  function quote(text) {
    var field = document.getElementById("comment-quote");
    var body = document.getElementById("comment-body");
    if (!field || !body) return;
    field.value = text;
    var box = field.closest("details");
    if (box) box.open = true;
    hide();
    body.scrollIntoView({ block: "center" });
    body.focus();
  }

  function show(passage) {
    if (!document.getElementById("comment-quote")) return;
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "quote-button primary";
      button.textContent = "Comment";
      button.setAttribute("aria-label", "Comment on the selected passage");
      // Pressing the button must not lose the selection first.
      button.addEventListener("mousedown", function (e) { e.preventDefault(); });
      button.addEventListener("click", function () {
        var p = selectedPassage();
        if (p) quote(p.text);
      });
      document.body.appendChild(button);
    }
    var r = passage.rect;
    button.style.top = Math.max(0, window.scrollY + r.bottom + 6) + "px";
    button.style.left = Math.max(4, Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - 110)) + "px";
    button.hidden = false;
  }

  function looked() {
    var p = selectedPassage();
    if (p) show(p); else hide();
  }

  document.addEventListener("mouseup", function (e) {
    if (button && e.target === button) return;
    setTimeout(looked, 0);
  });
  document.addEventListener("keyup", function (e) {
    if (e.shiftKey || e.key === "Shift") looked();
    if (e.key === "Escape") hide();
  });
  document.addEventListener("keydown", function (e) {
    var area = e.target;
    if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
    if (!area.matches || !area.matches("textarea[data-submit-on-ctrl-enter]") || !area.form) return;
    e.preventDefault();
    area.form.requestSubmit();
  });
  // The page's own updates (who is editing, every few seconds; a comment
  // sent) must not take the button from under a passage still selected:
  // after each, the selection is looked at again, and the button follows it
  // or goes.
  document.addEventListener("htmx:afterSettle", function () {
    if (button && !button.hidden) looked();
  });
})();
