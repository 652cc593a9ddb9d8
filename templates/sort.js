(function () {
  "use strict";
  // Sortable tables: click (or Enter on) a column header. Cells may carry data-sort.
  function key(row, i) {
    var cell = row.cells[i];
    if (!cell) return "";
    var v = cell.getAttribute("data-sort");
    return v !== null ? v : cell.textContent.trim();
  }
  function compare(a, b) {
    var x = parseFloat(a), y = parseFloat(b);
    if (!isNaN(x) && !isNaN(y) && String(x) === a.replace(/^0+(?=\d)/, "") && String(y) === b.replace(/^0+(?=\d)/, "")) return x - y;
    return a.localeCompare(b);
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, i) {
      th.tabIndex = 0;
      th.setAttribute("role", "columnheader");
      function sort() {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var c = compare(key(a, i), key(b, i));
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
      });
    });
  });
})();
