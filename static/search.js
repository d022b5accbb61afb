// quire's search keys: Arrow Down from a search box goes to the results, and the
// arrows move between them (Arrow Up from the first goes back to the box). Pages
// work without it; the results are links a Tab reaches too.
(function () {
  "use strict";

  function results() {
    return Array.prototype.slice.call(document.querySelectorAll("ol.hits > li > a"));
  }

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
