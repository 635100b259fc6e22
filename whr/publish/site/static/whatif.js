// The what-if page (whatif.html, issue 40): the reader's hypothetical games, refitted with every
// rated game of the list by the solver (static/whatif-solver.js) in a Web Worker, and what the
// list of the last of their days would say. The games are in the address (#g=...), so an answer
// can be shared. Everything it writes is a declared text (whr/publish/site/whatif.py, in the
// page's settings) in the reader's language; the data file (data/whatif.<digest>.js) is loaded
// with a <script> when the page opens, so the page works from file:// too.
//
// The address: #g=GAME;GAME;... with GAME = BLACK,WHITE,RESULT,DAY: a player by their id
// (encodeURIComponent), or +k for the k-th new player; RESULT Black's score 1, 0.5 or 0; DAY
// YYYY-MM-DD (empty: the day after the list). Missing fields keep their defaults: a player
// page links #g=<its id>.
(function () {
  "use strict";
  var I = WHR_I18N, F = WHR_DECLARATION.F, S = WHR_SITE, esc = S.esc, signed = S.signed, isoDay = S.isoDay;
  var cfgEl = document.getElementById("whatif-cfg");
  if (!cfgEl) return;
  var CFG = JSON.parse(cfgEl.textContent), GIVEN = CFG[F.whatif_page.texts];
  var TEXTS = new Map(Object.keys(GIVEN).map(function (k) { return [k, GIVEN[k]]; }));
  var DAY = 86400000, MOST = 8, STATUS = ["active", "inactive", "provisional"];
  var form, list, answerBox, suggest, players = null, byId = null;
  var worker = null, ready = false, asked = 0, shown = 0, newCount = 0, firstDay = "";

  function $(id) { return document.getElementById(id); }
  function tx(name, values) { return TEXTS.has(name) ? I.text(TEXTS.get(name), values) : ""; }
  function dayOf(iso) { var t = Date.parse(iso + "T00:00:00Z"); return isNaN(t) ? null : Math.round(t / DAY); }
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  function longDay(d) {  // as the pages write a day: "30 November 2026" in English (frame.long_date)
    var x = new Date(d * DAY);
    if (/^en\b/.test(I.lang())) return x.getUTCDate() + " " + MONTHS[x.getUTCMonth()] + " " + x.getUTCFullYear();
    return new Intl.DateTimeFormat(I.lang(), { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(x);
  }

  // --- the players (site.js's, from the players data: the same numbers as the what-if data) ---
  function isNew(p) { return typeof p === "string"; }  // "+k": the k-th new player
  function nameOf(p) {
    if (isNew(p)) return esc(I.plain(tx("new_player", { n: p.slice(1) })));
    return esc(players.name[p]);
  }
  function linkOf(p) { return isNew(p) ? nameOf(p) : players.link(p, true); }
  function inputText(p) {
    if (isNew(p)) return I.plain(tx("new_player", { n: p.slice(1) }));
    return players.name[p] + (players.label[p] ? " " + players.label[p] : "") + " \u00b7 " + players.id[p];
  }
  function found(q) { return players.find(q, MOST); }  // as the players index finds them

  // --- the games: the rows of the form, each game's two players and result ---
  function rows() { return Array.prototype.slice.call(list.querySelectorAll("li.game")); }
  function defaultDay() { return firstDay; }  // the day after the list (the page's own)
  function playerOf(input) {
    var v = input.getAttribute("data-player");
    if (v === null || v === "") return null;
    return v.charAt(0) === "+" ? v : +v;
  }
  function setPlayer(input, p) {
    if (p === null) { input.removeAttribute("data-player"); return; }
    input.setAttribute("data-player", String(p));
    input.value = inputText(p);
    if (isNew(p)) newCount = Math.max(newCount, +p.slice(1));
  }
  function addRow(copyDay) {
    var last = rows().pop(), row = last.cloneNode(true);
    row.querySelectorAll("input.who").forEach(function (i) { i.value = ""; i.removeAttribute("data-player"); i.setAttribute("aria-expanded", "false"); });
    row.querySelector("select.result").value = "1";
    row.querySelector("input.day").value = copyDay ? last.querySelector("input.day").value : defaultDay();
    list.appendChild(row);
    number();
    return row;
  }
  function number() {  // each game's legend, "Game 3", in the language
    rows().forEach(function (row, k) {
      row.querySelector("legend").innerHTML = tx("game", { n: k + 1 });
      row.querySelector("button.remove").hidden = rows().length < 2;
    });
  }
  function games() {  // the complete games, and what is wrong with the others
    var out = [], problems = [];
    rows().forEach(function (row, k) {
      var b = playerOf(row.querySelector("input[data-side=black]")), w = playerOf(row.querySelector("input[data-side=white]"));
      var day = dayOf(row.querySelector("input.day").value);
      if (b === null || w === null || day === null) return;
      if (b === w) { problems.push(tx("themself", { n: k + 1 })); return; }
      out.push({ black: b, white: w, score: +row.querySelector("select.result").value, day: day });
    });
    return { games: out, problems: problems };
  }

  // --- the address (read when the page opens and when the reader edits it) ---
  var written = null;  // the address as the page last wrote it
  function writeAddress() {
    var parts = rows().map(function (row) {
      var side = function (s) { var p = playerOf(row.querySelector("input[data-side=" + s + "]")); return p === null ? "" : (isNew(p) ? p : encodeURIComponent(players.id[p])); };
      var day = row.querySelector("input.day").value;
      return [side("black"), side("white"), row.querySelector("select.result").value, day === defaultDay() ? "" : day].join(",").replace(/,+$/, "");
    });
    var hash = "#g=" + parts.join(";");
    try { history.replaceState(null, "", hash); } catch (e) { /* file:// in some browsers */ }
    written = location.hash;
  }
  function reset() {  // one empty game, as the page opens
    rows().slice(1).forEach(function (row) { row.remove(); });
    var row = rows()[0];
    row.querySelectorAll("input.who").forEach(function (i) { i.value = ""; i.removeAttribute("data-player"); });
    row.querySelector("select.result").value = "1";
    row.querySelector("input.day").value = defaultDay();
    newCount = 0;
  }
  function readAddress() {
    var m = /(?:^#|&)g=([^&]*)/.exec(location.hash);
    if (!m) return;
    m[1].split(";").forEach(function (game, k) {
      var row = k === 0 ? rows()[0] : addRow(false), f = game.split(",");
      ["black", "white"].forEach(function (side, s) {
        var token = f[s] || "", input = row.querySelector("input[data-side=" + side + "]");
        if (/^\+[1-9]\d{0,3}$/.test(token)) { setPlayer(input, token); return; }
        var id = token;
        try { id = decodeURIComponent(token); } catch (e) { /* kept as written */ }
        if (byId.has(id)) setPlayer(input, byId.get(id));
        else input.value = id;
      });
      if (f[2] === "1" || f[2] === "0.5" || f[2] === "0") row.querySelector("select.result").value = f[2];
      if (f[3] && dayOf(f[3]) !== null) row.querySelector("input.day").value = f[3];
    });
  }

  // --- the suggestions under the player being typed (an ARIA combobox) ---
  var active = null, options = [], current = -1;
  function openFor(input) {
    active = input;
    var q = input.value, ps = found(q), items = [];
    options = ps.slice();
    var news = [];
    rows().forEach(function (row) {
      row.querySelectorAll("input.who").forEach(function (i) { var p = playerOf(i); if (p !== null && isNew(p) && news.indexOf(p) < 0) news.push(p); });
    });
    news.sort();
    options = options.concat(news, ["+" + (newCount + 1)]);
    options.forEach(function (p, k) {
      var text = k === options.length - 1 ? esc(I.plain(tx("a_new_player"))) :
        (isNew(p) ? nameOf(p) : esc(players.name[p]) + (players.label[p] ? " <small>" + esc(players.label[p]) + "</small>" : "") + " <small>" + esc(players.id[p]) + "</small>");
      items.push("<li role=option id=whatif-option-" + k + " data-k=" + k + ">" + text + "</li>");
    });
    if (!ps.length && q.trim()) items.unshift("<li class=none aria-disabled=true>" + esc(I.plain(tx("no_match"))) + "</li>");
    suggest.innerHTML = items.join("");
    input.parentNode.parentNode.insertBefore(suggest, input.parentNode.nextSibling);
    suggest.hidden = false;
    input.setAttribute("aria-expanded", "true");
    highlight(-1);
  }
  function close() {
    if (!active) return;
    active.setAttribute("aria-expanded", "false");
    active.removeAttribute("aria-activedescendant");
    suggest.hidden = true;
    active = null;
  }
  function highlight(k) {
    current = k;
    Array.prototype.forEach.call(suggest.querySelectorAll("[role=option]"), function (li) {
      li.setAttribute("aria-selected", String(+li.getAttribute("data-k") === k));
    });
    if (active && k >= 0) active.setAttribute("aria-activedescendant", "whatif-option-" + k);
    else if (active) active.removeAttribute("aria-activedescendant");
  }
  function choose(k) {
    var input = active, p = options[k];
    close();
    setPlayer(input, p);
    changed();
  }

  // --- asking the solver, and the answer ---
  var timer = null;
  function changed() {
    writeAddress();
    clearTimeout(timer);
    timer = setTimeout(ask, 120);
  }
  function ask() {
    var g = games();
    if (!ready) return;
    if (!g.games.length || g.problems.length) {
      asked++;
      answerBox.innerHTML = "<p>" + (g.problems.length ? g.problems.map(esc).join(" ") : tx("choose")) + "</p>";
      return;
    }
    asked++;
    answerBox.setAttribute("aria-busy", "true");
    var wait = document.createElement("p");
    wait.className = "meta";
    wait.id = "whatif-wait";
    wait.innerHTML = tx("computing");
    var old = $("whatif-wait");
    if (old) old.remove();
    answerBox.insertBefore(wait, answerBox.firstChild);
    var numbered = g.games.map(function (x) {
      return { black: isNew(x.black) ? players.size + +x.black.slice(1) - 1 : x.black, white: isNew(x.white) ? players.size + +x.white.slice(1) - 1 : x.white, score: x.score, day: x.day };
    });
    var most = 0;
    numbered.forEach(function (x) { most = Math.max(most, x.black - players.size + 1, x.white - players.size + 1); });
    worker.postMessage({ type: "ask", id: asked, games: numbered, newPlayers: Math.max(most, 0) });
  }
  function back(p) { return p >= players.size ? "+" + (p - players.size + 1) : p; }
  function eloCell(v, cls) {
    return v === null ? "<td class=n>\u2013</td>" : "<td class=\"n" + (cls ? " " + cls : "") + "\" data-elo=\"" + v + "\">" + Math.round(v) + "</td>";
  }
  function changeCell(before, after) {
    if (before === null) return "<td class=n><span class=new>" + I.t("new") + "</span></td>";
    var shown = Math.round(after) - Math.round(before), cls = shown > 0 ? " up" : (shown < 0 ? " down" : "");
    return "<td class=\"n" + cls + "\" data-elo=\"" + (after - before) + "\">" + signed(shown) + "</td>";
  }
  function rankCell(a, b) {
    var text = a === b ? (a ? String(a) : "") : (a ? a : "\u2013") + " \u2192 " + (b ? b : "\u2013");
    return "<td class=n data-before=" + a + " data-after=" + b + ">" + text + "</td>";
  }
  function statusText(a, b) {
    var word = function (s) { return s < 0 ? "" : I.t(STATUS[s]); };
    return a === b || a < 0 ? word(b) : word(a) + " \u2192 " + word(b);
  }
  function statusCell(a, b) {
    return "<td class=st data-before=" + a + " data-after=" + b + ">" + statusText(a, b) + "</td>";
  }
  function head(cols) {
    return "<thead><tr>" + cols.map(function (c) {
      return "<th" + (c[2] ? " class=" + c[2] : "") + (c[1] ? " title=\"" + esc(I.plain(c[1])) + "\"" : "") + ">" + c[0] + "</th>";
    }).join("") + "</tr></thead>";
  }
  function show(a) {
    answerBox.removeAttribute("aria-busy");
    var day = longDay(a.on), cols = [[tx("player")], [tx("before"), tx("before_title"), "n"], [tx("after"), tx("after_title", { day: esc(day) }), "n"], [tx("change"), "", "n"], [tx("rank"), "", "n"]];
    var html = "<h2>" + tx("heading", { day: "<time datetime=" + isoDay(a.on) + ">" + esc(day) + "</time>" }) + "</h2>";
    html += "<div class=scroll><table id=whatif-players class=whatif>" + head(cols.concat([[tx("status"), "", "st"]])) + "<tbody>";
    a.rows.forEach(function (r) {
      var p = back(r.player);
      html += "<tr data-player=\"" + esc(isNew(p) ? p : players.id[p]) + "\"><td class=nm>" + linkOf(p) +
        // on a phone the status goes under the name (style.css), its column hidden
        "<small class=st-m>" + statusText(r.statusBefore, r.statusAfter) + "</small></td>" +
        eloCell(r.before) + eloCell(r.after) + changeCell(r.before, r.after) + rankCell(r.rankBefore, r.rankAfter) +
        statusCell(r.statusBefore, r.statusAfter) + "</tr>";
    });
    html += "</tbody></table></div>";
    html += "<p id=whatif-moved data-n=" + a.others.length + ">" + tx("others", { n: I.group(a.others.length) }) + "</p>";
    if (a.others.length) {
      html += "<details id=whatif-more><summary>" + tx("show_others") + "</summary><div class=scroll><table id=whatif-others class=whatif>" + head(cols) + "<tbody>";
      a.others.forEach(function (r) {
        html += "<tr data-player=\"" + esc(players.id[r.player]) + "\"><td class=nm>" + linkOf(r.player) + "</td>" + eloCell(r.before) + eloCell(r.after) +
          changeCell(r.before, r.after) + rankCell(r.rankBefore, r.rankAfter) + "</tr>";
      });
      html += "</tbody></table></div></details>";
    }
    html += "<p class=meta id=whatif-took data-ms=" + a.ms.all + ">" + tx("took", { games: I.group(a.games), seconds: a.ms.all >= 10 ? (a.ms.all / 1000).toFixed(2) : (Math.max(a.ms.all, 1) / 1000).toFixed(3) })  // a small list: 0.004 s, not 0.00 + "</p>";
    answerBox.innerHTML = html;
    answerBox.setAttribute("data-answered", String(++shown));
  }

  // --- the worker, and the data file ---
  function load() {  // the worker first: it warms up while the data file loads
    worker = new Worker(URL.createObjectURL(new Blob(["(" + WHATIF_SOLVER.toString() + ")()"], { type: "text/javascript" })));
    worker.onerror = function (e) { failed(tx("failed", { message: esc(e.message || "") })); };  // it could not start or run
    worker.onmessage = function (e) {
      var m = e.data;
      if (m.type === "ready") {
        ready = true;
        window.performance.mark("whatif-ready");
        ask();
      } else if (m.type === "answer" && m.id === asked) {
        show(m.answer);
      } else if (m.type === "error" && (m.id === undefined || m.id === asked)) {  // no id: the data's
        failed(tx("failed", { message: esc(m.message) }));
      }
    };
    answerBox.innerHTML = "<p class=meta>" + tx("loading") + "</p>";
    var s = document.createElement("script");
    s.src = CFG[F.whatif_page.data];
    s.onload = start;
    s.onerror = function () { failed(tx("not_loaded")); };
    document.body.appendChild(s);
  }
  function failed(html) {  // the answer is that there is none: why
    answerBox.removeAttribute("aria-busy");
    answerBox.innerHTML = "<p id=whatif-failed>" + html + "</p>";
  }
  function start() {
    var d = (window.WHR || {}).whatif;
    if (!d) { failed(tx("not_loaded")); return; }  // not there, or cut short (a script that does not parse)
    window.performance.mark("whatif-data");
    var ints = function (k) { return Int32Array.from(d[k]); };
    var data = {
      asOf: d[F.whatif.as_of], w2: d[F.whatif.w2], virtualGames: d[F.whatif.virtual_games], virtualRating: d[F.whatif.virtual_rating],
      tolElo: d[F.whatif.tol_elo], tolGrad: d[F.whatif.tol_grad], maxIter: d[F.whatif.max_iter],
      established: d[F.whatif.established], activeYears: d[F.whatif.active_years], players: players.size,
      days: ints(F.whatif.days), playerCount: ints(F.whatif.players_per_day), playersOfDay: ints(F.whatif.players),
      gameCount: ints(F.whatif.games_per_day), gamesOfDay: ints(F.whatif.games), ratings: Float64Array.from(d[F.whatif.ratings])
    };
    var buffers = Object.keys(data).map(function (k) { return data[k].buffer; }).filter(Boolean);
    worker.postMessage({ type: "load", data: data }, buffers);
    delete window.WHR.whatif;  // the worker has it now
  }

  function init() {
    form = $("whatif-form");
    list = $("whatif-games");
    answerBox = $("whatif-answer");
    suggest = $("whatif-suggest");
    players = S.players();
    if (!form || !players) return;
    byId = S.byId();
    firstDay = list.querySelector("input.day").defaultValue;
    $("whatif-needs").hidden = true;
    form.hidden = false;
    readAddress();
    number();
    list.addEventListener("input", function (e) {
      var t = e.target;
      if (t.matches("input.who")) { t.removeAttribute("data-player"); openFor(t); changed(); }
      else changed();
    });
    list.addEventListener("change", function (e) { if (!e.target.matches("input.who")) changed(); });
    list.addEventListener("keydown", function (e) {
      if (!e.target.matches("input.who")) return;
      var n = options.length;
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        if (!active) openFor(e.target);
        highlight(((current + (e.key === "ArrowDown" ? 1 : -1)) % n + n) % n);
        e.preventDefault();
      } else if (e.key === "Enter") {
        if (active && current >= 0) choose(current);
        else if (active && options.length > 1 && options[0] !== undefined && found(e.target.value).length) choose(0);
        e.preventDefault();
      } else if (e.key === "Escape") close();
    });
    list.addEventListener("focusout", function (e) {
      if (e.target.matches("input.who")) setTimeout(function () { if (active === e.target && document.activeElement !== e.target) close(); }, 150);
    });
    list.addEventListener("click", function (e) {
      var remove = e.target.closest("button.remove");
      if (remove && rows().length > 1) { remove.closest("li.game").remove(); number(); changed(); }
    });
    suggest.addEventListener("mousedown", function (e) {
      var li = e.target.closest("[role=option]");
      if (li) { e.preventDefault(); choose(+li.getAttribute("data-k")); }
    });
    $("whatif-add").addEventListener("click", function () { addRow(true).querySelector("input.who").focus(); changed(); });
    $("whatif-clear").addEventListener("click", function () {
      reset();
      number();
      changed();
    });
    window.addEventListener("hashchange", function () {  // an address edited or followed
      if (location.hash === written) return;
      close();
      reset();
      readAddress();
      number();
      changed();
    });
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    load();
  }
  I.ready(init);
})();
