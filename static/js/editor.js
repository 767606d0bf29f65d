// The editor's line numbers, Ctrl/Cmd+Enter, line links and copy buttons.
// Plain script, no inline handlers: the Content-Security-Policy forbids inline scripts.
(function () {
  "use strict";

  function lineCount(text) {
    var n = 1;
    for (var i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
    return n;
  }

  function syncGutter() {
    var area = document.getElementById("manifest");
    var gutter = document.getElementById("gutter");
    if (!area || !gutter) return;
    var n = lineCount(area.value);
    if (gutter.dataset.lines !== String(n)) {
      var out = [];
      for (var i = 1; i <= n; i++) out.push(i);
      gutter.textContent = out.join("\n");
      gutter.dataset.lines = String(n);
    }
    gutter.scrollTop = area.scrollTop;
  }

  function highlightLine(line) {
    var area = document.getElementById("manifest");
    if (!area) return;
    var lines = area.value.split("\n");
    line = Math.max(1, Math.min(line, lines.length));
    var start = 0;
    for (var i = 0; i < line - 1; i++) start += lines[i].length + 1;
    area.focus();
    area.setSelectionRange(start, start + lines[line - 1].length);
    var style = window.getComputedStyle(area);
    var lh = parseFloat(style.lineHeight) || 18;
    area.scrollTop = Math.max(0, (line - 4) * lh);
    syncGutter();
    area.classList.add("flash");
    window.setTimeout(function () { area.classList.remove("flash"); }, 600);
  }

  document.addEventListener("input", function (ev) {
    if (ev.target && ev.target.id === "manifest") syncGutter();
  });
  document.addEventListener("scroll", function (ev) {
    if (ev.target && ev.target.id === "manifest") syncGutter();
  }, true);

  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      var form = document.getElementById("manifest-form");
      if (form) {
        ev.preventDefault();
        if (form.requestSubmit) form.requestSubmit(); else form.submit();
      }
    }
  });

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest ? ev.target.closest(".line-link") : null;
    if (link) {
      ev.preventDefault();
      highlightLine(parseInt(link.dataset.line, 10));
      return;
    }
    var copy = ev.target.closest ? ev.target.closest("button.copy") : null;
    if (copy) {
      var source = document.querySelector(copy.dataset.copy);
      if (source && navigator.clipboard) {
        navigator.clipboard.writeText(source.textContent).then(function () {
          copy.classList.add("copied");
          window.setTimeout(function () { copy.classList.remove("copied"); }, 1200);
        });
      }
    }
  });

  document.addEventListener("change", function (ev) {
    if (ev.target && ev.target.matches && ev.target.matches("select[data-autosubmit]")) ev.target.form.submit();
  });

  document.addEventListener("DOMContentLoaded", syncGutter);
  document.addEventListener("htmx:afterSwap", syncGutter);
})();
