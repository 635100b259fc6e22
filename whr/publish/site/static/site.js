// The page script of the rating site: the lists, the players and tournaments indexes, a player's
// games, a tournament's pairings, and (second part) the rating charts. No network request and no
// dependency: the data comes from data/*.js files loaded with <script> (they set window.WHR), so
// the site works from file://. Big tables are drawn virtually: only the rows on screen (and a
// margin) are in the document.
(function () {
  "use strict";
  var W = window.WHR || {};
  var cfgEl = document.getElementById("cfg");
  var CFG = cfgEl ? JSON.parse(cfgEl.textContent) : {};
  var ROOT = CFG.root || "";
  var NON_ASCII = /[^\x00-\x7f]/;

  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function fold(s) {
    s = String(s).toLowerCase();
    return NON_ASCII.test(s) ? s.normalize("NFD").replace(/[\u0300-\u036f]/g, "") : s;
  }
  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function signed(n) { return n > 0 ? "+" + n : (n < 0 ? "\u2212" + (-n) : "0"); }
  function words(q) { return fold(q.trim()).split(/\s+/).filter(Boolean); }

  // --- state in the address: #t=tab&q=search&c=country ----------------------------------------
  function readHash() {
    var s = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) {
        try { s[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); } catch (e) { /* bad escape */ }
      }
    });
    return s;
  }
  function hashOf(s) {
    var parts = [];
    ["t", "q", "c"].forEach(function (k) { if (s[k]) parts.push(k + "=" + encodeURIComponent(s[k])); });
    return parts.length ? "#" + parts.join("&") : "";
  }
  function writeHash(s) {
    var h = hashOf(s);
    try { history.replaceState(null, "", h || location.pathname + location.search); } catch (e) { /* file:// */ }
  }

  // --- the players data -----------------------------------------------------------------------
  function Players(d) {
    this.d = d;
    this.n = d.id.length;
    this._keys = null;
  }
  Players.prototype.page = function (i) { return this.d.pg[i] || this.d.id[i]; };
  Players.prototype.code = function (i) { var c = this.d.co[i]; return c < 0 ? "" : this.d.countries.code[c]; };
  Players.prototype.link = function (i, root, label) {
    var d = this.d;
    if (i < 0) return "?";
    return "<a href=\"" + root + "p/" + esc(this.page(i)) + ".html\"" + (d.f[i] ? " class=f" : "") +
      (d.nt[i] ? " title=\"" + esc(d.nt[i]) + "\"" : "") + ">" + esc(d.name[i]) + "</a>" +
      (label && d.lb[i] ? " <small>" + esc(d.lb[i]) + "</small>" : "");
  };
  Players.prototype.keys = function () {  // what a search looks in: name, native name, id, city
    if (!this._keys) {
      var d = this.d, k = new Array(this.n);
      for (var i = 0; i < this.n; i++) k[i] = fold(d.name[i] + "\u0001" + d.nt[i] + "\u0001" + d.id[i] + "\u0001" + d.ci[i]);
      this._keys = k;
    }
    return this._keys;
  };
  Players.prototype.nameKey = function (i) { return fold(this.d.name[i]); };

  // --- a virtual table -------------------------------------------------------------------------
  // cols: [{label, title, cls, first (1 ascending, -1 descending on the first click), key(i)
  // (sort value, null = none: always last), html(i)}]. Rows are ids; ties keep the data order.
  function VTable(table, onSort) {
    var self = this;
    this.table = table;
    this.body = table.tBodies[0];
    this.cols = [];
    this.ids = [];
    this.sortCol = -1;
    this.dir = 1;
    this.rowH = 30;
    this.total = 0;  // rows of the data (ids are 0 .. total - 1)
    this.range = [-1, -1];
    this.onSort = onSort;
    var pending = false;
    this.schedule = function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; self.draw(false); });
    };
    window.addEventListener("scroll", this.schedule, { passive: true });
    window.addEventListener("resize", this.schedule);
    table.tHead.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-col]");
      if (b) self.sortBy(+b.getAttribute("data-col"));
    });
  }
  VTable.prototype.setColumns = function (cols, sortCol, dir) {
    this.cols = cols;
    this.sortCol = sortCol;
    this.dir = dir || 1;
    var html = "<tr>";
    cols.forEach(function (c, k) {
      html += "<th" + (c.cls ? " class=\"" + c.cls + "\"" : "") + (c.title ? " title=\"" + esc(c.title) + "\"" : "") + ">" +
        (c.key ? "<button type=button data-col=" + k + ">" + esc(c.label) + "</button>" : esc(c.label)) + "</th>";
    });
    this.table.tHead.innerHTML = html + "</tr>";
    this.marks();
  };
  VTable.prototype.marks = function () {
    var ths = this.table.tHead.rows[0].cells;
    for (var k = 0; k < ths.length; k++) {
      if (k === this.sortCol) ths[k].setAttribute("aria-sort", this.dir > 0 ? "ascending" : "descending");
      else ths[k].removeAttribute("aria-sort");
    }
  };
  VTable.prototype.sortBy = function (k) {
    if (k === this.sortCol) this.dir = -this.dir;
    else { this.sortCol = k; this.dir = this.cols[k].first || 1; }
    this.marks();
    this.sort();
    this.draw(true);
    if (this.onSort) this.onSort();
  };
  VTable.prototype.sort = function () {
    var col = this.cols[this.sortCol], dir = this.dir;
    if (!col || !col.key) { this.ids.sort(function (a, b) { return a - b; }); return; }
    if (!col.cache) {  // the sort values of every row, computed once per column
      col.cache = new Array(this.total);
      for (var i = 0; i < this.total; i++) col.cache[i] = col.key(i);
    }
    var vals = col.cache;
    this.ids.sort(function (a, b) {
      var x = vals[a], y = vals[b];
      var ex = x === null || x === "", ey = y === null || y === "";
      if (ex || ey) return ex === ey ? a - b : (ex ? 1 : -1);
      return (x < y ? -dir : (x > y ? dir : 0)) || a - b;
    });
  };
  VTable.prototype.setRows = function (ids) {
    this.ids = ids;
    this.sort();
    this.table.setAttribute("aria-rowcount", ids.length + 1);
    this.draw(true);
  };
  VTable.prototype.rowHtml = function (i, pos) {
    var html = "<tr aria-rowindex=" + (pos + 2) + ">";
    this.cols.forEach(function (c) { html += "<td" + (c.cls ? " class=\"" + c.cls + "\"" : "") + ">" + c.html(i); });
    return html + "</tr>";
  };
  VTable.prototype.draw = function (force) {
    var n = this.ids.length, h = this.rowH;
    var top = this.body.getBoundingClientRect().top;
    var first = Math.min(n, Math.max(0, Math.floor(-top / h) - 20));
    var last = Math.min(n, Math.max(first, Math.ceil((window.innerHeight - top) / h) + 20));
    if (!force && first === this.range[0] && last === this.range[1]) return;
    this.range = [first, last];
    var span = this.cols.length, html = "";
    if (first > 0) html += "<tr class=sp aria-hidden=true><td colspan=" + span + " style=\"height:" + first * h + "px\"></td></tr>";
    for (var p = first; p < last; p++) html += this.rowHtml(this.ids[p], p);
    if (last < n) html += "<tr class=sp aria-hidden=true><td colspan=" + span + " style=\"height:" + (n - last) * h + "px\"></td></tr>";
    this.body.innerHTML = html;
    var row = this.body.querySelector("tr[aria-rowindex]");
    if (row && Math.abs(row.offsetHeight - h) > 0.5 && !this.measured) {
      this.measured = true;
      this.rowH = row.offsetHeight;
      this.draw(true);
    }
  };
  // every row's cell texts in the order shown (for programs and tests; the screen shows a window)
  VTable.prototype.rowsText = function () {
    var self = this, box = document.createElement("tbody");
    return this.ids.map(function (i, p) {
      box.innerHTML = self.rowHtml(i, p);
      return Array.prototype.map.call(box.rows[0].cells, function (c) { return c.textContent; });
    });
  };

  // --- the filter form shared by the big tables ----------------------------------------------------
  function schedule(fn) {
    var pending = false;
    return function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; fn(); });
    };
  }

  // --- rating lists ----------------------------------------------------------------------------
  var TAB_LABELS = { active: "Active", gy1: "Gy1 \u2265 10", inactive: "Inactive", provisional: "Provisional" };
  var STATUS = ["established, active", "established, inactive", "provisional"];

  function num(v) { return v === null || v === undefined ? "" : String(v); }
  function rankText(v) { return v ? String(v) : ""; }
  function rankKey(v) { return v ? v : null; }

  function listApp() {
    var P = new Players(W.players), L = W.lists[CFG.list], n = L.p.length;
    var fixed = CFG.country || "";
    var table = new VTable($("list"), save);
    table.total = n;
    var q = $("q"), sel = $("c"), shown = $("shown");
    var keys = P.keys(), code = new Array(n);
    for (var i = 0; i < n; i++) code[i] = P.code(L.p[i]);
    var inTab = {
      active: function (i) { return L.s[i] === 0; },
      gy1: function (i) { return (fixed ? L.cy[i] : L.y[i]) > 0; },
      inactive: function (i) { return L.s[i] === 1; },
      provisional: function (i) { return L.s[i] === 2; }
    };
    var total = {};
    Object.keys(inTab).forEach(function (t) {
      var c = 0;
      for (var i = 0; i < n; i++) if ((!fixed || code[i] === fixed) && inTab[t](i)) c++;
      total[t] = c;
    });
    var state = readHash();
    var tab = inTab[state.t] ? state.t : CFG.tab;
    q.value = state.q || "";
    var country = fixed || state.c || "";

    var player = { label: "Player", cls: "nm", first: 1, key: function (i) { return P.nameKey(L.p[i]); }, html: function (i) { return P.link(L.p[i], ROOT, false); } };
    var rating = { label: "Rating", cls: "n", first: -1, key: function (i) { return L.r[i]; }, html: function (i) { return L.r[i]; } };
    var change = { label: "Change", title: "rating change since the previous list", cls: "n", first: -1,
      key: function (i) { return L.d[i] === "n" ? null : L.d[i]; },
      html: function (i) { var d = L.d[i]; return d === "n" ? "<span class=new>new</span>" : (d === null ? "" : signed(d)); } };
    var unc = { label: "\u00b1", title: "uncertainty: one standard deviation, Elo", cls: "n u", first: 1, key: function (i) { return L.u[i]; }, html: function (i) { return num(L.u[i]); } };
    function count(k, title) { return { label: k.toUpperCase().replace("G", "Gy"), title: title, cls: "n", first: -1, key: function (i) { return L[k][i]; }, html: function (i) { return L[k][i]; } }; }
    var tail = [count("g1", "rated games in the last year"), count("g2", "rated games in the last 2 years"), count("g5", "rated games in the last 5 years"),
      { label: "Country", first: 1, key: function (i) { return code[i]; }, html: function (i) { return esc(code[i]); } },
      { label: "BY", title: "birth year", cls: "n", first: 1, key: function (i) { return P.d.by[L.p[i]] || null; }, html: function (i) { return P.d.by[L.p[i]] || ""; } }];
    function rankCol(label, k, title) { return { label: label, title: title, cls: "n", first: 1, key: function (i) { return rankKey(L[k][i]); }, html: function (i) { return rankText(L[k][i]); } }; }

    // what matters most comes first (a phone shows about four columns): rank, player, rating,
    // change; then the other ranks, the uncertainty and the activity counts
    function columns(t) {
      var cols = [], more = [];
      if (t === "active") {
        cols.push(rankCol("Rank", fixed ? "ck" : "k", fixed ? "rank in the country" : "rank among established active players"));
        if (fixed) more.push(rankCol("World", "k", "rank on the world list"));
        else if (CFG.change) more.push(rankCol("Prev.", "q", "rank on the previous list"));
      } else if (t === "gy1") {
        cols.push(rankCol("Rank", fixed ? "cy" : "y", "rank among the players of this list"));
        more.push(rankCol("World", "k", "rank on the world list of established active players"));
      }
      cols.push(player, rating);
      if (CFG.change) cols.push(change);
      return cols.concat(more, [unc], tail);
    }
    var NOTES = {
      gy1: "Established players with at least 10 rated games in the year up to the list date (the RIF's \u201cGy1 \u2265 10\u201d list). Rank: among them; World: the rank on the list of established active players.",
      inactive: "Established players whose last rated game is more than 5 years before the list date: not ranked.",
      provisional: "Players with at most 9 rated games: not ranked."
    };

    function setTab(t) {
      tab = t;
      var cols = columns(t);
      if (t === "active" || t === "gy1") table.setColumns(cols, 0, 1);  // by rank
      else table.setColumns(cols, 1, -1);  // by rating
      $("about-tab").textContent = NOTES[t] || "";
      fillCountries();
    }
    function fillCountries() {
      if (!sel) return;
      var seen = {}, list = [];
      for (var i = 0; i < n; i++) if (code[i] && inTab[tab](i)) seen[code[i]] = (seen[code[i]] || 0) + 1;
      var C = P.d.countries;
      for (var c = 0; c < C.code.length; c++) if (seen[C.code[c]]) list.push(c);
      list.sort(function (a, b) { return C.name[a] < C.name[b] ? -1 : (C.name[a] > C.name[b] ? 1 : 0); });
      var html = "<option value=\"\">All countries</option>", found = false;
      list.forEach(function (c) {
        found = found || C.code[c] === country;
        html += "<option value=\"" + esc(C.code[c]) + "\">" + esc(C.name[c]) + " (" + seen[C.code[c]] + ")</option>";
      });
      if (country && !found) html += "<option value=\"" + esc(country) + "\">" + esc(country) + " (0)</option>";
      sel.innerHTML = html;
      sel.value = country;
    }
    function apply() {
      var w = words(q.value), c = sel ? sel.value : fixed;
      country = c;
      var ids = [], hits = { active: 0, gy1: 0, inactive: 0, provisional: 0 };
      var tabs = Object.keys(hits);
      for (var i = 0; i < n; i++) {
        if (c && code[i] !== c) continue;
        var k = keys[L.p[i]], ok = true;
        for (var j = 0; j < w.length && ok; j++) ok = k.indexOf(w[j]) >= 0;
        if (!ok) continue;
        for (var t = 0; t < tabs.length; t++) if (inTab[tabs[t]](i)) hits[tabs[t]]++;
        if (inTab[tab](i)) ids.push(i);
      }
      table.setRows(ids);
      var filtered = w.length > 0 || (c && !fixed);
      var empty = total[tab] === 0;
      $("filters").hidden = empty;
      $("list").parentNode.hidden = empty || ids.length === 0;
      var text;
      if (empty) text = "No players in this part of the list.";
      else if (!filtered) text = thousands(ids.length) + " players";
      else text = thousands(ids.length) + " of " + thousands(total[tab]) + " shown";
      var also = tabs.filter(function (t) { return t !== tab && filtered && hits[t] > 0; });
      shown.innerHTML = esc(text) + (also.length ? " · also found: " + also.map(function (t) {
        return "<a href=\"" + esc(hashOf({ t: t, q: q.value, c: fixed ? "" : c })) + "\">" + thousands(hits[t]) + " in " + TAB_LABELS[t] + "</a>";
      }).join(", ") : "");
      Array.prototype.forEach.call($("tabs").querySelectorAll("a[data-tab]"), function (a) {
        var t = a.getAttribute("data-tab");
        a.className = t === tab ? "on" : "";
        if (t === tab) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
        a.setAttribute("href", hashOf({ t: t, q: q.value, c: fixed ? "" : c }));
        a.querySelector("span").textContent = filtered ? thousands(hits[t]) + "/" + thousands(total[t]) : thousands(total[t]);
      });
      save();
    }
    function save() { writeHash({ t: tab === CFG.tab ? "" : tab, q: q.value, c: fixed ? "" : country }); }
    setTab(tab);
    var later = schedule(apply);
    q.addEventListener("input", later);
    if (sel) sel.addEventListener("change", apply);
    $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
    window.addEventListener("hashchange", function () {
      var s = readHash();
      q.value = s.q || "";
      if (!fixed) country = s.c || "";
      var t = inTab[s.t] ? s.t : CFG.tab;
      if (t !== tab) setTab(t); else fillCountries();
      apply();
    });
    apply();
    W.view = table;
  }

  // --- the players index -------------------------------------------------------------------------
  function playersApp() {
    var P = new Players(W.players), L = W.lists.current, n = P.n, d = P.d;
    var pos = new Array(n);
    for (var j = 0; j < L.p.length; j++) pos[L.p[j]] = j;
    var table = new VTable($("list"), save), q = $("q"), sel = $("c"), shown = $("shown");
    table.total = n;
    var keys = P.keys();
    function val(k) { return function (i) { return L[k][pos[i]]; }; }
    var cols = [
      { label: "ID", first: 1, key: function (i) { return i; }, html: function (i) { return esc(d.id[i]); } },
      { label: "Player", cls: "nm", first: 1, key: function (i) { return P.nameKey(i); }, html: function (i) { return P.link(i, "", false); } },
      { label: "Rating", cls: "n", first: -1, key: val("r"), html: val("r") },
      { label: "\u00b1", cls: "n u", first: 1, key: val("u"), html: function (i) { return num(L.u[pos[i]]); } },
      { label: "Games", cls: "n", first: -1, key: val("n"), html: val("n") },
      { label: "Rank", cls: "n", first: 1, key: function (i) { return rankKey(L.k[pos[i]]); }, html: function (i) { return rankText(L.k[pos[i]]); } },
      { label: "Status", first: 1, key: val("s"), html: function (i) { return STATUS[L.s[pos[i]]]; } },
      { label: "BY", cls: "n", first: 1, key: function (i) { return d.by[i] || null; }, html: function (i) { return d.by[i] || ""; } },
      { label: "City", first: 1, key: function (i) { return d.ci[i] ? fold(d.ci[i]) : null; }, html: function (i) { return esc(d.ci[i]); } },
      { label: "Country", first: 1, key: function (i) { return P.code(i) || null; }, html: function (i) { return esc(P.code(i)); } }
    ];
    table.setColumns(cols, 0, 1);
    var state = readHash();
    q.value = state.q || "";
    var C = d.countries, html = "<option value=\"\">All countries</option>", order = [];
    for (var c = 0; c < C.code.length; c++) order.push(c);
    order.sort(function (a, b) { return C.name[a] < C.name[b] ? -1 : 1; });
    order.forEach(function (c) { html += "<option value=\"" + esc(C.code[c]) + "\">" + esc(C.name[c]) + "</option>"; });
    sel.innerHTML = html;
    sel.value = state.c || "";
    function apply() {
      var w = words(q.value), cc = sel.value, ids = [];
      for (var i = 0; i < n; i++) {
        if (cc && P.code(i) !== cc) continue;
        var k = keys[i], ok = true;
        for (var j = 0; j < w.length && ok; j++) ok = k.indexOf(w[j]) >= 0;
        if (ok) ids.push(i);
      }
      table.setRows(ids);
      shown.textContent = (w.length || cc) ? thousands(ids.length) + " of " + thousands(n) + " shown" : thousands(n) + " players";
      save();
    }
    function save() { writeHash({ q: q.value, c: sel.value }); }
    q.addEventListener("input", schedule(apply));
    sel.addEventListener("change", apply);
    $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
    apply();
    W.view = table;
  }

  // --- the tournaments index -----------------------------------------------------------------------
  function tournamentsApp() {
    var T = W.tournaments, n = T.pg.length;
    var table = new VTable($("list"), null), q = $("q"), shown = $("shown");
    table.total = n;
    var keys = new Array(n);
    for (var i = 0; i < n; i++) keys[i] = fold(T.name[i] + "\u0001" + T.place[i] + "\u0001" + T.rule[i]);
    function text(k) { return function (i) { return T[k][i] ? fold(T[k][i]) : null; }; }
    var cols = [
      { label: "Tournament", cls: "nm", first: 1, key: text("name"), html: function (i) { return "<a href=\"tournaments/" + esc(T.pg[i]) + ".html\">" + esc(T.name[i]) + "</a>"; } },
      { label: "Place", first: 1, key: text("place"), html: function (i) { return esc(T.place[i]); } },
      { label: "Rated games", cls: "n", first: -1, key: function (i) { return T.n[i]; }, html: function (i) { return T.n[i]; } },
      { label: "Start", first: -1, key: function (i) { return T.start[i]; }, html: function (i) { return T.start[i]; } },
      { label: "End", first: -1, key: function (i) { return T.end[i]; }, html: function (i) { return T.end[i]; } },
      { label: "Rule", first: 1, key: text("rule"), html: function (i) { return esc(T.rule[i]); } }
    ];
    table.setColumns(cols, -1, 1);  // data order: newest first
    q.value = readHash().q || "";
    function apply() {
      var w = words(q.value), ids = [];
      for (var i = 0; i < n; i++) {
        var ok = true;
        for (var j = 0; j < w.length && ok; j++) ok = keys[i].indexOf(w[j]) >= 0;
        if (ok) ids.push(i);
      }
      table.setRows(ids);
      shown.textContent = w.length ? thousands(ids.length) + " of " + thousands(n) + " shown" : "";
      writeHash({ q: q.value });
    }
    q.addEventListener("input", schedule(apply));
    $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
    apply();
    W.view = table;
  }

  // --- a player's tournaments and games -------------------------------------------------------
  // player-data: {"chart": the rating chart's data, "events": [[tournament, last day, games,
  // 2 x score, performance, bound, before, after, change, [round, code, opponent, opponent's
  // rating, round, ...](, [game id or null, ...])], ...]}, newest first. The sections are drawn
  // here (the page holds only the facts: tens of thousands of pages, the fewer bytes the better).
  var RESULT = [["l", "Loss"], ["d", "Draw"], ["w", "Win"]];
  function isoDay(d) { return new Date(d * 86400000).toISOString().slice(0, 10); }
  function score(twice) { return (twice >= 2 || twice === 0 ? String(Math.floor(twice / 2)) : "") + (twice % 2 ? "\u00bd" : ""); }
  function performance(value, bound) { return value === null ? "" : (bound > 0 ? "\u2265" : (bound < 0 ? "\u2264" : "")) + value; }
  function gameLink(id, text) { return "<a href=\"https://www.renju.net/game/" + esc(id) + "/\" rel=nofollow>" + text + "</a>"; }
  function playerApp() {
    var all = JSON.parse($("player-data").textContent), data = all.events;
    $("record").innerHTML = "<h2>Rating history</h2><figure class=chart data-band=1><svg role=img aria-label=\"Rating history\"></svg>" +
      "<figcaption>Band: \u00b1 one standard deviation; dashed: after the last game.</figcaption></figure>" +
      "<h2>Tournaments</h2><div id=events></div><h2>Games</h2><div id=games></div>";
    $("record").querySelector("figure").chartData = all.chart;  // drawn by the chart script
    var T = W.tournaments, P = new Players(W.players);
    function tournament(k) { return "<a href=\"../tournaments/" + esc(T.pg[k]) + ".html\">" + esc(T.name[k]) + "</a>"; }
    var html = "<p class=meta>Newest first (<a href=../about.html#tournaments>the columns</a>).</p>" +
      "<div class=scroll><table class=games><thead><tr><th class=nm>Tournament<th>Date<th>Score<th title=performance>Perf.<th>Change<th>Before<th>After<th>Games</thead><tbody>";
    data.forEach(function (e) {
      html += "<tr><td class=nm>" + tournament(e[0]) + "<td>" + isoDay(e[1]) + "<td>" + score(e[3]) + "<td>" + performance(e[4], e[5]) +
        (e[6] === null ? "<td class=new>new<td>\u2013" : "<td>" + signed(e[8]) + "<td>" + e[6]) + "<td>" + e[7] + "<td>" + e[2] + "</tr>";
    });
    $("events").innerHTML = data.length ? html + "</tbody></table></div>" : "<p>No rated games.</p>";
    html = "<p class=meta>\u25cf with Black, \u25cb with White; the opponent's rating on the day of the game.</p>" +
      "<div class=scroll><table class=\"games played\"><thead><tr><th>Round<th class=op>Opponent<th>Result<th title=colour>\u25cf\u25cb<th>Rating</thead><tbody>";
    data.forEach(function (e) {
      html += "<tr class=t><td colspan=5>" + tournament(e[0]) + " \u00b7 " + isoDay(e[1]) + "</td></tr>";
      for (var g = e[9], j = 0; j < g.length; j += 4) {  // round, code, opponent, rating
        var res = RESULT[g[j + 1] % 3], text = res[1], id = e[10] && e[10][j / 4];
        if (id) text = gameLink(id, text);
        html += "<tr><td>" + esc(g[j]) + "<td class=op>" + P.link(g[j + 2], "../", true) + "<td class=" + res[0] + ">" + text +
          "<td title=" + (g[j + 1] >= 3 ? "White>\u25cb" : "Black>\u25cf") + "<td>" + (g[j + 3] === null ? "" : g[j + 3]) + "</tr>";
      }
    });
    $("games").innerHTML = data.length ? html + "</tbody></table></div>" : "";
  }

  // --- a tournament's crosstable, drawn from its data ----------------------------------------
  // cross-data: {"rounds": [label, ...], "rows": [[#, first place, last place, player, 2 x score,
  // performance, bound, before, after, change, cells], ...]}; cells: the rounds' cells joined by
  // ",", a cell's games by " ", a game "12+b" (opponent's #, + = - result, b/w colour) or
  // "12+b@345" (game 345 on renju.net). Shown as the EGF table format writes it: "12+/b".
  var GAME = /^(\d+)([+=-])([bw])(?:@(\d+))?$/;
  function crossApp() {
    var data = JSON.parse($("cross-data").textContent), P = new Players(W.players);
    var html = "<div class=scroll><table class=cross id=cross><thead><tr><th>#<th>Place<th class=nm>Player" +
      data.rounds.map(function (r) { return "<th>" + esc(r); }).join("") +
      "<th>Score<th>Perf.<th>Before<th>After<th>Change</thead><tbody>";
    data.rows.forEach(function (x) {
      html += "<tr><td>" + x[0] + "<td>" + (x[1] === x[2] ? x[1] : x[1] + "\u2013" + x[2]) + "<td>" + P.link(x[3], "../", true);
      x[10].split(",").forEach(function (cell) {
        html += "<td>" + cell.split(" ").filter(Boolean).map(function (g) {
          var m = GAME.exec(g);
          if (!m) return esc(g);
          var text = m[1] + (m[2] === "-" ? "\u2212" : m[2]) + "/" + m[3];
          return m[4] ? gameLink(m[4], text) : text;
        }).join(" ");
      });
      html += "<td>" + score(x[4]) + "<td>" + performance(x[5], x[6]) +
        (x[7] === null ? "<td>\u2013<td>" + x[8] + "<td class=new>new" : "<td>" + x[7] + "<td>" + x[8] + "<td>" + signed(x[9])) + "</tr>";
    });
    $("standings").innerHTML = html + "</tbody></table></div>";
  }

  // --- a tournament's pairings, read from its crosstable -------------------------------------
  var CELL = /^(\d+)([+=\u2212])\/([bw])$/;
  var RESULT_CLASS = { "+": "w", "=": "d", "\u2212": "l" };
  // The crosstable's round cells hold entries "12+/b" separated by spaces (or links to the
  // games): each becomes an element coloured by its result; returns them.
  function entries(cell) {
    if (!cell.querySelector("a, span")) {
      cell.innerHTML = cell.textContent.split(/\s+/).filter(Boolean).map(function (e) {
        return "<span>" + esc(e) + "</span>";
      }).join(" ");
    }
    var found = Array.prototype.slice.call(cell.querySelectorAll("a, span"));
    found.forEach(function (e) {
      var m = CELL.exec(e.textContent);
      if (m) e.className = RESULT_CLASS[m[2]];
    });
    return found;
  }
  function pairingsApp() {
    var table = $("cross"), out = $("pairings");
    var heads = table.tHead.rows[0].cells, first = 3, last = heads.length - 5;  // round columns
    var rows = table.tBodies[0].rows, who = {}, after = {};
    Array.prototype.forEach.call(rows, function (tr) {
      var k = tr.cells[0].textContent;
      who[k] = tr.cells[2].innerHTML;
      after[k] = +tr.cells[tr.cells.length - 2].textContent;
    });
    var html = "";
    for (var c = first; c < last; c++) {
      var games = [];
      Array.prototype.forEach.call(rows, function (tr) {
        var me = tr.cells[0].textContent;
        entries(tr.cells[c]).forEach(function (e) {
          var m = CELL.exec(e.textContent);
          if (!m || m[3] !== "b") return;  // each game once: from Black's row
          var result = m[2] === "+" ? "1 : 0" : (m[2] === "=" ? "\u00bd : \u00bd" : "0 : 1");
          if (e.tagName === "A") result = "<a href=\"" + esc(e.getAttribute("href")) + "\" rel=nofollow>" + result + "</a>";
          games.push({ b: me, w: m[1], r: result });
        });
      });
      if (!games.length) continue;
      games.sort(function (x, y) {
        var hx = Math.max(after[x.b], after[x.w]), hy = Math.max(after[y.b], after[y.w]);
        return hy - hx || Math.min(after[y.b], after[y.w]) - Math.min(after[x.b], after[x.w]);
      });
      html += "<h3>Round " + esc(heads[c].textContent) + "</h3><div class=scroll><table class=pairings><thead><tr><th class=nm>Black<th>After<th>Result<th>After<th>White</thead><tbody>";
      games.forEach(function (g) {
        html += "<tr><td class=\"nm pl\">" + who[g.b] + "<td>" + after[g.b] + "<td class=res>" + g.r + "<td>" + after[g.w] + "<td class=pl>" + who[g.w] + "</tr>";
      });
      html += "</tbody></table></div>";
    }
    out.innerHTML = "<h2>Pairings by round</h2>" + (html || "<p>No games.</p>");
  }

  // --- a plain filter over a static table's groups (the games not rated) ----------------------
  function filterApp() {
    var q = $("q"), box = $("excluded"), shown = $("shown");
    if (!q || !box) return;
    var groups = Array.prototype.slice.call(box.querySelectorAll("section.group"));
    var keys = groups.map(function (g) { return fold(g.textContent); });
    q.value = readHash().q || "";
    function apply() {
      var w = words(q.value), c = 0;
      groups.forEach(function (g, i) {
        var ok = w.every(function (x) { return keys[i].indexOf(x) >= 0; });
        g.hidden = !ok;
        if (ok) c++;
      });
      shown.textContent = w.length ? c + " of " + groups.length + " tournaments shown" : groups.length + " tournaments";
      if (w.length) writeHash({ q: q.value });
    }
    q.addEventListener("input", schedule(apply));
    $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
    apply();
  }

  function init() {
    if (CFG.list && W.lists && W.players) listApp();
    else if (CFG.page === "players" && W.players) playersApp();
    else if (CFG.page === "tournaments" && W.tournaments) tournamentsApp();
    else if (CFG.page === "excluded") filterApp();
    if ($("player-data") && W.players && W.tournaments) playerApp();
    if ($("cross-data") && W.players) crossApp();
    if ($("cross") && $("pairings")) pairingsApp();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();

// Rating charts drawn as SVG: one or more series (days since 1970-01-01, ratings), an optional
// uncertainty band (rating ± std), date ticks that fit the width (years, or months for a short
// history), a legend below the chart and a hover read-out. No dependencies.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var DAY = 86400000;
  var COLOURS = ["#1f5fa8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#17becf", "#ff7f0e", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
    "#3182bd", "#31a354", "#756bb1"];
  var MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60, 120, 240];

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function isoDay(d) { return new Date(d * DAY).toISOString().slice(0, 10); }

  // Date ticks: the first day of every step-th month, with as many as fit in the width.
  function dateTicks(t0, t1, width) {
    var most = Math.max(2, Math.floor(width / 64));
    var a = new Date(t0 * DAY), b = new Date(t1 * DAY);
    var m0 = a.getUTCFullYear() * 12 + a.getUTCMonth(), m1 = b.getUTCFullYear() * 12 + b.getUTCMonth();
    var step = MONTH_STEPS[MONTH_STEPS.length - 1];
    for (var i = 0; i < MONTH_STEPS.length; i++) {
      if ((m1 - m0) / MONTH_STEPS[i] + 1 <= most) { step = MONTH_STEPS[i]; break; }
    }
    var ticks = [];
    for (var m = Math.ceil(m0 / step) * step; m <= m1 + 1; m += step) {
      var t = Date.UTC(Math.floor(m / 12), m % 12, 1) / DAY;
      if (t < t0 || t > t1) continue;
      var y = Math.floor(m / 12), mm = m % 12 + 1;
      ticks.push([t, step >= 12 ? String(y) : y + "-" + (mm < 10 ? "0" : "") + mm]);
    }
    return ticks;
  }

  function draw(svg, data, band, legendBox) {
    var series = data.series.filter(function (s) { return s.t.length > 0; });
    var W = svg.clientWidth || 800, H = svg.clientHeight || 300;
    var m = { l: 44, r: 12, t: 12, b: 24 };
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
        var un = band && s.now[2] !== null ? s.now[2] : 0;
        t1 = Math.max(t1, s.now[0]);
        r0 = Math.min(r0, s.now[1] - un); r1 = Math.max(r1, s.now[1] + un);
      }
    });
    // room on both sides, so that no point sits on an axis (a single day too)
    var padT = Math.max(15, (t1 - t0) * 0.03);
    t0 -= padT; t1 += padT;
    if (r1 - r0 < 200) { var mid = (r0 + r1) / 2; r0 = mid - 100; r1 = mid + 100; }
    var pad = (r1 - r0) * 0.05; r0 -= pad; r1 += pad;
    function X(t) { return m.l + (t - t0) / (t1 - t0) * (W - m.l - m.r); }
    function Y(r) { return H - m.b - (r - r0) / (r1 - r0) * (H - m.t - m.b); }
    var most = Math.max(3, Math.floor((H - m.t - m.b) / 36));
    var step = [25, 50, 100, 200, 250, 500].find(function (s) { return (r1 - r0) / s <= most; }) || 1000;
    for (var v = Math.ceil(r0 / step) * step; v <= r1; v += step) {
      el("line", { "class": "grid", x1: m.l, x2: W - m.r, y1: Y(v), y2: Y(v) }, svg);
      el("text", { x: m.l - 5, y: Y(v) + 4, "text-anchor": "end" }, svg).textContent = v;
    }
    dateTicks(t0, t1, W - m.l - m.r).forEach(function (tick) {
      el("line", { "class": "grid", x1: X(tick[0]), x2: X(tick[0]), y1: m.t, y2: H - m.b }, svg);
      el("text", { "class": "date", x: X(tick[0]), y: H - m.b + 15, "text-anchor": "middle" }, svg).textContent = tick[1];
    });
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
        if (band && s.u && s.now[2] !== null) {
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
      if (s.t.length === 1) el("circle", { "class": "point", cx: X(s.t[0]), cy: Y(s.r[0]), r: 3, fill: colour }, g);
      groups.push(g);
    });
    if (legendBox) {
      legendBox.innerHTML = "";
      series.forEach(function (s, k) {
        var li = document.createElement("li"), b = document.createElement("button"), i = document.createElement("i");
        b.type = "button";
        b.setAttribute("aria-pressed", "true");
        i.style.background = COLOURS[k % COLOURS.length];
        b.appendChild(i);
        b.appendChild(document.createTextNode(s.name));
        b.addEventListener("click", function () {
          var on = b.getAttribute("aria-pressed") !== "true";
          b.setAttribute("aria-pressed", on ? "true" : "false");
          groups[k].style.display = on ? "" : "none";
        });
        li.appendChild(b);
        legendBox.appendChild(li);
      });
    }
    // hover read-out: the nearest point of the nearest visible series; the list date too
    var tip = el("text", { "class": "tip", x: m.l + 8, y: m.t + 12 }, svg);
    var dot = el("circle", { r: 4, fill: "none", stroke: "#1d2330", visibility: "hidden" }, svg);
    function show(ev) {
      var box = svg.getBoundingClientRect();
      var px = (ev.clientX - box.left) * W / box.width, py = (ev.clientY - box.top) * H / box.height;
      var best = null;
      series.forEach(function (s, k) {
        if (groups[k].style.display === "none") return;
        var pts = s.t.map(function (t, i) { return [t, s.r[i], s.u ? s.u[i] : null, false]; });
        if (s.now) pts.push([s.now[0], s.now[1], s.now[2], true]);
        pts.forEach(function (p) {
          var d = Math.abs(X(p[0]) - px) + (series.length > 1 ? Math.abs(Y(p[1]) - py) : 0);
          if (!best || d < best.d) best = { d: d, s: s, p: p };
        });
      });
      if (!best) return;
      var p = best.p;
      dot.setAttribute("cx", X(p[0])); dot.setAttribute("cy", Y(p[1])); dot.setAttribute("visibility", "visible");
      tip.textContent = (series.length > 1 ? best.s.name + ": " : "") + isoDay(p[0]) + "  " + Math.round(p[1]) +
        (band && p[2] !== null ? " \u00b1 " + Math.round(p[2]) : "") + (p[3] ? " (list date)" : "");
    }
    svg.addEventListener("mousemove", show);
    svg.addEventListener("click", show);
  }

  function init() {
    var figs = document.querySelectorAll("figure.chart");
    Array.prototype.forEach.call(figs, function (fig) {
      // the data: set by the page's script (a player page), or a JSON element named by the figure
      var data = fig.chartData, source = document.getElementById(fig.getAttribute("data-chart"));
      if (!data && source) data = JSON.parse(source.textContent);
      if (!data) return;
      var svg = fig.querySelector("svg");
      var legend = null;
      if (fig.hasAttribute("data-legend")) {
        legend = document.createElement("ul");
        legend.className = "legend";
        fig.appendChild(legend);
      }
      var width = 0;
      var redraw = function () {
        width = svg.clientWidth;
        draw(svg, data, fig.hasAttribute("data-band"), legend);
      };
      redraw();
      svg.setAttribute("data-drawn", "1");
      var timer = null;
      window.addEventListener("resize", function () {
        clearTimeout(timer);
        timer = setTimeout(function () { if (svg.clientWidth !== width) redraw(); }, 150);
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
