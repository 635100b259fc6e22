// The page script of the rating site: the lists, the players and tournaments indexes, a player's
// games, a tournament's pairings, and (second part) the rating charts. No network request and no
// dependency: the data comes from data/*.js files loaded with <script> (they set window.WHR), so
// the site works from file://. Big tables are drawn virtually: only the rows on screen (and a
// margin) are in the document.
//
// The page data is read only by name: F.<payload>.<field> is a field's key in a keyed payload
// (an object, such as a list's columns) or its position in a row (an array, such as a player's
// tournament). F and RULES (the rules the list was computed with) are written in below from the
// declarations of whr/publish/site/contract.py when the site is rendered.
var WHR_FIELDS = /*@F@*/{}, WHR_RULES = /*@RULES@*/{};

// The reader's language (whr/publish/site/i18n.py): the pages are English; a reader who chose
// another language in the header's switch (remembered in localStorage) gets its catalog
// (static/lang-<code>.js, loaded before the page is drawn), the texts this script writes from
// it (tr), and the page's own texts swapped (translatePage). Without script: English.
var WHR_I18N = (function () {
  "use strict";
  var NAMES = { en: "English", zh: "\u4e2d\u6587", ru: "\u0420\u0443\u0441\u0441\u043a\u0438\u0439", ja: "\u65e5\u672c\u8a9e", ko: "\ud55c\uad6d\uc5b4" };
  var HTML_LANG = { en: "en", zh: "zh-Hans", ru: "ru", ja: "ja", ko: "ko" };
  var KEY = "whr.lang";
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  var LONG_DATE = new RegExp("^(?<day>\\d{1,2}) (?<month>" + MONTHS.join("|") + ") (?<year>\\d{4})$");
  var lang = "en", cat = null, queue = [], patterns = null;
  try { lang = localStorage.getItem(KEY) || "en"; } catch (e) { /* no storage: English */ }
  if (!NAMES[lang]) lang = "en";
  // counts with the language's digit groups (Intl.NumberFormat: 3,901 in English, Chinese and
  // Japanese, 3 901 with a no-break space in Russian); ratings, ranks, years and ids are written
  // without groups in every language, as rating lists write them (docs/site.md)
  var GROUPS = new Intl.NumberFormat(HTML_LANG[lang], { maximumFractionDigits: 0 });
  function group(n) { return n === null || n === undefined || n === "" ? "" : GROUPS.format(n); }
  var me = document.currentScript, src = me && me.src ? me.src : "";

  function tr(s, a) {
    var m = (cat && cat.m[s]) || s;
    return a ? m.replace(/%\((\w+)\)s/g, function (x, k) { return a[k]; }) : m;
  }
  function ptr(context, s, a) {  // a message with a context: one English word, two meanings
    var m = cat && cat.m[context + "\u0004" + s];
    return m ? tr(m, a) : tr(s, a);
  }
  function country(code, name) { return (cat && cat.c[code]) || name; }
  // "30 November 2026" as the language writes it
  function longDate(s) {
    var d = LONG_DATE.exec(s);
    if (!d || lang === "en") return null;
    var day = new Date(Date.UTC(+d.groups.year, MONTHS.indexOf(d.groups.month), +d.groups.day));
    return new Intl.DateTimeFormat(HTML_LANG[lang], { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(day);
  }
  function escapeHtml(s) {
    return s.replace(/[&<>\u00a0]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\u00a0": "&nbsp;" }[c]; });
  }
  // the messages with values, as patterns of their English text (html: of their HTML; a
  // message with tags in it is HTML already)
  function compile(html) {
    return Object.keys(cat.m).filter(function (k) { return k.indexOf("%(") >= 0; }).map(function (k) {
      var names = [], markup = k.indexOf("<") >= 0;
      var re = k.split(/%\((\w+)\)s/).map(function (part, i) {
        if (i % 2) { names.push(part); return "([\\s\\S]+?)"; }
        return (html && !markup ? escapeHtml(part) : part).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      }).join("");
      return { re: new RegExp("^" + re + "$"), names: names, to: cat.m[k], fixed: k.replace(/%\(\w+\)s/g, "").length };
    }).sort(function (a, b) { return b.fixed - a.fixed; });  // the most specific first
  }
  // a count of the English page ("3,901") as the language groups digits
  function number(s) { return lang !== "en" && /^\d{1,3}(,\d{3})+$/.test(s) ? group(+s.replace(/,/g, "")) : s; }
  function value(v) {  // a message's value: a message itself (a country, "Renju"), a date, a number
    var t = cat.m[v] || cat.n[v] || longDate(v) || (number(v) !== v && number(v));
    return t || (/[A-Za-z]{2}/.test(v) && translate(v, false)) || v;
  }
  function translate(s, html) {
    var t = s.trim();
    if (!t) return null;
    if (!html && t.indexOf("\u00b7") >= 0) {  // "List of 2026-11-30 · Whole-History Rating ·": part by part
      var parts = s.split(/(\s*\u00b7\s*)/), any = false;
      parts = parts.map(function (x, i) {
        var y = i % 2 || !x.trim() ? null : translate(x, false);
        any = any || y !== null;
        return y === null ? x : y;
      });
      return any ? parts.join("") : null;
    }
    var exact = cat.m[t] || cat.n[t];
    if (exact) return s.replace(t, exact);
    var core = /^(?<before>[(:\s]*)(?<text>[\s\S]*?)(?<after>[().:;,\s]*)$/.exec(t).groups;  // "(current)", "White (" before a link
    exact = core.text !== t && (cat.m[core.text] || cat.n[core.text]);
    if (exact) return s.replace(t, core.before + exact + core.after);
    var d = longDate(t) || (number(t) !== t && number(t));
    if (d) return s.replace(t, d);
    if (!patterns) patterns = { text: compile(false), html: compile(true) };
    var list = html ? patterns.html : patterns.text;
    for (var p = 0; p < list.length; p++) {
      var m = list[p].re.exec(t);
      if (!m) continue;
      var values = {};
      list[p].names.forEach(function (n, k) { values[n] = value(m[k + 1]); });
      return s.replace(t, list[p].to.replace(/%\((\w+)\)s/g, function (x, n) { return values[n]; }));
    }
    return null;
  }
  var SKIP = "script,style,code,[lang]:not(html),[translate=no],table.v tbody";
  function translatePage() {
    if (!cat) return;
    document.documentElement.lang = HTML_LANG[lang];
    var marked = document.querySelectorAll("[data-i18n]");
    for (var i = 0; i < marked.length; i++) {
      var h = translate(marked[i].innerHTML, true);
      if (h !== null) marked[i].innerHTML = h;
    }
    Array.prototype.forEach.call(document.querySelectorAll("[data-c]"), function (e) {  // a country, by its code
      e.textContent = country(e.getAttribute("data-c"), e.textContent);
    });
    var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), nodes = [], n;
    while ((n = walk.nextNode())) if (!n.parentNode.closest(SKIP)) nodes.push(n);
    nodes.forEach(function (node) { var t = translate(node.nodeValue, false); if (t !== null) node.nodeValue = t; });
    ["placeholder", "aria-label", "title"].forEach(function (a) {
      Array.prototype.forEach.call(document.querySelectorAll("[" + a + "]"), function (e) {
        if (e.closest(SKIP)) return;
        var t = translate(e.getAttribute(a), false);
        if (t !== null) e.setAttribute(a, t);
      });
    });
    var title = translate(document.title, false);
    if (title !== null) document.title = title;
    // a table in the order of its first column's names (the countries) in the language's order
    Array.prototype.forEach.call(document.querySelectorAll("table[data-by-name] tbody"), function (body) {
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) { return a.firstElementChild.textContent.localeCompare(b.firstElementChild.textContent, HTML_LANG[lang]); });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  }
  // the switch, in the header: the page stays, in the other language
  function languageSwitch() {
    var header = document.querySelector("header");
    if (!header || header.querySelector("select.lang")) return;
    var sel = document.createElement("select");
    sel.className = "lang";
    sel.setAttribute("aria-label", tr("Language"));
    Object.keys(NAMES).forEach(function (k) {
      var o = document.createElement("option");
      o.value = k;
      o.lang = HTML_LANG[k];
      o.textContent = NAMES[k];
      o.selected = k === lang;
      sel.appendChild(o);
    });
    sel.addEventListener("change", function () {
      try { localStorage.setItem(KEY, sel.value); } catch (e) { /* not remembered */ }
      location.reload();
    });
    header.appendChild(sel);
  }
  function run() {
    var fns = queue;
    queue = null;
    fns.forEach(function (fn) { fn(); });
    translatePage();
    languageSwitch();
  }
  var loaded = lang === "en" || !src, domReady = document.readyState !== "loading";
  function maybe() { if (loaded && domReady && queue) run(); }
  if (!loaded) {
    var s = document.createElement("script");
    s.src = src.replace(/site\.js(?:[?#].*)?$/, "lang-" + lang + ".js");
    s.onload = function () { cat = (window.WHR || {}).i18n || null; loaded = true; maybe(); };
    s.onerror = function () { loaded = true; maybe(); };  // English, rather than nothing
    document.head.appendChild(s);
  }
  if (!domReady) document.addEventListener("DOMContentLoaded", function () { domReady = true; maybe(); });
  // the page's drawing waits for the catalog; run at once when it is there (English)
  function ready(fn) { if (queue) { queue.push(fn); if (queue.length === 1) setTimeout(maybe, 0); } else fn(); }
  // "Busan, Korea" (or "Busan, KOR"): the country, last, in the language; the city as it is
  function place(s) {
    var at = s.lastIndexOf(", "), last = at < 0 ? s : s.slice(at + 2);
    var local = cat && (cat.n[last] || cat.c[last]);
    return local ? s.slice(0, s.length - last.length) + local : s;
  }
  return { tr: tr, ptr: ptr, country: country, place: place, number: number, group: group, ready: ready, lang: function () { return lang; } };
})();
(function () {
  "use strict";
  var W = window.WHR || {}, F = WHR_FIELDS, RULES = WHR_RULES, tr = WHR_I18N.tr, ptr = WHR_I18N.ptr;
  var cfgEl = document.getElementById("cfg");
  var CFG = cfgEl ? JSON.parse(cfgEl.textContent) : {};
  var ROOT = CFG[F.cfg.root] || "";
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
  var thousands = WHR_I18N.group;  // a count, grouped as the reader's language groups digits
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
    var C = d[F.players.countries];
    this.id = d[F.players.id];
    this.name = d[F.players.name];
    this.label = d[F.players.label];
    this.native = d[F.players.native];
    this.city = d[F.players.city];
    this.country = d[F.players.country];
    this.birthYear = d[F.players.birth_year];
    this.female = d[F.players.female];
    this.pages = d[F.players.page];
    this.countries = { code: C[F.countries.code], name: C[F.countries.name] };
    this.size = this.id.length;
    this._keys = null;
  }
  Players.prototype.countryName = function (c) { return WHR_I18N.country(this.countries.code[c], this.countries.name[c]); };
  Players.prototype.page = function (i) { return this.pages[i] || this.id[i]; };
  Players.prototype.code = function (i) { var c = this.country[i]; return c < 0 ? "" : this.countries.code[c]; };
  Players.prototype.link = function (i, root, label) {
    if (i < 0) return "?";
    return "<a href=\"" + root + "p/" + esc(this.page(i)) + ".html\"" + (this.female[i] ? " class=f" : "") +
      (this.native[i] ? " title=\"" + esc(this.native[i]) + "\"" : "") + ">" + esc(this.name[i]) + "</a>" +
      (label && this.label[i] ? " <small>" + esc(this.label[i]) + "</small>" : "");
  };
  Players.prototype.keys = function () {  // what a search looks in: name, native name, id, city
    if (!this._keys) {
      var k = new Array(this.size);
      for (var i = 0; i < this.size; i++) k[i] = fold(this.name[i] + "\u0001" + this.native[i] + "\u0001" + this.id[i] + "\u0001" + this.city[i]);
      this._keys = k;
    }
    return this._keys;
  };
  Players.prototype.nameKey = function (i) { return fold(this.name[i]); };

  // a list's columns (absent ones undefined: the change without a previous list, the games and
  // country ranks on a year-end list)
  function List(d) {
    this.player = d[F.list.player];
    this.rating = d[F.list.rating];
    this.uncertainty = d[F.list.uncertainty];
    this.gy = [d[F.list.gy1], d[F.list.gy2], d[F.list.gy5]];  // in the order of RULES' windows
    this.status = d[F.list.status];
    this.rank = d[F.list.rank];
    this.gy1Rank = d[F.list.gy1_rank];
    this.previousRank = d[F.list.previous_rank];
    this.change = d[F.list.change];
    this.entered = {};  // the rows of the players who entered the ranking since the previous list
    (d[F.list.entered] || []).forEach(function (i) { this.entered[i] = true; }, this);
    this.games = d[F.list.games];
    this.countryRank = d[F.list.country_rank];
    this.gy1CountryRank = d[F.list.gy1_country_rank];
    this.size = this.player.length;
  }

  // the rules the list was computed with, as its texts state them
  var ESTABLISHED = RULES[F.rules.established_games], ACTIVE_YEARS = RULES[F.rules.active_years];
  var GY1_GAMES = RULES[F.rules.gy1_games], WINDOWS = RULES[F.rules.windows_years];
  function lastYears(y) { return y === 1 ? tr("the last year") : tr("the last %(n)s years", { n: y }); }

  // --- a virtual table -------------------------------------------------------------------------
  var ROW_HEIGHT = 30;  // table.v's row height in style.css, until a row on screen is measured
  var MARGIN_ROWS = 20;  // rows drawn above and below the screen
  // cols: [{label, title, cls, first (1 ascending, -1 descending on the first click), key(i)
  // (sort value, null = none: always last), html(i)}]. Rows are ids; ties keep the data order.
  function VTable(table, onSort) {
    var self = this;
    this.table = table;
    this.body = table.querySelector("tbody");
    this.cols = [];
    this.ids = [];
    this.sortCol = -1;
    this.dir = 1;
    this.rowH = ROW_HEIGHT;  // measured on the first visible row drawn
    this.printing = false;  // every row is in the document (to print)
    this.total = 0;  // rows of the data (ids are 0 .. total - 1)
    this.shownFirst = -1;  // the rows in the document: shownFirst .. shownLast - 1
    this.shownLast = -1;
    this.onSort = onSort;
    var pending = false;
    this.schedule = function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; self.draw(false); });
    };
    window.addEventListener("scroll", this.schedule, { passive: true });
    window.addEventListener("resize", this.schedule);
    // printing: every row (the paper has no scroll position), back to the window after
    function printing(on) { if (self.printing !== on) { self.printing = on; self.draw(true); } }
    window.addEventListener("beforeprint", function () { printing(true); });
    window.addEventListener("afterprint", function () { printing(false); });
    if (window.matchMedia) {
      var print = window.matchMedia("print");
      var onChange = function (e) { printing(e.matches); };
      if (print.addEventListener) print.addEventListener("change", onChange); else if (print.addListener) print.addListener(onChange);
    }
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
    var ths = this.table.tHead.querySelectorAll("th");
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
  // Draws the rows on screen and a margin, with spacers of the height of the rows not drawn. A
  // table that is not displayed (hidden, or in a hidden box) has no position and no row height:
  // it gets the first rows, and is drawn again when shown (apply() shows the box before it draws;
  // the scroll and resize handlers redraw). The row height is measured only on a row on screen.
  VTable.prototype.draw = function (force, remeasured) {
    var n = this.ids.length, h = this.rowH, visible = this.table.getClientRects().length > 0;
    var first = 0, last = n;
    if (!this.printing) {
      var top = visible ? this.body.getBoundingClientRect().top : 0;
      first = Math.min(n, Math.max(0, Math.floor(-top / h) - MARGIN_ROWS));
      last = Math.min(n, Math.max(first, Math.ceil((window.innerHeight - top) / h) + MARGIN_ROWS));
    }
    if (!force && first === this.shownFirst && last === this.shownLast) return;
    this.shownFirst = first;
    this.shownLast = last;
    var span = this.cols.length, html = "";
    if (first > 0) html += "<tr class=sp aria-hidden=true><td colspan=" + span + " style=\"height:" + first * h + "px\"></td></tr>";
    for (var p = first; p < last; p++) html += this.rowHtml(this.ids[p], p);
    if (last < n) html += "<tr class=sp aria-hidden=true><td colspan=" + span + " style=\"height:" + (n - last) * h + "px\"></td></tr>";
    this.body.innerHTML = html;
    var row = visible && !this.printing && this.body.querySelector("tr[aria-rowindex]");
    var measured = row ? row.getBoundingClientRect().height : 0;
    if (measured > 0 && Math.abs(measured - h) > 0.5 && !remeasured) {
      this.rowH = measured;
      this.draw(true, true);
    }
  };
  // every row's cell texts in the order shown (for programs and tests; the screen shows a window)
  VTable.prototype.rowsText = function () {
    var self = this, box = document.createElement("tbody");
    return this.ids.map(function (i, p) {
      box.innerHTML = self.rowHtml(i, p);
      return Array.prototype.map.call(box.querySelectorAll("td"), function (c) { return c.textContent; });
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
  // texts from the reader's catalog are made by texts() (init): the script runs before the
  // catalog is loaded, so a tr() here would be English
  var TAB_LABELS, STATUS, ENTERED, RESULT;
  function texts() {
    TAB_LABELS = { active: tr("Active"), gy1: "Gy1 \u2265 " + GY1_GAMES, inactive: tr("Inactive"), provisional: tr("Provisional") };
    STATUS = [tr("established, active"), tr("established, inactive"), tr("provisional")];
    ENTERED = "<span class=entered><span class=s aria-hidden=true>\u2191</span><span class=t>" + esc(tr("newly ranked")) + "</span></span>";  // the list pages' legend says what it means
    RESULT = [{ cls: "l", text: tr("Loss") }, { cls: "d", text: tr("Draw") }, { cls: "w", text: tr("Win") }];  // a player's games
  }

  function num(v) { return v === null || v === undefined ? "" : String(v); }
  function rankText(v) { return v ? String(v) : ""; }
  function rankKey(v) { return v ? v : null; }

  function listApp() {
    var P = new Players(W.players), L = new List(W.lists[CFG[F.cfg.list]]), n = L.size;
    var fixed = CFG[F.cfg.country] || "", hasChange = CFG[F.cfg.change], startTab = CFG[F.cfg.tab];
    var table = new VTable($("list"), save);
    table.total = n;
    var q = $("q"), sel = $("c"), shown = $("shown");
    var keys = P.keys(), code = new Array(n);
    for (var i = 0; i < n; i++) code[i] = P.code(L.player[i]);
    var inTab = {
      active: function (i) { return L.status[i] === 0; },
      gy1: function (i) { return (fixed ? L.gy1CountryRank[i] : L.gy1Rank[i]) > 0; },
      inactive: function (i) { return L.status[i] === 1; },
      provisional: function (i) { return L.status[i] === 2; }
    };
    var total = {};
    Object.keys(inTab).forEach(function (t) {
      var c = 0;
      for (var i = 0; i < n; i++) if ((!fixed || code[i] === fixed) && inTab[t](i)) c++;
      total[t] = c;
    });
    var state = readHash();
    var tab = inTab[state.t] ? state.t : startTab;
    q.value = state.q || "";
    var country = fixed || state.c || "";

    var player = { label: tr("Player"), cls: "nm", first: 1, key: function (i) { return P.nameKey(L.player[i]); },
      html: function (i) { return (L.entered[i] ? ENTERED + " " : "") + P.link(L.player[i], ROOT, false); } };  // the mark first: a long name is cut, not the mark
    var rating = { label: tr("Rating"), cls: "n", first: -1, key: function (i) { return L.rating[i]; }, html: function (i) { return L.rating[i]; } };
    var change = { label: tr("Change"), title: tr("rating change since the previous list"), cls: "n", first: -1,
      key: function (i) { return L.change[i] === "n" ? null : L.change[i]; },
      html: function (i) { var d = L.change[i]; return d === "n" ? "<span class=new>" + esc(tr("new")) + "</span>" : (d === null ? "" : signed(d)); } };
    var unc = { label: "\u00b1", title: tr("uncertainty: one standard deviation, Elo"), cls: "n u", first: 1, key: function (i) { return L.uncertainty[i]; }, html: function (i) { return num(L.uncertainty[i]); } };
    function count(k) {
      var values = L.gy[k];
      return { label: "Gy" + WINDOWS[k], title: tr("rated games in %(years)s", { years: lastYears(WINDOWS[k]) }), cls: "n", first: -1, key: function (i) { return values[i]; }, html: function (i) { return thousands(values[i]); } };
    }
    var tail = [count(0), count(1), count(2),
      { label: tr("Country"), first: 1, key: function (i) { return code[i]; }, html: function (i) { return esc(code[i]); } },
      { label: tr("BY"), title: tr("birth year"), cls: "n", first: 1, key: function (i) { return P.birthYear[L.player[i]] || null; }, html: function (i) { return P.birthYear[L.player[i]] || ""; } }];
    function rankCol(label, values, title) { return { label: label, title: title, cls: "n", first: 1, key: function (i) { return rankKey(values[i]); }, html: function (i) { return rankText(values[i]); } }; }

    // what matters most comes first (a phone shows about four columns): rank, player, rating,
    // change; then the other ranks, the uncertainty and the activity counts
    function columns(t) {
      var cols = [], more = [];
      if (t === "active") {
        cols.push(rankCol(tr("Rank"), fixed ? L.countryRank : L.rank, fixed ? tr("rank in the country") : tr("rank among established active players")));
        if (fixed) more.push(rankCol(tr("World"), L.rank, tr("rank on the world list")));
        else if (hasChange) more.push(rankCol(tr("Prev."), L.previousRank, tr("rank on the previous list")));
      } else if (t === "gy1") {
        cols.push(rankCol(tr("Rank"), fixed ? L.gy1CountryRank : L.gy1Rank, tr("rank among the players of this list")));
        more.push(rankCol(tr("World"), L.rank, tr("rank on the world list of established active players")));
      }
      cols.push(player, rating);
      if (hasChange) cols.push(change);
      return cols.concat(more, [unc], tail);
    }
    var NOTES = {
      gy1: tr("Established players with at least %(n)s rated games in the year up to the list date (the RIF's \u201cGy1 \u2265 %(n)s\u201d list). Rank: among them; World: the rank on the list of established active players.", { n: GY1_GAMES }),
      inactive: tr("Established players whose last rated game is more than %(n)s years before the list date: not ranked.", { n: ACTIVE_YEARS }),
      provisional: tr("Players with at most %(n)s rated games: not ranked.", { n: ESTABLISHED - 1 })
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
      var C = P.countries;
      for (var c = 0; c < C.code.length; c++) if (seen[C.code[c]]) list.push(c);
      list.sort(function (a, b) { return P.countryName(a).localeCompare(P.countryName(b), WHR_I18N.lang()); });
      var html = "<option value=\"\">" + esc(tr("All countries")) + "</option>", found = false;
      list.forEach(function (c) {
        found = found || C.code[c] === country;
        html += "<option value=\"" + esc(C.code[c]) + "\">" + esc(P.countryName(c)) + " (" + thousands(seen[C.code[c]]) + ")</option>";
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
        var k = keys[L.player[i]], ok = true;
        for (var j = 0; j < w.length && ok; j++) ok = k.indexOf(w[j]) >= 0;
        if (!ok) continue;
        for (var t = 0; t < tabs.length; t++) if (inTab[tabs[t]](i)) hits[tabs[t]]++;
        if (inTab[tab](i)) ids.push(i);
      }
      var filtered = w.length > 0 || (c && !fixed);
      var empty = total[tab] === 0;
      $("filters").hidden = empty;
      $("list").parentNode.hidden = empty || ids.length === 0;
      table.setRows(ids);  // after the box is shown: a hidden table cannot be measured
      var text;
      if (empty) text = tr("No players in this part of the list.");
      else if (!filtered) text = tr("%(n)s players", { n: thousands(ids.length) });
      else text = tr("%(n)s of %(total)s shown", { n: thousands(ids.length), total: thousands(total[tab]) });
      var also = tabs.filter(function (t) { return t !== tab && filtered && hits[t] > 0; });
      shown.innerHTML = esc(text) + (also.length ? " · " + esc(tr("also found:")) + " " + also.map(function (t) {
        return "<a href=\"" + esc(hashOf({ t: t, q: q.value, c: fixed ? "" : c })) + "\">" + esc(tr("%(n)s in %(part)s", { n: thousands(hits[t]), part: TAB_LABELS[t] })) + "</a>";
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
    function save() { writeHash({ t: tab === startTab ? "" : tab, q: q.value, c: fixed ? "" : country }); }
    setTab(tab);
    var later = schedule(apply);
    q.addEventListener("input", later);
    if (sel) sel.addEventListener("change", apply);
    $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
    window.addEventListener("hashchange", function () {
      if (location.hash.indexOf("=") < 0) return;  // a place on the page (#main), not a state
      var s = readHash();
      q.value = s.q || "";
      if (!fixed) country = s.c || "";
      var t = inTab[s.t] ? s.t : startTab;
      if (t !== tab) setTab(t); else fillCountries();
      apply();
    });
    apply();
    W.view = table;
  }


  // --- the players index -------------------------------------------------------------------------
  function playersApp() {
    var P = new Players(W.players), L = new List(W.lists.current), n = P.size;
    var pos = new Array(n);
    for (var j = 0; j < L.size; j++) pos[L.player[j]] = j;
    var table = new VTable($("list"), save), q = $("q"), sel = $("c"), shown = $("shown");
    table.total = n;
    var keys = P.keys();
    function val(values) { return function (i) { return values[pos[i]]; }; }
    var cols = [
      { label: tr("ID"), first: 1, key: function (i) { return i; }, html: function (i) { return esc(P.id[i]); } },
      { label: tr("Player"), cls: "nm", first: 1, key: function (i) { return P.nameKey(i); }, html: function (i) { return P.link(i, "", false); } },
      { label: tr("Rating"), cls: "n", first: -1, key: val(L.rating), html: val(L.rating) },
      { label: "\u00b1", cls: "n u", first: 1, key: val(L.uncertainty), html: function (i) { return num(L.uncertainty[pos[i]]); } },
      { label: tr("Games"), cls: "n", first: -1, key: val(L.games), html: function (i) { return thousands(L.games[pos[i]]); } },
      { label: tr("Rank"), cls: "n", first: 1, key: function (i) { return rankKey(L.rank[pos[i]]); }, html: function (i) { return rankText(L.rank[pos[i]]); } },
      { label: tr("Status"), first: 1, key: val(L.status), html: function (i) { return STATUS[L.status[pos[i]]]; } },
      { label: tr("BY"), cls: "n", first: 1, key: function (i) { return P.birthYear[i] || null; }, html: function (i) { return P.birthYear[i] || ""; } },
      { label: tr("City"), first: 1, key: function (i) { return P.city[i] ? fold(P.city[i]) : null; }, html: function (i) { return esc(P.city[i]); } },
      { label: tr("Country"), first: 1, key: function (i) { return P.code(i) || null; }, html: function (i) { return esc(P.code(i)); } }
    ];
    table.setColumns(cols, 0, 1);
    var state = readHash();
    q.value = state.q || "";
    var C = P.countries, html = "<option value=\"\">" + esc(tr("All countries")) + "</option>", order = [];
    for (var c = 0; c < C.code.length; c++) order.push(c);
    order.sort(function (a, b) { return P.countryName(a).localeCompare(P.countryName(b), WHR_I18N.lang()); });
    order.forEach(function (c) { html += "<option value=\"" + esc(C.code[c]) + "\">" + esc(P.countryName(c)) + "</option>"; });
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
      shown.textContent = (w.length || cc) ? tr("%(n)s of %(total)s shown", { n: thousands(ids.length), total: thousands(n) }) : tr("%(n)s players", { n: thousands(n) });
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
  function Tournaments(d) {
    this.page = d[F.tournaments.page];
    this.name = d[F.tournaments.name];
    this.place = d[F.tournaments.place];
    this.games = d[F.tournaments.games];
    this.start = d[F.tournaments.start];
    this.end = d[F.tournaments.end];
    this.rule = d[F.tournaments.rule];
    this.size = this.page.length;
  }
  function tournamentsApp() {
    var T = new Tournaments(W.tournaments), n = T.size;
    var table = new VTable($("list"), null), q = $("q"), shown = $("shown");
    table.total = n;
    var keys = new Array(n);
    for (var i = 0; i < n; i++) keys[i] = fold(T.name[i] + "\u0001" + T.place[i] + "\u0001" + T.rule[i]);
    function text(values) { return function (i) { return values[i] ? fold(values[i]) : null; }; }
    function value(values) { return function (i) { return values[i]; }; }
    var cols = [
      { label: tr("Tournament"), cls: "nm", first: 1, key: text(T.name), html: function (i) { return "<a href=\"tournaments/" + esc(T.page[i]) + ".html\">" + esc(T.name[i]) + "</a>"; } },
      { label: tr("Place"), first: 1, key: text(T.place), html: function (i) { return esc(WHR_I18N.place(T.place[i])); } },
      { label: tr("Rated games"), cls: "n", first: -1, key: value(T.games), html: function (i) { return thousands(T.games[i]); } },
      { label: tr("Start"), first: -1, key: value(T.start), html: value(T.start) },
      { label: tr("End"), first: -1, key: value(T.end), html: value(T.end) },
      { label: tr("Rule"), first: 1, key: text(T.rule), html: function (i) { return esc(T.rule[i]); } }
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
      shown.textContent = w.length ? tr("%(n)s of %(total)s shown", { n: thousands(ids.length), total: thousands(n) }) : "";
      writeHash({ q: q.value });
    }
    q.addEventListener("input", schedule(apply));
    $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
    apply();
    W.view = table;
  }

  // --- a player's tournaments and games -------------------------------------------------------
  // player-data (contract.PLAYER): the rating chart's data and the player's tournaments (event
  // rows), newest first, each with its games (game rows, flat). The sections are drawn here (the
  // page holds the facts and a short static list of the tournaments, whose names and links are
  // read from it: tens of thousands of pages, the fewer bytes the better).
  var GAME_SIZE = Object.keys(F.game).length;  // the numbers of one game in the flat rows
  function isoDay(d) { return new Date(d * 86400000).toISOString().slice(0, 10); }
  function score(twice) { return (twice >= 2 || twice === 0 ? String(Math.floor(twice / 2)) : "") + (twice % 2 ? "\u00bd" : ""); }
  function performance(value, bound) { return value === null ? "" : (bound > 0 ? "\u2265" : (bound < 0 ? "\u2264" : "")) + value; }
  function gameLink(id, text, cls) { return "<a" + (cls ? " class=" + cls : "") + " href=\"https://www.renju.net/game/" + esc(id) + "/\" rel=nofollow>" + text + "</a>"; }
  function atTheTime(e, note) {  // before -> after as the lists showed them then, and the change as displayed
    var b = e[F.event.then_before], a = e[F.event.then_after];
    if (a === null) return "<td>\u2013";
    return "<td>" + (b === null ? tr("new") + " \u2192 " + a : b + " \u2192 " + a + " (" + signed(e[F.event.then_change]) + ")") +
      (note ? "<small class=with>" + esc(note) + "</small>" : "");  // (translated with the page)
  }
  // today's estimates before and after a tournament: the chart's points just before its rating
  // days (null: none, new) and at the last (the last rating day at or before its last day)
  function beforeAfter(series, e) {
    var t = series ? series[F.series.day] : [], r = series ? series[F.series.rating] : [], day = e[F.event.last_day], lo = 0, hi = t.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (t[mid] <= day) lo = mid + 1; else hi = mid; }
    var b = lo - 1 - e[F.event.span];
    return { before: b >= 0 ? r[b] : null, after: lo ? r[lo - 1] : null };
  }
  function playerApp() {
    var all = JSON.parse($("player-data").textContent), data = all[F.player.events];
    // the tournaments' names and links, from the page's static list (in the events' order)
    // and the notes of the tournaments one list first rated together ("with ...")
    var items = Array.prototype.slice.call($("record").querySelectorAll("ul.events > li"));
    var links = items.map(function (li) {
      var a = li.querySelector("a");
      return a ? "<a href=\"" + esc(a.getAttribute("href")) + "\">" + esc(a.textContent) + "</a>" : "";
    });
    var notes = items.map(function (li) { var n = li.querySelector("small"); return n ? n.textContent : ""; });
    var series = all[F.player.chart][F.chart.series][0];
    $("record").innerHTML = "<h2>" + tr("Rating history") + "</h2><figure class=chart data-band=1 data-days=1><svg role=img aria-label=\"" + esc(tr("Rating history")) + "\"></svg>" +
      "<figcaption>" + tr("Dots: the days the player played; band: \u00b1 one standard deviation; dashed: after the last game.") + "</figcaption></figure>" +
      "<h2>" + tr("Tournaments") + "</h2><div id=events></div><h2>" + tr("Games") + "</h2><div id=games></div>";
    $("record").querySelector("figure").chartData = all[F.player.chart];  // drawn by the chart script
    var P = new Players(W.players);
    function tournament(k) { return links[k] || ""; }
    var columns = "<a href=../about.html#tournaments>" + tr("the columns") + "</a>";
    var html = "<p class=meta>" + tr("Newest first (%(link)s).", { link: columns }) + "</p>" +
      "<p class=meta id=at-the-time>" + tr("At the time: the player\u2019s rating on the list just before the tournament was first rated \u2192 on the first list that rated it, and the change then.") + "</p>" +
      "<p class=meta id=today-estimates>" + tr("Before, After: today\u2019s whole-history estimates of the rating just before and just after the tournament (they move as later results come in); Change = After \u2212 Before.") + "</p>" +
      "<div class=scroll><table class=games><thead><tr><th class=nm>" + tr("Tournament") + "<th>" + tr("Date") + "<th>" + tr("Score") + "<th title=\"" + esc(tr("performance")) + "\">" + tr("Perf.") +
      "<th title=\"" + esc(tr("as the lists showed it then")) + "\">" + tr("At the time") +
      "<th title=\"" + esc(tr("After \u2212 Before")) + "\">" + tr("Change") + "<th title=\"" + esc(tr("today's estimate")) + "\">" + tr("Before") + "<th title=\"" + esc(tr("today's estimate")) + "\">" + tr("After") + "<th>" + tr("Games") + "</thead><tbody>";
    data.forEach(function (e, k) {
      var today = beforeAfter(series, e), before = today.before, after = today.after;
      html += "<tr><td class=nm>" + tournament(k) + "<td>" + isoDay(e[F.event.last_day]) + "<td>" + score(e[F.event.score2]) +
        "<td>" + performance(e[F.event.performance], e[F.event.bound]) + atTheTime(e, notes[k]) +
        (before === null ? "<td class=new>" + tr("new") + "<td>\u2013" : "<td>" + (after === null ? "" : signed(after - before)) + "<td>" + before) +
        "<td>" + (after === null ? "" : after) + "<td>" + e[F.event.games] + "</tr>";
    });
    $("events").innerHTML = data.length ? html + "</tbody></table></div>" : "<p>" + tr("No rated games.") + "</p>";
    html = "<p class=meta>" + tr("\u25cf with Black, \u25cb with White; the opponent's rating on the day of the game.") + "</p>" +
      "<div class=scroll><table class=\"games played\"><thead><tr><th>" + tr("Round") + "<th class=op>" + tr("Opponent") + "<th>" + tr("Result") + "<th title=\"" + esc(tr("colour")) + "\">\u25cf\u25cb<th>" + tr("Rating") + "</thead><tbody>";
    data.forEach(function (e, k) {
      html += "<tr class=t><td colspan=5>" + tournament(k) + " \u00b7 " + isoDay(e[F.event.last_day]) + "</td></tr>";
      var ids = e[F.event.ids];
      for (var g = e[F.event.played], j = 0; j < g.length; j += GAME_SIZE) {
        var code = g[j + F.game.code], res = RESULT[code % 3], text = res.text, id = ids && ids[j / GAME_SIZE];
        if (id) text = gameLink(id, text);
        html += "<tr><td>" + esc(g[j + F.game.round]) + "<td class=op>" + P.link(g[j + F.game.opponent], "../", true) + "<td class=" + res.cls + ">" + text +
          "<td title=\"" + (code >= 3 ? tr("White") + "\">\u25cb" : tr("Black") + "\">\u25cf") + "<td>" + (g[j + F.game.opponent_rating] === null ? "" : g[j + F.game.opponent_rating]) + "</tr>";
      }
    });
    $("games").innerHTML = data.length ? html + "</tbody></table></div>" : "";
  }

  // --- a tournament's crosstable and its pairings, drawn from its data ------------------------
  // cross-data (contract.CROSS): the round labels and the standing rows. A standing's cells: the
  // rounds' cells joined by ",", a cell's games by " ", a game "12+b" (opponent's #, + = -
  // result, b/w colour) or "12+b@345" (game 345 on renju.net). Shown as the EGF table format
  // writes it: "12+/b", coloured by the result.
  var GAME = /^(?<opponent>\d+)(?<result>[+=-])(?<colour>[bw])(?:@(?<id>\d+))?$/;
  var RESULT_CLASS = { "+": "w", "=": "d", "-": "l" };
  var RESULT_TEXT = { "+": "1 : 0", "=": "\u00bd : \u00bd", "-": "0 : 1" };
  function crossApp() {
    var data = JSON.parse($("cross-data").textContent), P = new Players(W.players);
    var rounds = data[F.cross.rounds], rows = data[F.cross.rows];
    var who = {}, after = {}, byRound = rounds.map(function () { return []; });
    // place, number, player and score first (on a phone: together on the first screen); the
    // number and the name stay in view while the rounds scroll (the cells refer to the number)
    var html = "<div class=scroll tabindex=0><table class=cross id=cross><thead><tr><th class=n>" + ptr("standings", "Place") + "<th class=no>#<th class=nm>" + tr("Player") + "<th class=\"n sc\">" + tr("Score") +
      rounds.map(function (r) { return "<th>" + esc(r); }).join("") +
      "<th class=n>" + tr("Perf.") + "<th class=n>" + tr("Before") + "<th class=n>" + tr("After") + "<th class=n>" + tr("Change") + "</thead><tbody>";
    rows.forEach(function (x) {
      var me = String(x[F.standing.number]), first = x[F.standing.place_first], last = x[F.standing.place_last];
      who[me] = P.link(x[F.standing.player], "../", true);
      after[me] = x[F.standing.after] === null ? NaN : x[F.standing.after];
      html += "<tr><td class=n>" + (first === last ? first : first + "\u2013" + last) + "<td class=no>" + me + "<td class=nm>" + who[me] +
        "<td class=\"n sc\">" + score(x[F.standing.score2]);
      x[F.standing.cells].split(",").forEach(function (cell, c) {
        html += "<td>" + cell.split(" ").filter(Boolean).map(function (g) {
          var m = GAME.exec(g);
          if (!m) return esc(g);
          var game = m.groups, text = game.opponent + (game.result === "-" ? "\u2212" : game.result) + "/" + game.colour;
          var cls = RESULT_CLASS[game.result];
          if (game.colour === "b" && c < byRound.length) {  // each game once: from Black's row
            var result = RESULT_TEXT[game.result];
            byRound[c].push({ black: me, white: game.opponent, result: game.id ? gameLink(game.id, result) : result });
          }
          return game.id ? gameLink(game.id, text, cls) : "<span class=" + cls + ">" + text + "</span>";
        }).join(" ");
      });
      html += "<td class=n>" + performance(x[F.standing.performance], x[F.standing.bound]) +
        (x[F.standing.before] === null ? "<td class=n>\u2013<td class=n>" + x[F.standing.after] + "<td class=\"n new\">" + tr("new") : "<td class=n>" + x[F.standing.before] + "<td class=n>" + x[F.standing.after] + "<td class=n>" + signed(x[F.standing.change])) + "</tr>";
    });
    $("standings").innerHTML = html + "</tbody></table></div>";
    if ($("pairings")) pairings(rounds, byRound, who, after);
  }
  // the pairings by round, the best pairs first (by the higher, then the lower rating after)
  function pairings(rounds, byRound, who, after) {
    var html = "";
    byRound.forEach(function (games, c) {
      if (!games.length) return;
      games.sort(function (x, y) {
        var hx = Math.max(after[x.black], after[x.white]), hy = Math.max(after[y.black], after[y.white]);
        return hy - hx || Math.min(after[y.black], after[y.white]) - Math.min(after[x.black], after[x.white]);
      });
      html += "<h3>" + esc(tr("Round %(round)s", { round: rounds[c] })) + "</h3><div class=scroll><table class=pairings><thead><tr><th class=nm>" + tr("Black") + "<th>" + tr("After") + "<th>" + tr("Result") + "<th>" + tr("After") + "<th>" + tr("White") + "</thead><tbody>";
      games.forEach(function (g) {
        html += "<tr><td class=\"nm pl\">" + who[g.black] + "<td>" + after[g.black] + "<td class=res>" + g.result + "<td>" + after[g.white] + "<td class=pl>" + who[g.white] + "</tr>";
      });
      html += "</tbody></table></div>";
    });
    $("pairings").innerHTML = "<h2>" + tr("Pairings by round") + "</h2>" + (html || "<p>" + tr("No games.") + "</p>");
  }

  // --- the games not rated, drawn from their data file (contract.EXCLUDED) ------------------
  // searched by player (name or id), tournament, reason, message or game id; #t=<page> shows one
  // tournament's games (the tournament pages link so)
  function excludedApp() {
    var X = W.excluded, q = $("q"), shown = $("shown");
    if (!X || !q || !$("excluded-list")) return;
    var game = X[F.excluded.game], tour = X[F.excluded.tournament], black = X[F.excluded.black], white = X[F.excluded.white];
    var reason = X[F.excluded.reason], message = X[F.excluded.message], n = game.length;
    var tNames = X[F.excluded.tournaments], tPages = X[F.excluded.pages], tEnds = X[F.excluded.ends];
    var pIds = X[F.excluded.player_ids], pNames = X[F.excluded.player_names];
    var reasons = X[F.excluded.reasons], messages = X[F.excluded.messages];
    var table = new VTable($("excluded-list"), null);
    table.total = n;
    function who(k) { return k < 0 ? "" : pNames[k] + "\u0001" + pIds[k]; }
    var keys = new Array(n);
    for (var i = 0; i < n; i++) {
      keys[i] = fold(game[i] + "\u0001" + tNames[tour[i]] + "\u0001" + who(black[i]) + "\u0001" + who(white[i]) +
        "\u0001" + reasons[reason[i]] + "\u0001" + messages[message[i]]);
    }
    function player(k) { return k < 0 ? "\u2013" : esc(pNames[k]) + " <small>" + esc(pIds[k]) + "</small>"; }
    function text(values, at) { return function (i) { return fold(values[at[i]]) || null; }; }
    var cols = [
      { label: tr("Tournament"), cls: "nm", first: 1, key: text(tNames, tour), html: function (i) {
        var t = tour[i];
        return tPages[t] ? "<a href=\"tournaments/" + esc(tPages[t]) + ".html\">" + esc(tNames[t]) + "</a>" : esc(tNames[t]);
      } },
      { label: tr("End"), first: -1, key: function (i) { return tEnds[tour[i]] || null; }, html: function (i) { return esc(tEnds[tour[i]]); } },
      { label: tr("Game"), first: 1, key: function (i) { return game[i]; }, html: function (i) { return esc(game[i]); } },
      { label: tr("Black"), first: 1, key: function (i) { return black[i] < 0 ? null : fold(pNames[black[i]]); }, html: function (i) { return player(black[i]); } },
      { label: tr("White"), first: 1, key: function (i) { return white[i] < 0 ? null : fold(pNames[white[i]]); }, html: function (i) { return player(white[i]); } },
      { label: tr("Reason"), cls: "why", first: 1, key: function (i) { return reasons[reason[i]]; }, html: function (i) {
        var m = messages[message[i]];
        // the message is the rules' own English sentence (the legend above says the reason in
        // the reader's language); cut to the column, whole in its title
        return "<code>" + esc(reasons[reason[i]]) + "</code>" + (m ? " <span lang=en title=\"" + esc(m) + "\">" + esc(m) + "</span>" : "");
      } }
    ];
    table.setColumns(cols, -1, 1);  // data order: newest tournament first
    var state = readHash(), only = state.t || "";
    q.value = state.q || "";
    function apply() {
      var w = words(q.value), ids = [];
      for (var i = 0; i < n; i++) {
        if (only && tPages[tour[i]] !== only) continue;
        var ok = true;
        for (var j = 0; j < w.length && ok; j++) ok = keys[i].indexOf(w[j]) >= 0;
        if (ok) ids.push(i);
      }
      table.setRows(ids);
      $("excluded-list").parentNode.hidden = ids.length === 0;
      var filtered = w.length > 0 || only;
      shown.innerHTML = filtered ? esc(tr("%(n)s of %(total)s games shown", { n: thousands(ids.length), total: thousands(n) })) +
        (only ? " (" + esc(tr("one tournament:")) + " <a href=\"" + esc(hashOf({ q: q.value })) + "\" id=all-games>" + esc(tr("show every tournament")) + "</a>)" : "") : esc(tr("%(n)s games", { n: thousands(n) }));
      writeHash({ t: only, q: q.value });
    }
    shown.addEventListener("click", function (e) {
      if (e.target.id === "all-games") { e.preventDefault(); only = ""; apply(); }
    });
    q.addEventListener("input", schedule(apply));
    $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
    apply();
    W.view = table;
  }

  function init() {
    var page = CFG[F.cfg.page];
    texts();
    if (CFG[F.cfg.list] && W.lists && W.players) listApp();
    else if (page === "players" && W.players) playersApp();
    else if (page === "tournaments" && W.tournaments) tournamentsApp();
    else if (page === "excluded") excludedApp();
    if ($("player-data") && W.players) playerApp();
    if ($("cross-data") && W.players) crossApp();
  }
  WHR_I18N.ready(init);
})();

// Rating charts drawn as SVG: one or more series (days since 1970-01-01, ratings), an optional
// uncertainty band (rating ± std), date ticks that fit the width (years, or months for a short
// history), a legend below the chart and a hover read-out. No dependencies.
(function () {
  "use strict";
  var F = WHR_FIELDS, tr = WHR_I18N.tr;
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
      ticks.push({ day: t, label: step >= 12 ? String(y) : y + "-" + (mm < 10 ? "0" : "") + mm });
    }
    return ticks;
  }

  // one series of the chart data (contract.SERIES), by name; "now" the rating carried to the
  // list date (contract.NOW), null when none
  function Series(s) {
    var now = s[F.series.now];
    this.name = s[F.series.name];
    this.t = s[F.series.day];
    this.r = s[F.series.rating];
    this.u = s[F.series.uncertainty];
    this.now = now ? { t: now[F.now.day], r: now[F.now.rating], u: now[F.now.uncertainty] } : null;
  }

  function draw(svg, data, band, legendBox, days) {
    var series = data[F.chart.series].map(function (s) { return new Series(s); }).filter(function (s) { return s.t.length > 0; });
    var W = svg.clientWidth || 800, H = svg.clientHeight || 300;
    var m = { l: 44, r: 12, t: 12, b: 24 };
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!series.length) { el("text", { x: 20, y: 30 }, svg).textContent = tr("No rating history."); return; }
    var t0 = Infinity, t1 = -Infinity, r0 = Infinity, r1 = -Infinity;
    series.forEach(function (s) {
      for (var i = 0; i < s.t.length; i++) {
        var u = band && s.u ? s.u[i] : 0;
        t0 = Math.min(t0, s.t[i]); t1 = Math.max(t1, s.t[i]);
        r0 = Math.min(r0, s.r[i] - u); r1 = Math.max(r1, s.r[i] + u);
      }
      if (s.now) {  // the rating carried to the list date
        var un = band && s.now.u !== null ? s.now.u : 0;
        t1 = Math.max(t1, s.now.t);
        r0 = Math.min(r0, s.now.r - un); r1 = Math.max(r1, s.now.r + un);
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
      el("line", { "class": "grid", x1: X(tick.day), x2: X(tick.day), y1: m.t, y2: H - m.b }, svg);
      el("text", { "class": "date", x: X(tick.day), y: H - m.b + 15, "text-anchor": "middle" }, svg).textContent = tick.label;
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
        if (band && s.u && s.now.u !== null) {
          el("path", { "class": "band later", d: "M" + X(s.t[last]).toFixed(1) + "," + Y(s.r[last] + s.u[last]).toFixed(1) +
            "L" + X(s.now.t).toFixed(1) + "," + Y(s.now.r + s.now.u).toFixed(1) +
            "L" + X(s.now.t).toFixed(1) + "," + Y(s.now.r - s.now.u).toFixed(1) +
            "L" + X(s.t[last]).toFixed(1) + "," + Y(s.r[last] - s.u[last]).toFixed(1) + "Z" }, g);
        }
        el("path", { "class": "line later", d: "M" + X(s.t[last]).toFixed(1) + "," + Y(s.r[last]).toFixed(1) +
          "L" + X(s.now.t).toFixed(1) + "," + Y(s.now.r).toFixed(1), stroke: colour }, g);
      }
      var pts = [];
      for (var j = 0; j < s.t.length; j++) pts.push(X(s.t[j]).toFixed(1) + "," + Y(s.r[j]).toFixed(1));
      el("path", { "class": "line", d: "M" + pts.join("L"), stroke: colour }, g);
      if (days) {  // a dot on each rating day (a day the player played): a gap reads as a gap
        s.t.forEach(function (t, i) { el("circle", { "class": "point day", cx: X(t).toFixed(1), cy: Y(s.r[i]).toFixed(1), r: 3, fill: colour }, g); });
      } else if (s.t.length === 1) {  // a single rating day: a point
        s.t.forEach(function (t, i) { el("circle", { "class": "point", cx: X(t), cy: Y(s.r[i]), r: 3, fill: colour }, g); });
      }
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
        var pts = s.t.map(function (t, i) { return { t: t, r: s.r[i], u: s.u ? s.u[i] : null, later: false }; });
        if (s.now) pts.push({ t: s.now.t, r: s.now.r, u: s.now.u, later: true });
        pts.forEach(function (p) {
          var d = Math.abs(X(p.t) - px) + (series.length > 1 ? Math.abs(Y(p.r) - py) : 0);
          if (!best || d < best.d) best = { d: d, s: s, p: p };
        });
      });
      if (!best) return;
      var p = best.p;
      dot.setAttribute("cx", X(p.t)); dot.setAttribute("cy", Y(p.r)); dot.setAttribute("visibility", "visible");
      tip.textContent = (series.length > 1 ? best.s.name + ": " : "") + isoDay(p.t) + "  " + Math.round(p.r) +
        (band && p.u !== null ? " \u00b1 " + Math.round(p.u) : "") + (p.later ? " (" + tr("list date") + ")" : "");
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
        draw(svg, data, fig.hasAttribute("data-band"), legend, fig.hasAttribute("data-days"));
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
  WHR_I18N.ready(init);
})();
