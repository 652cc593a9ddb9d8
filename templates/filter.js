(function () {
  "use strict";
  // The index's search and filters: every game row carries what they test, in data-* attributes.
  var table = document.getElementById("games-table");
  if (!table) return;
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  function $(id) { return document.getElementById(id); }
  var inputs = ["f-text", "f-player", "f-event", "f-from", "f-to", "f-dispute", "f-special", "f-invalid"];
  function value(id) { var e = $(id); return e.type === "checkbox" ? e.checked : e.value.trim().toLowerCase(); }
  function apply() {
    var text = value("f-text"), player = value("f-player"), event = value("f-event");
    var from = value("f-from"), to = value("f-to");
    var words = text ? text.split(/\s+/) : [];
    var shown = 0;
    rows.forEach(function (r) {
      var d = r.dataset;
      var ok = words.every(function (w) { return d.text.indexOf(w) >= 0; }) &&
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
  }
  inputs.forEach(function (id) {
    var e = $(id);
    e.addEventListener(e.type === "checkbox" || e.tagName === "SELECT" ? "change" : "input", apply);
  });
  apply();
})();
