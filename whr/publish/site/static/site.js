// Search by name and filter by country on list pages. No network, no dependencies.
(function () {
  "use strict";
  var table = document.getElementById("list");
  var search = document.getElementById("search");
  if (!table || !search) return;
  var country = document.getElementById("country");
  var shown = document.getElementById("shown");
  var nameCol = parseInt(search.getAttribute("data-col") || "1", 10);
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var countryCol = -1;
  var heads = table.tHead.rows[0].cells;
  for (var i = 0; i < heads.length; i++) if (heads[i].textContent === "Country") countryCol = i;

  function fold(s) {
    return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  var keys = rows.map(function (r) {
    var cell = r.cells[nameCol];
    var a = cell.querySelector("a");
    return fold(cell.textContent + " " + (a && a.title ? a.title : ""));
  });
  var codes = rows.map(function (r) { return countryCol >= 0 ? r.cells[countryCol].textContent : ""; });

  function apply() {
    var words = fold(search.value.trim()).split(/\s+/).filter(Boolean);
    var c = country ? country.value : "";
    var n = 0;
    for (var i = 0; i < rows.length; i++) {
      var ok = (!c || codes[i] === c) && words.every(function (w) { return keys[i].indexOf(w) >= 0; });
      rows[i].hidden = !ok;
      if (ok) n++;
    }
    if (shown) shown.textContent = n + " of " + rows.length + " shown";
    var state = [];
    if (c) state.push("c=" + encodeURIComponent(c));
    if (search.value) state.push("q=" + encodeURIComponent(search.value));
    try { history.replaceState(null, "", state.length ? "#" + state.join("&") : location.pathname); } catch (e) { /* file:// */ }
  }
  // Restore a filter from the address (#c=CHN&q=name), so filtered lists can be linked.
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
    var p = kv.split("=");
    if (p[0] === "c" && country) country.value = decodeURIComponent(p[1] || "");
    if (p[0] === "q") search.value = decodeURIComponent(p[1] || "");
  });
  search.addEventListener("input", apply);
  if (country) country.addEventListener("change", apply);
  apply();
})();

// Sort a table.sortable by clicking (or Enter on) a column heading: numbers numerically
// (first click: largest first), text alphabetically; empty cells always last.
(function () {
  "use strict";
  var tables = document.querySelectorAll("table.sortable");
  var NUM = /^-?\d+(\.\d+)?$/;
  Array.prototype.forEach.call(tables, function (table) {
    var heads = table.tHead.rows[0].cells;
    var body = table.tBodies[0];
    Array.prototype.forEach.call(heads, function (th, col) {
      th.tabIndex = 0;
      function sort() {
        var rows = Array.prototype.slice.call(body.rows);
        var texts = rows.map(function (r) { return r.cells[col].textContent.trim(); });
        var numeric = texts.every(function (t) { return t === "" || NUM.test(t); });
        var current = th.getAttribute("aria-sort");
        var dir = current ? (current === "ascending" ? -1 : 1) : (numeric ? -1 : 1);
        var order = rows.map(function (r, i) { return i; });
        order.sort(function (a, b) {
          var x = texts[a], y = texts[b];
          if (x === "" || y === "") return x === y ? a - b : (x === "" ? 1 : -1);
          var c = numeric ? parseFloat(x) - parseFloat(y) : x.localeCompare(y);
          return c ? dir * c : a - b;
        });
        for (var i = 0; i < heads.length; i++) heads[i].removeAttribute("aria-sort");
        th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        var frag = document.createDocumentFragment();
        order.forEach(function (i) { frag.appendChild(rows[i]); });
        body.appendChild(frag);
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(); });
    });
  });
})();
