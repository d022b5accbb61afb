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

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("textarea[data-cap]").forEach(updateCounter);
  });

  // A save answers with the message and the page to load next (HX-Location); the
  // message waits for that page, or loading it would clear the banner at once.
  var pendingFlash = null;

  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("textarea[data-cap]").forEach(updateCounter);
    if (pendingFlash !== null) {
      show("flash", "ok", pendingFlash);
      pendingFlash = null;
    }
    var failure = document.getElementById("failure");
    if (failure) failure.textContent = "";
  });

  document.addEventListener("htmx:beforeRequest", function () {
    var flash = document.getElementById("flash");
    if (flash) flash.textContent = "";
  });

  document.addEventListener("quire:flash", function (e) {
    pendingFlash = e.detail && e.detail.value ? e.detail.value : "Done.";
  });

  // A failed request keeps the page as it is (and the text in the editor) and
  // says so until the next successful swap.
  document.addEventListener("htmx:responseError", function (e) {
    show("failure", "error", "The server answered " + e.detail.xhr.status +
      ". Nothing was lost on this page; try again.");
  });
  document.addEventListener("htmx:sendError", function () {
    show("failure", "error", "quire could not reach the server. Your text is still here; " +
      "check the connection and try again.");
  });

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
      var cancel = editor.querySelector("[data-cancel]");
      if (cancel) cancel.click();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || typing(document.activeElement)) return;
    var target = document.querySelector('[data-key="' + e.key + '"]');
    if (target) {
      e.preventDefault();
      if (target.tagName === "INPUT") target.focus();
      else target.click();
    }
  });
})();
