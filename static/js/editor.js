// The editor's line numbers (with markers on lines that have errors), Tab to indent (Esc then
// Tab leaves the field, as in code editors), Ctrl/Cmd+Enter, line links and copy buttons.
// Plain script, no inline handlers: the Content-Security-Policy forbids inline scripts.
(function () {
  "use strict";

  document.documentElement.classList.remove("no-js");

  function lineCount(text) {
    var n = 1;
    for (var i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
    return n;
  }

  // Lines the result names as wrong: error panels and rejected Pods (their line links).
  function errorLines() {
    var marked = {};
    document.querySelectorAll("#result .error-panel [data-line], #result .rejected [data-line]").forEach(function (a) {
      marked[a.dataset.line] = true;
    });
    return marked;
  }

  function syncGutter() {
    var area = document.getElementById("manifest");
    var gutter = document.getElementById("gutter");
    if (!area || !gutter) return;
    var n = lineCount(area.value);
    var marked = errorLines();
    var key = n + ":" + Object.keys(marked).join(",");
    if (gutter.dataset.lines !== key) {
      var out = [];
      for (var i = 1; i <= n; i++) out.push(marked[i] ? '<span class="err">' + i + "</span>" : String(i));
      gutter.innerHTML = out.join("\n");
      gutter.dataset.lines = key;
    }
    gutter.scrollTop = area.scrollTop;
  }

  var tabLeaves = false;   // Esc was pressed: the next Tab moves focus on

  function indent(area, outdent) {
    var value = area.value, start = area.selectionStart, end = area.selectionEnd;
    if (start === end && !outdent) {   // execCommand keeps the browser's undo history
      if (!(document.execCommand && document.execCommand("insertText", false, "  "))) area.setRangeText("  ", start, end, "end");
      return;
    }
    var lineStart = value.lastIndexOf("\n", start - 1) + 1;
    var block = value.slice(lineStart, end);
    var lines = block.split("\n");
    var changed = lines.map(function (l) { return outdent ? l.replace(/^ {1,2}/, "") : "  " + l; }).join("\n");
    area.setRangeText(changed, lineStart, end, "preserve");
    var first = outdent ? -(lines[0].length - lines[0].replace(/^ {1,2}/, "").length) : 2;
    area.setSelectionRange(Math.max(lineStart, start + first), end + changed.length - block.length);
  }

  function onEditorKey(ev) {
    var area = ev.target;
    if (ev.key === "Escape") { tabLeaves = true; return; }
    if (ev.key !== "Tab" || ev.ctrlKey || ev.altKey || ev.metaKey) { tabLeaves = false; return; }
    if (tabLeaves) { tabLeaves = false; return; }   // the browser moves focus on
    ev.preventDefault();
    indent(area, ev.shiftKey);
    area.dispatchEvent(new Event("input", { bubbles: true }));
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
    if (ev.target && ev.target.id === "manifest") onEditorKey(ev);
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
  document.addEventListener("focusout", function (ev) { if (ev.target && ev.target.id === "manifest") tabLeaves = false; });
})();
