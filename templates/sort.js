(function () {
  "use strict";
  // Sortable tables: click (or Enter on) a column header. Cells may carry data-sort. Where the
  // headers are hidden (a phone, where each row is a card), a "Sort by" menu and an order
  // button above the table do the same; the two stay in step. A table whose rows are redrawn
  // (the standings) asks for its order again with a "zf-resort" event.
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
  var count = 0;
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var heads = table.tHead.rows[0].cells;
    var bar = document.createElement("div");
    bar.className = "sortbar";
    var label = document.createElement("label");
    var menu = document.createElement("select");
    menu.id = "sortby-" + (table.id || ++count);
    label.htmlFor = menu.id;
    label.textContent = "Sort by";
    var none = document.createElement("option");
    none.value = "";
    none.textContent = "as listed";
    menu.appendChild(none);
    Array.prototype.forEach.call(heads, function (th, i) {
      var o = document.createElement("option");
      o.value = i;
      o.textContent = th.textContent.trim();
      menu.appendChild(o);
    });
    var order = document.createElement("button");
    order.type = "button";
    order.className = "order";
    function showOrder(asc) {
      order.textContent = asc === null ? "▲▼" : asc ? "▲ ascending" : "▼ descending";
      order.setAttribute("aria-label", asc === null ? "Order" : asc ? "Ascending: tap for descending" : "Descending: tap for ascending");
    }
    showOrder(null);
    bar.appendChild(label);
    bar.appendChild(menu);
    bar.appendChild(order);
    table.parentNode.insertBefore(bar, table);

    function sort(i, asc) {
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      heads[i].setAttribute("aria-sort", asc ? "ascending" : "descending");
      menu.value = String(i);
      showOrder(asc);
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var c = compare(key(a, i), key(b, i));
        return asc ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    function current() {
      for (var i = 0; i < heads.length; i++) {
        var s = heads[i].getAttribute("aria-sort");
        if (s) return [i, s === "ascending"];
      }
      return null;
    }
    Array.prototype.forEach.call(heads, function (th, i) {
      th.tabIndex = 0;
      th.setAttribute("role", "columnheader");
      function byHead() { sort(i, th.getAttribute("aria-sort") !== "ascending"); }
      th.addEventListener("click", byHead);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); byHead(); }
      });
    });
    menu.addEventListener("change", function () {
      if (menu.value !== "") sort(+menu.value, true);
    });
    order.addEventListener("click", function () {
      var now = current();
      if (now) sort(now[0], !now[1]);
      else if (menu.value !== "") sort(+menu.value, true);
      else sort(0, true);
    });
    table.addEventListener("zf-resort", function () {
      var now = current();
      if (now) sort(now[0], now[1]);
    });
  });
})();
