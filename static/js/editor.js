// The editor's line numbers (with markers on lines that have errors), Tab to indent, Ctrl/Cmd+Enter,
// line links and copy buttons, and lines marked from the picture (window.explainerEditor, source.js).
// No keyboard trap (WCAG 2.1.2, issue 25): Tab moves on, as anywhere, until the person types in the
// editor (a key that edits, a paste, or a click in the text); from then on Tab indents, and the way
// out is shown and announced: Esc, then Tab. Leaving the editor ends it.
// Plain script, no inline handlers: the Content-Security-Policy forbids inline scripts.
(function () {
  "use strict";

  document.documentElement.classList.remove("no-js");

  function lineCount(text) {
    var n = 1;
    for (var i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
    return n;
  }

  // Lines the result names as wrong: error panels and rejected Pods (their line links), and the
  // problems of a text typed since the last result (#draft-problems, app.js).
  function errorLines() {
    var marked = {};
    document.querySelectorAll("#result .error-panel [data-line], #result .rejected [data-line], " +
                              "#draft-problems [data-line]").forEach(function (a) {
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
    placeMarks();
  }

  // ---- Tab: moves on until the person types; then indents, with Esc then Tab as the way out ----------
  var typing = false;      // the person is typing in the editor: Tab indents
  var pointerIn = false;   // the focus came with a click or a tap in the text

  function keysNote(text) {
    var note = document.getElementById("editor-keys");
    if (!note) return;
    if (note.textContent !== text) note.textContent = text;
  }
  function keysText(name) {
    var note = document.getElementById("editor-keys");
    return note ? note.getAttribute("data-" + name) || "" : "";
  }
  function startTyping() {
    if (typing) return;
    typing = true;
    keysNote(keysText("typing"));
  }
  function stopTyping(left) {
    typing = false;
    // leaving: the note is hidden with the focus (CSS), its text kept, so that nothing under it moves
    // between the press and the release of a click elsewhere
    if (!left) keysNote(keysText("leaving"));
  }

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
    if (ev.key === "Escape") { if (typing) stopTyping(false); return; }
    if (ev.key !== "Tab" || ev.ctrlKey || ev.altKey || ev.metaKey) return;
    if (!typing) return;            // the browser moves focus on: no edit from Tab alone
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
    if (ev.target && ev.target.id === "manifest") {
      if (ev.isTrusted) startTyping();       // typed or pasted (not our own events: an indent, a restore)
      syncGutter();
    }
  });
  document.addEventListener("pointerdown", function (ev) {
    if (ev.target && ev.target.id === "manifest") pointerIn = true;
  });
  document.addEventListener("focusin", function (ev) {
    if (!ev.target || ev.target.id !== "manifest") return;
    if (pointerIn) startTyping();            // clicked into the text: as good as typing
    else keysNote(keysText("entering"));     // came with Tab: say how Tab behaves here
    pointerIn = false;
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
  document.addEventListener("explainer:problems", syncGutter);
  document.addEventListener("focusout", function (ev) {
    if (ev.target && ev.target.id === "manifest") { stopTyping(true); pointerIn = false; }
  });

  // ---- lines marked from the picture (source.js): a band over them, scrolled into view --------------
  var marked = null;       // [[first, last], ...]

  function lineHeight(area) {
    return parseFloat(window.getComputedStyle(area).lineHeight) || 18;
  }
  function placeMarks() {
    var area = document.getElementById("manifest");
    var box = document.getElementById("editor-marks");
    if (!area || !box) return;
    box.textContent = "";
    if (!marked) return;
    var style = window.getComputedStyle(area), lh = lineHeight(area);
    var top = area.offsetTop + parseFloat(style.paddingTop) - area.scrollTop;
    marked.forEach(function (r) {
      var band = document.createElement("div");
      band.className = "editor-mark";
      band.style.top = (top + (r[0] - 1) * lh) + "px";
      band.style.height = ((r[1] - r[0] + 1) * lh) + "px";
      box.appendChild(band);
    });
  }
  // The block a line opens: the line and those under it indented further (a container's "- name:"
  // and its fields; a field and what it holds), trailing blank and comment lines left out.
  function blockOf(line, lines) {
    var text = lines[line - 1];
    if (text == null) return null;
    var indent = text.length - text.replace(/^\s+/, "").length;
    var last = line;
    for (var i = line; i < lines.length && i < line + 400; i++) {
      var l = lines[i], t = l.trim();
      if (!t || t.charAt(0) === "#") continue;
      var ind = l.length - l.replace(/^\s+/, "").length;
      if (ind <= indent) {
        if (ind === indent && /^[}\]]/.test(t)) last = i + 1;    // a JSON object's closing bracket
        break;
      }
      last = i + 1;
    }
    return [line, last];
  }
  function mark(lines) {
    var area = document.getElementById("manifest");
    if (!area || !lines || !lines.length) { unmark(); return; }
    var text = area.value.split("\n");
    marked = lines.map(function (n) { return blockOf(n, text); }).filter(Boolean);
    if (!marked.length) { marked = null; return; }
    placeMarks();
    var lh = lineHeight(area), first = marked[0][0], last = marked[0][1];
    var top = (first - 1) * lh, bottom = last * lh;
    if (top < area.scrollTop || bottom > area.scrollTop + area.clientHeight) {   // into view, focus untouched
      area.scrollTop = Math.max(0, top - Math.max(lh * 2, (area.clientHeight - (bottom - top)) / 3));
      syncGutter();
    }
  }
  function unmark() {
    marked = null;
    placeMarks();
  }
  function caretLine() {
    var area = document.getElementById("manifest");
    if (!area) return 0;
    return area.value.slice(0, area.selectionStart).split("\n").length;
  }
  window.explainerEditor = { mark: mark, unmark: unmark, blockOf: function (line) {
    var area = document.getElementById("manifest");
    return area ? blockOf(line, area.value.split("\n")) : null;
  }, caretLine: caretLine };
})();
