// "Apply fix": the server patches the editor's text (POST web:fix), this script only swaps the
// editor's text, keeps the previous one for Undo, and explains again. No inline handlers (CSP).
(function () {
  "use strict";

  var history = [];   // the editor's texts before each applied fix, newest last

  function editor() { return document.getElementById("manifest"); }
  function form() { return document.getElementById("manifest-form"); }

  // The buttons come hidden: they work only beside the editor, and only with this script.
  function reveal() {
    if (!editor() || !form()) return;
    var buttons = document.querySelectorAll("button.apply-fix[hidden]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
  }

  function explainAgain() {
    var f = form();
    if (f.requestSubmit) f.requestSubmit(); else f.submit();
  }

  function setText(text) {
    var area = editor();
    area.value = text;
    area.dispatchEvent(new Event("input", { bubbles: true }));   // the gutter follows
  }

  function undoButton(label) {
    var button = document.getElementById("undo-fix");
    if (!button && label) {
      button = document.createElement("button");
      button.type = "button";
      button.id = "undo-fix";
      button.className = "secondary";
      button.textContent = label;
      var explain = document.getElementById("explain");
      var anchor = explain || editor();
      anchor.parentNode.insertBefore(button, anchor.nextSibling);
    }
    if (button) button.hidden = history.length === 0;
    return button;
  }

  function showError(button, message) {
    var note = button.parentNode.querySelector(".fix-error");
    if (!note) {
      note = document.createElement("span");
      note.className = "fix-error";
      note.setAttribute("role", "alert");
      button.parentNode.appendChild(note);
    }
    note.textContent = message;
  }

  function apply(button) {
    var data = new FormData(form());
    data.set("manifest", editor().value);
    data.set("rule", button.dataset.rule);
    data.set("container", button.dataset.container || "");
    data.set("line", button.dataset.line || "");
    button.disabled = true;
    fetch(button.dataset.url, { method: "POST", body: data, credentials: "same-origin",
                                headers: { "Accept": "application/json" } })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (answer) {
        button.disabled = false;
        if (!answer.ok) { showError(button, answer.body.error || String(answer.body)); return; }
        history.push(editor().value);
        setText(answer.body.manifest);
        undoButton(button.dataset.undoLabel);
        explainAgain();
      })
      .catch(function (err) { button.disabled = false; showError(button, String(err)); });
  }

  document.addEventListener("click", function (ev) {
    var target = ev.target.closest ? ev.target : null;
    if (!target) return;
    var fix = target.closest("button.apply-fix");
    if (fix) { ev.preventDefault(); apply(fix); return; }
    if (target.closest("#undo-fix")) {
      ev.preventDefault();
      if (!history.length) return;
      setText(history.pop());
      undoButton();
      explainAgain();
    }
  });

  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSwap", reveal);
})();
