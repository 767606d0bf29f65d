// Source ↔ picture (issue 25), as explainshell and Compiler Explorer link text and output:
// - hovering or focusing a lane of the timeline, a step of the story or a pitfall marks its lines in
//   the editor (the container's block, the finding's field), scrolled into view, the focus left where
//   it is;
// - a click in the editor (or moving the caret there) selects the container whose block holds the
//   caret, in the timeline and in the sharing diagram.
// Where the lines are comes from the server: each Pod's article carries data-lines, the line of the
// Pod and of each container in the input (web/present.py). The editor's side is editor.js's
// (window.explainerEditor); the picture's is timeline.js's (an instrument's select()).
(function () {
  "use strict";

  function editor() { return window.explainerEditor || null; }
  function linesOf(article) {
    if (!article) { return null; }
    if (!article.tlLines) {
      try { article.tlLines = JSON.parse(article.getAttribute("data-lines") || "{}"); } catch (e) { article.tlLines = {}; }
    }
    return article.tlLines;
  }
  function containerLine(article, name) {
    var lines = linesOf(article);
    return lines && lines.containers ? lines.containers[name] : null;
  }

  // The lines a thing on the page stands for (null: it is not one of them).
  function linesFor(target) {
    if (!target || !target.closest) { return null; }
    var article = target.closest("article.pod[data-lines]");
    if (!article) { return null; }
    var lane = target.closest("[data-timeline] .tl-lane-label, [data-timeline] .tl-bar-g, [data-timeline] .tl-item[data-lane]");
    if (lane) {
      var section = lane.closest("[data-timeline]"), tl = section && section.tlInstrument;
      if (!tl || section.classList.contains("rollout")) { return null; }   // a rollout's lanes are Pods
      var info = tl.data.lanes[parseInt(lane.getAttribute("data-lane"), 10)];
      var line = info && containerLine(article, info.name);
      return line ? [line] : null;
    }
    var step = target.closest("[data-story] li[data-t]");
    if (step && !step.closest(".rollout-story")) {
      var name = step.getAttribute("data-container");
      var at = name ? containerLine(article, name) : (linesOf(article) || {}).pod;
      return at ? [at] : null;
    }
    var finding = target.closest("details.finding");
    if (finding) {
      var found = [];
      finding.querySelectorAll(".line-link[data-line]").forEach(function (a) {
        var n = parseInt(a.getAttribute("data-line"), 10);
        if (n && found.indexOf(n) < 0) { found.push(n); }
      });
      return found.length ? found : null;
    }
    return null;
  }

  var current = null, clearTimer = null;
  function show(target) {
    var ed = editor(), lines = linesFor(target);
    if (!ed || !lines) { return false; }
    clearTimeout(clearTimer);
    var key = lines.join(",");
    if (key !== current) { current = key; ed.mark(lines); }
    return true;
  }
  function hide() {
    clearTimeout(clearTimer);
    clearTimer = setTimeout(function () {       // moving from one lane to the next does not flicker
      current = null;
      var ed = editor();
      if (ed) { ed.unmark(); }
    }, 120);
  }
  document.addEventListener("mouseover", function (e) { if (!show(e.target) && current) { hide(); } });
  document.addEventListener("focusin", function (e) { if (!show(e.target) && current) { hide(); } });
  document.addEventListener("focusout", function () {
    setTimeout(function () { if (current && !linesFor(document.activeElement)) { hide(); } }, 0);
  });

  // ---- the editor's caret selects a container in the picture -------------------------------------------
  function selectAtCaret() {
    var ed = editor();
    if (!ed) { return; }
    var line = ed.caretLine(), chosen = null;
    document.querySelectorAll("#result article.pod[data-lines]").forEach(function (article) {
      var lines = linesOf(article), names = Object.keys((lines && lines.containers) || {});
      names.forEach(function (name) {
        var block = ed.blockOf(lines.containers[name]);
        if (block && line >= block[0] && line <= block[1] &&
            (!chosen || block[0] >= chosen.block[0])) {      // the innermost block that holds the caret
          chosen = {article: article, name: name, block: block};
        }
      });
    });
    document.querySelectorAll("#result [data-timeline]").forEach(function (section) {
      var tl = section.tlInstrument;
      if (!tl || !tl.select || section.classList.contains("rollout")) { return; }
      tl.select(chosen && section.closest("article") === chosen.article ? chosen.name : null);
    });
  }
  document.addEventListener("click", function (e) { if (e.target && e.target.id === "manifest") { selectAtCaret(); } });
  document.addEventListener("keyup", function (e) {
    if (e.target && e.target.id === "manifest" && /^(Arrow|Page|Home|End)/.test(e.key)) { selectAtCaret(); }
  });
})();
