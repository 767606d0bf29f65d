/* The timeline as an instrument: a time cursor (an ARIA slider), the state at the cursor, the
   story and the sharing diagram in step, play, zoom and a presentation mode.
   The cursor's time goes into the address ("#t=60"; "&at=<id>" for a chart other than the page's
   first) and comes back from it on load, so a trainer can share "look at 60 s". A zoom keeps the
   cursor in view and never cuts a label at the edge of the plot (issue 25).
   The server-rendered SVG stays the picture; the data comes from the page's JSON block
   (a data-tl attribute holding JSON, never executed), made from the same trace the SVG draws. */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";

  function fmt(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; });
  }
  function secs(t) { return String(Math.round(t * 1000) / 1000); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) { e.setAttribute(k, attrs[k]); }
    if (text != null) { e.textContent = text; }
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs || {}) { e.setAttribute(k, attrs[k]); }
    return e;
  }
  function num(e, name) { return parseFloat(e.getAttribute(name)); }

  function Timeline(section) {
    this.section = section;
    this.data = JSON.parse(section.getAttribute("data-tl"));
    this.text = this.data.text;
    this.holder = section.querySelector(".timeline");
    this.anchor = this.holder.closest(".tl-fit") || this.holder;   // the picture's box in its section
    this.svg = this.holder.querySelector("svg");
    var id = section.getAttribute("data-timeline");
    this.story = document.querySelector('[data-story="' + id + '"]');
    this.diagram = document.querySelector('[data-diagram="' + id + '"]');
    this.t = 0;
    this.step = -1;
    this.view = null;            // null: the server's fitted axis; else [t0, t1] zoomed, linear
    this.timer = null;
    this.build();
  }

  Timeline.prototype.build = function () {
    var self = this, T = this.text, svg = this.svg;
    section_class(this.section);
    var vb = svg.viewBox.baseVal;
    this.width = vb.width;
    // the geometry of the chart, from the server's drawing
    var lanes = svg.querySelectorAll(".tl-lane-label");
    var strip = svg.querySelector(".tl-strip .tl-item rect");
    this.top = strip ? num(strip, "y") - 2 : 0;
    var lastLane = lanes.length ? lanes[lanes.length - 1].querySelector("rect") : null;
    // a lane's observed row (what the cluster shows) is under it: data-obs is its height
    var under = lanes.length ? parseFloat(lanes[lanes.length - 1].getAttribute("data-obs") || "0") : 0;
    this.bottom = lastLane ? num(lastLane, "y") + num(lastLane, "height") + 5 + under : vb.height;
    var grid = svg.querySelector(".tl-axes .tl-axis");
    this.axisTexts = Array.prototype.slice.call(svg.querySelectorAll(".tl-axes text[text-anchor=middle]"));
    this.axisYs = [];
    this.axisTexts.forEach(function (t) {
      var y = num(t, "y");
      if (self.axisYs.indexOf(y) < 0) { self.axisYs.push(y); }
    });
    this.items = Array.prototype.slice.call(svg.querySelectorAll(".tl-item"));
    this.items.forEach(function (g) {
      g.querySelectorAll("rect, text").forEach(function (r) {
        r.setAttribute("data-x", r.getAttribute("x"));
        if (r.hasAttribute("width")) { r.setAttribute("data-w", r.getAttribute("width")); }
      });
    });
    // the cursor: a line over every lane, and its time above the strip
    this.cursorG = svgEl("g", {"class": "tl-cursor", "aria-hidden": "true"});
    this.cursorLine = svgEl("line", {"class": "tl-cursor-line", y1: this.top, y2: this.bottom});
    var stripName = svg.querySelector(".tl-strip-name");   // stacked: the strip's names on rows above it
    var above = strip && stripName && num(stripName, "y") < num(strip, "y") ? 15 : 0;
    this.cursorLabel = svgEl("text", {"class": "tl-cursor-text", y: this.top - 3 - above, "text-anchor": "middle"});
    this.cursorG.appendChild(this.cursorLine);
    this.cursorG.appendChild(this.cursorLabel);
    this.zoomTicks = svgEl("g", {"class": "tl-zoom-ticks"});
    svg.appendChild(this.zoomTicks);
    this.band = svgEl("rect", {"class": "tl-range", y: this.top, height: this.bottom - this.top, width: 0});
    svg.appendChild(this.band);
    svg.appendChild(this.cursorG);

    // the controls
    var bar = el("div", {"class": "tl-toolbar", role: "toolbar", "aria-label": T.cursor});
    this.playBtn = el("button", {type: "button", "class": "secondary tl-play", "aria-pressed": "false"}, T.play);
    this.speed = el("select", {"class": "tl-speed", "aria-label": T.speed});
    [["step", T.perEvent], ["1", T.realTime], ["10", T.realTime10]].forEach(function (o) {
      self.speed.appendChild(el("option", {value: o[0]}, o[1]));
    });
    var zin = el("button", {type: "button", "class": "secondary", title: T.zoomIn, "aria-label": T.zoomIn}, "+");
    var zout = el("button", {type: "button", "class": "secondary", title: T.zoomOut, "aria-label": T.zoomOut}, "−");
    this.resetBtn = el("button", {type: "button", "class": "secondary tl-reset"}, T.reset);
    this.presentBtn = el("button", {type: "button", "class": "secondary tl-present-btn", "aria-pressed": "false"},
                         T.present);
    [this.playBtn, this.speed, zin, zout, this.resetBtn, this.presentBtn].forEach(function (b) { bar.appendChild(b); });
    this.anchor.parentNode.insertBefore(bar, this.anchor);

    // the slider: a track under the plot, as wide as the plot
    this.slider = el("div", {"class": "tl-slider", role: "slider", tabindex: "0", "aria-label": T.cursor,
                             "aria-valuemin": "0", "aria-valuemax": secs(this.data.end), "aria-orientation": "horizontal"});
    this.thumb = el("span", {"class": "tl-thumb", "aria-hidden": "true"});
    this.slider.appendChild(this.thumb);
    var left = this.data.plotX / this.width * 100, w = this.data.plotWidth / this.width * 100;
    this.slider.style.marginLeft = left + "%";
    this.slider.style.width = w + "%";
    this.anchor.parentNode.insertBefore(this.slider, this.anchor.nextSibling);
    var touch = window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches;
    var help = el("p", {"class": "tl-help muted"}, touch && T.helpTouch ? T.helpTouch : T.help);
    this.slider.parentNode.insertBefore(help, this.slider.nextSibling);
    this.panel = el("div", {"class": "tl-state", "aria-live": "polite", role: "status"});
    help.parentNode.insertBefore(this.panel, help.nextSibling);
    this.presentStep = el("p", {"class": "tl-present-step", "aria-hidden": "true"});
    this.section.appendChild(this.presentStep);
    this.tip = el("div", {"class": "tl-tip", role: "tooltip", hidden: ""});
    this.section.appendChild(this.tip);

    this.playBtn.addEventListener("click", function () { self.toggle(); });
    zin.addEventListener("click", function () { self.zoom(0.5); });
    zout.addEventListener("click", function () { self.zoom(2); });
    this.resetBtn.addEventListener("click", function () { self.setView(null); });
    this.presentBtn.addEventListener("click", function () { self.present(!self.presenting); });
    this.slider.addEventListener("keydown", function (e) { self.key(e); });
    this.section.addEventListener("keydown", function (e) {
      if (e.target === self.slider) { return; }
      if (e.key === "+" || e.key === "=" || e.key === "-" || e.key === "−") { self.key(e); }
    });
    this.pointer(this.svg, true);
    this.pointer(this.slider, false);
    this.svg.addEventListener("wheel", function (e) {
      if (!e.ctrlKey && !e.metaKey) { return; }          // plain wheel scrolls the page; Ctrl+wheel and pinch zoom
      e.preventDefault();
      self.zoom(e.deltaY > 0 ? 1.25 : 0.8, self.timeAt(e.clientX));
    }, {passive: false});
    this.tooltips();
    this.storySteps();
    this.groups();
    var asked = fromAddress(this);
    this.setCursor(asked != null ? asked : 0, -1, true);
  };

  function section_class(section) { section.classList.add("tl-live"); }

  // ---- time <-> x ------------------------------------------------------------------------------
  Timeline.prototype.xOf = function (t) {
    var d = this.data;
    if (this.view) {
      var a = this.view[0], b = this.view[1];
      return d.plotX + (t - a) / (b - a) * d.plotWidth;
    }
    var k = d.knots;
    t = Math.min(Math.max(t, 0), d.end);
    for (var i = 1; i < k.length; i++) {
      if (t <= k[i][0]) {
        var span = k[i][0] - k[i - 1][0];
        return k[i - 1][1] + (span > 0 ? (t - k[i - 1][0]) / span : 0) * (k[i][1] - k[i - 1][1]);
      }
    }
    return k[k.length - 1][1];
  };
  Timeline.prototype.tOfX = function (x) {
    var d = this.data;
    if (this.view) {
      return this.view[0] + (x - d.plotX) / d.plotWidth * (this.view[1] - this.view[0]);
    }
    var k = d.knots;
    if (x <= k[0][1]) { return 0; }
    for (var i = 1; i < k.length; i++) {
      if (x <= k[i][1]) {
        var span = k[i][1] - k[i - 1][1];
        return k[i - 1][0] + (span > 0 ? (x - k[i - 1][1]) / span : 0) * (k[i][0] - k[i - 1][0]);
      }
    }
    return d.end;
  };
  Timeline.prototype.svgX = function (clientX) {
    var r = this.svg.getBoundingClientRect();
    return (clientX - r.left) / r.width * this.width;
  };
  Timeline.prototype.timeAt = function (clientX) {
    return Math.min(Math.max(this.tOfX(this.svgX(clientX)), 0), this.data.end);
  };
  Timeline.prototype.timeOnSlider = function (clientX) {
    var r = this.slider.getBoundingClientRect();
    var x = this.data.plotX + (clientX - r.left) / r.width * this.data.plotWidth;
    return Math.min(Math.max(this.tOfX(x), 0), this.data.end);
  };

  // ---- the cursor --------------------------------------------------------------------------------
  Timeline.prototype.frameAt = function (t) {
    var f = this.data.frames, out = f[0];
    for (var i = 0; i < f.length && f[i].t <= t + 1e-9; i++) { out = f[i]; }
    return out;
  };
  Timeline.prototype.setCursor = function (t, step, quiet) {
    var d = this.data;
    t = Math.round(Math.min(Math.max(t, 0), d.end) * 1000) / 1000;
    this.t = t;
    var x = this.xOf(t);
    var shown = x >= d.plotX - 0.5 && x <= d.plotX + d.plotWidth + 0.5;
    this.cursorG.style.display = shown ? "" : "none";
    this.cursorLine.setAttribute("x1", x);
    this.cursorLine.setAttribute("x2", x);
    this.placeCursorLabel(x, t);
    this.thumb.style.left = ((x - d.plotX) / d.plotWidth * 100) + "%";
    var frame = this.frameAt(t);
    this.slider.setAttribute("aria-valuenow", secs(t));
    this.slider.setAttribute("aria-valuetext", fmt(this.text.at, {t: secs(t), state: frame.text}));
    this.renderPanel(frame, t);
    this.followStory(t, step);
    this.dimDiagram(frame, t);
    if (!quiet) { this.highlight(null); toAddress(this); }
  };

  // The cursor's time sits above the strip, where the Pod-level guides have their labels ("Pod
  // deleted"): at a guide's own time the two say one thing ("30 s · Pod deleted"); near one, the
  // time moves aside (beside the line, else just past that label); it never leaves the picture.
  Timeline.prototype.placeCursorLabel = function (x, t) {
    var label = this.cursorLabel, svgBox = this.svg.getBoundingClientRect();
    var texts = Array.prototype.slice.call(this.svg.querySelectorAll(".tl-guides .tl-item"))
      .filter(function (g) { return g.style.display !== "none" && g.querySelector("text"); });
    var same = [], others = [];
    texts.forEach(function (g) {
      var tx = g.querySelector("text");
      tx.style.visibility = "";
      (Math.abs(num(g, "data-t") - t) < 1e-6 ? same : others).push(tx);
    });
    var text = secs(t) + " s";
    same.forEach(function (tx) { text += " · " + tx.textContent; tx.style.visibility = "hidden"; });
    label.textContent = text;
    label.classList.toggle("tl-cursor-guide", same.length > 0);
    if (!svgBox.width) { label.setAttribute("text-anchor", "middle"); label.setAttribute("x", x); return; }
    function clash(r) {
      return others.some(function (tx) {
        var o = tx.getBoundingClientRect();
        return r.left < o.right + 2 && o.left < r.right + 2 && r.top < o.bottom && o.top < r.bottom;
      });
    }
    var self = this, tries = [["middle", x], ["end", x - 4], ["start", x + 4]], beside = [], fallback = null;
    others.forEach(function (tx) {          // else just past the label in the way, the nearer side first
      var o = tx.getBoundingClientRect();
      if (o.width) { beside.push(["start", self.svgX(o.right) + 4], ["end", self.svgX(o.left) - 4]); }
    });
    beside.sort(function (a, b) { return Math.abs(a[1] - x) - Math.abs(b[1] - x); });
    tries = tries.concat(beside);
    for (var i = 0; i < tries.length; i++) {
      label.setAttribute("text-anchor", tries[i][0]);
      label.setAttribute("x", tries[i][1]);
      var r = label.getBoundingClientRect();
      if (r.left < svgBox.left - 0.5 || r.right > svgBox.right + 0.5) { continue; }
      if (!clash(r)) { return; }
      if (fallback === null) { fallback = i; }
    }
    // no clear place: the cursor's time wins while it stands there, the guide's label steps aside
    label.setAttribute("text-anchor", tries[fallback || 0][0]);
    label.setAttribute("x", tries[fallback || 0][1]);
    var box = label.getBoundingClientRect();
    others.forEach(function (tx) {
      var o = tx.getBoundingClientRect();
      if (box.left < o.right + 2 && o.left < box.right + 2 && box.top < o.bottom && o.top < box.bottom) {
        tx.style.visibility = "hidden";
      }
    });
  };

  Timeline.prototype.renderPanel = function (frame, t) {
    var T = this.text, p = this.panel;
    p.textContent = "";
    p.appendChild(el("h4", {}, fmt(T.at, {t: secs(t), state: T.state})));
    var table = el("table", {"class": "tl-state-table"});
    var head = el("tr");
    [T.container, T.stateCol, T.restarts].forEach(function (h) { head.appendChild(el("th", {scope: "col"}, h)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    frame.containers.forEach(function (c) {
      var tr = el("tr", {"class": "tl-s-" + c.state});
      tr.appendChild(el("th", {scope: "row"}, c.name));
      var label = c.label;
      if (c.until != null && c.state === "backoff") { label += " → " + secs(c.until) + " s"; }
      var td = el("td");
      td.appendChild(el("span", {"class": "tl-swatch tl-sw-" + c.state, "aria-hidden": "true"}));
      td.appendChild(document.createTextNode(label));
      tr.appendChild(td);
      tr.appendChild(el("td", {}, String(c.restarts)));
      body.appendChild(tr);
    });
    p.appendChild(table);
    var pod = frame.pod || {}, facts = [];
    if (pod.phase) {
      facts = [[T.phase, pod.phase], [T.status, pod.status], [T.ready, pod.ready],
       [T.conditions, pod.conditions.map(function (c) { return c.type + "=" + (c.status ? "True" : "False"); }).join(", ")]];
    }
    facts = facts.concat(frame.facts || []);        // the traffic row's state; a rollout's counts
    if (facts.length) {
      var dl = el("dl", {"class": "tl-pod"});
      facts.forEach(function (kv) { dl.appendChild(el("dt", {}, kv[0])); dl.appendChild(el("dd", {}, kv[1])); });
      p.appendChild(dl);
    }
    var doing = el("ul", {"class": "tl-doing"});
    var items = frame.doing.length ? frame.doing : [{text: T.none}];
    if (items.length > 8) {            // a large Pod: what changes first, then how many more wait
      items = items.slice(0, 6).concat([{text: fmt(T.more, {n: items.length - 6})}]);
    }
    items.forEach(function (d) {
      var text = d.text;
      if (d.until != null) { text += ", " + fmt(T.left, {s: secs(Math.max(d.until - t, 0))}); }
      doing.appendChild(el("li", {}, text));
    });
    var k = el("div", {"class": "tl-kubelet"});
    k.appendChild(el("strong", {}, T.kubelet + ": "));
    k.appendChild(doing);
    p.appendChild(k);
  };

  Timeline.prototype.key = function (e) {
    var ev = this.data.events, t = this.t, next = null;
    switch (e.key) {
      case "ArrowRight": case "ArrowUp":
        next = e.shiftKey ? t + 1 : (ev.filter(function (x) { return x > t + 1e-9; })[0]);
        if (next == null) { next = this.data.end; }
        break;
      case "ArrowLeft": case "ArrowDown":
        next = e.shiftKey ? t - 1 : (ev.filter(function (x) { return x < t - 1e-9; }).pop());
        if (next == null) { next = 0; }
        break;
      case "Home": next = 0; break;
      case "End": next = this.data.end; break;
      case "PageUp": next = t + (this.data.end / 10); break;
      case "PageDown": next = t - (this.data.end / 10); break;
      case "+": case "=": this.zoom(0.5); e.preventDefault(); return;
      case "-": case "−": this.zoom(2); e.preventDefault(); return;
      case "0": this.setView(null); e.preventDefault(); return;
      default: return;
    }
    e.preventDefault();
    this.stop();
    this.setCursor(next, null);
  };

  Timeline.prototype.pointer = function (target, onSvg) {
    var self = this;
    target.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) { return; }
      var onAxis = onSvg && self.onAxis(e);
      var start = onSvg ? self.timeAt(e.clientX) : self.timeOnSlider(e.clientX);
      var dragged = false;
      self.stop();
      if (!onAxis) { self.setCursor(start, null); }
      target.setPointerCapture(e.pointerId);
      function move(m) {
        var t = onSvg ? self.timeAt(m.clientX) : self.timeOnSlider(m.clientX);
        if (onAxis) {
          dragged = dragged || Math.abs(t - start) > 0;
          var a = self.xOf(Math.min(t, start)), b = self.xOf(Math.max(t, start));
          self.band.setAttribute("x", a);
          self.band.setAttribute("width", Math.max(b - a, 0));
        } else {
          self.setCursor(t, null);
        }
      }
      function up(u) {
        target.removeEventListener("pointermove", move);
        target.removeEventListener("pointerup", up);
        self.band.setAttribute("width", 0);
        if (onAxis) {
          var t = self.timeAt(u.clientX);
          if (dragged && Math.abs(self.xOf(t) - self.xOf(start)) > 6) {
            var range = [Math.min(t, start), Math.max(t, start)];
            self.setView(range);
            if (self.t < range[0] || self.t > range[1]) {    // the chosen window: the cursor comes into it
              self.setCursor(Math.min(Math.max(self.t, range[0]), range[1]), null);
            }
          } else {
            self.setCursor(t, null);
          }
        }
        if (!onSvg) { self.slider.focus(); }
      }
      target.addEventListener("pointermove", move);
      target.addEventListener("pointerup", up);
      if (!onSvg) { e.preventDefault(); }
    });
  };
  Timeline.prototype.onAxis = function (e) {
    var r = this.svg.getBoundingClientRect(), y = (e.clientY - r.top) / r.height * this.svg.viewBox.baseVal.height;
    return this.axisYs.some(function (ay) { return y > ay - 14 && y < ay + 5; });
  };

  // ---- zoom: the axis is laid out again for the window, nothing is magnified ---------------------
  Timeline.prototype.zoom = function (factor, around) {
    var end = this.data.end, v = this.view || [0, end];
    var c = around != null ? around : (this.t >= v[0] && this.t <= v[1] ? this.t : (v[0] + v[1]) / 2);
    var span = Math.min(Math.max((v[1] - v[0]) * factor, Math.min(0.05, end)), end);
    // the moment at ``c`` keeps its place across the plot (under the mouse, for the wheel), also
    // when the first zoom leaves the fitted axis with its breaks for a linear one
    var a = c - (this.xOf(c) - this.data.plotX) / this.data.plotWidth * span;
    a = Math.min(Math.max(a, 0), end - span);
    // the cursor stays in the window: moved along with it, the window keeps the moment under the mouse
    // as long as it can
    var margin = span * 0.05;
    if (this.t < a + margin) { a = Math.max(this.t - margin, 0); }
    if (this.t > a + span - margin) { a = Math.min(this.t + margin, end) - span; }
    a = Math.min(Math.max(a, 0), end - span);
    this.setView(span >= end - 1e-9 ? null : [a, a + span]);
  };
  Timeline.prototype.setView = function (view) {
    this.view = view;
    this.section.classList.toggle("tl-zoomed", !!view);
    var self = this;
    this.items.forEach(function (g) { self.place(g); });
    this.ticks();
    this.slider.setAttribute("aria-valuemin", "0");
    this.setCursor(this.t, null, true);
  };
  Timeline.prototype.place = function (g) {
    var self = this;
    if (g.hasAttribute("data-steps")) {            // a step line (a rollout's counts): "t,y t,y …"
      var pts = g.getAttribute("data-steps").split(" ").map(function (p) { return p.split(",").map(parseFloat); });
      var d = "M" + this.xOf(pts[0][0]) + " " + pts[0][1];
      for (var i = 1; i < pts.length; i++) { d += "H" + this.xOf(pts[i][0]) + "V" + pts[i][1]; }
      g.querySelector("path").setAttribute("d", d);
    } else if (g.hasAttribute("data-t0")) {
      var t0 = num(g, "data-t0"), t1 = num(g, "data-t1");
      var x0 = this.xOf(t0), x1 = this.xOf(t1);
      g.querySelectorAll("rect").forEach(function (r) {
        if (!self.view) { r.setAttribute("x", r.getAttribute("data-x")); r.setAttribute("width", r.getAttribute("data-w")); return; }
        var w = Math.max(x1 - x0, parseFloat(r.getAttribute("data-w")) < 2.5 ? 2 : 0, 2);
        r.setAttribute("x", x0);
        r.setAttribute("width", w);
      });
      g.querySelectorAll("text").forEach(function (tx) {
        if (!self.view) { tx.setAttribute("x", tx.getAttribute("data-x")); tx.style.display = ""; return; }
        // the part of the piece inside the plot: a label starts there, and shows only if it fits whole
        var a = Math.max(x0, self.data.plotX), b = Math.min(x1, self.data.plotX + self.data.plotWidth);
        tx.setAttribute("x", a + 4);
        tx.style.display = (b - a) > tx.getComputedTextLength() + 8 ? "" : "none";
      });
    } else if (g.hasAttribute("data-t")) {
      var t = num(g, "data-t");
      var view = this.view;
      this.view = null;
      var orig = this.xOf(t);
      this.view = view;
      g.tlDx = view ? this.xOf(t) - orig : 0;
      shiftTo(g);
      this.keepLabel(g);
    }
  };
  // A moment's label (a guide's "Pod deleted", an exit code) moved with its moment stays whole inside
  // the picture: slid back from an edge, or hidden when its moment is out of the window.
  Timeline.prototype.keepLabel = function (g) {
    var tx = g.querySelector("text");
    if (!tx) { return; }
    if (!tx.hasAttribute("data-x")) { tx.setAttribute("data-x", tx.getAttribute("x")); }
    var x = num(tx, "data-x"), dx = g.tlDx || 0, d = this.data;
    if (!this.view) { tx.setAttribute("x", x); tx.style.display = ""; return; }
    var t = num(g, "data-t");
    if (t < this.view[0] - 1e-9 || t > this.view[1] + 1e-9) { tx.style.display = "none"; return; }
    tx.style.display = "";
    var w = tx.getComputedTextLength(), anchor = tx.getAttribute("text-anchor") || "start";
    var left = anchor === "middle" ? x + dx - w / 2 : anchor === "end" ? x + dx - w : x + dx;
    var lo = d.plotX - 4, hi = this.width - 2, shift = 0;
    if (left < lo) { shift = lo - left; } else if (left + w > hi) { shift = hi - (left + w); }
    if (shift && anchor === "start") { tx.style.display = "none"; return; }   // an exit code: beside its mark or not at all
    tx.setAttribute("x", x + shift);
  };
  function shiftTo(g) {
    var dx = g.tlDx || 0, dy = g.tlDy || 0;
    if (dx || dy) { g.setAttribute("transform", "translate(" + dx + " " + dy + ")"); } else { g.removeAttribute("transform"); }
  }
  Timeline.prototype.ticks = function () {
    var g = this.zoomTicks, d = this.data;
    while (g.firstChild) { g.removeChild(g.firstChild); }
    if (!this.view) { return; }
    var span = this.view[1] - this.view[0];
    var want = span / d.plotWidth * 64, step = 0.001;
    var steps = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];
    for (var i = 0; i < steps.length; i++) { step = steps[i]; if (step >= want) { break; } }
    var unit = step < 1 ? "ms" : (step >= 60 ? "min" : "s");
    for (var n = Math.ceil(this.view[0] / step - 1e-9); n * step <= this.view[1] + 1e-9; n++) {
      var t = n * step, x = this.xOf(t);
      var label = unit === "ms" ? String(Math.round(t * 1000)) + " ms" :
        unit === "min" ? (Math.round(t / 60 * 100) / 100) + " min" : secs(t) + " s";
      g.appendChild(svgEl("path", {"class": "tl-grid", d: "M" + x + " " + this.top + "V" + this.bottom}));
      this.axisYs.forEach(function (y) {
        var tx = svgEl("text", {"class": "tl-muted tl-small", x: x, y: y, "text-anchor": "middle"});
        tx.textContent = label;
        g.appendChild(tx);
      });
    }
  };

  // ---- tooltips on bars and markers --------------------------------------------------------------
  Timeline.prototype.tooltips = function () {
    var self = this;
    this.svg.querySelectorAll(".tl-bar-g, .tl-markers .tl-item, .tl-fail-g, .tl-reach-g, .tl-series, .tl-obs-g").forEach(function (g) {
      var title = g.querySelector("title");
      if (!title) { return; }
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "img");                     // an SVG <g> may carry a label only with a role
      g.setAttribute("aria-label", title.textContent.replace(/\n/g, ". "));
      g.setAttribute("data-tip", title.textContent);
      title.parentNode.removeChild(title);               // the tooltip below replaces the native one
    });
    function show(g, clientX, clientY) {
      self.tip.textContent = g.getAttribute("data-tip");
      self.tip.hidden = false;
      var box = self.section.getBoundingClientRect(), r = g.getBoundingClientRect();
      var x = (clientX != null ? clientX : r.left + r.width / 2) - box.left;
      var y = (clientY != null ? clientY : r.top) - box.top;
      self.tip.style.left = Math.min(Math.max(x + 12, 0), box.width - self.tip.offsetWidth - 4) + "px";
      self.tip.style.top = (y + 16) + "px";
    }
    function hide() { self.tip.hidden = true; }
    this.svg.addEventListener("pointermove", function (e) {
      var g = e.target.closest && e.target.closest("[data-tip]");
      if (g) { show(g, e.clientX, e.clientY); } else { hide(); }
    });
    this.svg.addEventListener("pointerleave", hide);
    this.svg.addEventListener("focusin", function (e) {
      var g = e.target.closest && e.target.closest("[data-tip]");
      if (g) { show(g); }
    });
    this.svg.addEventListener("focusout", hide);
  };

  // ---- the story follows, and moves the cursor ---------------------------------------------------
  Timeline.prototype.storySteps = function () {
    var self = this;
    this.steps = [];
    if (!this.story) { return; }
    this.story.querySelectorAll("li[data-t]").forEach(function (li) {
      var btn = el("button", {type: "button", "class": "tl-step"});
      while (li.firstChild) { btn.appendChild(li.firstChild); }
      li.appendChild(btn);
      var index = self.steps.length;
      self.steps.push({li: li, t: parseFloat(li.getAttribute("data-t")), container: li.getAttribute("data-container")});
      btn.addEventListener("click", function () {
        self.stop();
        self.setCursor(self.steps[index].t, index);
        self.highlight(self.steps[index]);
      });
    });
    this.story.classList.add("tl-story-live");
  };
  Timeline.prototype.followStory = function (t, step) {
    if (!this.steps.length) { return; }
    if (step == null || step < 0) {
      step = -1;
      for (var i = 0; i < this.steps.length && this.steps[i].t <= t + 1e-9; i++) { step = i; }
    }
    this.step = step;
    var at = step >= 0 ? this.steps[step].t : null;
    this.steps.forEach(function (s, i) {
      s.li.classList.toggle("tl-now", at !== null && Math.abs(s.t - at) < 1e-9);
      if (i === step) { s.li.setAttribute("aria-current", "step"); } else { s.li.removeAttribute("aria-current"); }
    });
    if (step >= 0) {
      var li = this.steps[step].li, list = li.closest("ol") || li.parentNode;
      while (list.parentNode && list.parentNode.closest && list.parentNode.closest("ol")) {   // a folded loop's
        list = list.parentNode.closest("ol");                                                  // outer list scrolls
      }
      if (list.scrollHeight > list.clientHeight + 1) {     // the step in view inside its list, the page unmoved
        var box = list.getBoundingClientRect(), r = li.getBoundingClientRect();
        if (r.top < box.top || r.bottom > box.bottom) {
          list.scrollTop += (r.top - box.top) - Math.max(0, (box.height - r.height) / 3);
        }
      }
      this.presentStep.textContent = caption(li, this.text);
    } else {
      this.presentStep.textContent = "";
    }
  };
  Timeline.prototype.highlight = function (step) {
    this.svg.querySelectorAll(".tl-hl").forEach(function (g) { g.classList.remove("tl-hl"); });
    if (!step || step.container == null) { return; }
    var lane = this.data.lanes.map(function (l) { return l.name; }).indexOf(step.container);
    if (lane < 0) { return; }
    this.svg.querySelectorAll('[data-lane="' + lane + '"].tl-item:not(.tl-obs-item)').forEach(function (g) {
      var hit = g.hasAttribute("data-t") ? Math.abs(num(g, "data-t") - step.t) < 1e-6
        : num(g, "data-t0") <= step.t + 1e-9 && step.t < num(g, "data-t1") + 1e-9 && num(g, "data-t1") > step.t - 1e-9;
      if (hit) { g.classList.add("tl-hl"); }
    });
  };

  // The presentation's caption of a step: its time and words, and "assumed" said as a phrase, never a
  // stray word (the badge's text).
  function caption(li, T) {
    var copy = li.cloneNode(true), assumed = copy.querySelector(".assumed");
    copy.querySelectorAll(".assumed, details ol").forEach(function (x) { x.parentNode.removeChild(x); });
    var text = copy.textContent.replace(/\s+/g, " ").trim();
    return assumed && T.assumedCaption ? text + " " + T.assumedCaption : text;
  }

  // ---- a container chosen from the editor (source.js): its lane and its node stand out ------------
  Timeline.prototype.select = function (name) {
    var lane = name == null ? -1 : this.data.lanes.map(function (l) { return l.name; }).indexOf(name);
    this.svg.querySelectorAll(".tl-sel").forEach(function (g) { g.classList.remove("tl-sel"); });
    this.svg.querySelectorAll('[data-lane="' + lane + '"]').forEach(function (g) { g.classList.add("tl-sel"); });
    var svg = this.diagram && this.diagram.querySelector("svg");
    if (svg) {
      svg.querySelectorAll(".tl-sel").forEach(function (n) { n.classList.remove("tl-sel"); });
      if (lane >= 0) { svg.querySelectorAll(".ctr-" + lane).forEach(function (n) { n.classList.add("tl-sel"); }); }
    }
    this.selected = lane >= 0 ? name : null;
  };

  // ---- the diagram follows -------------------------------------------------------------------------
  Timeline.prototype.dimDiagram = function (frame, t) {
    if (!this.diagram) { return; }
    var svg = this.diagram.querySelector("svg");
    if (!svg) { return; }
    var alive = {}, names = [];
    frame.containers.forEach(function (c) {
      alive[c.name] = c.state === "running" || c.state === "ready" || c.state === "starting" || c.state === "terminating";
    });
    var self = this;
    this.data.lanes.forEach(function (lane, i) {
      var on = !!alive[lane.name];
      svg.querySelectorAll(".ctr-" + i).forEach(function (n) { n.classList.toggle("tl-dim", !on); });
      if (!on) { names.push(lane.name); }
    });
    var note = this.diagram.querySelector(".tl-diagram-note");
    if (!note) {
      note = el("p", {"class": "tl-diagram-note muted"});
      svg.parentNode.parentNode.insertBefore(note, svg.parentNode.nextSibling);
    }
    note.textContent = names.length ? fmt(self.text.dimmed, {t: secs(t), names: names.join(", ")})
      : fmt(self.text.allRunning, {t: secs(t)});
  };

  // ---- play ------------------------------------------------------------------------------------------
  Timeline.prototype.toggle = function () { if (this.timer) { this.stop(); } else { this.play(); } };
  Timeline.prototype.play = function () {
    var self = this, d = this.data;
    if (this.t >= d.end - 1e-9) { this.setCursor(0, -1); }
    this.playBtn.textContent = this.text.pause;
    this.playBtn.setAttribute("aria-pressed", "true");
    this.section.classList.add("tl-playing");
    var mode = this.speed.value;
    if (mode === "step") {
      var tick = function () {
        var next = self.step + 1;
        if (self.steps.length && next < self.steps.length) {
          self.setCursor(self.steps[next].t, next);
          self.highlight(self.steps[next]);
        } else {
          var t = d.events.filter(function (x) { return x > self.t + 1e-9; })[0];
          if (t == null || self.steps.length) { self.setCursor(d.end, null); self.stop(); return; }
          self.setCursor(t, null);
        }
        if (self.t >= d.end - 1e-9 && self.step >= self.steps.length - 1) { self.stop(); return; }
        self.timer = setTimeout(tick, 1000);
      };
      this.timer = setTimeout(tick, this.step < 0 ? 0 : 1000);
      return;
    }
    var rate = parseFloat(mode), last = null;
    var frame = function (now) {
      if (!self.timer) { return; }
      if (last !== null) {
        var t = self.t + (now - last) / 1000 * rate;
        var cut = (self.view ? [] : d.knots.slice(1, -1));
        for (var i = 0; i + 1 < cut.length; i += 2) {      // quiet stretches cut from the axis are skipped
          if (t > cut[i][0] && t < cut[i + 1][0]) { t = cut[i + 1][0]; }
        }
        if (t >= d.end) { self.setCursor(d.end, null); self.stop(); return; }
        self.setCursor(t, null);
      }
      last = now;
      self.timer = requestAnimationFrame(frame);
    };
    this.timer = requestAnimationFrame(frame);
  };
  Timeline.prototype.stop = function () {
    if (this.timer) { clearTimeout(this.timer); cancelAnimationFrame(this.timer); }
    this.timer = null;
    this.playBtn.textContent = this.text.play;
    this.playBtn.setAttribute("aria-pressed", "false");
    this.section.classList.remove("tl-playing");
  };

  // ---- presentation mode -------------------------------------------------------------------------
  Timeline.prototype.present = function (on) {
    this.presenting = on;
    this.section.classList.toggle("tl-presenting", on);
    document.documentElement.classList.toggle("tl-presentation-open", on);
    this.presentBtn.setAttribute("aria-pressed", on ? "true" : "false");
    this.presentBtn.textContent = on ? this.text.close : this.text.present;
    this.presentStep.setAttribute("aria-hidden", on ? "false" : "true");
    this.presentBtn.focus();
  };
  Timeline.prototype.stepBy = function (n) {
    this.stop();
    var i = Math.min(Math.max(this.step + n, 0), this.steps.length - 1);
    if (this.steps.length) {
      this.setCursor(this.steps[i].t, i);
      this.highlight(this.steps[i]);
    }
  };

  // ---- large Pods: lanes grouped by role, groups collapse ---------------------------------------
  Timeline.prototype.groups = function () {
    var lanes = this.data.lanes;
    if (lanes.length <= 12) { return; }
    var self = this, groups = [], key = function (r) { return r === "sidecar" ? "init" : r; };
    lanes.forEach(function (l, i) {
      var g = groups[groups.length - 1];
      if (!g || g.role !== key(l.role)) { groups.push(g = {role: key(l.role), lanes: []}); }
      g.lanes.push(i);
    });
    var box = el("div", {"class": "tl-groups"});
    groups.forEach(function (g) {
      if (g.lanes.length < 4) { return; }
      var name = self.text["group_" + g.role] || g.role;
      var b = el("button", {type: "button", "class": "secondary tl-group", "aria-expanded": "true"});
      var set = function (open) {
        b.setAttribute("aria-expanded", open ? "true" : "false");
        b.textContent = name + " (" + g.lanes.length + "): " + (open ? self.text.collapse : fmt(self.text.expand, {n: g.lanes.length}));
        self.collapse(g.lanes, !open);
      };
      b.addEventListener("click", function () { set(b.getAttribute("aria-expanded") !== "true"); });
      set(true);
      box.appendChild(b);
    });
    if (box.childNodes.length) { this.anchor.parentNode.insertBefore(box, this.anchor); }
  };
  Timeline.prototype.collapse = function (indexes, hidden) {
    var svg = this.svg;
    this.hiddenLanes = this.hiddenLanes || {};
    var self = this;
    indexes.forEach(function (i) { if (hidden) { self.hiddenLanes[i] = true; } else { delete self.hiddenLanes[i]; } });
    // lanes move up by the height of the hidden lanes above them; the picture gets shorter
    var labels = svg.querySelectorAll(".tl-lane-label"), shift = 0, shifts = [];
    labels.forEach(function (l, i) {
      var rect = l.querySelector("rect"), h = num(rect, "height") + 6 + parseFloat(l.getAttribute("data-obs") || "0");
      shifts[i] = shift;
      var gone = !!self.hiddenLanes[i];
      l.style.display = gone ? "none" : "";
      l.setAttribute("transform", "translate(0 " + (-shift) + ")");
      if (gone) { shift += h; }
    });
    svg.querySelectorAll("[data-lane]").forEach(function (g) {
      if (g.classList.contains("tl-lane-label")) { return; }
      var i = parseInt(g.getAttribute("data-lane"), 10);
      g.style.display = self.hiddenLanes[i] ? "none" : "";
      g.tlDy = -shifts[i];
      shiftTo(g);
    });
    var lowest = Math.max.apply(null, this.axisYs);
    this.axisTexts.concat(Array.prototype.slice.call(svg.querySelectorAll(".tl-axes text, .tl-break-text")))
      .forEach(function (tx) { if (num(tx, "y") === lowest) { tx.setAttribute("transform", "translate(0 " + (-shift) + ")"); } });
    svg.querySelectorAll(".tl-zebra, .tl-arrow-g, .tl-obs-row, .tl-obs-sep").forEach(function (z) { z.style.display = shift ? "none" : ""; });
    var vb = svg.viewBox.baseVal;
    if (this.fullHeight == null) { this.fullHeight = vb.height; }
    svg.setAttribute("viewBox", "0 0 " + vb.width + " " + (this.fullHeight - shift));
    svg.setAttribute("height", this.fullHeight - shift);
    this.bottom = (this.fullBottom = this.fullBottom || this.bottom) - shift;
    this.cursorLine.setAttribute("y2", this.bottom);
  };

  // ---- the cursor's time in the address: "#t=60", "&at=<chart>" but for the page's first chart ----------
  function hashParams() {
    var out = {}, order = [];
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var eq = part.indexOf("=");
      if (eq > 0) { out[part.slice(0, eq)] = part.slice(eq + 1); order.push(part.slice(0, eq)); }
    });
    return {values: out, order: order};
  }
  function chartId(tl) {
    var first = document.querySelector("[data-timeline][data-tl]");
    var id = tl.section.getAttribute("data-timeline");
    return first === tl.section ? "" : id;
  }
  function fromAddress(tl) {
    var p = hashParams().values, t = parseFloat(p.t);
    if (!isFinite(t) || t < 0 || (p.at || "") !== chartId(tl)) { return null; }
    return Math.min(t, tl.data.end);
  }
  var addressTimer = null;
  function toAddress(tl) {
    clearTimeout(addressTimer);
    addressTimer = setTimeout(function () {
      if (!document.contains(tl.section)) { return; }
      var h = hashParams(), parts = [];
      h.order.forEach(function (k) { if (k !== "t" && k !== "at") { parts.push(k + "=" + h.values[k]); } });
      if (tl.t > 0) {
        parts.push("t=" + secs(tl.t));
        if (chartId(tl)) { parts.push("at=" + encodeURIComponent(chartId(tl))); }
      }
      var url = location.pathname + location.search + (parts.length ? "#" + parts.join("&") : "");
      if (url !== location.pathname + location.search + location.hash) {
        try { history.replaceState(history.state, "", url); } catch (e) { /* a sandboxed frame */ }
      }
    }, 250);
  }

  // ---- wiring ----------------------------------------------------------------------------------------
  var live = [];
  function init(root) {
    (root || document).querySelectorAll("[data-timeline]").forEach(function (section) {
      if (section.tlInstrument || !section.getAttribute("data-tl") ||
          !section.querySelector(".timeline svg")) { return; }
      section.tlInstrument = new Timeline(section);
      live.push(section.tlInstrument);
    });
    live = live.filter(function (tl) { return document.contains(tl.section); });
  }
  function presenting() { return live.filter(function (tl) { return tl.presenting; })[0]; }
  function current(target) {
    var section = target && target.closest && target.closest("[data-timeline]");
    if (section && section.tlInstrument) { return section.tlInstrument; }
    var story = target && target.closest && target.closest("[data-story]");
    if (story) {
      var s = document.querySelector('[data-timeline="' + story.getAttribute("data-story") + '"]');
      if (s && s.tlInstrument) { return s.tlInstrument; }
    }
    return presenting() || (live.length === 1 ? live[0] : null);
  }
  document.addEventListener("keydown", function (e) {
    var p = presenting();
    if (p && e.key === "Escape") { e.preventDefault(); p.present(false); return; }
    if (p && /^(ArrowRight|ArrowLeft|Home|End)$/.test(e.key) && e.target !== p.slider) {
      e.preventDefault();      // in presentation mode the arrows walk the story, one step at a time
      p.stepBy({ArrowRight: 1, ArrowLeft: -1, Home: -1e9, End: 1e9}[e.key]);
      return;
    }
    if (p && (e.key === " " || e.code === "Space")) {
      var own = (e.target.tagName || "").toLowerCase();
      if (own !== "select" && own !== "input" && own !== "textarea") {
        e.preventDefault();    // in presentation mode Space plays, whichever button has the focus
        if (!e.repeat) { p.toggle(); }
        return;
      }
    }
    if (e.key === " " || e.code === "Space") {
      var tag = (e.target.tagName || "").toLowerCase();
      if (tag === "input" || tag === "textarea" || tag === "select" || tag === "button" || tag === "a" ||
          e.target.isContentEditable) { return; }
      var tl = current(e.target);
      if (tl) { e.preventDefault(); tl.toggle(); }
    }
  });
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (e) { init(e.detail && e.detail.elt); });
  if (document.readyState !== "loading") { init(document); }
})();
