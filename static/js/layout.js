// The page's layout (issue 25): the editor pane that can be resized and hidden, and charts laid out
// for the width they are shown at.
// - The splitter between the editor and the result: drag it, or focus it and use ←/→ (Shift: larger
//   steps), Home/End, Enter to hide or show the editor ("Result only", a checkbox the stylesheet reads,
//   so it works without this script too). Both are kept in this browser.
// - Each chart (.timeline-wide[data-fit]) was laid out on the server for a panel of data-fit CSS px
//   (web/fit.py). When its panel is narrower than that, or much wider, the page asks for a drawing laid
//   out for the width it has: the index page explains its form again (app.js, "explainer:refit"); other
//   pages fetch themselves with ?tlw=<px> and swap their result in.
// Plain script, no inline handlers (the Content-Security-Policy forbids them).
(function () {
  "use strict";

  var WIDTH_KEY = "explainer:editorWidth:v1", ONLY_KEY = "explainer:resultOnly:v1";
  var WIDER = 1.25;            // a chart shown more than this much wider than it was laid out for is redone
  var MIN_EDITOR = 0.15, MAX_EDITOR = 0.7;

  function $(id) { return document.getElementById(id); }
  function store(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } }
  function stored(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
  function text(name, fallback) {
    var data = $("page-messages"), messages = {};
    if (data) { try { messages = JSON.parse(data.dataset.messages); } catch (e) { messages = {}; } }
    return messages[name] || fallback;
  }

  // ---- the panel width a chart gets --------------------------------------------------------------
  // What a chart in the result would be shown at: an existing chart's panel, else a probe panel.
  function panelWidth(root) {
    var holder = (root || document).querySelector(".timeline-wide");
    if (holder && holder.offsetParent !== null && holder.clientWidth) { return Math.floor(holder.clientWidth); }
    var result = $("result") || document.querySelector("main");
    if (!result) { return 0; }
    var probe = document.createElement("div");
    probe.className = "panel tl-panel";
    probe.style.visibility = "hidden";
    var inner = document.createElement("div");
    probe.appendChild(inner);
    result.appendChild(probe);
    var w = inner.clientWidth;
    result.removeChild(probe);
    return Math.floor(w);
  }
  window.explainerPanelWidth = panelWidth;

  function misfit() {
    var bad = false;
    document.querySelectorAll(".timeline-wide[data-fit]").forEach(function (holder) {
      if (holder.offsetParent === null || !holder.clientWidth) { return; }      // hidden: the result-only pane...
      if (holder.closest(".tl-presenting")) { return; }     // the whole window for a while: not redrawn under the class
      var made = parseFloat(holder.getAttribute("data-fit")), now = holder.clientWidth;
      if (now < made - 1 || now > made * WIDER) { bad = true; }
    });
    return bad;
  }

  var refitTimer = null, refitting = false, lastAsked = 0;
  function refitSoon(delay) {
    clearTimeout(refitTimer);
    refitTimer = setTimeout(refit, delay == null ? 250 : delay);
  }
  // html[data-charts]: "fitted" once every chart is laid out for its panel, "refitting" while one is asked for
  function mark(state) { document.documentElement.setAttribute("data-charts", state); }
  function refit() {
    if (refitting) { return; }
    if (!misfit()) { mark("fitted"); return; }
    mark("refitting");
    var px = panelWidth();
    if (!px || Math.abs(px - lastAsked) < 8) { mark("fitted"); return; }   // asked for this width already: as good as it gets
    lastAsked = px;
    if ($("manifest-form")) {          // the index page: its form, explained again for this width (app.js)
      if (!window.explainerAppReady) { lastAsked = 0; refitSoon(200); return; }   // app.js not started yet
      document.dispatchEvent(new CustomEvent("explainer:refit", {detail: {width: px}}));
      return;
    }
    if (!window.htmx || !$("result")) { return; }
    var url = new URL(location.href);
    url.searchParams.set("tlw", String(px));
    url.hash = "";
    refitting = true;
    window.htmx.ajax("GET", url.pathname + url.search, {target: "#result", select: "#result", swap: "outerHTML"})
      .then(function () { refitting = false; refitSoon(0); }, function () { refitting = false; mark("fitted"); });
  }

  // ---- the splitter --------------------------------------------------------------------------------
  function splitter() {
    var ws = $("workspace"), input = $("input-pane");
    if (!ws || !input) { return; }
    var only = $("result-only");
    if (only) {
      if (stored(ONLY_KEY) === "1") { only.checked = true; }
      only.addEventListener("change", function () {
        store(ONLY_KEY, only.checked ? "1" : "0");
        refitSoon(0);
      });
    }
    var bar = document.createElement("div");
    bar.className = "pane-splitter";
    bar.setAttribute("role", "separator");
    bar.setAttribute("tabindex", "0");
    bar.setAttribute("aria-orientation", "vertical");
    bar.setAttribute("aria-controls", "input-pane");
    bar.setAttribute("aria-label", text("splitter", "Editor width"));
    bar.setAttribute("aria-valuemin", String(MIN_EDITOR * 100));
    bar.setAttribute("aria-valuemax", String(MAX_EDITOR * 100));
    bar.title = text("splitterHelp", "");
    input.parentNode.insertBefore(bar, input.nextSibling);

    function total() { return ws.getBoundingClientRect().width || 1; }
    function current() { return input.getBoundingClientRect().width / total(); }
    function set(share, keep) {
      share = Math.min(Math.max(share, MIN_EDITOR), MAX_EDITOR);
      ws.style.setProperty("--editor-w", (share * 100).toFixed(2) + "%");
      bar.setAttribute("aria-valuenow", String(Math.round(share * 100)));
      if (keep !== false) { store(WIDTH_KEY, share.toFixed(4)); }
    }
    var saved = parseFloat(stored(WIDTH_KEY) || "");
    if (saved > 0) { set(saved, false); } else { bar.setAttribute("aria-valuenow", String(Math.round(current() * 100))); }

    bar.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) { return; }
      e.preventDefault();
      bar.setPointerCapture(e.pointerId);
      bar.classList.add("dragging");
      var left = ws.getBoundingClientRect().left;
      function move(m) { set((m.clientX - left) / total()); }
      function up() {
        bar.classList.remove("dragging");
        bar.removeEventListener("pointermove", move);
        bar.removeEventListener("pointerup", up);
        refitSoon(0);
      }
      bar.addEventListener("pointermove", move);
      bar.addEventListener("pointerup", up);
    });
    bar.addEventListener("keydown", function (e) {
      var step = e.shiftKey ? 0.1 : 0.02, share = current();
      if (e.key === "ArrowLeft") { set(share - step); }
      else if (e.key === "ArrowRight") { set(share + step); }
      else if (e.key === "Home") { set(MIN_EDITOR); }
      else if (e.key === "End") { set(MAX_EDITOR); }
      else if (e.key === "Enter" && only) { only.checked = !only.checked; only.dispatchEvent(new Event("change")); }
      else { return; }
      e.preventDefault();
      refitSoon();
    });
  }

  function init() {
    splitter();
    refitSoon(0);
    var wide = window.innerWidth;
    window.addEventListener("resize", function () {      // a width that changed (not a height: a phone's toolbar)
      if (window.innerWidth !== wide) { wide = window.innerWidth; refitSoon(400); }
    });
    document.addEventListener("htmx:afterSettle", function () { refitSoon(); });
    // A refit draws the same result for another width: what the reader opened meanwhile (a finding, the event
    // table, a folded crash loop) stays open, and what they closed stays closed. Each <details> is known by its
    // class and its summary's words (the n-th of those), so a part the new drawing lacks or adds moves nothing.
    var opened = null;
    function detailsOf(result) {
      var seen = {}, found = [];
      Array.prototype.forEach.call(result.querySelectorAll("details"), function (d) {
        var summary = d.querySelector("summary"), key = d.className + "|" + (summary ? summary.textContent.trim() : "");
        seen[key] = (seen[key] || 0) + 1;
        found.push({ key: key + "|" + seen[key], el: d });
      });
      return found;
    }
    document.addEventListener("htmx:beforeSwap", function (e) {
      var result = $("result");
      opened = null;
      if (!e.detail.shouldSwap || !result || e.detail.target !== result ||
          document.documentElement.getAttribute("data-charts") !== "refitting") { return; }
      opened = {};
      detailsOf(result).forEach(function (d) { opened[d.key] = d.el.open; });
    });
    document.addEventListener("htmx:afterSwap", function () {
      var result = $("result"), was = opened;
      opened = null;
      if (!was || !result) { return; }
      detailsOf(result).forEach(function (d) { if (d.key in was) { d.el.open = was[d.key]; } });
    });
    document.addEventListener("htmx:afterRequest", function (e) {      // a failed answer: nothing more to wait for
      if (!e.detail.successful && document.documentElement.getAttribute("data-charts") === "refitting") { mark("fitted"); }
    });
  }
  // after every script of the page has run (a deferred script runs before DOMContentLoaded, and a timer may
  // fire between two of them)
  if (document.readyState === "complete") { init(); } else { document.addEventListener("DOMContentLoaded", init); }
})();
