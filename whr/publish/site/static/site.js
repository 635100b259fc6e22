// The page script of the rating site: every table of the site drawn from its declaration, the
// reader's language, and (last part) the rating charts. No network request and no dependency:
// the data comes from data/*.js files loaded with <script> (they set window.WHR), so the site
// works from file://. Big tables are drawn virtually: only the rows on screen (and a margin)
// are in the document.
//
// Everything it draws is declared in whr/publish/site/contract.py and written in below as the
// site is rendered: the payloads' fields (F: a field's key in a keyed payload, its position in
// a row) and what they point into (R, H), the tables (T: columns, parts, marks), the texts (M)
// and the languages (L). This script names no column and holds no text of its own: a table is
// drawn by the one generic table below, a cell by the formatter its column names (FORMAT, the
// same names and output as the Python row filler, rows.py).
var WHR_DECLARATION = /*@DECLARATION@*/{};

// The reader's language (whr/publish/site/i18n.py). The pages are English; a reader who chose
// another language in the header's switch (remembered in localStorage) gets its catalog
// (static/lang-<code>.js, loaded before the page is drawn): each translated element of the page
// carries its message's id (data-m, data-mt, data-mp, data-ma), looked up in the catalog's Map,
// its values (<var>) put back in; the texts this script writes come from the same catalog by
// the same ids (text, t). Without script: English.
var WHR_I18N = (function () {
  "use strict";
  var D = WHR_DECLARATION, LANGS = new Map(D.L.map(function (l) { return [l.code, l]; }));
  var KEY = "whr.lang", lang = "en", messages = null, countries = null, queue = [];
  try { lang = localStorage.getItem(KEY) || "en"; } catch (e) { /* no storage: English */ }
  if (!LANGS.has(lang)) lang = "en";
  var HTML = LANGS.get(lang).lang;
  // counts with the language's digit groups (Intl.NumberFormat: 3,901 in English, Chinese and
  // Japanese, 3 901 with a no-break space in Russian); ratings, ranks, years and ids are written
  // without groups in every language, as rating lists write them (docs/site.md)
  var GROUPS = new Intl.NumberFormat(HTML, { maximumFractionDigits: 0 });
  function group(n) { return n === null || n === undefined || n === "" ? "" : GROUPS.format(n); }
  var me = document.currentScript, src = me && me.src ? me.src : "";
  function own(o, k) { return o !== null && o !== undefined && Object.prototype.hasOwnProperty.call(o, k); }

  // a message by its id: the catalog's translation ({k}: the k-th value) or the English
  // (%(name)s: the values in turn); the values are HTML
  function fill(id, english, args) {
    var local = messages && id ? messages.get(id) : undefined;
    if (typeof local === "string") return local.replace(/\{(\d+)\}/g, function (x, k) { return args[+k] === undefined ? "" : args[+k]; });
    var k = 0;
    return english.replace(/%\(\w+\)s/g, function () { var v = args[k++]; return v === undefined ? "" : v; });
  }
  // a declared text (contract.Text.script: its id, English, the names of its values as they
  // come and, bound in the declaration, the values), its values given by name (HTML) or bound;
  // a value may be a declared text itself
  function text(m, values) {
    var args = m.names.map(function (name, k) {
      var v = values && own(values, name) ? values[name] : (m.values ? m.values[k] : "");
      return v !== null && typeof v === "object" ? text(v) : String(v);
    });
    return fill(m.id, m.en, args);
  }
  function t(name, values) { return own(D.M, name) ? text(D.M[name], values) : ""; }
  function plain(html) {  // a message's HTML as text (for an attribute)
    return html.replace(/<[^>]*>/g, "").replace(/&(lt|gt|quot|#39|amp);/g, function (x, e) {
      return { lt: "<", gt: ">", quot: "\"", "#39": "'", amp: "&" }[e];
    });
  }
  function country(code, name) {
    var local = countries && typeof code === "string" ? countries.get(code) : undefined;
    return typeof local === "string" ? local : name;
  }
  function longDate(iso) {
    var d = /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})$/.exec(iso);
    if (!d) return null;
    return new Intl.DateTimeFormat(HTML, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" })
      .format(new Date(Date.UTC(+d.groups.year, +d.groups.month - 1, +d.groups.day)));
  }
  // the page's own texts in the language, by their ids (never by their English)
  function translatePage() {
    if (!messages) return;
    document.documentElement.lang = HTML;
    var marked = document.querySelectorAll("[data-m]");
    for (var i = marked.length - 1; i >= 0; i--) {  // the innermost first: a value may be a message
      var e = marked[i], local = messages.get(e.getAttribute("data-m"));
      if (typeof local !== "string") continue;
      var vars = Array.prototype.filter.call(e.querySelectorAll("var"), function (v) { return v.parentNode.closest("[data-m]") === e; });
      e.innerHTML = fill(e.getAttribute("data-m"), "", vars.map(function (v) { return v.outerHTML; }));
    }
    new Map([["data-mt", "title"], ["data-mp", "placeholder"], ["data-ma", "aria-label"]]).forEach(function (name, mark) {
      Array.prototype.forEach.call(document.querySelectorAll("[" + mark + "]"), function (e) {
        var local = messages.get(e.getAttribute(mark));
        if (typeof local === "string") e.setAttribute(name, plain(local));
      });
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-c]"), function (e) {  // a country, by its code
      e.textContent = country(e.getAttribute("data-c"), e.textContent);
    });
    Array.prototype.forEach.call(document.querySelectorAll("time[datetime]"), function (e) {
      var d = longDate(e.getAttribute("datetime"));
      if (d) e.textContent = d;
    });
    Array.prototype.forEach.call(document.querySelectorAll("data[value]"), function (e) {  // a count
      if (/^\d+$/.test(e.getAttribute("value"))) e.textContent = group(+e.getAttribute("value"));
    });
    // the title: the page's heading and the site's name, as the English title is made
    var h1 = document.querySelector("main h1"), brand = document.querySelector("header .brand");
    if (h1) document.title = h1.textContent.trim() + (brand ? " \u00b7 " + brand.textContent.trim() : "");
    // the description and the Open Graph title and description (frame.DESCRIPTIONS: a
    // message by its id, the game its one value, as the brand has it)
    var desc = document.querySelector("meta[name=description][data-md]"), game = brand && brand.querySelector("var");
    var said = desc ? translated(desc.getAttribute("data-md"), [game ? game.outerHTML : ""]) : null;
    if (said !== null) {
      said = plain(said).replace(/\s+/g, " ").trim();
      desc.setAttribute("content", said);
      var ogd = document.querySelector("meta[property='og:description']");
      if (ogd) ogd.setAttribute("content", said);
    }
    var og = document.querySelector("meta[property='og:title']");
    if (og && h1) og.setAttribute("content", document.title);
    // a table in the order of its first column's names (the countries) in the language's order
    Array.prototype.forEach.call(document.querySelectorAll("table[data-by-name] tbody"), function (body) {
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) { return a.firstElementChild.textContent.localeCompare(b.firstElementChild.textContent, HTML); });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  }
  // the switch, in the header: the page stays, in the other language
  function languageSwitch() {
    var header = document.querySelector("header");
    if (!header || header.querySelector("select.lang")) return;
    var sel = document.createElement("select");
    sel.className = "lang";
    sel.setAttribute("aria-label", plain(t("language")));
    LANGS.forEach(function (l) {
      var o = document.createElement("option");
      o.value = l.code;
      o.lang = l.lang;
      o.textContent = l.name;
      o.selected = l.code === lang;
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
    translatePage();  // first: the drawing keeps some of the page's cells (a player's tournaments)
    fns.forEach(function (fn) { fn(); });
    languageSwitch();
  }
  var loaded = lang === "en" || !src, domReady = document.readyState !== "loading";
  function maybe() { if (loaded && domReady && queue) run(); }
  if (!loaded) {
    var s = document.createElement("script");
    s.src = src.replace(/site\.js(?:[?#].*)?$/, "lang-" + lang + ".js");
    s.onload = function () {
      var c = (window.WHR || {}).i18n;
      if (c && Array.isArray(c.m) && Array.isArray(c.c)) { messages = new Map(c.m); countries = new Map(c.c); }
      loaded = true;
      maybe();
    };
    s.onerror = function () { loaded = true; maybe(); };  // English, rather than nothing
    document.head.appendChild(s);
  }
  if (!domReady) document.addEventListener("DOMContentLoaded", function () { domReady = true; maybe(); });
  // the page's drawing waits for the catalog; run at once when it is there (English)
  function ready(fn) { if (queue) { queue.push(fn); if (queue.length === 1) setTimeout(maybe, 0); } else fn(); }
  // a message's translation with its values (HTML), or null when the catalog has none
  function translated(id, args) {
    var local = messages ? messages.get(id) : undefined;
    return typeof local === "string" ? fill(id, "", args) : null;
  }
  // a list (HTML items) joined as the language joins one (TEXTS.join, nested as i18n.joined)
  function join(items) {
    return items.reduce(function (a, b) { return a === null ? b : t("join", { first: a, next: b }); }, null) || "";
  }
  return { t: t, join: join, text: text, translated: translated, plain: plain, country: country, group: group, own: own, ready: ready, longDate: longDate, lang: function () { return HTML; } };
})();
(function () {
  "use strict";
  var D = WHR_DECLARATION, F = D.F, R = D.R, H = D.H, T = D.T;
  var W = window.WHR || {}, I = WHR_I18N, t = I.t, text = I.text, own = I.own;
  var cfgEl = document.getElementById("cfg");
  var CFG = cfgEl ? JSON.parse(cfgEl.textContent) : {};
  var ROOT = own(CFG, F.cfg.root) ? CFG[F.cfg.root] : "../";
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
  function words(q) { return fold(q.trim()).split(/\s+/).filter(Boolean); }
  function none(v) { return v === null || v === undefined; }
  function signed(n) { return n > 0 ? "+" + n : (n < 0 ? "\u2212" + (-n) : "0"); }
  function isoDay(d) { return new Date(d * 86400000).toISOString().slice(0, 10); }
  function score(twice) { return (twice >= 2 || twice === 0 ? String(Math.floor(twice / 2)) : "") + (twice % 2 ? "\u00bd" : ""); }
  function gameLink(id, html, cls) { return "<a" + (cls ? " class=" + cls : "") + " href=\"https://www.renju.net/game/" + esc(id) + "/\" rel=nofollow>" + html + "</a>"; }
  function attr(html) { return esc(I.plain(html)); }

  // --- state in the address: #t=tab&q=search&c=country (a Map: a name from the address is no key into an object) ---
  function readHash() {
    var s = new Map();
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) {
        try { s.set(kv.slice(0, i), decodeURIComponent(kv.slice(i + 1))); } catch (e) { /* bad escape */ }
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
  function schedule(fn) {
    var pending = false;
    return function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; fn(); });
    };
  }

  // --- a payload's values by field (contract.py: a field that is a position leads on into what
  // it points into, R: a payload, or H: a payload a field of the same payload holds; or a list) ---
  var SOURCES = new Map();  // the payloads a page has, by name (the players data)
  function Source(payload, data, size) {
    this.payload = payload;
    this.data = data;
    this.derived = new Map();
    this.cache = new Map();
    this.keys = own(F, payload) ? F[payload] : {};
    this.size = size;
  }
  Source.prototype.raw = function (name) {
    if (this.derived.has(name)) return this.derived.get(name);
    if (!own(this.keys, name)) return undefined;
    var k = this.keys[name], data = this.data;
    if (Array.isArray(data)) return data.map(function (row) { return row[k]; });
    return own(data, k) ? data[k] : undefined;
  };
  Source.prototype.has = function (path) { return this.raw(path.split(".")[0]) !== undefined; };
  Source.prototype.column = function (path) {  // every row's value of a field path
    if (this.cache.has(path)) return this.cache.get(path);
    var steps = path.split("."), first = steps.shift(), values = this.raw(first), refs = own(R, this.payload) ? R[this.payload] : {};
    var out = values;
    if (values !== undefined && own(refs, first)) {
      var ref = refs[first], holds = own(H, this.payload) ? H[this.payload] : {}, target = null, list = null;
      if (own(holds, ref)) target = new Source(holds[ref], this.raw(ref), 0);
      else if (own(this.keys, ref)) list = this.raw(ref);
      else if (SOURCES.has(ref)) target = SOURCES.get(ref);
      if (list) out = values.map(function (p) { return p >= 0 && p < list.length ? list[p] : null; });
      else if (target && steps.length) {
        var there = target.column(steps.join("."));
        out = values.map(function (p) { return p >= 0 && p < there.length ? there[p] : null; });
      }
    }
    this.cache.set(path, out);
    return out;
  };
  Source.prototype.add = function (name, values) { this.derived.set(name, values); this.cache.clear(); };

  // --- the players (each page's names, from the players data) ---
  function Players(d) {
    var pages = d[F.players.page];
    this.id = d[F.players.id];
    this.name = d[F.players.name];
    this.label = d[F.players.label];
    this.native = d[F.players.native];
    this.female = d[F.players.female];
    this.pages = new Map(Object.keys(pages).map(function (k) { return [+k, pages[k]]; }));
    this.size = this.id.length;
    this.source = new Source("players", d, this.size);
    this._folded = null;
    this._keys = null;
  }
  Players.prototype.page = function (i) { return this.pages.has(i) ? this.pages.get(i) : this.id[i]; };
  Players.prototype.link = function (i, label) {
    if (none(i) || i < 0 || i >= this.size) return "?";
    return "<a href=\"" + ROOT + "p/" + esc(this.page(i)) + ".html\"" + (this.female[i] ? " class=f" : "") +
      (this.native[i] ? " title=\"" + esc(this.native[i]) + "\"" : "") + ">" + esc(this.name[i]) + "</a>" +
      (label && this.label[i] ? " <small>" + esc(this.label[i]) + "</small>" : "");
  };
  Players.prototype.nameKey = function (i) {
    if (!this._folded) this._folded = this.name.map(fold);
    return none(i) || i < 0 ? null : this._folded[i];
  };
  // players found as the players index finds them: every word of q in the name, native name,
  // id or city; a player whose id is q first; at most `most`, leaving out those skip(i) holds
  Players.prototype.find = function (q, most, skip) {
    var w = words(q), out = [], id = q.trim();
    if (!w.length) return out;
    if (!this._keys) {
      var city = this.source.column("city"), keys = new Array(this.size);
      for (var i = 0; i < this.size; i++) keys[i] = fold([this.name[i], this.native[i], this.id[i], city && city[i]].map(function (v) { return none(v) ? "" : v; }).join("\u0001"));
      this._keys = keys;
    }
    var exact = playerNumbers().has(id) ? playerNumbers().get(id) : -1;
    if (exact >= 0 && !(skip && skip(exact))) out.push(exact);
    for (i = 0; i < this.size && out.length < most; i++) {
      if (i === exact || (skip && skip(i))) continue;
      var ok = true;
      for (var j = 0; j < w.length && ok; j++) ok = this._keys[i].indexOf(w[j]) >= 0;
      if (ok) out.push(i);
    }
    return out;
  };
  var P = null;
  function players() {  // the page's players (the players data), made once
    if (!P && W.players) { P = new Players(W.players); SOURCES.set("players", P.source); }
    return P;
  }

  // --- the formatters (contract.FORMATS; rows.py draws the same cells in Python) ---
  var STATUSES = ["active", "inactive", "provisional"];
  var RESULTS = [{ cls: "l", text: "loss" }, { cls: "d", text: "draw" }, { cls: "w", text: "win" }];
  var GAME = /^\d+([+=\u2212])\/[bw]$/;  // a game of a crosstable's cell, 12+/b (rows.py)
  var RESULT_CLASS = new Map([["+", "w"], ["=", "d"], ["\u2212", "l"]]);
  function whole(v) { return none(v) ? "" : String(v); }
  function newMark() { return "<span class=new>" + t("new") + "</span>"; }
  function positive(v) { return v ? v : null; }
  function byText(v) { return v ? fold(v) : null; }
  // each formatter is given the values of its column's fields, in the declared order
  var FORMAT = {
    number: { html: function (x) { return whole(x); } },
    dash: { html: function (x) { return none(x) ? "\u2013" : String(x); } },
    count: { html: function (n) { return none(n) ? "" : I.group(n); } },
    rank: { html: function (r) { return r ? String(r) : ""; }, key: positive },
    year: { html: function (y) { return y ? String(y) : ""; }, key: positive },
    text: { html: function (s) { return esc(none(s) ? "" : s); }, key: byText },
    date: { html: function (s) { return esc(none(s) ? "" : s); }, key: function (s) { return s || null; } },
    day: { html: function (d) { return none(d) ? "" : isoDay(d); } },
    change: {
      html: function (d) { return d === "n" ? newMark() : (none(d) ? "" : signed(d)); },
      key: function (d) { return d === "n" ? null : d; }
    },
    since: { html: function (d, before) { return none(before) ? newMark() : (none(d) ? "" : signed(d)); } },
    status: { html: function (s) { return none(s) ? "" : t(STATUSES[s]); } },
    player: { html: function (p) { return P.link(p, false); }, key: function (p) { return P.nameKey(p); } },
    player_label: { html: function (p) { return P.link(p, true); }, key: function (p) { return P.nameKey(p); } },
    link: {
      html: function (page, name) { return page ? "<a href=\"" + ROOT + "tournaments/" + esc(page) + ".html\">" + esc(name) + "</a>" : esc(none(name) ? "" : name); },
      key: function (page, name) { return byText(name); }
    },
    place: {
      html: function (city, code, name) {
        var where = none(code) && none(name) ? "" : esc(I.country(code, name || code));
        return city && where ? t("place", { city: esc(city), country: where }) : esc(city || "") || where;
      },
      key: function (city, code, name) { return byText([city || "", I.country(code, name || code || "")].join(" ")); }
    },
    person: {
      html: function (name, id) { return none(id) ? "\u2013" : esc(name) + " <small>" + esc(id) + "</small>"; },
      key: function (name, id) { return none(id) ? null : fold(name); }
    },
    reason: {
      // why, in the reader's language (the rules' template by its id, with the game's values; a
      // message no catalog has stays English, and says so), then the reason's code, muted
      html: function (code, text, template, values) {
        var html = "<code>" + esc(code) + "</code>";
        if (!text) return html;
        var why = template ? I.translated(template, (values || []).map(esc)) : null, english = why === null;
        if (english) why = esc(text);
        return "<span" + (english && I.lang() !== "en" ? " lang=en" : "") + ">" + why + "</span> " + html;
      },
      key: function (code) { return code; }
    },
    score: { html: function (twice) { return score(twice); } },
    expected: {
      html: function (x, n, games) {
        if (none(x) || !n) return "";
        var v = x.toFixed(1);
        return n < games ? v + " <small>" + t("in_games", { n: I.group(n), total: I.group(games) }) + "</small>" : v;
      },
      key: function (x, n) { return n ? x : null; }
    },
    html: { html: function (h) { return h || ""; } },
    score_games: { html: function (twice, games) { return score(twice) + "/" + games; } },
    perf: { html: function (value, bound) { return none(value) ? "" : (bound > 0 ? "\u2265" : (bound < 0 ? "\u2264" : "")) + value; } },
    result: {
      html: function (code, id) {
        var r = RESULTS[code % 3], words = t(r.text);
        return "<span class=" + r.cls + ">" + (id ? gameLink(id, words) : words) + "</span>";
      }
    },
    colour: {
      html: function (code) { return code >= 3 ? "<span title=\"" + attr(t("white")) + "\">\u25cb</span>" : "<span title=\"" + attr(t("black")) + "\">\u25cf</span>"; }
    }
  };

  // --- a virtual table -------------------------------------------------------------------------
  var ROW_HEIGHT = 30;  // table.v's row height in style.css, until a row on screen is measured
  var MARGIN_ROWS = 20;  // rows drawn above and below the screen
  var PART_ROWS = 60;  // a table that is not virtual: rows drawn in one task (the rest in the next ones)
  // cols: [{label, title, cls, first (1 ascending, -1 descending on the first click; 0 none),
  // key(i) (sort value, null = none: always last), html(i)}]. Rows are ids; ties keep the data
  // order. A table that is not virtual draws every row; group(i) starts a group of rows with
  // a heading row where it changes.
  function VTable(table, onSort, virtual, group) {
    var self = this;
    this.table = table;
    this.body = table.querySelector("tbody") || table.appendChild(document.createElement("tbody"));
    this.cols = [];
    this.ids = [];
    this.sortCol = -1;
    this.dir = 1;
    this.rowH = ROW_HEIGHT;  // measured on the first visible row drawn
    this.printing = !virtual;  // every row is in the document (to print; or always)
    this.virtual = virtual;
    this.group = group;
    this.total = 0;  // rows of the data (ids are 0 .. total - 1)
    this.shownFirst = -1;  // the rows in the document: shownFirst .. shownLast - 1
    this.shownLast = -1;
    this.onSort = onSort;
    this.generation = 0;  // a draw's number: a later draw drops the parts an earlier one left
    this.drawing = false;  // parts of the rows still to be drawn (a table that is not virtual)
    if (!table.tHead) table.createTHead();
    if (!virtual) {  // on paper every row, now
      window.addEventListener("beforeprint", function () { if (self.drawing) self.draw(true, false, true); });
    }
    if (virtual) {
      var pending = false;
      this.schedule = function () {
        if (pending) return;
        pending = true;
        requestAnimationFrame(function () { pending = false; self.draw(false); });
      };
      window.addEventListener("scroll", this.schedule, { passive: true });
      window.addEventListener("resize", this.schedule);
      // printing: every row (the paper has no scroll position), back to the window after
      var printing = function (on) { if (self.printing !== on) { self.printing = on; self.draw(true); } };
      window.addEventListener("beforeprint", function () { printing(true); });
      window.addEventListener("afterprint", function () { printing(false); });
      if (window.matchMedia) {
        var print = window.matchMedia("print");
        var onChange = function (e) { printing(e.matches); };
        if (print.addEventListener) print.addEventListener("change", onChange); else if (print.addListener) print.addListener(onChange);
      }
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
      html += "<th" + (c.cls ? " class=\"" + c.cls + "\"" : "") + (c.title ? " title=\"" + attr(c.title) + "\"" : "") + ">" +
        (c.first ? "<button type=button data-col=" + k + ">" + c.label + "</button>" : c.label) + "</th>";
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
    if (!col || !col.first) { this.ids.sort(function (a, b) { return a - b; }); return; }
    if (!col.cache) {  // the sort values of every row, computed once per column
      col.cache = new Array(this.total);
      for (var i = 0; i < this.total; i++) col.cache[i] = col.key(i);
    }
    var vals = col.cache;
    this.ids.sort(function (a, b) {
      var x = vals[a], y = vals[b];
      var ex = x === null || x === undefined || x === "", ey = y === null || y === undefined || y === "";
      if (ex || ey) return ex === ey ? a - b : (ex ? 1 : -1);
      return (x < y ? -dir : (x > y ? dir : 0)) || a - b;
    });
  };
  VTable.prototype.setRows = function (ids) {
    this.ids = ids;
    this.sort();
    if (this.virtual) this.table.setAttribute("aria-rowcount", ids.length + 1);
    this.draw(true);
  };
  VTable.prototype.rowHtml = function (i, pos) {
    var html = this.virtual ? "<tr aria-rowindex=" + (pos + 2) + ">" : "<tr>";
    this.cols.forEach(function (c) { html += "<td" + (c.cls ? " class=\"" + c.cls + "\"" : "") + ">" + c.html(i); });
    return html + "</tr>";
  };
  // Draws the rows on screen and a margin, with spacers of the height of the rows not drawn. A
  // table that is not displayed (hidden, or in a hidden box) has no position and no row height:
  // it gets the first rows, and is drawn again when shown (apply() shows the box before it draws;
  // the scroll and resize handlers redraw). The row height is measured only on a row on screen.
  // A table that is not virtual has every row in the document, drawn in parts of PART_ROWS rows,
  // a task each (at once when printing, or "whole").
  VTable.prototype.draw = function (force, remeasured, whole) {
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
    var self = this, span = this.cols.length, html = "", group = this.group, before = null;
    function rows(a, b) {  // the rows a .. b - 1, a group's heading row before its first
      var out = "";
      for (var p = a; p < b; p++) {
        var i = self.ids[p];
        if (group && group.of(i) !== before) {
          before = group.of(i);
          out += "<tr class=t><th colspan=" + span + " scope=rowgroup>" + group.heading(i) + "</th></tr>";
        }
        out += self.rowHtml(i, p);
      }
      return out;
    }
    var generation = ++this.generation, printing = window.matchMedia && window.matchMedia("print").matches;
    if (!this.virtual && n > PART_ROWS && !whole && !printing) {
      // a long table that is not virtual: its rows in parts, one task each, so that the page
      // stays responsive (the first part at once; beforeprint draws the rest at once)
      var next = function (a) {
        if (generation !== self.generation) return;
        if (a === PART_ROWS) self.freeze();
        var b = Math.min(n, a + PART_ROWS);
        self.body.insertAdjacentHTML("beforeend", rows(a, b));
        if (b < n) setTimeout(function () { next(b); }, 0);
        else self.drawing = false;
      };
      this.drawing = true;
      this.body.innerHTML = rows(0, PART_ROWS);
      setTimeout(function () { next(PART_ROWS); }, 0);
      return;
    }
    this.drawing = false;
    if (first > 0) html += "<tr class=sp aria-hidden=true><td colspan=" + span + " style=\"height:" + first * h + "px\"></td></tr>";
    html += rows(first, last);
    if (last < n) html += "<tr class=sp aria-hidden=true><td colspan=" + span + " style=\"height:" + (n - last) * h + "px\"></td></tr>";
    this.body.innerHTML = html;
    if (!this.virtual) return;
    var row = visible && !this.printing && this.body.querySelector("tr[aria-rowindex]");
    var measured = row ? row.getBoundingClientRect().height : 0;
    if (measured > 0 && Math.abs(measured - h) > 0.5 && !remeasured) {
      this.rowH = measured;
      this.draw(true, true);
    }
  };
  // The columns' widths as the first part of the rows gave them, kept (a fixed table layout):
  // each next part is laid out alone, not the whole table again with it (a part of a long
  // table took 130 to 300 ms on a 4x-slowed CPU, the more the longer the table; 75 to 125 ms so).
  // A later row wider than its column wraps (style.css: table.fixed).
  VTable.prototype.freeze = function () {
    var table = this.table, row = table.tHead && table.tHead.rows.item(0);
    if (!row || table.classList.contains("fixed") || !table.offsetWidth) return;
    var widths = Array.prototype.map.call(row.cells, function (c) { return c.getBoundingClientRect().width; });
    table.style.width = table.getBoundingClientRect().width + "px";
    Array.prototype.forEach.call(row.cells, function (c, k) { c.style.width = widths[k] + "px"; });
    table.classList.add("fixed");
  };
  // every row's cell texts in the order shown (for programs and tests; the screen shows a window)
  VTable.prototype.rowsText = function () {
    var self = this, box = document.createElement("tbody");
    return this.ids.map(function (i, p) {
      box.innerHTML = self.rowHtml(i, p);
      return Array.prototype.map.call(box.querySelectorAll("td"), function (c) { return c.textContent; });
    });
  };

  // --- a declared table (contract.Table), drawn over a source ----------------------------------
  // the columns of a part: those the data has, each with its heading, its cells and its sort
  // key from its formatter
  function columnsOf(decl, tab, source, kept) {
    var byName = new Map(decl.cols.map(function (c) { return [c.name, c]; }));
    var marks = decl.marks.filter(function (m) { return source.has(m.field); }).map(function (m) {
      var rows = new Set(source.raw(m.field));
      return { column: m.column, rows: rows, html: "<span class=" + m.name + "><span class=s aria-hidden=true>" + esc(m.symbol) + "</span><span class=t>" + text(m.text) + "</span></span> " };
    });
    var out = [];
    tab.columns.forEach(function (name) {
      var c = byName.get(name);
      if (!c) return;
      if (c.kept ? !(kept && kept.has(name)) : !c.fields.concat(c.needs ? [c.needs] : []).every(function (p) { return source.has(p); })) return;
      var f = own(FORMAT, c.format) ? FORMAT[c.format] : null;
      var values = c.fields.map(function (p) { return source.column(p); });
      var mine = marks.filter(function (m) { return m.column === name; });
      var keyOf = c.key ? source.column(c.key) : null;
      var at = function (i) { return values.map(function (col) { return col[i]; }); };  // a cell's values
      var cell = c.kept && kept && kept.has(name) ? function (i) { return kept.get(name)[i] || ""; }
        : function (i) { return f ? f.html.apply(null, at(i)) : ""; };
      out.push({
        name: name,
        label: text(c.head),
        title: c.title ? text(c.title) : "",
        cls: c.cls,
        first: c.sort,
        key: keyOf ? function (i) { return keyOf[i]; } : function (i) {
          var v = at(i);
          return f && f.key ? f.key.apply(null, v) : v.filter(function (x) { return !none(x); }).shift();
        },
        html: mine.length ? function (i) {
          var pre = "";
          mine.forEach(function (m) { if (m.rows.has(i)) pre += m.html; });
          return pre + cell(i);
        } : cell
      });
    });
    return out;
  }
  // the rows where a part's condition holds
  function whereOf(tab, source) {
    if (!tab.where) return function () { return true; };
    var values = source.column(tab.where.field), v = tab.where.value;
    return tab.where.op === "==" ? function (i) { return values[i] === v; } : function (i) { return values[i] > v; };
  }
  // the part's first order: its sort column (by position among its columns) and direction
  function firstSort(tab, cols) {
    var data = { column: -1, dir: 1 };  // the data's order
    if (!tab.sort) return data;
    for (var k = 0; k < cols.length; k++) if (cols[k].name === tab.sort.column) return { column: k, dir: tab.sort.dir };
    return data;
  }

  // A declared table with its parts (tabs), search, menu (a country), pin (#t=<value>) and
  // counts, over the page's elements: #tabs, #about-tab, #filters, #q, #c, #shown (those the page has)
  function tableApp(name, element, source, options) {
    var decl = T[name], n = source.size, opts = options || {};
    var hash = readHash(), tabs = decl.tabs, several = tabs.length > 1;
    var group = decl.group ? { of: function (i) { return source.column(decl.group)[i]; }, heading: function (i) { return source.column(decl.heading)[i]; } } : null;
    var table = new VTable(element, save, decl.virtual, group);
    table.total = n;
    var q = $("q"), sel = $("c"), shown = $("shown"), filters = $("filters");
    var inTab = new Map(tabs.map(function (tb) { return [tb.name, whereOf(tb, source)]; }));
    var chosen = decl.choose ? source.column(decl.choose) : null;
    var fixed = opts.fixed || "";
    var pinned = decl.pin ? source.column(decl.pin) : null;
    var keys = null;
    function searchKeys() {  // what a search looks in, per row, computed once
      if (!keys) {
        var cols = decl.search.map(function (p) { return source.column(p); });
        keys = new Array(n);
        for (var i = 0; i < n; i++) keys[i] = fold(cols.map(function (c) { return none(c[i]) ? "" : c[i]; }).join("\u0001"));
      }
      return keys;
    }
    function mine(i) { return !fixed || chosen[i] === fixed; }
    var total = new Map();
    tabs.forEach(function (tb) {
      var c = 0, holds = inTab.get(tb.name);
      for (var i = 0; i < n; i++) if (mine(i) && holds(i)) c++;
      total.set(tb.name, c);
    });
    var start = opts.tab && inTab.has(opts.tab) ? opts.tab : decl.start;
    var tab = several && hash.has("t") && inTab.has(hash.get("t")) ? hash.get("t") : start;
    var pin = !several && decl.pin && hash.has("t") ? hash.get("t") : "";
    var country = fixed || (hash.has("c") ? hash.get("c") : "");
    if (q) q.value = hash.has("q") ? hash.get("q") : "";
    function partOf(name) { return tabs.filter(function (tb) { return tb.name === name; })[0]; }
    function setTab(name) {
      tab = name;
      var part = partOf(name), cols = columnsOf(decl, part, source, opts.kept), s = firstSort(part, cols);
      table.setColumns(cols, s.column, s.dir);
      if ($("about-tab")) $("about-tab").innerHTML = part.note ? text(part.note) : "";
      fillChoices();
    }
    function fillChoices() {  // the menu: the countries with rows in the part, in the language's order
      if (!sel || !chosen) return;
      var seen = new Map(), holds = inTab.get(tab);
      for (var i = 0; i < n; i++) if (chosen[i] && holds(i)) seen.set(chosen[i], (seen.get(chosen[i]) || 0) + 1);
      var names = source.column(decl.choose.replace(/\.code$/, ".name"));  // (the English, for a code no catalog names)
      var named = new Map();
      for (var j = 0; j < n; j++) if (chosen[j] && !named.has(chosen[j])) named.set(chosen[j], I.country(chosen[j], names[j] || chosen[j]));
      var list = Array.from(seen.keys()).sort(function (a, b) { return named.get(a).localeCompare(named.get(b), I.lang()); });
      var html = "<option value=\"\">" + t("all_countries") + "</option>";
      list.forEach(function (c) { html += "<option value=\"" + esc(c) + "\">" + t("country_count", { country: esc(named.get(c)), n: I.group(seen.get(c)) }) + "</option>"; });
      if (country && !seen.has(country)) html += "<option value=\"" + esc(country) + "\">" + t("country_count", { country: esc(country), n: "0" }) + "</option>";
      sel.innerHTML = html;
      sel.value = country;
    }
    function apply() {
      var w = q ? words(q.value) : [], c = sel ? sel.value : fixed, k = w.length ? searchKeys() : null;
      country = c;
      var ids = [], hits = new Map(tabs.map(function (tb) { return [tb.name, 0]; })), holds = inTab.get(tab);
      for (var i = 0; i < n; i++) {
        if (c && chosen && chosen[i] !== c) continue;
        if (pin && pinned[i] !== pin) continue;
        var ok = true;
        for (var j = 0; j < w.length && ok; j++) ok = k[i].indexOf(w[j]) >= 0;
        if (!ok) continue;
        if (several) tabs.forEach(function (tb) { if (inTab.get(tb.name)(i)) hits.set(tb.name, hits.get(tb.name) + 1); });
        if (holds(i)) ids.push(i);
      }
      var filtered = w.length > 0 || (c && !fixed) || !!pin, empty = total.get(tab) === 0 && !!decl.empty;
      if (filters) filters.hidden = empty;
      element.parentNode.hidden = empty || ids.length === 0;
      table.setRows(ids);  // after the box is shown: a hidden table cannot be measured
      if (shown) {
        var html = "";
        if (empty) html = text(decl.empty);
        else if (!filtered) html = decl.count ? text(decl.count, { n: I.group(ids.length) }) : "";
        else html = text(decl.shown, { n: I.group(ids.length), total: I.group(total.get(tab)) });
        var also = several && filtered ? tabs.filter(function (tb) { return tb.name !== tab && hits.get(tb.name) > 0; }) : [];
        if (also.length) {
          html += " \u00b7 " + t("also_found") + " " + I.join(also.map(function (tb) {
            return "<a href=\"" + esc(hashOf({ t: tb.name, q: q ? q.value : "", c: fixed ? "" : c })) + "\">" + t("in_part", { n: I.group(hits.get(tb.name)), part: text(tb.label) }) + "</a>";
          }));
        }
        if (pin) html += " (" + t("one_tournament") + " <a href=\"" + esc(hashOf({ q: q ? q.value : "" })) + "\" id=all-rows>" + t("every_tournament") + "</a>)";
        shown.innerHTML = html;
      }
      if ($("tabs")) {
        Array.prototype.forEach.call($("tabs").querySelectorAll("a[data-tab]"), function (a) {
          var name = a.getAttribute("data-tab");
          a.className = name === tab ? "on" : "";
          if (name === tab) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
          a.setAttribute("href", hashOf({ t: name, q: q ? q.value : "", c: fixed ? "" : c }));
          var count = a.querySelector("span.count");
          if (count && total.has(name)) count.textContent = filtered ? I.group(hits.get(name)) + "/" + I.group(total.get(name)) : I.group(total.get(name));
        });
      }
      save();
    }
    function save() {
      if (!q && !sel && !pin && !several) return;
      writeHash({ t: several ? (tab === start ? "" : tab) : pin, q: q ? q.value : "", c: fixed || !sel ? "" : country });
    }
    setTab(tab);
    if (q) q.addEventListener("input", schedule(apply));
    if (sel) sel.addEventListener("change", apply);
    if (filters) filters.addEventListener("submit", function (e) { e.preventDefault(); });
    if (shown) shown.addEventListener("click", function (e) {
      if (e.target.id === "all-rows") { e.preventDefault(); pin = ""; apply(); }
    });
    window.addEventListener("hashchange", function () {
      if (location.hash.indexOf("=") < 0) return;  // a place on the page (#main), not a state
      var s = readHash();
      if (q) q.value = s.has("q") ? s.get("q") : "";
      if (!fixed) country = s.has("c") ? s.get("c") : "";
      if (several) {
        var next = s.has("t") && inTab.has(s.get("t")) ? s.get("t") : start;
        if (next !== tab) setTab(next); else fillChoices();
      } else {
        if (decl.pin) pin = s.has("t") ? s.get("t") : "";
        fillChoices();
      }
      apply();
    });
    apply();
    return table;
  }

  // --- the pages ---------------------------------------------------------------------------------
  // a big table's page (cfg.table): the lists, the players and tournaments indexes, the games not rated
  function indexPage() {
    var name = CFG[F.cfg.table], element = $("list");
    if (!own(T, name) || !element) return;
    var decl = T[name], source = null, list = own(CFG, F.cfg.list) && W.lists ? W.lists[CFG[F.cfg.list]] : null;
    if (decl.rows === "list" && list && P) source = new Source("list", list, list[F.list.player].length);
    else if (decl.rows === "tournaments" && W.tournaments) source = new Source("tournaments", W.tournaments, W.tournaments[F.tournaments.page].length);
    else if (decl.rows === "excluded" && W.excluded) source = new Source("excluded", W.excluded, W.excluded[F.excluded.game].length);
    if (!source) return;
    W.view = tableApp(name, element, source, { tab: CFG[F.cfg.tab], fixed: own(CFG, F.cfg.country) ? CFG[F.cfg.country] : "" });
  }

  // a player's page: the rating chart, the tournaments (their names and links, and the change at
  // the time, kept from the page's own rows) and the games, grouped by tournament, drawn from the
  // player's data beside the page (p/<id>.json, contract.P_FILE), fetched when the site is served
  // over http(s); from a file the page keeps its own rows
  function keptCells(rows, decl) {  // the kept columns' cells, from the page's rows (rows.py wrote them)
    var kept = new Map();
    if (!rows) return kept;
    // its columns: the part's columns shown without script, in order
    var shownCols = decl.tabs.filter(function (tb) { return tb.name === decl.start; }).shift().columns.filter(function (name) {
      return decl.cols.some(function (c) { return c.name === name && c.static; });
    });
    var body = Array.prototype.filter.call(rows.querySelectorAll("tr"), function (r) { return !r.querySelector("th"); });
    shownCols.forEach(function (name, k) {
      kept.set(name, body.map(function (r) { return r.cells.item(k) ? r.cells.item(k).innerHTML.trim() : ""; }));
    });
    return kept;
  }
  var NUMBERS = null;
  function playerNumbers() {  // the players' numbers by id (a Map: an id is data, not a key)
    if (!NUMBERS) {
      NUMBERS = new Map();
      if (P) for (var i = 0; i < P.size; i++) NUMBERS.set(P.id[i], i);
    }
    return NUMBERS;
  }
  function dayOf(iso) { return none(iso) ? null : Math.round(Date.parse(iso + "T00:00:00Z") / 86400000); }
  function rounded(v) { return none(v) ? null : Math.round(v); }
  function playerPage() {
    var record = $("record"), url = record.getAttribute("data-json");
    if (!url || !/^https?:$/.test(location.protocol)) return;  // a file: the page's own rows
    var kept = keptCells(record.querySelector("table"), T.events);
    playerData(url).then(function (d) { if (d) drawPlayer(d, kept); });
  }
  // a player's data (p/<id>.json, a relative address of this site): the one request the
  // script makes, only over http(s); null when it cannot be had (the page's rows stay)
  function playerData(url) {
    return fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) { return d && typeof d === "object" ? d : null; }, function () { return null; });
  }
  // the chart's series of today's estimate (contract.SERIES, NOW) from the player's data
  function estimateSeries(d) {
    var est = d[F.p_file.estimate], s = {};
    s[F.series.day] = est[F.p_estimate.date].map(dayOf);
    s[F.series.rating] = est[F.p_estimate.rating].map(rounded);
    s[F.series.uncertainty] = est[F.p_estimate.uncertainty].map(rounded);
    var day = dayOf(d[F.p_file.date]), last = s[F.series.day].length - 1;
    if (last >= 0 && s[F.series.day][last] < day && !none(d[F.p_file.rating])) {  // carried to the list date
      var now = [];
      now[F.now.day] = day;
      now[F.now.rating] = rounded(d[F.p_file.rating]);
      now[F.now.uncertainty] = rounded(d[F.p_file.uncertainty]);
      s[F.series.now] = now;
    }
    return s;
  }
  function sums(values) {  // a running sum (the published rows are written as differences)
    var out = new Array(values.length), total = 0;
    for (var i = 0; i < values.length; i++) { total += values[i]; out[i] = total; }
    return out;
  }
  // the chart's series of what the lists published (a step line, contract.SERIES) from the
  // player's data: each rating as the lists showed it, from the list that first showed it, held
  // to the list date; "from": the first list this site published, when lists before it are the
  // backfill's
  function publishedSeries(d) {
    var pub = d[F.p_file.published], s = {}, day = dayOf(d[F.p_file.date]);
    var from = dayOf(d[F.p_file.published_from]);
    s[F.series.name] = I.plain(t("as_published"));
    s[F.series.day] = sums(pub[F.p_published.day]);
    s[F.series.rating] = sums(pub[F.p_published.rating]);
    s[F.series.step] = 1;
    if (!none(from) && s[F.series.day].length && s[F.series.day][0] < from) s[F.series.from] = from;
    var n = s[F.series.day].length;
    if (n && s[F.series.day][n - 1] < day) {
      var now = [];
      now[F.now.day] = day;
      now[F.now.rating] = s[F.series.rating][n - 1];
      now[F.now.uncertainty] = null;
      s[F.series.now] = now;
    }
    return s;
  }
  // the event rows (contract.EVENT) and their games (contract.GAME, flat) from the player's data
  function eventRows(d, days) {
    var tours = d[F.p_file.tournaments], games = d[F.p_file.games], n = tours[F.p_tournaments.last_day].length;
    var byId = playerNumbers();
    var played = [], ids = [];
    for (var k = 0; k < n; k++) { played.push([]); ids.push(null); }
    var g = games[F.p_games.tournament], linked = games[F.p_games.game];
    g.forEach(function (e, j) {
      if (!(e >= 0 && e < n)) return;
      var row = [], white = games[F.p_games.white][j], opp = games[F.p_games.opponent][j];
      row[F.game.round] = games[F.p_games.round][j];
      row[F.game.code] = 3 * white + Math.round(2 * games[F.p_games.score][j]);
      row[F.game.opponent] = byId.has(opp) ? byId.get(opp) : -1;
      row[F.game.opponent_rating] = games[F.p_games.opponent_rating][j];
      row[F.game.opponent_estimate] = games[F.p_games.opponent_estimate][j];
      Array.prototype.push.apply(played[e], row);
      if (linked && !none(linked[j])) { if (!ids[e]) ids[e] = []; ids[e][played[e].length / row.length - 1] = linked[j]; }
    });
    var out = [];
    for (var m = 0; m < n; m++) {
      var first = dayOf(tours[F.p_tournaments.first_day][m]), last = dayOf(tours[F.p_tournaments.last_day][m]), e = [];
      e[F.event.last_day] = last;
      e[F.event.games] = tours[F.p_tournaments.games][m];
      e[F.event.score2] = Math.round(2 * tours[F.p_tournaments.score][m]);
      e[F.event.performance] = tours[F.p_tournaments.performance][m];
      e[F.event.bound] = tours[F.p_tournaments.bound][m];
      e[F.event.span] = days.filter(function (x) { return x >= first && x <= last; }).length;
      e[F.event.played] = played[m];
      e[F.event.ids] = ids[m];
      out.push(e);
    }
    return out;
  }
  function drawPlayer(d, kept) {
    var series = estimateSeries(d), events = eventRows(d, series[F.series.day]);
    var chart = {};
    series[F.series.name] = I.plain(t("todays_estimate"));
    chart[F.chart.series] = [series, publishedSeries(d)];
    var source = new Source("event", events, events.length);
    var days = series[F.series.day], ratings = series[F.series.rating];
    var before = [], after = [], change = [];
    events.forEach(function (e) {  // today's estimates: the chart's point before its rating days, and its last
      var day = e[F.event.last_day], lo = 0, hi = days.length;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (days[mid] <= day) lo = mid + 1; else hi = mid; }
      var b = lo - 1 - e[F.event.span], x = b >= 0 ? ratings[b] : null, y = lo ? ratings[lo - 1] : null;
      before.push(x); after.push(y); change.push(none(x) || none(y) ? null : y - x);
    });
    source.add("now_before", before);
    source.add("now_after", after);
    source.add("now_change", change);
    var flat = [], gameSize = Object.keys(F.game).length;
    events.forEach(function (e, k) {
      var g = e[F.event.played], ids = e[F.event.ids];
      for (var j = 0; j < g.length; j += gameSize) flat.push({ e: k, row: g.slice(j, j + gameSize), id: ids ? ids[j / gameSize] : null });
    });
    var games = new Source("game", flat.map(function (x) { return x.row; }), flat.length);
    var links = kept.get("tournament") || [];
    games.add("event", flat.map(function (x) { return x.e; }));
    games.add("id", flat.map(function (x) { return x.id; }));
    games.add("heading", flat.map(function (x) { return (links[x.e] || "") + " \u00b7 " + isoDay(events[x.e][F.event.last_day]); }));
    var link = "<a href=\"" + ROOT + "about.html#tournaments\">" + t("the_columns") + "</a>";
    var steps = chart[F.chart.series][1], from = steps[F.series.from];
    var caption = sentences([t("chart_caption"), none(from) ? "" : t("chart_rebuilt", { day: "<time datetime=" + isoDay(from) + ">" + I.longDate(isoDay(from)) + "</time>" })]);
    $("record").innerHTML = "<h2>" + t("rating_history") + "</h2><figure class=chart data-band=1 data-days=1 data-legend=1><svg role=img aria-label=\"" + attr(t("rating_history")) + "\"></svg>" +
      "<figcaption>" + caption + "</figcaption></figure>" +
      "<h2>" + t("tournaments") + "</h2><div id=events>" + (events.length ? "<p class=meta>" + t("newest_first", { link: link }) + "</p>" +
      "<p class=meta id=at-the-time>" + t("at_the_time") + "</p><p class=meta id=today-estimates>" + t("today") + "</p>" +
      "<div class=scroll><table class=games></table></div>" : "<p>" + t("no_rated_games") + "</p>") + "</div>" +
      "<h2>" + t("games") + "</h2><div id=games>" + (events.length ? "<p class=meta>" + t("colours") + "</p><div class=scroll><table class=\"games played\"></table></div>" : "") + "</div>" +
      "<h2>" + t("head_to_head") + "</h2><div id=opponents>" + (events.length ? "<p class=meta>" + t("h2h_note") + "</p><div class=scroll><table class=\"games h2h\"></table></div>" : "") + "</div>";
    var figure = $("record").querySelector("figure"), tables = [];
    figure.chartData = chart;  // drawn by the chart script
    // the chart and each table in a task of its own (a long table in parts: VTable.draw), so
    // that the page answers between them; #record[data-drawn] when all is drawn
    var parts = [function () { if (window.WHR_CHARTS) WHR_CHARTS.setup(figure); }];
    if (events.length) {
      parts.push(function () { tables.push(tableApp("events", $("events").querySelector("table"), source, { kept: kept })); });
      parts.push(function () { tables.push(tableApp("games", $("games").querySelector("table"), games, {})); });
      var h2h = null;
      parts.push(function () { h2h = opponents(d, links, events); });
      parts.push(function () { tables.push(tableApp("opponents", $("opponents").querySelector("table"), h2h, {})); });
    }
    (function next(k) {
      if (k < parts.length) { parts[k](); setTimeout(function () { next(k + 1); }, 0); return; }
      if (tables.some(function (tb) { return tb.drawing; })) { setTimeout(function () { next(k); }, 20); return; }
      $("record").setAttribute("data-drawn", "1");
    })(0);
  }
  // head to head (contract.P_OPPONENTS, the "opponents" table): each opponent's number, games,
  // score, and the tournaments where they met (from the games), newest first
  function opponents(d, links, events) {
    var opp = d[F.p_file.opponents], ids = opp[F.p_opponents.player], byId = playerNumbers();
    var source = new Source("p_opponents", opp, ids.length);
    var w = opp[F.p_opponents.wins], dr = opp[F.p_opponents.draws], l = opp[F.p_opponents.losses];
    var games = d[F.p_file.games], met = new Map();
    games[F.p_games.opponent].forEach(function (id, j) {
      var e = games[F.p_games.tournament][j];
      if (!met.has(id)) met.set(id, []);
      if (met.get(id).indexOf(e) < 0) met.get(id).push(e);
    });
    source.add("opponent", ids.map(function (id) { return byId.has(id) ? byId.get(id) : -1; }));
    source.add("games", ids.map(function (id, k) { return w[k] + dr[k] + l[k]; }));
    source.add("score2", ids.map(function (id, k) { return 2 * w[k] + dr[k]; }));
    source.add("played", ids.map(function (id) {  // compact: the newest, the others folded
      var items = (met.get(id) || []).filter(function (e) { return e >= 0 && e < events.length; }).map(function (e) {
        return (links[e] || "") + " <small>" + isoDay(events[e][F.event.last_day]) + "</small>";
      });
      if (items.length <= 2) return I.join(items);
      return items.shift() + "<details><summary>" + t("more_tournaments", { n: I.group(items.length) }) + "</summary>" + I.join(items) + "</details>";
    }));
    return source;
  }

  // sentences one after another: a space between two, none after a full-width stop (zh, ja)
  function sentences(list) {
    return list.filter(Boolean).reduce(function (a, b) {
      return a + (a === "" || /[\u3002\uff01\uff1f]$/.test(a) ? "" : " ") + b;
    }, "");
  }

  // the compare page: the published ratings of the players the address names (#p=ID,ID),
  // each fetched from their data (p/<id>.json), as step lines on one chart; players are found
  // by name, native name, id or city as the players index finds them, and added or removed
  var MOST = 5, FOUND = 8;
  function comparePage() {
    var fig = $("compare-chart"), q = $("compare-q"), found = $("compare-found"), chosen = $("compare-chosen"), note = $("compare-note");
    if (!/^https?:$/.test(location.protocol)) return;  // a file: the page says what it needs
    $("compare-needs").hidden = true;
    $("compare-app").hidden = false;
    var byId = playerNumbers(), data = new Map(), drawn = 0;
    function current() { var h = readHash(); return (h.has("p") ? h.get("p") : "").split(",").filter(Boolean); }
    function setIds(ids) {
      try { history.replaceState(null, "", "#p=" + ids.map(encodeURIComponent).join(",")); } catch (e) { location.hash = "p=" + ids.map(encodeURIComponent).join(","); }
      show();
    }
    function label(n) { return esc(P.name[n]) + " <small>" + esc(P.label[n] || P.id[n]) + "</small>"; }  // namesakes told apart
    function search() {
      var ids = current(), hits = P.find(q.value, FOUND, function (i) { return ids.indexOf(P.id[i]) >= 0; });
      var html = hits.map(function (i) {
        return "<li><button type=button data-n=" + i + (ids.length >= MOST ? " disabled" : "") + ">" + label(i) + "</button>";
      }).join("");
      found.innerHTML = html || (words(q.value).length ? "<li>" + t("compare_none") + "</li>" : "");
    }
    function show() {
      var ids = current().slice(0, MOST), known = ids.filter(function (id) { return byId.has(id); });
      var unknown = ids.filter(function (id) { return !byId.has(id); });
      chosen.innerHTML = known.map(function (id) {
        var n = byId.get(id);
        return "<li>" + P.link(n, true) + " <button type=button data-id=\"" + esc(id) + "\" aria-label=\"" + esc(I.plain(t("compare_remove", { name: esc(P.name[n]) }))) + "\">\u00d7</button>";
      }).join("");
      note.innerHTML = sentences([known.length < 2 ? t("compare_how", { n: String(MOST) }) : "",
        known.length >= MOST ? t("compare_most", { n: String(MOST) }) : "",
        unknown.length ? t("not_listed", { ids: I.join(unknown.map(esc)) }) : ""]);
      search();
      var names = new Map();  // namesakes in the legend are told apart by their ids
      known.forEach(function (id) { var m = P.name[byId.get(id)]; names.set(m, (names.get(m) || 0) + 1); });
      var turn = ++drawn;
      Promise.all(known.map(function (id) {
        var n = byId.get(id);
        if (!data.has(id)) data.set(id, playerData("p/" + encodeURIComponent(P.page(n)) + ".json"));
        return data.get(id).then(function (d) {
          if (!d) return null;
          var s = publishedSeries(d);
          s[F.series.name] = P.name[n] + (names.get(P.name[n]) > 1 ? " (" + id + ")" : "");
          return s;
        });
      })).then(function (all) {
        if (turn !== drawn) return;  // a later choice draws
        var chart = {};
        chart[F.chart.series] = all.filter(Boolean);
        fig.chartData = chart;
        if (window.WHR_CHARTS) WHR_CHARTS.setup(fig);
      });
    }
    q.addEventListener("input", schedule(search));
    $("compare-form").addEventListener("submit", function (e) {  // Enter: the first found
      e.preventDefault();
      var first = found.querySelector("button[data-n]:not([disabled])");
      if (first) first.click();
    });
    found.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-n]");
      if (!b) return;
      var ids = current().filter(function (id) { return byId.has(id); });
      if (ids.length < MOST) ids.push(P.id[+b.getAttribute("data-n")]);
      q.value = "";
      setIds(ids);
      q.focus();
    });
    chosen.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-id]");
      if (!b) return;
      var id = b.getAttribute("data-id");
      setIds(current().filter(function (x) { return x !== id; }));
    });
    window.addEventListener("hashchange", show);
    show();
  }

  // a tournament's page: its crosstable and pairings are HTML (tournaments.py); each game of the
  // crosstable coloured by its result (+ won, = drawn, − lost), and each player of the
  // pairings, there by their number (#), named as in the crosstable (a link, a namesake's label)
  function tournamentPage() {
    var names = [];  // by number (#): the crosstable's rows are numbered 1, 2, ... in order
    Array.prototype.forEach.call($("cross").querySelectorAll("tbody tr"), function (r) {
      names.push(r.cells.item(2).innerHTML);
      Array.prototype.forEach.call(r.cells, function (td) {
        var games = td.textContent.split(" ");
        if (!games.every(function (g) { return GAME.test(g); })) return;
        td.innerHTML = games.map(function (g) { return "<span class=" + RESULT_CLASS.get(GAME.exec(g)[1]) + ">" + esc(g) + "</span>"; }).join(" ");
      });
    });
    Array.prototype.forEach.call(document.querySelectorAll("#pairs tbody tr"), function (r) {
      [1, 3].forEach(function (k) {  // Black, White
        var cell = r.cells.item(k), n = cell ? +cell.textContent : 0;
        if (n >= 1 && n <= names.length) cell.innerHTML = names[n - 1];
      });
    });
  }

  // the header's search, on every page (frame.py): to the players index, searched; without
  // script the form opens the index (players.html?q=...)
  function findForm() {
    Array.prototype.forEach.call(document.querySelectorAll("header form.find"), function (form) {
      form.addEventListener("submit", function (e) {
        var q = form.querySelector("input").value.trim();
        e.preventDefault();
        location.href = form.getAttribute("action") + (q ? "#q=" + encodeURIComponent(q) : "");
      });
    });
  }

  // on paper what is folded is unfolded (a head to head's tournaments), and folded again after
  function unfoldForPrint() {
    var opened = [];
    window.addEventListener("beforeprint", function () {
      opened = Array.prototype.filter.call(document.querySelectorAll("main details:not([open])"), function (d) { d.open = true; return true; });
    });
    window.addEventListener("afterprint", function () { opened.forEach(function (d) { d.open = false; }); opened = []; });
  }

  function init() {
    findForm();
    unfoldForPrint();
    players();
    if (own(CFG, F.cfg.table)) indexPage();
    if ($("record") && P) playerPage();
    if ($("compare-chart") && P) comparePage();
    if ($("cross")) tournamentPage();
  }
  // what the what-if page (static/whatif.js) draws as the other pages do
  window.WHR_SITE = { players: players, byId: playerNumbers, esc: esc, signed: signed, isoDay: isoDay };
  WHR_I18N.ready(init);
})();

