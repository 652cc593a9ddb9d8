(function () {
  "use strict";
  // Every value drawn here comes from the page's JSON, which zfrec built from the engine's
  // replay. Text goes in with textContent only, never as markup.
  var data = JSON.parse(document.getElementById("zf-data").textContent);
  var steps = data.steps;
  // Keys with empty values are left out of the JSON: fill them in once.
  var STEP_DEFAULTS = {
    trick: null, turn: null, seat: null, top: null, to_act: null, won: null, transfer: null,
    comments: [], annotation: null, annotation_words: null, disputed: false,
    dispute_note: null, diagnostics: [], notes: [],
  };
  // The move list marks the analyser's notes by kind (StepNote.kind); other kinds get ✎.
  var NOTE_MARKS = { missed_beat: ["✗", "missed beat"], conceded: ["−", "counters conceded"] };
  var PLAY_DEFAULTS = {
    pass: false, reading: null, jokers: [], inferred: false, rejected: false, flagged: false,
  };
  function fill(obj, defaults) {
    for (var k in defaults) if (!(k in obj)) obj[k] = defaults[k];
    return obj;
  }
  data.plays.forEach(function (p) { fill(p, PLAY_DEFAULTS); });
  steps.forEach(function (st) {
    fill(st, STEP_DEFAULTS);
    st.log = st.log.map(function (k) { return data.plays[k]; });
  });
  var players = data.players;
  var CARDS = data.cards;
  var ALPHABET = data.alphabet;
  // Card lists arrive as strings, one character per card id (see zfrec/render/html.py).
  function unpack(text) {
    var out = [];
    for (var i = 0; i < text.length; i++) out.push(ALPHABET.indexOf(text.charAt(i)));
    return out;
  }
  var n = players.length;
  var cur = -1;
  var viewAs = null; // client-side "as seat" view of a full page (the seat page holds no others)

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
    return parent;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  function plural(k, word) { return k + " " + word + (k === 1 ? "" : "s"); }
  function place(p) { return ["1st", "2nd", "3rd", "4th", "5th", "6th"][p - 1] || p + "th"; }
  function name(s) { return s === null || s === undefined ? "" : players[s] || "seat " + (s + 1); }

  function card(id, stands) {
    var c = CARDS[id];
    var e = el("span", "card " + c[2] + (id >= 52 ? " joker" : "") + (c[5] ? " counter" : ""));
    var label = c[3] + (stands ? ", standing for " + stands : "");
    e.setAttribute("role", "img");
    e.setAttribute("aria-label", label);
    e.title = label;
    e.setAttribute("data-card", c[4]);
    add(e, el("span", "r", c[0]), el("span", "s", c[1]));
    if (stands) add(e, el("span", "as", "= " + stands));
    return e;
  }
  function cardRow(ids, jokers) {
    var stands = {};
    (jokers || []).forEach(function (j) { stands[j[0]] = j[1]; });
    var row = el("span", "cards" + (jokers && jokers.length ? " decl" : ""));
    ids.forEach(function (id) { row.appendChild(card(id, stands[id])); });
    return row;
  }
  function cardText(ids) {
    var span = el("span");
    ids.forEach(function (id, i) {
      var c = CARDS[id];
      if (i) span.appendChild(document.createTextNode(" "));
      add(span, el("span", c[2], c[0] + (id >= 52 ? "" : c[1])));
    });
    return span;
  }

  // --- the seats --------------------------------------------------------------------------
  var seats = [];
  Array.prototype.forEach.call(document.querySelectorAll("#seats .seat"), function (box, s) {
    var head = box.querySelector(".head");
    var parts = {
      box: box,
      badges: el("span", "badges"),
      count: el("span", "count"),
      hand: el("div", "hand"),
      captured: el("span", "captured"),
      pts: el("span", "pts"),
      total: el("span", "total"),
    };
    add(head, parts.badges, parts.count);
    var foot = el("div", "foot");
    add(foot, el("span", "muted", "won:"), parts.captured, parts.pts, parts.total);
    add(box, parts.hand, foot);
    seats[s] = parts;
  });

  function drawSeat(s, st) {
    var p = seats[s];
    var hand = st.hands[s] === null ? null : unpack(st.hands[s]);
    var hidden = hand === null || (viewAs !== null && viewAs !== s && st.kind !== "result");
    p.box.classList.toggle("acted", st.seat === s);
    p.box.classList.toggle("out", st.places[s] !== null);
    p.box.setAttribute("data-count", st.counts[s]);
    p.box.setAttribute("data-points", st.points[s]);
    clear(p.badges);
    if (data.viewer === s || viewAs === s) add(p.badges, el("span", "badge you", "you"));
    if (st.places[s] !== null) {
      var last = st.kind !== "play" && st.kind !== "pass" && st.places[s] === n;
      add(p.badges, el("span", "badge place", last ? "last" : place(st.places[s]) + " out"));
    }
    if (st.to_act === s) add(p.badges, el("span", "badge turn", "to play"));
    p.count.textContent = plural(st.counts[s], "card");
    clear(p.hand);
    if (hidden) {
      var backs = el("div", "hidden");
      var pile = el("span");
      for (var i = 0; i < Math.min(st.counts[s], 6); i++) pile.appendChild(el("span", "back"));
      pile.setAttribute("aria-hidden", "true");
      add(backs, pile, el("span", null, st.counts[s] ? plural(st.counts[s], "card") + " hidden" : "no cards"));
      p.hand.appendChild(backs);
    } else if (hand.length) {
      p.hand.appendChild(cardRow(hand));
    } else {
      p.hand.appendChild(el("span", "muted", st.places[s] !== null ? "out" : "no cards"));
    }
    clear(p.captured);
    if (st.captured[s].length) p.captured.appendChild(cardRow(unpack(st.captured[s])));
    else p.captured.appendChild(el("span", "muted", "no counters"));
    p.pts.textContent = st.points[s] + " pts";
    var total = "game " + st.totals[s];
    p.total.textContent = total;
  }

  // --- the felt ---------------------------------------------------------------------------
  function drawLog(st) {
    var log = clear($("log"));
    if (!st.log.length) {
      if (st.kind === "play" || st.kind === "pass") log.appendChild(el("p", "empty", "No cards on the table."));
      return;
    }
    st.log.forEach(function (p, i) {
      var box = el("div", "play");
      box.setAttribute("data-seat", p.seat);
      if (p.pass) box.classList.add("pass");
      if (i === st.top) box.classList.add("top");
      if (i === st.log.length - 1 && (st.kind === "play" || st.kind === "pass" || st.kind === "rejected")) {
        box.classList.add("latest");
      }
      if (p.inferred) box.classList.add("inferred");
      if (p.rejected) box.classList.add("rejected");
      if (p.flagged) box.classList.add("flagged");
      var who = el("div", "who");
      add(who, el("span", "dot s" + p.seat), document.createTextNode(name(p.seat)));
      box.appendChild(who);
      if (p.pass) box.appendChild(el("span", "password", p.inferred ? "pass (inferred)" : "pass"));
      else box.appendChild(cardRow(unpack(p.cards), p.jokers));
      if (p.rejected) box.appendChild(el("div", "flag", "not applied"));
      else if (p.flagged) box.appendChild(el("div", "flag", "illegal"));
      log.appendChild(box);
    });
  }

  function drawDetail(st) {
    var d = clear($("detail"));
    if (st.top !== null && st.top !== undefined) {
      var top = st.log[st.top];
      var r = el("div", "reading");
      add(r, el("span", null, "Top: " + name(top.seat) + " — "), el("b", null, top.reading));
      if (top.jokers.length) {
        var chips = el("div", "jokers");
        top.jokers.forEach(function (j) {
          var what = (j[0] === 53 ? "big joker" : "small joker") + " = " + j[1];
          chips.appendChild(el("span", "jchip", what + (j[2] ? " (declared)" : " (read by the rules)")));
        });
        r.appendChild(chips);
      }
      d.appendChild(r);
    }
    if (st.won) {
      var w = el("div", "won");
      add(w, el("strong", null, name(st.won[0]) + " takes the trick"),
        el("span", null, st.won[1] ? " — " + plural(st.won[1], "point") : " — no points"));
      var counters = unpack(st.won[2]).filter(function (c) { return CARDS[c][5]; });
      if (counters.length) w.appendChild(el("div", null)).appendChild(cardRow(counters));
      d.appendChild(w);
    }
    if (st.transfer) {
      var t = st.transfer;
      var box = el("div", "transfer");
      add(box, el("div", "arrow", name(t.giver) + " (last) → " + name(t.receiver) + " (first out): " + plural(t.points, "point")));
      var a = el("div", "part");
      add(a, el("div", null, "Cards " + name(t.giver) + " won in tricks: " + plural(t.trick_points, "point")));
      if (t.trick_cards.length) a.appendChild(cardRow(unpack(t.trick_cards)));
      var b = el("div", "part");
      add(b, el("div", null, "Cards left in " + name(t.giver) + "'s hand: " + plural(t.hand_points, "point")));
      if (t.hand_cards.length) b.appendChild(cardRow(unpack(t.hand_cards)));
      add(box, a, b);
      d.appendChild(box);
    }
    if (st.kind === "result") d.appendChild(resultTable(st));
  }

  function resultTable(st) {
    var wrap = el("div", "results table-scroll");
    var table = el("table", "data");
    var head = el("tr");
    ["Player", "Place", "Points", "Game total"].forEach(function (h, i) {
      head.appendChild(el("th", i > 1 ? "num" : null, h));
    });
    add(table, add(el("thead"), head));
    var body = el("tbody");
    var order = [];
    for (var s = 0; s < n; s++) order.push(s);
    order.sort(function (a, b) { return (st.places[a] || 99) - (st.places[b] || 99); });
    order.forEach(function (s) {
      var row = el("tr");
      row.setAttribute("data-seat", s);
      var who = el("td");
      add(who, el("span", "dot s" + s), document.createTextNode(name(s)));
      var p = st.places[s];
      add(row, who, el("td", null, p === null ? "—" : p === n ? "last" : place(p)),
        el("td", "num", st.points[s]), el("td", "num", st.totals[s]));
      body.appendChild(row);
    });
    add(table, body);
    return add(wrap, table);
  }

  // --- notes at this step ------------------------------------------------------------------
  function drawNotes(st) {
    var box = clear($("notes-body"));
    if (st.annotation) {
      add(box, el("p", "annot", st.annotation + "  " + (st.annotation_words || "")));
    }
    if (st.disputed) {
      add(box, el("p", "dispute prewrap", "Disputed at the table" + (st.dispute_note ? ": " + st.dispute_note : ".")));
    }
    st.comments.forEach(function (c) { box.appendChild(el("p", "comment prewrap", c)); });
    if (st.diagnostics.length) {
      var ul = el("ul", "diags");
      st.diagnostics.forEach(function (g) {
        var li = el("li", g.severity);
        add(li, el("span", "code", g.code), document.createTextNode(" " + g.severity + ": " + g.message));
        if (g.line) li.appendChild(el("span", "muted", " (record line " + g.line + ")"));
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    st.notes.forEach(function (note) {
      box.appendChild(el("p", "analysis prewrap k-" + note.kind, note.text));
    });
    var empty = !box.firstChild;
    $("notes").classList.toggle("empty", empty);
    if (empty) box.appendChild(el("p", "none", "Nothing noted at this move."));
  }

  // --- the move list, the jump menu -------------------------------------------------------
  var buttons = [];
  var jumps = []; // [step index, label]
  (function buildMoves() {
    var list = $("moves");
    var group = null;
    var lastKey = null;
    steps.forEach(function (st, i) {
      var key = st.trick !== null ? "t" + st.trick : st.kind;
      if (key !== lastKey) {
        lastKey = key;
        var title = st.trick !== null ? "Trick " + st.trick : st.kind === "deal" ? "Deal" : st.kind === "transfer" ? "Transfer" : "Result";
        jumps.push([i, title]);
        group = el("ol", "group");
        group.setAttribute("aria-label", title);
        list.appendChild(add(el("li", "gtitle", title)));
        list.appendChild(group);
      }
      var b = el("button", "mv k-" + st.kind);
      b.type = "button";
      b.setAttribute("data-step", i);
      var what = el("span", "what");
      if (st.kind === "play" || (st.kind === "rejected" && st.log.length && !st.log[st.log.length - 1].pass)) {
        what.appendChild(cardText(unpack(st.log[st.log.length - 1].cards)));
      } else {
        what.textContent = st.kind === "pass" ? "pass" : st.kind === "deal" ? "cards dealt" : st.kind === "transfer" ? "last → first" : st.kind === "result" ? "points and totals" : st.label;
      }
      add(b, el("span", "who", st.seat !== null ? name(st.seat) : ""), what);
      if (st.annotation) add(b, el("span", "mark ann", st.annotation));
      if (st.comments.length) add(b, el("span", "mark", "✎"));
      var kinds = {};
      st.notes.forEach(function (note) { kinds[note.kind] = true; });
      Object.keys(kinds).forEach(function (kind) {
        var known = Object.prototype.hasOwnProperty.call(NOTE_MARKS, kind);
        var m = el("span", "mark k-" + kind, known ? NOTE_MARKS[kind][0] : "✎");
        m.title = known ? NOTE_MARKS[kind][1] : "note";
        add(b, m);
      });
      if (st.disputed) add(b, el("span", "mark error", "disputed"));
      var worst = st.diagnostics.some(function (g) { return g.severity === "error"; });
      if (st.diagnostics.length) add(b, el("span", "mark" + (worst ? " error" : ""), "⚠"));
      b.addEventListener("click", function () { go(i); });
      group.appendChild(add(el("li"), b));
      buttons.push(b);
    });
    var sel = $("jump");
    jumps.forEach(function (j) {
      var o = el("option", null, j[1]);
      o.value = j[0];
      sel.appendChild(o);
    });
    sel.addEventListener("change", function () { go(+sel.value); });
  })();

  function scrollMove(b) {
    var list = $("moves");
    var top = b.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top - 24;
    else if (top + b.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + b.offsetHeight - list.clientHeight + 24;
    }
  }

  // --- stepping ---------------------------------------------------------------------------
  function where(st) {
    if (st.trick !== null) return "Hand " + data.hand + " · trick " + st.trick;
    return "Hand " + data.hand + " · " + st.kind;
  }

  function draw() {
    var st = steps[cur];
    $("where").textContent = where(st);
    var head = clear($("headline"));
    head.appendChild(document.createTextNode(st.headline));
    if (st.annotation) add(head, el("span", "ann", st.annotation));
    drawLog(st);
    drawDetail(st);
    for (var s = 0; s < n; s++) drawSeat(s, st);
    drawNotes(st);
  }

  function go(i, fromHash) {
    i = Math.max(0, Math.min(steps.length - 1, i | 0));
    if (i !== cur) {
      if (cur >= 0 && buttons[cur]) {
        buttons[cur].classList.remove("current");
        buttons[cur].removeAttribute("aria-current");
      }
      cur = i;
      draw();
      buttons[i].classList.add("current");
      buttons[i].setAttribute("aria-current", "step");
      scrollMove(buttons[i]);
    }
    $("slider").value = cur;
    $("pos").textContent = "step " + (cur + 1) + " / " + steps.length;
    document.body.setAttribute("data-step", cur);
    $("first").disabled = $("prev").disabled = cur === 0;
    $("last").disabled = $("next").disabled = cur === steps.length - 1;
    var j = 0;
    for (var k = 0; k < jumps.length; k++) if (jumps[k][0] <= cur) j = k;
    $("jump").selectedIndex = j;
    if (!fromHash) {
      var h = "#step=" + cur;
      if (location.hash !== h) {
        try { history.replaceState(null, "", h); } catch (e) { location.hash = h; }
      }
    }
  }

  function trickJump(dir) {
    var target = dir > 0 ? steps.length - 1 : 0;
    for (var k = 0; k < jumps.length; k++) {
      var at = jumps[dir > 0 ? k : jumps.length - 1 - k][0];
      if (dir > 0 ? at > cur : at < cur) { target = at; break; }
    }
    go(target);
  }

  function fromHash() {
    var m = /^#(?:step=)?(\d+)$/.exec(location.hash);
    return m ? +m[1] : 0;
  }

  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(cur - 1); });
  $("next").addEventListener("click", function () { go(cur + 1); });
  $("last").addEventListener("click", function () { go(steps.length - 1); });
  $("slider").addEventListener("input", function () { go(+$("slider").value); });
  var viewSel = $("viewas");
  if (viewSel) {
    viewSel.addEventListener("change", function () {
      viewAs = viewSel.value === "" ? null : +viewSel.value;
      draw();
    });
  }
  window.addEventListener("hashchange", function () { go(fromHash(), true); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    var handled = true;
    if (e.key === "ArrowRight") { if (e.shiftKey) trickJump(1); else go(cur + 1); }
    else if (e.key === "ArrowLeft") { if (e.shiftKey) trickJump(-1); else go(cur - 1); }
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(steps.length - 1);
    else handled = false;
    if (handled) e.preventDefault();
  });
  go(fromHash(), true);
})();
