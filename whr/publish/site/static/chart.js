// Rating charts drawn as SVG: one or more series (days since 1970-01-01, ratings), an optional
// uncertainty band (rating ± std), year ticks, a legend and a hover read-out. No dependencies.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var COLOURS = ["#1f5fa8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#17becf", "#ff7f0e", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
    "#3182bd", "#31a354", "#756bb1"];

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function isoDay(d) { return new Date(d * 86400000).toISOString().slice(0, 10); }

  function draw(svg, data, band, legend) {
    var series = data.series.filter(function (s) { return s.t.length > 0; });
    var W = svg.clientWidth || 800, H = svg.clientHeight || 320;
    var m = { l: 48, r: legend ? 170 : 14, t: 14, b: 26 };
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!series.length) { el("text", { x: 20, y: 30 }, svg).textContent = "No rating history."; return; }
    var t0 = Infinity, t1 = -Infinity, r0 = Infinity, r1 = -Infinity;
    series.forEach(function (s) {
      for (var i = 0; i < s.t.length; i++) {
        var u = band && s.u ? s.u[i] : 0;
        t0 = Math.min(t0, s.t[i]); t1 = Math.max(t1, s.t[i]);
        r0 = Math.min(r0, s.r[i] - u); r1 = Math.max(r1, s.r[i] + u);
      }
      if (s.now) {  // [list day, rating, std]: the rating carried to the list date
        var un = band ? s.now[2] : 0;
        t1 = Math.max(t1, s.now[0]);
        r0 = Math.min(r0, s.now[1] - un); r1 = Math.max(r1, s.now[1] + un);
      }
    });
    if (t1 - t0 < 60) { t0 -= 30; t1 += 30; }
    if (r1 - r0 < 200) { var mid = (r0 + r1) / 2; r0 = mid - 100; r1 = mid + 100; }
    var pad = (r1 - r0) * 0.05; r0 -= pad; r1 += pad;
    function X(t) { return m.l + (t - t0) / (t1 - t0) * (W - m.l - m.r); }
    function Y(r) { return H - m.b - (r - r0) / (r1 - r0) * (H - m.t - m.b); }
    // grid and axes
    var step = [25, 50, 100, 200, 250, 500].find(function (s) { return (r1 - r0) / s <= 8; }) || 1000;
    for (var v = Math.ceil(r0 / step) * step; v <= r1; v += step) {
      el("line", { "class": "grid", x1: m.l, x2: W - m.r, y1: Y(v), y2: Y(v) }, svg);
      el("text", { x: m.l - 6, y: Y(v) + 4, "text-anchor": "end" }, svg).textContent = v;
    }
    var y0 = new Date(t0 * 86400000).getUTCFullYear(), y1 = new Date(t1 * 86400000).getUTCFullYear();
    var ys = Math.max(1, Math.ceil((y1 - y0 + 1) / 12));
    for (var y = y0; y <= y1 + 1; y++) {
      var ty = Date.UTC(y, 0, 1) / 86400000;
      if (ty < t0 || ty > t1 || (y - y0) % ys) continue;
      el("line", { "class": "grid", x1: X(ty), x2: X(ty), y1: m.t, y2: H - m.b }, svg);
      el("text", { x: X(ty), y: H - m.b + 15, "text-anchor": "middle" }, svg).textContent = y;
    }
    el("line", { "class": "axis", x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b }, svg);
    el("line", { "class": "axis", x1: m.l, x2: m.l, y1: m.t, y2: H - m.b }, svg);
    var groups = [];
    series.forEach(function (s, k) {
      var colour = COLOURS[k % COLOURS.length];
      var g = el("g", { "class": "series" }, svg);
      if (band && s.u) {
        var up = [], down = [];
        for (var i = 0; i < s.t.length; i++) {
          up.push(X(s.t[i]).toFixed(1) + "," + Y(s.r[i] + s.u[i]).toFixed(1));
          down.push(X(s.t[i]).toFixed(1) + "," + Y(s.r[i] - s.u[i]).toFixed(1));
        }
        el("path", { "class": "band", d: "M" + up.join("L") + "L" + down.reverse().join("L") + "Z" }, g);
      }
      if (s.now) {
        var last = s.t.length - 1;
        if (band && s.u) {
          el("path", { "class": "band later", d: "M" + X(s.t[last]).toFixed(1) + "," + Y(s.r[last] + s.u[last]).toFixed(1) +
            "L" + X(s.now[0]).toFixed(1) + "," + Y(s.now[1] + s.now[2]).toFixed(1) +
            "L" + X(s.now[0]).toFixed(1) + "," + Y(s.now[1] - s.now[2]).toFixed(1) +
            "L" + X(s.t[last]).toFixed(1) + "," + Y(s.r[last] - s.u[last]).toFixed(1) + "Z" }, g);
        }
        el("path", { "class": "line later", d: "M" + X(s.t[last]).toFixed(1) + "," + Y(s.r[last]).toFixed(1) +
          "L" + X(s.now[0]).toFixed(1) + "," + Y(s.now[1]).toFixed(1), stroke: colour }, g);
      }
      var pts = [];
      for (var j = 0; j < s.t.length; j++) pts.push(X(s.t[j]).toFixed(1) + "," + Y(s.r[j]).toFixed(1));
      el("path", { "class": "line", d: "M" + pts.join("L"), stroke: colour }, g);
      if (s.t.length === 1) el("circle", { cx: X(s.t[0]), cy: Y(s.r[0]), r: 3, fill: colour }, g);
      groups.push(g);
      if (legend) {
        var ly = m.t + 4 + k * 16;
        var item = el("g", { "class": "legend" }, svg);
        el("rect", { x: W - m.r + 10, y: ly, width: 10, height: 10, fill: colour }, item);
        var label = el("text", { x: W - m.r + 26, y: ly + 9 }, item);
        label.textContent = s.name;
        item.addEventListener("click", function () { g.hidden = !g.hidden; g.style.display = g.hidden ? "none" : ""; item.style.opacity = g.hidden ? 0.4 : 1; });
      }
    });
    // hover read-out: nearest rating day of the nearest visible series
    var tip = el("text", { "class": "tip", x: m.l + 8, y: m.t + 12 }, svg);
    var dot = el("circle", { r: 4, fill: "none", stroke: "#1d2330", visibility: "hidden" }, svg);
    svg.addEventListener("mousemove", function (ev) {
      var box = svg.getBoundingClientRect();
      var px = (ev.clientX - box.left) * W / box.width, py = (ev.clientY - box.top) * H / box.height;
      var best = null;
      series.forEach(function (s, k) {
        if (groups[k].style.display === "none") return;
        for (var i = 0; i < s.t.length; i++) {
          var d = Math.abs(X(s.t[i]) - px) + (series.length > 1 ? Math.abs(Y(s.r[i]) - py) : 0);
          if (!best || d < best.d) best = { d: d, s: s, i: i };
        }
      });
      if (!best) return;
      var s = best.s, i = best.i;
      dot.setAttribute("cx", X(s.t[i])); dot.setAttribute("cy", Y(s.r[i])); dot.setAttribute("visibility", "visible");
      tip.textContent = (series.length > 1 ? s.name + ": " : "") + isoDay(s.t[i]) + "  " + Math.round(s.r[i]) +
        (s.u ? " ± " + Math.round(s.u[i]) : "");
    });
  }

  function init() {
    var figs = document.querySelectorAll("figure[data-chart]");
    Array.prototype.forEach.call(figs, function (fig) {
      var source = document.getElementById(fig.getAttribute("data-chart"));
      if (!source) return;
      var data = JSON.parse(source.textContent);
      var svg = fig.querySelector("svg");
      var redraw = function () { draw(svg, data, fig.hasAttribute("data-band"), fig.hasAttribute("data-legend")); };
      redraw();
      svg.setAttribute("data-drawn", "1");
      var timer = null;
      window.addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(redraw, 150); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