// Rating charts drawn as SVG: one or more series (days since 1970-01-01, ratings), an optional
// uncertainty band (rating ± std), date ticks that fit the width (years, or months for a short
// history), a legend below the chart and a hover read-out. No dependencies.
(function () {
  "use strict";
  var F = WHR_DECLARATION.F, t = WHR_I18N.t, plain = WHR_I18N.plain;
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
  function none(v) { return v === null || v === undefined; }

  // Date ticks: the first day of every step-th month, the smallest step whose labels fit in the
  // width (a year's label needs less room than a month's), counting the ticks really drawn
  function dateTicks(t0, t1, width) {
    var a = new Date(t0 * DAY), b = new Date(t1 * DAY);
    var m0 = a.getUTCFullYear() * 12 + a.getUTCMonth(), m1 = b.getUTCFullYear() * 12 + b.getUTCMonth();
    function ticksOf(step) {
      var ticks = [];
      for (var m = Math.ceil(m0 / step) * step; m <= m1 + 1; m += step) {
        var t = Date.UTC(Math.floor(m / 12), m % 12, 1) / DAY;
        if (t < t0 || t > t1) continue;
        var y = Math.floor(m / 12), mm = m % 12 + 1;
        ticks.push({ day: t, label: step >= 12 ? String(y) : y + "-" + (mm < 10 ? "0" : "") + mm });
      }
      return ticks;
    }
    for (var i = 0; i < MONTH_STEPS.length; i++) {
      var ticks = ticksOf(MONTH_STEPS[i]);
      if (ticks.length <= Math.max(2, Math.floor(width / (MONTH_STEPS[i] >= 12 ? 44 : 64)))) return ticks;
    }
    return ticksOf(MONTH_STEPS[MONTH_STEPS.length - 1]);
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
    this.step = !!s[F.series.step];  // a step line: each value holds until the next
    this.from = none(s[F.series.from]) ? -Infinity : s[F.series.from];  // before it: reconstructed
  }

  function draw(svg, data, band, legendBox, days) {
    var series = data[F.chart.series].map(function (s) { return new Series(s); }).filter(function (s) { return s.t.length > 0; });
    var W = svg.clientWidth || 800, H = svg.clientHeight || 300;
    var m = { l: 44, r: 12, t: 12, b: 24 };
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!series.length) { el("text", { x: 20, y: 30 }, svg).textContent = plain(t("no_history")); return; }
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
      if (s.step) {  // what the lists published: a value per list, held until the next
        // (dotted, hollow points: the lists the backfill reconstructed, before s.from)
        var rebuilt = [], steps = [];
        for (var q = 0; q < s.t.length; q++) {
          var x = X(s.t[q]).toFixed(1), y = Y(s.r[q]).toFixed(1), path = s.t[q] < s.from ? rebuilt : steps;
          if (path === steps && !steps.length && rebuilt.length) rebuilt.push("H" + x);  // held to the first published list
          path.push(path.length ? "H" + x + "V" + y : "M" + x + "," + y);
        }
        if (s.now) (steps.length ? steps : rebuilt).push("H" + X(s.now.t).toFixed(1));
        if (rebuilt.length) el("path", { "class": "line step rebuilt", d: rebuilt.join(""), stroke: colour }, g);
        if (steps.length) el("path", { "class": "line step", d: steps.join(""), stroke: colour }, g);
        s.t.forEach(function (t, i) {
          var old = t < s.from;
          el("circle", { "class": "point list" + (old ? " rebuilt" : ""), cx: X(t).toFixed(1), cy: Y(s.r[i]).toFixed(1), r: 2.5, fill: old ? "#fff" : colour, stroke: colour }, g);
        });
        groups.push(g);
        return;
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
        i.className = s.step ? "step" : "";
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
        var pts = s.t.map(function (t, i) { return { t: t, r: s.r[i], u: s.u ? s.u[i] : null, later: false, rebuilt: t < s.from }; });
        if (s.now) pts.push({ t: s.now.t, r: s.now.r, u: s.now.u, later: true, rebuilt: false });
        pts.forEach(function (p) {
          var d = Math.abs(X(p.t) - px) + (series.length > 1 ? Math.abs(Y(p.r) - py) : 0);
          if (!best || d < best.d) best = { d: d, s: s, p: p };
        });
      });
      if (!best) return;
      var p = best.p;
      dot.setAttribute("cx", X(p.t)); dot.setAttribute("cy", Y(p.r)); dot.setAttribute("visibility", "visible");
      tip.textContent = (series.length > 1 ? best.s.name + ": " : "") + isoDay(p.t) + "  " + Math.round(p.r) +
        (band && !none(p.u) ? " \u00b1 " + Math.round(p.u) : "") + (p.later ? " (" + plain(t("list_date")) + ")" : "") +
        (p.rebuilt ? " (" + plain(t("reconstructed")) + ")" : "");
    }
    svg.onmousemove = show;  // (one handler: a chart drawn again replaces it)
    svg.onclick = show;
  }

  function setup(fig) {
    // the data: set by the page's script (a player page, the compare page: set again, drawn
    // again), or a JSON element named by the figure
    var data = fig.chartData, source = document.getElementById(fig.getAttribute("data-chart"));
    if (!data && source) data = JSON.parse(source.textContent);
    if (!data) return;
    if (fig.chart) { fig.chart.data = data; fig.chart.redraw(); return; }
    var svg = fig.querySelector("svg");
    var legend = null;
    if (fig.hasAttribute("data-legend")) {
      legend = document.createElement("ul");
      legend.className = "legend";
      fig.appendChild(legend);
    }
    var chart = { data: data, width: 0 };
    chart.redraw = function () {
      chart.width = svg.clientWidth;
      draw(svg, chart.data, fig.hasAttribute("data-band"), legend, fig.hasAttribute("data-days"));
      svg.setAttribute("data-drawn", "1");
    };
    fig.chart = chart;
    chart.redraw();
    var timer = null;
    window.addEventListener("resize", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { if (svg.clientWidth !== chart.width) chart.redraw(); }, 150);
    });
  }
  function init() { Array.prototype.forEach.call(document.querySelectorAll("figure.chart"), setup); }
  window.WHR_CHARTS = { setup: setup };
  WHR_I18N.ready(init);
})();
