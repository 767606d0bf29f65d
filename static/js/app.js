// The index page as people use it: what-if on every change, nothing lost, failures shown.
// - What-if controls re-explain on each change (debounced by the form's trigger); focus and
//   caret stay where the person was when the result is swapped in.
// - The input (editor, version, what-if values) is kept in this browser (localStorage) and in
//   the address (#i=<deflated, base64url>), so a reload, a link or Back/Forward bring it back.
//   Nothing is sent anywhere that the person did not already explain.
// - Network errors and 4xx/5xx answers show a message in #page-alert.
// - Explain as you type (issue 25): a pause in typing explains the editor's text (debounced, at most
//   one request a second, none while the server asks to wait, none for a very large input); while
//   the text does not explain (half a line typed) the last picture that did stays, marked, with the
//   problems above it. "Explain as you type" can be switched off; then an edit marks the result out
//   of date, as before. Explain (or Ctrl+Enter) always shows the answer, problems and all.
// - The charts are laid out for the width of their panel: every request says it (tlw, layout.js).
// All text comes from the server (#page-messages), in the reader's language.
(function () {
  "use strict";

  var STORE_KEY = "explainer:input:v1", AUTO_KEY = "explainer:autoExplain:v1";
  var PREFIX = "#i=";
  var AUTO_DELAY = 700;         // ms of quiet after the last keystroke
  var AUTO_GAP = 1000;          // ms between two requests made while typing
  var AUTO_MAX_CHARS = 100000;  // a larger input is explained on request only
  var form, editor, messages = {};
  var lastExplained = null;     // JSON of the input the result on screen belongs to
  var pendingWhatif = null;     // what-if values for controls that the panel does not have yet
  var sending = null;           // { state, push } of the request in flight
  var noPushNext = false;
  var focusMemo = null;
  var autoTimer = null, lastAutoAt = 0, waitUntil = 0, autoBox = null;
  var keptGood = false;         // the result on screen is the last one that explained, not the text's

  function $(id) { return document.getElementById(id); }
  function versionField() { return form ? form.querySelector('select[name="version"]') : null; }
  function observedField() { return $("observed"); }     // what the cluster shows (kubectl's output)
  function whatIf() { return $("what-if"); }
  function format(text, params) {
    return String(text).replace(/\{(\w+)\}/g, function (m, k) { return k in params ? params[k] : m; });
  }

  // ---- the input as one value ------------------------------------------------------------
  function whatifValues() {
    var out = {}, panel = whatIf();
    if (!panel) return out;
    panel.querySelectorAll("input[name], select[name], textarea[name]").forEach(function (el) {
      if (el.type === "checkbox") { if (el.checked) out[el.name] = "on"; }
      else if (el.value !== "") out[el.name] = el.value;
    });
    if (pendingWhatif) Object.keys(pendingWhatif).forEach(function (k) { if (!(k in out)) out[k] = pendingWhatif[k]; });
    return out;
  }

  function currentState() {
    var v = versionField(), o = observedField();
    var state = { m: editor.value, v: v ? v.value : "", w: whatifValues() };
    if (o && o.value) state.o = o.value;
    return state;
  }
  // what the result on screen depends on, besides the what-if values
  function inputKey(state) { return JSON.stringify({ m: state.m, v: state.v, o: state.o || "" }); }

  var applying = false;          // applyState's own "input" event: text put back, not typed
  function applyState(state) {
    editor.value = state.m || "";
    applying = true;
    try {
      editor.dispatchEvent(new Event("input", { bubbles: true }));   // the gutter follows
    } finally { applying = false; }
    var v = versionField();
    if (v && state.v && Array.prototype.some.call(v.options, function (o) { return o.value === state.v; })) v.value = state.v;
    var seen = observedField();
    if (seen) {
      seen.value = state.o || "";
      if (state.o && seen.closest("details")) seen.closest("details").open = true;
    }
    var panel = whatIf(), w = state.w || {}, missing = {};
    if (panel) {
      panel.querySelectorAll("input[name], select[name], textarea[name]").forEach(function (el) {
        if (el.type === "checkbox") el.checked = w[el.name] === "on";
        else el.value = w[el.name] || (el.name === "debug_image" ? el.value : "");
      });
    }
    Object.keys(w).forEach(function (k) {
      if (!panel || !panel.querySelector('[name="' + CSS.escape(k) + '"]')) missing[k] = w[k];
    });
    pendingWhatif = Object.keys(missing).length ? missing : null;
  }

  function save() {
    var state = currentState();
    // "e": this input was explained, so a reload may explain it again; text only typed is
    // put back in the editor without being sent.
    state.e = lastExplained === inputKey(state);
    try { localStorage.setItem(STORE_KEY, JSON.stringify(state)); } catch (e) { /* private mode, full */ }
  }
  function stored() {
    try { var s = JSON.parse(localStorage.getItem(STORE_KEY) || "null"); return s && typeof s.m === "string" ? s : null; }
    catch (e) { return null; }
  }

  // ---- the input in the address: deflate-raw + base64url, as Mermaid Live does -------------
  function toBase64Url(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function fromBase64Url(text) {
    var b = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var out = new Uint8Array(b.length);
    for (var i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
    return out;
  }
  function pipe(bytes, stream) {
    return new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer()
      .then(function (buf) { return new Uint8Array(buf); });
  }
  function encodeState(state) {
    var json = new TextEncoder().encode(JSON.stringify(state));
    return pipe(json, new CompressionStream("deflate-raw")).then(toBase64Url);
  }
  // A few kilobytes of a link can inflate to gigabytes: the inflated bytes are read as they come and
  // reading stops past what the server would accept (issue 27); too large and damaged links say so.
  function tooLarge() { var e = new Error("too large"); e.tooLarge = true; return e; }
  function inflateBounded(bytes, limit) {
    var reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
    var chunks = [], size = 0;
    function next() {
      return reader.read().then(function (r) {
        if (r.done) {
          var out = new Uint8Array(size), at = 0;
          chunks.forEach(function (c) { out.set(c, at); at += c.length; });
          return out;
        }
        size += r.value.length;
        if (size > limit) { reader.cancel().catch(function () {}); throw tooLarge(); }
        chunks.push(r.value);
        return next();
      });
    }
    return next();
  }
  function decodeState(text) {
    var maxBytes = messages.urlMaxBytes || 1048576;
    return Promise.resolve().then(function () {      // a character that is not base64url fails here, not outside
      return inflateBounded(fromBase64Url(text), 2 * maxBytes + 65536);   // the input as JSON, escapes included
    }).then(function (bytes) {
      var state = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      if (!state || typeof state.m !== "string") throw new Error("no input");
      if (new TextEncoder().encode(state.m).length > maxBytes) throw tooLarge();
      return state;
    });
  }

  function note(id, text, action) {
    var el = $(id);
    if (!el) return;
    el.textContent = text || "";
    if (action) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "secondary"; b.textContent = action.label;
      b.addEventListener("click", action.run);
      el.appendChild(document.createTextNode(" "));
      el.appendChild(b);
    }
    el.hidden = !text;
  }

  // The address's fragment: "#i=<input>&t=<cursor time>" (the cursor's part is timeline.js's).
  function hashParams() {
    var out = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var eq = part.indexOf("=");
      if (eq > 0) out[part.slice(0, eq)] = part.slice(eq + 1);
    });
    return out;
  }
  function cursorPart() {
    var p = hashParams();
    return (p.t ? "&t=" + p.t : "") + (p.at ? "&at=" + p.at : "");
  }

  function record(state, push) {
    var entry = { explainer: true, input: state };
    return encodeState(state).then(function (enc) {
      var limit = messages.urlLimit || 24000;
      var url = location.pathname;
      if (enc.length <= limit) { url += PREFIX + enc + cursorPart(); note("link-note", ""); }
      else note("link-note", format(messages.urlTooLong, { size: enc.length.toLocaleString(), limit: limit.toLocaleString() }));
      if (push) history.pushState(entry, "", url); else history.replaceState(entry, "", url);
    }).catch(function () { /* no CompressionStream: the input is still kept in this browser */ });
  }

  function explain(opts) {
    if (opts && opts.auto) {      // its own event: nothing of it can leak into the next request
      htmx.trigger(form, "autoexplain");
      return;
    }
    noPushNext = !!(opts && opts.noPush);
    if (form.requestSubmit) form.requestSubmit(); else htmx.trigger(form, "submit");
  }

  // ---- explain as you type ----------------------------------------------------------------------------
  function autoOn() { return !autoBox || autoBox.checked; }
  function nowKey() { return inputKey(currentState()); }
  function scheduleAuto() {
    clearTimeout(autoTimer);
    if (!autoOn() || !editor.value.trim() || editor.value.length > AUTO_MAX_CHARS) return;
    var now = Date.now();
    var wait = Math.max(AUTO_DELAY, lastAutoAt + AUTO_GAP - now, waitUntil - now);
    autoTimer = setTimeout(function () {
      if (nowKey() === lastExplained || (sending && sending.key === nowKey())) { markStale(); return; }
      lastAutoAt = Date.now();
      explain({ noPush: true, auto: true });
    }, wait);
  }

  // ---- out of date, failures ----------------------------------------------------------------
  function hasResult() {
    var r = $("result");
    return !!(r && r.querySelector(".pod, .error-panel"));
  }
  // The result and the text: the same, being followed (typing, auto on), kept (the text does not
  // explain yet: the last picture that did stays), or out of date (auto off).
  function markStale() {
    var stale = hasResult() && lastExplained !== null && nowKey() !== lastExplained;
    var n = $("stale-note"), r = $("result"), t = $("stale-text");
    var kind = !stale ? "" : keptGood ? "kept" : autoOn() && editor.value.length <= AUTO_MAX_CHARS ? "typing" : "old";
    if (n) {
      n.hidden = !kind || kind === "typing";     // typing: the picture follows at the next pause, no note
      n.setAttribute("data-kind", kind);
      var button = n.querySelector("button");
      if (button) button.hidden = kind === "typing";
    }
    if (t && kind) t.textContent = kind === "kept" ? messages.keptGood : messages.outOfDate;
    if (r) {
      r.classList.toggle("stale", kind === "old" || kind === "kept");
      r.classList.toggle("following", kind === "typing");
    }
  }
  function explainedNow(state) {
    lastExplained = inputKey(state);
    keptGood = false;
    var draft = $("draft-problems");
    if (draft) { draft.innerHTML = ""; draft.hidden = true; }
    markStale();
  }

  // An answer to typing that explains nothing (its text is half written): its problems above, the
  // last picture that explained kept below, marked.
  function keepLastGood(html) {
    var doc = new DOMParser().parseFromString("<div>" + html + "</div>", "text/html");
    var fresh = doc.getElementById("result");
    if (!fresh || fresh.querySelector(".pod") || !hasPictures()) return false;
    var draft = $("draft-problems");
    if (!draft) return false;
    draft.innerHTML = "";
    fresh.querySelectorAll(".error-panel, .nothing, .warning-panel").forEach(function (el) {
      draft.appendChild(document.importNode(el, true));
    });
    draft.querySelectorAll("[role=alert]").forEach(function (el) { el.setAttribute("role", "status"); });
    draft.hidden = !draft.childNodes.length;
    keptGood = true;
    markStale();
    document.dispatchEvent(new CustomEvent("explainer:problems"));   // the editor's gutter marks their lines
    return true;
  }
  function hasPictures() {
    var r = $("result");
    return !!(r && r.querySelector(".pod"));
  }

  function showAlert(text) {
    var a = $("page-alert");
    if (!a) return;
    a.textContent = text;
    a.hidden = !text;
  }
  function failure(xhr) {
    var status = xhr ? xhr.status : 0;
    if (!status) return messages.network;
    if (status === 413) return messages.tooLarge;
    if (status === 429) {
      var after = parseInt(xhr.getResponseHeader("Retry-After") || "", 10);
      return isNaN(after) ? messages.rateLimitedLater : format(messages.rateLimited, { seconds: after });
    }
    var said = xhr.getResponseHeader("X-Explainer-Message");   // the server says what happened (a full disk, ...)
    if (said && status >= 500) {
      try { return decodeURIComponent(said); } catch (e) { /* a cut header: the general message */ }
    }
    if (status >= 500) return format(messages.server, { status: status });
    return format(messages.refused, { status: status });
  }

  // ---- focus and caret across the what-if panel's swap ----------------------------------------
  function rememberFocus() {
    var el = document.activeElement, panel = whatIf();
    var values = {};
    if (panel) panel.querySelectorAll("input[name], select[name]").forEach(function (c) {
      values[c.name] = c.type === "checkbox" ? c.checked : c.value;
    });
    focusMemo = { values: values };
    if (el && panel && panel.contains(el) && el.name) {
      focusMemo.name = el.name;
      focusMemo.element = el;
      try { focusMemo.start = el.selectionStart; focusMemo.end = el.selectionEnd; } catch (e) { /* number inputs */ }
    }
  }
  function restoreFocus() {
    var memo = focusMemo, panel = whatIf();
    focusMemo = null;
    if (!memo || !panel) return;
    panel.querySelectorAll("input[name], select[name]").forEach(function (c) {   // typed while the answer came
      if (!(c.name in memo.values)) return;
      if (c.type === "checkbox") c.checked = memo.values[c.name]; else c.value = memo.values[c.name];
    });
    if (!memo.name) return;
    var el = panel.querySelector('[name="' + CSS.escape(memo.name) + '"]');
    if (!el) return;
    // The field the person is typing in is put back itself (same control, value as typed):
    // it keeps its caret, which a number field does not let a script read or set.
    var old = memo.element, kept = false;
    if (old && old !== el && old.tagName === "INPUT" && el.tagName === "INPUT" && old.type === el.type) {
      el.replaceWith(old);
      el = old;
      kept = true;
    }
    var details = el.closest("details");
    if (details) details.open = true;
    if (document.activeElement === el) return;
    el.focus({ preventScroll: true });
    if (!kept && memo.start != null) { try { el.setSelectionRange(memo.start, memo.end); } catch (e) { /* not text */ } }
  }

  // ---- wiring -----------------------------------------------------------------------------
  // Text put back (a reload, Undo, the address) is explained only where its caller says so: text that was
  // only typed comes back without being sent.
  function onEditorChange() { save(); markStale(); if (!applying) scheduleAuto(); }

  function autoSwitch() {
    var box = $("auto-explain");
    if (!box) return;
    var saved = null;
    try { saved = localStorage.getItem(AUTO_KEY); } catch (e) { /* private mode */ }
    box.checked = saved !== "0";
    box.addEventListener("change", function () {
      try { localStorage.setItem(AUTO_KEY, box.checked ? "1" : "0"); } catch (e) { /* private mode */ }
      markStale();
      if (box.checked) scheduleAuto(); else clearTimeout(autoTimer);
    });
    autoBox = box;
  }

  function init() {
    form = $("manifest-form");
    editor = $("manifest");
    if (!form || !editor || !window.htmx) return;
    var data = $("page-messages");
    if (data) { try { messages = JSON.parse(data.dataset.messages); } catch (e) { messages = {}; } }
    autoSwitch();
    document.addEventListener("explainer:refit", function () { explain({ noPush: true, auto: true }); });
    window.explainerAppReady = true;      // layout.js may ask for charts laid out for their panels

    form.addEventListener("input", function (ev) {
      var panel = whatIf();
      if (panel && panel.contains(ev.target)) {
        if (ev.target.tagName !== "TEXTAREA") htmx.trigger(form, "whatif");
        save();
      } else onEditorChange();
    });
    form.addEventListener("change", function (ev) {
      var panel = whatIf();
      if (panel && panel.contains(ev.target)) { htmx.trigger(form, "whatif"); save(); }
      else if (ev.target !== editor && ev.target !== autoBox) onEditorChange();   // the editor's own: "input"
    });

    document.body.addEventListener("htmx:configRequest", function (ev) {
      if (ev.detail.elt !== form) return;
      var params = ev.detail.parameters;
      if (pendingWhatif) {
        Object.keys(pendingWhatif).forEach(function (k) { if (!(k in params)) params[k] = pendingWhatif[k]; });
      }
      var trigger = ev.detail.triggeringEvent;
      var width = window.explainerPanelWidth ? window.explainerPanelWidth() : 0;
      if (width) params.tlw = String(width);
      var auto = !!(trigger && trigger.type === "autoexplain");
      sending = { state: currentState(), push: !auto && !noPushNext && !(trigger && trigger.type === "whatif"),
                  auto: auto, key: nowKey(),
                  // "Make the prediction match": the server writes the scenario and empties the controls
                  match: params.match != null && params.match !== "" };
      noPushNext = false;
      if (!sending.auto) clearTimeout(autoTimer);     // Explain now: no typing request after it
    });
    document.body.addEventListener("htmx:beforeSwap", function (ev) {
      if (!ev.detail.requestConfig || ev.detail.requestConfig.elt !== form) return;
      if (ev.detail.xhr && ev.detail.xhr.status === 200 && sending && sending.auto &&
          keepLastGood(ev.detail.serverResponse)) {
        ev.detail.shouldSwap = false;
        return;
      }
      keptGood = false;
      if (!(sending && sending.match)) rememberFocus();
    });
    document.body.addEventListener("htmx:afterSwap", function () {
      if (focusMemo) restoreFocus();
    });
    document.body.addEventListener("htmx:afterRequest", function (ev) {
      var elt = ev.detail.elt;
      if (ev.detail.successful) {
        showAlert("");
        if (elt === form && sending) {
          // On a phone the result is below the editor: bring it into view after Explain
          // (not after a what-if change, where the person is still at the controls, nor while typing).
          if (sending.push && !sending.auto && window.matchMedia("(max-width: 700px)").matches) {
            var result = $("result");
            if (result) result.scrollIntoView({ block: "start" });
          }
          pendingWhatif = null;
          if (keptGood) {            // the text's problems are shown; the picture is the last good one's
            save();
          } else {
            var state = sending.match ? currentState() : sending.state;   // the written scenario is the input now
            explainedNow(state);
            save();
            record(state, sending.push);
          }
          sending = null;
        }
      }
    });
    document.body.addEventListener("htmx:responseError", function (ev) {
      var xhr = ev.detail.xhr;
      if (xhr && xhr.status === 429) {           // no typing request until the server says
        var after = parseInt(xhr.getResponseHeader("Retry-After") || "", 10);
        waitUntil = Date.now() + (isNaN(after) ? 60 : after) * 1000;
      }
      if (sending && sending.auto) sending = null;
      showAlert(failure(xhr));
    });
    document.body.addEventListener("htmx:sendError", function () { showAlert(messages.network); });
    document.body.addEventListener("htmx:timeout", function () { showAlert(messages.timeout); });

    window.addEventListener("popstate", function (ev) {
      var state = ev.state && ev.state.explainer ? ev.state.input : null;
      if (state) { applyState(state); explain({ noPush: true }); return; }
      if (location.hash.indexOf(PREFIX) === 0) fromAddress();
    });

    // An example (a page load) over edited text: keep the text in this entry's address first.
    document.addEventListener("click", function (ev) {
      var link = ev.target.closest ? ev.target.closest("a.example, a.example-link") : null;
      if (!link || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      if (!editor.value.trim()) return;
      ev.preventDefault();
      save();
      record(currentState(), false).then(function () { location.href = link.href; });
    });

    start();
  }

  function isReload() {
    var nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    return !!nav && nav.type === "reload";
  }

  function fromAddress() {
    return decodeState(hashParams().i || "").then(function (state) {
      applyState(state);
      explain({ noPush: true });
    }).catch(function (err) {
      showAlert(err && err.tooLarge ? format(messages.urlTooLarge, { limit: (messages.urlMaxBytes || 1048576).toLocaleString() })
                                    : messages.urlUnreadable);
    });
  }

  function start() {
    var query = new URLSearchParams(location.search);
    var previous = stored();
    if (location.hash.indexOf(PREFIX) === 0) {
      // A reload brings back what this browser kept last: the address is written a moment after
      // each change (compression is asynchronous), so it may be one change behind.
      if (isReload() && previous && previous.m.trim()) {
        applyState(previous);
        if (previous.e) explain({ noPush: true });
        return;
      }
      fromAddress();
      return;
    }
    if (query.has("example") || query.has("from")) {
      // The server filled the editor; what the person had before can come back.
      var state = currentState();
      explainedNow(state);
      if (previous && previous.m.trim() && previous.m !== state.m) {
        note("restore-note", messages.exampleLoaded, { label: messages.undo, run: function () {
          applyState(previous);
          note("restore-note", messages.undone);
          explain();
        } });
      }
      save();
      history.replaceState({ explainer: true, input: state }, "", location.href);
      // An example opened from an address without "#result" (a shared link): on a phone, where the result
      // is below the editor, bring it into view as the gallery's links do (not on a reload: the browser
      // puts the reader back where they were).
      if (query.has("example") && !location.hash && !isReload() && hasResult() &&
          window.matchMedia("(max-width: 700px)").matches) {
        $("result").scrollIntoView({ block: "start" });
      }
      return;
    }
    if (!editor.value.trim() && previous && previous.m.trim()) {
      applyState(previous);
      note("restore-note", messages.restored);
      if (previous.e) explain({ noPush: true });
    } else if (hasResult()) {
      explainedNow(currentState());
    }
  }

  // After htmx has processed the page (it starts on DOMContentLoaded too, and its script runs
  // first), so that a restored input is explained through htmx, not by a full form post.
  if (document.readyState === "complete") init();
  else document.addEventListener("DOMContentLoaded", init);
})();
