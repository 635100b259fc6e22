// The what-if page's solver (whatif.html, issue 40): Whole-History Rating (Coulom 2008) refitted
// over every rated game of the list and the reader's hypothetical games, run in a Web Worker so
// that the page stays responsive. It is the library's fit (whr/core: docs/solver.md) written
// again for the browser, term for term: the same model (Bradley-Terry games, a draw half a win
// and half a loss; V virtual draws against the virtual opponent on each player's first day; the
// Wiener prior w2 |t2 - t1| between a player's consecutive days), the same global Newton's
// method (the direction by conjugate gradients preconditioned with the players' own tridiagonal
// blocks, the forcing term min(0.1, 0.1 sqrt(max|g|)), a backtracking line search on the log
// posterior) and the same stopping rule (a full step changing no rating by more than tol_elo
// and a gradient below tol_grad): its ratings are whr.fit's on the same games to well within
// 0.01 Elo. Warm start: today's fit (every old player-day at its rating, a new day by the
// rating rule of its neighbours, a new player at the virtual rating).
//
// This file is loaded by the page as a classic script: it only defines WHATIF_SOLVER, and the
// page starts a worker from that function's source (a Blob), which works from file:// too
// (a worker from a file URL does not). Natural units inside (r = Elo ln 10 / 400).
function WHATIF_SOLVER(scope) {
  "use strict";
  scope = scope || self;  // a worker's global scope (a benchmark gives another)
  var NATURAL = Math.LN10 / 400, ELO = 400 / Math.LN10, DAY = 86400000;
  var OFFSET = 1900;  // published rating = internal Elo + 1900 (whr.engine.PUBLISHED_OFFSET)
  // the conjugate gradients' relative residual in each Newton step: whr.fit's forcing term is
  // min(0.1, 0.1 sqrt(max|g|)); from a warm start at the maximum a constant one costs fewer
  // iterations in all, and the stopping rule, which makes the answer, is the same. 0.03: on
  // a list of 120,000 games (benchmarks/bench_whatif.py) each question then stops after 3
  // Newton steps and 21-25 of these iterations, against 4 and 26-29 with 0.05 (0.02: 3 and
  // 23-30; the forcing term: 3 and 37-42)
  var ETA = 0.03;
  // a Newton step that moves no rating by more than this (Elo) is taken whole when it makes
  // the gradient smaller, without the line search's log posterior (a log per game); a larger
  // one, or one that does not, gets the line search
  var TRUST_ELO = 20;
  var base = null;  // the list, decoded (load)

  // --- the list: decoded from the data file's compact columns (docs/data-dictionary.md) ---
  function load(d) {
    var P = d.players, nDays = d.days.length, nPd = d.playersOfDay.length, nGames = d.gamesOfDay.length / 3;
    var pdPlayer = new Int32Array(nPd), pdDay = new Int32Array(nPd), rDay = new Float64Array(nPd);
    var last = new Float64Array(P).fill(OFFSET * 1e8);  // in 1e-8 Elo (whole numbers), by player
    var gA = new Int32Array(nGames), gB = new Int32Array(nGames), gS = new Float64Array(nGames);
    var day = 0, k = 0, g = 0;
    for (var i = 0; i < nDays; i++) {
      day += d.days[i];
      var first = k, player = 0;
      for (var j = 0; j < d.playerCount[i]; j++, k++) {
        player = (j === 0 ? 0 : player) + d.playersOfDay[k];
        pdPlayer[k] = player;
        pdDay[k] = day;
        last[player] += d.ratings[k];
        rDay[k] = last[player];
      }
      for (j = 0; j < d.gameCount[i]; j++, g++) {
        gA[g] = first + d.gamesOfDay[3 * g];
        gB[g] = first + d.gamesOfDay[3 * g + 1];
        gS[g] = d.gamesOfDay[3 * g + 2] / 2;
      }
    }
    // player-major order (the solver's: a player's days consecutive, by day): a counting sort
    // of the day-major player-days, stable, so each player's days stay in order
    var start = new Int32Array(P + 1);
    for (k = 0; k < nPd; k++) start[pdPlayer[k] + 1]++;
    for (var p = 0; p < P; p++) start[p + 1] += start[p];
    var next = start.slice(0, P), toMajor = new Int32Array(nPd);
    var day2 = new Int32Array(nPd), r = new Float64Array(nPd), games = new Int32Array(nPd);
    for (k = 0; k < nPd; k++) {
      var at = next[pdPlayer[k]]++;
      toMajor[k] = at;
      day2[at] = pdDay[k];
      r[at] = (rDay[k] / 1e8 - OFFSET) * NATURAL;
    }
    // the games by their first side's player-day (the order of the matrix's rows: the
    // products with minus the Hessian then run through memory in order), that side lower
    var lo = new Int32Array(nGames), hi = new Int32Array(nGames), rows = new Int32Array(nPd + 1);
    for (g = 0; g < nGames; g++) {
      var a = toMajor[gA[g]], b = toMajor[gB[g]];
      games[a]++;
      games[b]++;
      lo[g] = a < b ? a : b;
      hi[g] = a < b ? b : a;
      if (a > b) gS[g] = 1 - gS[g];  // the score of the lower side
      rows[lo[g] + 1]++;
    }
    for (k = 0; k < nPd; k++) rows[k + 1] += rows[k];
    var sS = new Float64Array(nGames);
    for (g = 0; g < nGames; g++) {
      var to = rows[lo[g]]++;
      gA[to] = lo[g];
      gB[to] = hi[g];
      sS[to] = gS[g];
    }
    gS = sS;
    base = {
      P: P, start: start, day: day2, r: r, games: games, gA: gA, gB: gB, gS: gS,
      asOf: d.asOf, w2: d.w2 * NATURAL * NATURAL, V: d.virtualGames, vr: (d.virtualRating - OFFSET) * NATURAL,
      tolElo: d.tolElo, tolGrad: d.tolGrad, maxIter: d.maxIter,
      established: d.established, activeYears: d.activeYears
    };
    base.today = standing(base.start, base.day, base.r, base.games, P, base.asOf);
    return { players: P, playerDays: nPd, games: nGames };
  }

  // --- the problem of the list and the hypothetical games (whr.core.build, by games) ---
  function problem(hyp, newPlayers) {
    var P = base.P + newPlayers, oldStart = base.start, oldDay = base.day;
    // the player-days the hypothetical games add: (player, day) pairs not yet there
    var extra = new Map();  // player -> sorted new days
    hyp.forEach(function (h) {
      [h.black, h.white].forEach(function (p) {
        if (p < base.P && find(oldStart[p], oldStart[p + 1], oldDay, h.day) >= 0) return;
        var days = extra.get(p);
        if (!days) extra.set(p, days = []);
        if (days.indexOf(h.day) < 0) days.push(h.day);
      });
    });
    extra.forEach(function (days) { days.sort(function (a, b) { return a - b; }); });
    var start = new Int32Array(P + 1);
    for (var p = 0; p < P; p++) {
      var had = p < base.P ? oldStart[p + 1] - oldStart[p] : 0, more = extra.get(p);
      start[p + 1] = start[p] + had + (more ? more.length : 0);
    }
    var n = start[P], day = new Int32Array(n), r = new Float64Array(n), games = new Int32Array(n);
    var moved = new Int32Array(oldDay.length), vr = base.vr;  // old index -> new index; the virtual rating
    for (p = 0; p < P; p++) {
      var a = p < base.P ? oldStart[p] : 0, b = p < base.P ? oldStart[p + 1] : 0, add = extra.get(p) || [];
      var k = start[p], i = a, j = 0;
      while (i < b || j < add.length) {
        if (j >= add.length || (i < b && oldDay[i] < add[j])) {
          moved[i] = k;
          day[k] = oldDay[i];
          r[k] = base.r[i];
          games[k] = base.games[i];
          i++;
        } else {  // a new day: the rating rule on the old days (docs/solver.md, warm start)
          day[k] = add[j];
          r[k] = i === a ? vr : (i === b ? base.r[b - 1] :
            base.r[i - 1] + (base.r[i] - base.r[i - 1]) * (add[j] - oldDay[i - 1]) / (oldDay[i] - oldDay[i - 1]));
          j++;
        }
        k++;
      }
    }
    var m = base.gA.length, total = m + hyp.length;
    var gA = new Int32Array(total), gB = new Int32Array(total), gS = new Float64Array(total);
    for (var g = 0; g < m; g++) {
      gA[g] = moved[base.gA[g]];
      gB[g] = moved[base.gB[g]];
      gS[g] = base.gS[g];
    }
    hyp.forEach(function (h, x) {
      var pa = find(start[h.black], start[h.black + 1], day, h.day), pb = find(start[h.white], start[h.white + 1], day, h.day);
      gA[m + x] = pa;
      gB[m + x] = pb;
      gS[m + x] = h.score;
      games[pa]++;
      games[pb]++;
    });
    // the Wiener prior's precision between consecutive days of a player (0 between two
    // players), and the virtual draws: anchors on each player's first day
    var link = new Float64Array(Math.max(n - 1, 0)), firsts = [];
    for (p = 0; p < P; p++) {
      if (start[p + 1] > start[p]) firsts.push(start[p]);
      for (k = start[p]; k + 1 < start[p + 1]; k++) link[k] = 1 / (base.w2 * (day[k + 1] - day[k]));
    }
    var q = firsts.length, aK = Int32Array.from(firsts);
    var aR = new Float64Array(q).fill(base.vr), aN = new Float64Array(q).fill(base.V), aS = new Float64Array(q).fill(base.V / 2);
    return new Problem(n, r, link, gA, gB, gS, aK, aR, aN, aS, { start: start, day: day, games: games, P: P });
  }
  // a problem: n player-days (a player's consecutive), starting ratings r, the links between
  // consecutive ones, games (pairs of player-days, Black's... the first side's score) and
  // anchors (games of a player-day against a fixed rating: n games, S points); one shape for
  // the whole problem and a conditional one, so that the functions that read it stay fast
  function Problem(n, r, link, gA, gB, gS, aK, aR, aN, aS, about) {
    this.n = n;
    this.r = r;
    this.link = link;
    this.gA = gA;
    this.gB = gB;
    this.gS = gS;
    this.aK = aK;
    this.aR = aR;
    this.aN = aN;
    this.aS = aS;
    this.about = about;  // the whole problem: players' first days, days, games; a part: its player-days
  }

  // --- some players' problem, everyone else held at r (whr.core.conditional): games
  // against a held player-day become anchors at its rating; links and virtual draws stay ---
  function conditional(pr, r, players) {
    var loc = new Int32Array(pr.n).fill(-1), free = [], start = pr.about.start;
    players.forEach(function (p) {
      for (var k = start[p]; k < start[p + 1]; k++) free.push(k);
    });
    free.sort(function (a, b) { return a - b; });
    free.forEach(function (k, i) { loc[k] = i; });
    var f = free.length, link = new Float64Array(Math.max(f - 1, 0)), r0 = new Float64Array(f);
    for (var i = 0; i < f; i++) {
      r0[i] = r[free[i]];
      if (i + 1 < f && free[i + 1] === free[i] + 1) link[i] = pr.link[free[i]];
    }
    var gA = [], gB = [], gS = [], aK = [], aR = [], aN = [], aS = [];
    for (var g = 0; g < pr.gA.length; g++) {
      var a = loc[pr.gA[g]], b = loc[pr.gB[g]];
      if (a >= 0 && b >= 0) { gA.push(a); gB.push(b); gS.push(pr.gS[g]); }
      else if (a >= 0) { aK.push(a); aR.push(r[pr.gB[g]]); aN.push(1); aS.push(pr.gS[g]); }
      else if (b >= 0) { aK.push(b); aR.push(r[pr.gA[g]]); aN.push(1); aS.push(1 - pr.gS[g]); }
    }
    for (var x = 0; x < pr.aK.length; x++) {
      var k = loc[pr.aK[x]];
      if (k >= 0) { aK.push(k); aR.push(pr.aR[x]); aN.push(pr.aN[x]); aS.push(pr.aS[x]); }
    }
    return new Problem(f, r0, link, Int32Array.from(gA), Int32Array.from(gB), Float64Array.from(gS),
      Int32Array.from(aK), Float64Array.from(aR), Float64Array.from(aN), Float64Array.from(aS), free);
  }
  function find(lo, hi, days, d) {  // the index of day d among days[lo..hi) (sorted); -1: none
    var a = lo, b = hi;
    while (a < b) {
      var mid = (a + b) >> 1;
      if (days[mid] < d) a = mid + 1; else b = mid;
    }
    return a < hi && days[a] === d ? a : -1;
  }

  // --- the log posterior, its gradient and minus its Hessian (whr.core.model), in one pass:
  // a game's term S log sigma(d) + (1 - S) log sigma(-d) = -softplus(-d) - (1 - S) d, its
  // derivative S - sigma(d) and curvature sigma(d) sigma(-d). With the value (the line search),
  // from one exp(-|d|) a game; without it (every other call), sigma(ra - rb) = Ea / (Ea + Eb)
  // from E = exp(r) a player-day: a third of the exponentials (an exp costs more than the
  // rest of a game's terms), as exact (r stays far from exp's range: |r| < 700 is checked) ---
  function evaluate(pr, r, grad, diag, w, value, ex) {  // the value only when asked (a log each)
    var gA = pr.gA, gB = pr.gB, gS = pr.gS, n = pr.n, link = pr.link, f = 0, g, a, b, x, q;
    grad.fill(0);
    diag.fill(0);
    var big = value;
    for (var k = 0; k < n && !big; k++) {
      big = !(Math.abs(r[k]) < 700);
      ex[k] = Math.exp(r[k]);
    }
    if (!big) {
      for (g = 0; g < gA.length; g++) {
        a = gA[g];
        b = gB[g];
        var ea = ex[a], eb = ex[b], sum = ea + eb;
        x = gS[g] - ea / sum;
        q = ea * eb / (sum * sum);
        grad[a] += x;
        grad[b] -= x;
        diag[a] += q;
        diag[b] += q;
        w[g] = q;
      }
    } else {
      for (g = 0; g < gA.length; g++) {
        a = gA[g];
        b = gB[g];
        var d = r[a] - r[b], e = Math.exp(-Math.abs(d)), p = d >= 0 ? 1 / (1 + e) : e / (1 + e);
        x = gS[g] - p;
        q = p * (1 - p);
        if (value) f -= (d < 0 ? -d : 0) + Math.log1p(e) + (1 - gS[g]) * d;
        grad[a] += x;
        grad[b] -= x;
        diag[a] += q;
        diag[b] += q;
        w[g] = q;
      }
    }
    var aK = pr.aK, aR = pr.aR, aN = pr.aN, aS = pr.aS;
    for (var i = 0; i < aK.length; i++) {  // games against a fixed rating: the virtual draws...
      var k = aK[i], u = r[k] - aR[i], eu = Math.exp(-Math.abs(u)), s = u >= 0 ? 1 / (1 + eu) : eu / (1 + eu);
      if (value) f -= aN[i] * ((u < 0 ? -u : 0) + Math.log1p(eu)) + (aN[i] - aS[i]) * u;
      grad[k] += aS[i] - aN[i] * s;
      diag[k] += aN[i] * s * (1 - s);
    }
    for (k = 0; k + 1 < n; k++) {
      if (link[k] > 0) {
        var dt = r[k + 1] - r[k], t = link[k] * dt;
        f -= 0.5 * t * dt;
        grad[k] += t;
        grad[k + 1] -= t;
        diag[k] += link[k];
        diag[k + 1] += link[k];
      }
    }
    return f;
  }
  function largest(v) { var m = 0; for (var i = 0; i < v.length; i++) { var a = Math.abs(v[i]); if (a > m) m = a; } return m; }

  // --- Newton's method (whr.core.solver.solve) ---
  function dot(a, b) { var s = 0; for (var i = 0; i < a.length; i++) s += a[i] * b[i]; return s; }
  function solve(pr, limits) {  // limits: tolElo, tolGrad, maxIter (whr.fit's)
    var n = pr.n, r = pr.r.slice(), m = pr.gA.length;
    var grad = new Float64Array(n), diag = new Float64Array(n), w = new Float64Array(m);
    var grad2 = new Float64Array(n), diag2 = new Float64Array(n), w2 = new Float64Array(m);
    var piv = new Float64Array(n), mult = new Float64Array(Math.max(n - 1, 0));
    var x = new Float64Array(n), res = new Float64Array(n), z = new Float64Array(n), dir = new Float64Array(n), ad = new Float64Array(n);
    var gA = pr.gA, gB = pr.gB, link = pr.link, rNew = new Float64Array(n), ex = new Float64Array(n);
    function factor() {  // the players' tridiagonal blocks, L D L^T (LAPACK dpttrf)
      piv[0] = diag[0];
      for (var k = 0; k + 1 < n; k++) {
        mult[k] = -link[k] / piv[k];
        piv[k + 1] = diag[k + 1] + mult[k] * link[k];
      }
    }
    // (an answer's time is that of its passes over the games, about 30 at RIF size, and over
    // the player-days: each pass below does what it can at once)
    function precondition(v, out) {  // solve with the factors (dpttrs); returns v . out
      out[0] = v[0];
      for (var k = 1; k < n; k++) out[k] = v[k] - mult[k - 1] * out[k - 1];
      out[n - 1] /= piv[n - 1];
      var s = v[n - 1] * out[n - 1];
      for (k = n - 2; k >= 0; k--) {
        out[k] = out[k] / piv[k] - mult[k] * out[k + 1];
        s += v[k] * out[k];
      }
      return s;
    }
    function times(v, out) {  // minus the Hessian times v
      var k, last = n - 1;
      if (n === 1) out[0] = diag[0] * v[0];
      else {  // the diagonal and the links between a player's days, in one pass
        out[0] = diag[0] * v[0] - link[0] * v[1];
        for (k = 1; k < last; k++) out[k] = diag[k] * v[k] - link[k - 1] * v[k - 1] - link[k] * v[k + 1];
        out[last] = diag[last] * v[last] - link[last - 1] * v[last - 1];
      }
      for (var g = 0; g < m; g++) {
        var a = gA[g], b = gB[g], wg = w[g];
        out[a] -= wg * v[b];
        out[b] -= wg * v[a];
      }
    }
    function cg(rtol) {  // preconditioned conjugate gradients for A x = grad, from x = 0
      x.fill(0);
      res.set(grad);
      var stop = rtol * rtol * dot(grad, grad);  // on the residual's squared norm
      if (stop === 0) return 0;
      var rz = precondition(res, z), it = 0;
      dir.set(z);
      while (it < 5000) {
        it++;
        times(dir, ad);
        var alpha = rz / dot(dir, ad), rr = 0;
        for (var k = 0; k < n; k++) {
          x[k] += alpha * dir[k];
          var e = res[k] - alpha * ad[k];
          res[k] = e;
          rr += e * e;
        }
        if (rr <= stop) break;
        var rzNew = precondition(res, z), beta = rzNew / rz;
        for (k = 0; k < n; k++) dir[k] = z[k] + beta * dir[k];
        rz = rzNew;
      }
      return it;
    }
    if (n === 0) return { r: r, iterations: 0, cg: 0 };
    var f = NaN, gmax = (evaluate(pr, r, grad, diag, w, false, ex), largest(grad)), cgTotal = 0, change = Infinity;
    function take() {  // the point rNew (its gradient and Hessian in grad2, diag2, w2) is next
      var swap = r; r = rNew; rNew = swap;
      swap = grad; grad = grad2; grad2 = swap;
      swap = diag; diag = diag2; diag2 = swap;
      swap = w; w = w2; w2 = swap;
    }
    for (var it = 1; it <= limits.maxIter; it++) {
      factor();
      cgTotal += cg(ETA);
      var t = 1, k, step = largest(x) * ELO, was = gmax;
      if (step <= TRUST_ELO) {  // a small full step, taken when it makes the gradient smaller
        for (k = 0; k < n; k++) rNew[k] = r[k] + x[k];
        evaluate(pr, rNew, grad2, diag2, w2, false, ex);
        if (largest(grad2) < was) {
          take();
          f = NaN;
        } else {
          step = Infinity;
        }
      }
      if (step > TRUST_ELO) {  // backtracking (Armijo) on the strictly concave log posterior
        if (f !== f) f = evaluate(pr, r, grad, diag, w, true, ex);
        var slope = dot(grad, x), fNew;
        for (;;) {
          for (k = 0; k < n; k++) rNew[k] = r[k] + t * x[k];
          fNew = evaluate(pr, rNew, grad2, diag2, w2, true, ex);
          var tiny = slope * t < 1e-13 * (1 + Math.abs(f));
          if (fNew >= f + 1e-4 * t * slope || tiny || t < 1e-10) break;
          t *= 0.5;
        }
        take();
        f = fNew;
      }
      change = t * largest(x) * ELO;
      gmax = largest(grad);
      if (t === 1 && change < limits.tolElo && gmax < limits.tolGrad) return { r: r, iterations: it, cg: cgTotal };
    }
    throw new Error("Newton's method did not converge in " + limits.maxIter + " iterations (last step " +
      change.toPrecision(3) + " Elo, gradient " + gmax.toPrecision(3) + ")");
  }

  // --- what a list of day `on` says: rating, games, last game, status, rank (whr.lists) ---
  function yearsBefore(on, years) {  // the same calendar day years earlier (Feb 29 -> Feb 28)
    var d = new Date(on * DAY), y = d.getUTCFullYear() - years, m = d.getUTCMonth(), day = d.getUTCDate();
    if (m === 1 && day === 29 && new Date(Date.UTC(y, 1, 29)).getUTCMonth() !== 1) day = 28;
    return Date.UTC(y, m, day) / DAY;
  }
  function standing(start, days, r, games, P, on) {
    var rating = new Float64Array(P).fill(NaN), count = new Int32Array(P), lastDay = new Int32Array(P).fill(-1 << 30);
    for (var p = 0; p < P; p++) {
      for (var k = start[p]; k < start[p + 1] && days[k] <= on; k++) {
        count[p] += games[k];
        lastDay[p] = days[k];
        // the rule of a rating on a day: that day's, interpolated between two, the last after
        if (k + 1 < start[p + 1] && days[k + 1] > on) rating[p] = r[k] + (r[k + 1] - r[k]) * (on - days[k]) / (days[k + 1] - days[k]);
        else rating[p] = r[k];
      }
    }
    var cutoff = yearsBefore(on, base.activeYears), status = new Int8Array(P), active = [];
    for (p = 0; p < P; p++) {  // 0 active, 1 inactive, 2 provisional; -1 not on the list
      if (count[p] === 0) status[p] = -1;
      else if (count[p] < base.established) status[p] = 2;
      else if (lastDay[p] >= cutoff) { status[p] = 0; active.push(p); } else status[p] = 1;
    }
    // ranks: unrounded ratings, highest first; ratings within 1e-6 Elo are ties, ordered by id
    // (natural order: the players' numbers; a new player after them) (whr.lists.rank_order)
    var tie = 1e-6 * NATURAL, rank = new Int32Array(P);
    active.sort(function (a, b) { return rating[b] - rating[a] || a - b; });
    for (var s = 0; s < active.length;) {
      var e = s + 1;
      while (e < active.length && rating[active[s]] - rating[active[e]] <= tie) e++;
      if (e - s > 1) {
        var group = active.slice(s, e).sort(function (a, b) { return a - b; });
        for (var i = 0; i < group.length; i++) active[s + i] = group[i];
      }
      s = e;
    }
    active.forEach(function (p, i) { rank[p] = i + 1; });
    return { rating: rating, games: count, last: lastDay, status: status, rank: rank, on: on };
  }

  // --- the solver's functions run on a small problem of the same shape until the engine has
  // compiled them, so that the first answer does not wait for that: when the worker starts,
  // while the page is still loading the data (the list's own numbers are not needed: a
  // rating scale of 12.9 Elo^2 a day, 2 virtual draws at 0, whr.fit's default limits) ---
  function warm() {
    var w2 = 12.9 * NATURAL * NATURAL, V = 2, limits = { tolElo: 0.01, tolGrad: 1e-6, maxIter: 100 };
    var players = 60, days = 4, n = players * days, link = new Float64Array(n - 1), gA = [], gB = [], gS = [];
    for (var k = 0; k + 1 < n; k++) if ((k + 1) % days) link[k] = 1 / (w2 * 30);
    for (var p = 0; p < players; p++) {
      for (var d = 0; d < days; d++) {
        for (var o = 1; o <= 3; o++) {
          gA.push(p * days + d);
          gB.push(((p + o * 7) % players) * days + d);
          gS.push((p + d + o) % 3 / 2);
        }
      }
    }
    var firsts = [], start = [];
    for (p = 0; p <= players; p++) { start.push(p * days); if (p < players) firsts.push(p * days); }
    var q = firsts.length;
    for (var round = 0; round < 12; round++) {
      var toy = new Problem(n, new Float64Array(n).fill(round / 10), link, Int32Array.from(gA), Int32Array.from(gB),
        Float64Array.from(gS), Int32Array.from(firsts), new Float64Array(q), new Float64Array(q).fill(V),
        new Float64Array(q).fill(V / 2), { start: Int32Array.from(start), day: new Int32Array(n), games: new Int32Array(n), P: players });
      solve(conditional(toy, toy.r, new Set([round, round + 1])), limits);
      solve(toy, limits);
    }
  }

  // --- an answer: the refit, read on the later of the list's day and the last game's ---
  function answer(q) {
    var t0 = Date.now(), P = base.P + q.newPlayers, ms = {};
    q.games.forEach(function (h) {
      [h.black, h.white].forEach(function (p) {
        if (!(p >= 0 && p < P && p === Math.floor(p))) throw new Error("no player " + p);
      });
      if (h.black === h.white) throw new Error("a player against themself");
      if (!(h.score === 0 || h.score === 0.5 || h.score === 1)) throw new Error("a score of " + h.score);
    });
    var on = base.asOf;
    q.games.forEach(function (h) { on = Math.max(on, h.day); });
    var pr = problem(q.games, q.newPlayers), touched = new Set();
    q.games.forEach(function (h) { touched.add(h.black); touched.add(h.white); });
    // the players of the games first, on their own with everyone else held (as whr.fit's
    // warm start does: most of the change, on a few hundred variables), then everyone
    var sub = conditional(pr, pr.r, touched), placed = solve(sub, base);
    sub.about.forEach(function (k, i) { pr.r[k] = placed.r[i]; });
    ms.problem = Date.now() - t0;
    var fit = solve(pr, base);
    ms.solve = Date.now() - t0 - ms.problem;
    var now = standing(pr.about.start, pr.about.day, fit.r, pr.about.games, P, on), before = base.today;
    function elo(x) { return x * ELO + OFFSET; }
    var mine = new Set(), rows = [], others = [];
    q.games.forEach(function (h) { mine.add(h.black); mine.add(h.white); });
    mine.forEach(function (p) {
      var old = p < base.P;
      rows.push({
        player: p,
        before: old && !isNaN(before.rating[p]) ? elo(before.rating[p]) : null,
        after: elo(now.rating[p]),
        rankBefore: old ? before.rank[p] : 0, rankAfter: now.rank[p],
        statusBefore: old ? before.status[p] : -1, statusAfter: now.status[p],
        gamesBefore: old ? before.games[p] : 0, gamesAfter: now.games[p]
      });
    });
    for (var p = 0; p < base.P; p++) {
      if (mine.has(p) || isNaN(before.rating[p])) continue;
      var change = (now.rating[p] - before.rating[p]) * ELO;
      if (Math.abs(change) >= 1) {
        others.push({ player: p, before: elo(before.rating[p]), after: elo(now.rating[p]), rankBefore: before.rank[p], rankAfter: now.rank[p] });
      }
    }
    others.sort(function (a, b) { return Math.abs(b.after - b.before) - Math.abs(a.after - a.before) || a.player - b.player; });
    ms.all = Date.now() - t0;
    return { on: on, rows: rows, others: others, games: pr.gA.length, iterations: fit.iterations, cg: fit.cg, ms: ms };
  }

  var t0 = Date.now();
  warm();
  scope.postMessage({ type: "warm", ms: Date.now() - t0 });
  scope.onmessage = function (e) {
    var m = e.data;
    try {
      if (m.type === "load") {
        var t0 = Date.now(), size = load(m.data);
        scope.postMessage({ type: "ready", size: size, ms: Date.now() - t0 });
      } else if (m.type === "ask") {
        scope.postMessage({ type: "answer", id: m.id, answer: answer(m) });
      }
    } catch (err) {
      scope.postMessage({ type: "error", id: m.id, message: String(err && err.message || err) });
    }
  };
}
