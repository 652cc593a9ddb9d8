(function () {
  "use strict";
  // The index's search and filters: every game row carries what they test, in data-* attributes.
  var table = document.getElementById("games-table");
  if (!table) return;
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  function $(id) { return document.getElementById(id); }
  var inputs = ["f-text", "f-player", "f-event", "f-from", "f-to", "f-dispute", "f-special", "f-invalid"];
  function value(id) { var e = $(id); return e.type === "checkbox" ? e.checked : e.value.trim().toLowerCase(); }
  // a word is found anywhere in a row's text; a game number (#12) only whole: #1 is not #12
  function found(text, w) {
    return w.charAt(0) === "#" ? (" " + text + " ").indexOf(" " + w + " ") >= 0 : text.indexOf(w) >= 0;
  }
  function apply() {
    var text = value("f-text"), player = value("f-player"), event = value("f-event");
    var from = value("f-from"), to = value("f-to");
    var words = text ? text.split(/\s+/) : [];
    var shown = 0;
    rows.forEach(function (r) {
      var d = r.dataset;
      var ok = words.every(function (w) { return found(d.text, w); }) &&
        (!player || d.players.indexOf("|" + player + "|") >= 0) &&
        (!event || d.event === event) &&
        (!from || (d.date && d.date >= from)) &&
        (!to || (d.date && d.date.slice(0, to.length) <= to)) &&
        (!value("f-dispute") || +d.disputes > 0) &&
        (!value("f-special") || +d.specials > 0) &&
        (!value("f-invalid") || d.valid === "0");
      r.hidden = !ok;
      if (ok) shown++;
    });
    $("f-count").textContent = shown === rows.length ? rows.length + " game" + (rows.length === 1 ? "" : "s")
      : shown + " of " + rows.length + " games";
    standings();
  }

  // The standings of the games shown: each row carries its seats' outcomes (name, won, hands,
  // finished hands, points, first out, last), added up here as the Players table adds them up
  // over every game. A row without outcomes (a game of a kind without those measures) is not
  // one of the standings' games.
  // Written as the Players table writes them (Python's "%.0f%%" of 100 * rate, which rounds
  // a half to even), so that both tables agree over the same games.
  function pct(part, whole) {
    var v = 100 * (whole ? part / whole : 0), r = Math.round(v);
    if (v - Math.floor(v) === 0.5 && r % 2 !== 0) r -= 1;
    return r + "%";
  }
  function cell(row, text, label, sort) {
    var td = document.createElement("td");
    td.textContent = text;
    td.className = "num";
    td.setAttribute("data-label", label);
    if (sort !== undefined) td.setAttribute("data-sort", sort);
    row.appendChild(td);
  }
  function standings() {
    var table = $("standings-table");
    if (!table) return;
    var by = {}, names = [], shown = 0;
    rows.forEach(function (r) {
      if (r.hidden || r.dataset.outcomes === undefined) return;
      shown++;
      JSON.parse(r.dataset.outcomes).forEach(function (o) {
        var p = by[o[0]];
        if (!p) { p = by[o[0]] = { name: o[0], games: 0, wins: 0, hands: 0, finished: 0, points: 0, firsts: 0, lasts: 0 }; names.push(o[0]); }
        p.games += 1; p.wins += o[1]; p.hands += o[2]; p.finished += o[3]; p.points += o[4];
        p.firsts += o[5]; p.lasts += o[6];
      });
    });
    var list = names.map(function (n) { return by[n]; });
    list.forEach(function (p) { p.mean = p.finished ? p.points / p.finished : 0; });
    list.sort(function (a, b) { return b.wins - a.wins || b.mean - a.mean || a.name.localeCompare(b.name); });
    var body = table.tBodies[0];
    while (body.firstChild) body.removeChild(body.firstChild);
    list.forEach(function (p) {
      var tr = document.createElement("tr");
      var key = document.createElement("td");
      key.className = "key";
      key.setAttribute("data-label", "Player");
      var b = document.createElement("bdi");
      b.className = "nm";
      b.textContent = p.name;
      b.title = p.name;
      key.appendChild(b);
      tr.appendChild(key);
      cell(tr, p.games, "Games");
      cell(tr, p.wins, "Wins");
      cell(tr, p.hands, "Hands");
      cell(tr, p.points, "Points");
      cell(tr, p.mean.toFixed(1), "Points per hand", p.mean);
      cell(tr, pct(p.firsts, p.finished), "First out", p.finished ? p.firsts / p.finished : 0);
      cell(tr, pct(p.lasts, p.finished), "Last", p.finished ? p.lasts / p.finished : 0);
      body.appendChild(tr);
    });
    table.dispatchEvent(new Event("zf-resort"));
    $("st-games").textContent = shown + " game" + (shown === 1 ? "" : "s");
    var lead = list.length ? list[0] : null, out = $("st-lead");
    while (out.firstChild) out.removeChild(out.firstChild);
    if (lead) {
      var who = document.createElement("bdi");
      who.className = "nm"; // a long name is cut short, whole in its title
      who.textContent = lead.name;
      who.title = lead.name;
      out.appendChild(document.createTextNode("· "));
      out.appendChild(who);
      out.appendChild(document.createTextNode(lead.wins ? " leads with " + lead.wins + " win" + (lead.wins === 1 ? "" : "s") : " leads on points per hand (no game won)"));
    }
  }
  inputs.forEach(function (id) {
    var e = $(id);
    e.addEventListener(e.type === "checkbox" || e.tagName === "SELECT" ? "change" : "input", apply);
  });
  apply();
})();
