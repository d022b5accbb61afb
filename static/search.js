// quire's search keys. The header's box shows the first results under it as one
// types (htmx fills #live-results from /search/live): the arrows move through
// them, Enter opens the one highlighted or, with none, submits the box to the
// full page as it does without JavaScript; Escape closes them, a second Escape
// empties the box; a click elsewhere closes them. On the results page, Arrow
// Down from a search box goes to the results and the arrows move between them
// (Arrow Up from the first goes back to the box). Pages work without it; the
// results are links a Tab reaches too.
(function () {
  "use strict";

  function results() {
    return Array.prototype.slice.call(document.querySelectorAll("ol.hits > li > a"));
  }

  function liveBox() {
    return document.getElementById("q");
  }

  function livePopup() {
    return document.getElementById("live-results");
  }

  function liveOptions() {
    var popup = livePopup();
    if (!popup) return [];
    return Array.prototype.slice.call(popup.querySelectorAll("a[role=option]"));
  }

  // Only with this script is the box a combobox: without it, it is the plain
  // search box it always was and its list never opens.
  (function () {
    var box = liveBox();
    if (!box || !livePopup()) return;
    box.setAttribute("role", "combobox");
    box.setAttribute("aria-autocomplete", "list");
    box.setAttribute("aria-controls", "live-results");
    box.setAttribute("aria-expanded", "false");
  })();

  // Set while the popup should stay shut: after Escape, a submit or a result
  // opened, the answer to a search typed a moment before must not open it again.
  var shut = false;

  function highlight(option) {
    var box = liveBox();
    liveOptions().forEach(function (a) {
      a.setAttribute("aria-selected", a === option ? "true" : "false");
    });
    if (!box) return;
    if (option) {
      box.setAttribute("aria-activedescendant", option.id);
      option.scrollIntoView({ block: "nearest" });
    } else {
      box.removeAttribute("aria-activedescendant");
    }
  }

  // The box tells assistive technology whether its list is showing.
  function showing() {
    var box = liveBox();
    var popup = livePopup();
    if (!box || !popup) return;
    box.setAttribute("aria-expanded", popup.children.length > 0 ? "true" : "false");
    highlight(null);
  }

  function close() {
    var popup = livePopup();
    // Emptied, not hidden: the stylesheet hides the popup while it is empty.
    if (popup && popup.firstChild) popup.textContent = "";
    showing();
  }

  // Arrow Down and Arrow Up in the box move the highlight; from the first
  // result Arrow Up goes back to the box's own text.
  function move(options, down) {
    var at = options.indexOf(document.getElementById(liveBox().getAttribute("aria-activedescendant") || ""));
    var next = down ? Math.min(at + 1, options.length - 1) : at - 1;
    highlight(next >= 0 ? options[next] : null);
  }

  // Captured before quire.js's keys: Escape in a box over an editor closes the
  // results, not the editor.
  document.addEventListener("keydown", function (e) {
    var box = liveBox();
    if (!box || e.target !== box || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.isComposing || e.keyCode === 229) return;
    var options = liveOptions();
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      shut = true;
      if (livePopup() && livePopup().firstChild) close();
      else box.value = "";
    } else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && options.length) {
      e.preventDefault();
      e.stopPropagation();
      move(options, e.key === "ArrowDown");
    } else if (e.key === "Enter") {
      var chosen = options.filter(function (a) {
        return a.getAttribute("aria-selected") === "true";
      })[0];
      shut = true;
      if (chosen) {
        e.preventDefault();
        chosen.click();
      }
      // With none chosen the form goes to the full results page.
    }
  }, true);

  document.addEventListener("input", function (e) {
    if (e.target === liveBox()) shut = false;
  });

  document.addEventListener("submit", function (e) {
    if (e.target.contains && e.target.contains(liveBox())) {
      shut = true;
      close();
    }
  });

  document.addEventListener("click", function (e) {
    var form = liveBox() && liveBox().form;
    if (!form || form.contains(e.target)) {
      // A result opened by the pointer: a late answer stays out.
      if (e.target.closest && e.target.closest("#live-results a")) shut = true;
      return;
    }
    close();
  });

  // Leaving the box for another control by Tab closes the list too.
  document.addEventListener("focusout", function (e) {
    var form = liveBox() && liveBox().form;
    if (!form || e.target !== liveBox() || !e.relatedTarget) return;
    if (!form.contains(e.relatedTarget)) close();
  });

  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.target === livePopup() && shut) e.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:afterSwap", function (e) {
    var target = e.detail.target;
    if (target === livePopup()) showing();
    // A new page under the header (a result opened, the full search) ends the list.
    else if (target && target.id === "main") close();
  });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    var here = e.target;
    var links = results();
    if (!links.length || !here.matches) return;
    if (here.matches("input[type=search]")) {
      if (e.key !== "ArrowDown") return;
      e.preventDefault();
      links[0].focus();
      return;
    }
    var at = links.indexOf(here);
    if (at < 0) return;
    e.preventDefault();
    if (e.key === "ArrowDown") {
      links[Math.min(at + 1, links.length - 1)].focus();
    } else if (at > 0) {
      links[at - 1].focus();
    } else {
      var box = document.getElementById("search-q") || document.getElementById("q");
      if (box) box.focus();
    }
  });
})();
