(function () {
  "use strict";
  // One script for the replay pages and the single-file viewer. Every value drawn here comes
  // from the hand's JSON, which zfrec built from the engine's replay: in a replay page it is
  // inline, in the viewer it arrives in the address's fragment (and is checked before use).
  // Text goes in with textContent only, never as markup, so a crafted link can run nothing.
  var ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR";
  var RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];
  var RANK_NAMES = ["3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace", "2"];
  var SUITS = "♠♥♦♣";
  var SUIT_NAMES = ["spades", "hearts", "diamonds", "clubs"];
  var CODES = "3456789TJQKA2";
  var FSI = "\u2068", PDI = "\u2069";
  var TABLE_KEYS = ["counts", "places", "captured", "points", "totals"];
  var STEP_DEFAULTS = {
    trick: null, seat: null, top: null, to_act: null, won: null, transfer: null,
    comments: [], annotation: null, annotation_words: null, disputed: false,
    dispute_note: null, diagnostics: [], notes: [], perfect: null,
  };
  var PLAY_DEFAULTS = {
    pass: false, reading: null, jokers: [], inferred: false, rejected: false, flagged: false,
  };
  // The move list marks the analyser's notes by kind (StepNote.kind); other kinds get ✎.
  var NOTE_MARKS = {
    missed_beat: ["✗", "missed beat"], conceded: ["−", "counters conceded"],
    cost: ["↓", "points lost against perfect play"],
  };
  var SPEEDS = [0.5, 1, 2, 4, 8];
  var STEP_MS = 1400; // one step at speed 1×
  var MAX_BYTES = 4 << 20; // a viewer link never unpacks to more than this

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
  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }

  // --- the data: each step carries only what changed since the one before
  function expand(data) {
    data.plays.forEach(function (play) {
      for (var k in PLAY_DEFAULTS) if (!has(play, k)) play[k] = PLAY_DEFAULTS[k];
    });
    var prev = null;
    data.steps.forEach(function (st) {
      if (prev) {
        TABLE_KEYS.forEach(function (k) { if (!has(st, k)) st[k] = prev[k]; });
        var hands = prev.hands.slice();
        if (st.hands) Object.keys(st.hands).forEach(function (s) { hands[+s] = st.hands[s]; });
        st.hands = hands;
      }
      for (var k in STEP_DEFAULTS) if (!has(st, k)) st[k] = STEP_DEFAULTS[k];
      st.log = st.log.map(function (i) { return data.plays[i]; });
      prev = st;
    });
    return data;
  }

  // --- cards ---------------------------------------------------------------------------------
  var counters = {};
  function unpack(text) {
    var out = [];
    for (var i = 0; i < text.length; i++) out.push(ALPHABET.indexOf(text.charAt(i)));
    return out;
  }
  function info(id) { // rank text, suit glyph, colour, spoken name, code, counter
    if (id >= 52) {
      return [id === 52 ? "SJ" : "BJ", "★", id === 52 ? "black" : "red", id === 52 ? "small joker" : "big joker", id === 52 ? "SJ" : "BJ", false];
    }
    var r = id >> 2, s = id & 3;
    return [RANKS[r], SUITS[s], s === 1 || s === 2 ? "red" : "black", RANK_NAMES[r] + " of " + SUIT_NAMES[s],
      CODES[r] + "shdc"[s], !!counters[id]];
  }
  function card(id, stands) {
    var c = info(id);
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
      var c = info(id);
      if (i) span.appendChild(document.createTextNode(" "));
      add(span, el("span", c[2], c[0] + (id >= 52 ? "" : c[1])));
    });
    return span;
  }

  // --- the replay ----------------------------------------------------------------------------
  function start(data, raw, viewer) {
    var steps = data.steps;
    var players = data.players;
    var n = players.length;
    unpack(data.counters || "").forEach(function (c) { counters[c] = true; });
    var cur = -1;
    var fitMoves = null; // set below, once the layout is there
    var viewAs = null; // client-side "as seat" view of a full page (a seat page holds no others)
    var pinned = null; // the seat whose hand the hand panel shows, if not the one to play
    var bottom = data.viewer === null || data.viewer === undefined ? 0 : data.viewer;
    function name(s) { return s === null || s === undefined ? "" : FSI + (players[s] || "seat " + (s + 1)) + PDI; }
    function nameEl(s) {
      var text = typeof players[s] === "string" ? players[s] : "seat " + (s + 1);
      var b = el("bdi", "nm", text);
      if (text.length > 18) b.title = text;
      return b;
    }
    function visible(s, st) {
      return st.hands[s] !== null && (viewAs === null || viewAs === s || st.kind === "result");
    }

    // --- the seats, around the felt: the bottom seat, then on in play order (anticlockwise)
    var POSITIONS = {
      2: ["b", "t"], 3: ["b", "tr", "tl"], 4: ["b", "r", "t", "l"], 5: ["b", "r", "tr", "tl", "l"],
      6: ["b", "r", "tr", "t", "tl", "l"], 7: ["b", "r", "tr", "t", "tl", "l", "bl"],
      8: ["b", "br", "r", "tr", "t", "tl", "l", "bl"],
    };
    var table = $("seats");
    table.setAttribute("data-n", n);
    var seats = [];
    for (var s = 0; s < n; s++) {
      var d = (s - bottom + n) % n; // places after the bottom seat, in play order
      var box = el("article", "seat s" + s);
      box.setAttribute("data-seat", s);
      box.setAttribute("data-pos", POSITIONS[n][d]);
      box.setAttribute("data-arc", d === 0 ? 0 : n - d);
      box.setAttribute("aria-label", players[s]);
      var head = el("div", "head");
      var nm = el("button", "name");
      nm.type = "button";
      nm.title = "Show this hand below the felt";
      add(nm, el("span", "dot", null), nameEl(s));
      nm.firstChild.setAttribute("aria-hidden", "true");
      var parts = {
        box: box, name: nm, badges: el("span", "badges"), count: el("span", "count"),
        hand: el("div", "hand"), captured: el("span", "captured"), pts: el("span", "pts"),
        total: el("span", "total"),
      };
      add(head, nm, parts.badges, parts.count);
      var foot = el("div", "foot");
      add(foot, el("span", "muted won-label", "won:"), parts.captured, parts.pts, parts.total);
      add(box, head, parts.hand, foot);
      table.appendChild(box);
      seats.push(parts);
      (function (seat) {
        nm.addEventListener("click", function () {
          pinned = pinned === seat ? null : seat;
          draw();
        });
      })(s);
    }

    function drawSeat(s, st) {
      var p = seats[s];
      var hand = st.hands[s] === null ? null : unpack(st.hands[s]);
      var hidden = !visible(s, st);
      p.box.classList.toggle("acted", st.seat === s);
      p.box.classList.toggle("to-act", st.to_act === s);
      p.box.classList.toggle("out", st.places[s] !== null);
      p.box.setAttribute("data-count", st.counts[s]);
      p.box.setAttribute("data-points", st.points[s]);
      p.name.setAttribute("aria-pressed", pinned === s ? "true" : "false");
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
        p.hand.appendChild(backs(st.counts[s]));
      } else if (hand.length) {
        p.hand.appendChild(cardRow(hand));
      } else {
        p.hand.appendChild(el("span", "muted", st.places[s] !== null ? "out" : "no cards"));
      }
      clear(p.captured);
      if (st.captured[s].length) p.captured.appendChild(cardRow(unpack(st.captured[s])));
      else p.captured.appendChild(el("span", "muted", "no counters"));
      p.pts.textContent = st.points[s] + " pts";
      p.total.textContent = "game " + st.totals[s];
    }
    function backs(count) {
      var box = el("div", "hidden");
      var pile = el("span");
      for (var i = 0; i < Math.min(count, 6); i++) pile.appendChild(el("span", "back"));
      pile.setAttribute("aria-hidden", "true");
      return add(box, pile, el("span", null, count ? plural(count, "card") + " hidden" : "no cards"));
    }

    // --- the hand to play, under the felt (on a narrow screen the seats show no cards)
    function drawToHand(st) {
      // a seat's view shows the viewer's own hand, not the hidden hand of the seat to play
      var own = viewAs !== null ? viewAs : data.viewer === null || data.viewer === undefined ? null : data.viewer;
      var s = pinned !== null ? pinned : own !== null ? own : st.to_act !== null ? st.to_act : bottom;
      $("board").classList.toggle("seatview", own !== null);
      var head = clear($("tohand-head"));
      add(head, el("span", "dot s" + s), nameEl(s));
      head.firstChild.setAttribute("aria-hidden", "true");
      var what = st.to_act === s ? " to play, " : pinned === s ? " (chosen), " : ", ";
      head.appendChild(document.createTextNode(what + plural(st.counts[s], "card")));
      var box = clear($("tohand-cards"));
      if (!visible(s, st)) box.appendChild(backs(st.counts[s]));
      else if (st.hands[s].length) box.appendChild(cardRow(unpack(st.hands[s])));
      else box.appendChild(el("span", "muted", "no cards"));
      $("tohand").setAttribute("data-seat", s);
    }

    // --- the felt
    function playBox(p, i, st, latest) {
      var box = el("div", "play");
      box.setAttribute("data-seat", p.seat);
      if (p.pass) box.classList.add("pass");
      if (i === st.top) box.classList.add("top");
      if (latest) box.classList.add("latest");
      if (p.inferred) box.classList.add("inferred");
      if (p.rejected) box.classList.add("rejected");
      if (p.flagged) box.classList.add("flagged");
      var who = el("div", "who");
      add(who, el("span", "dot s" + p.seat), nameEl(p.seat));
      box.appendChild(who);
      if (p.pass) box.appendChild(el("span", "password", p.inferred ? "pass (inferred)" : "pass"));
      else box.appendChild(cardRow(unpack(p.cards), p.jokers));
      if (p.rejected) box.appendChild(el("div", "flag", "not applied"));
      else if (p.flagged) box.appendChild(el("div", "flag", "illegal"));
      return box;
    }
    function drawLog(st) {
      var log = clear($("log"));
      if (!st.log.length) {
        if (st.kind === "play" || st.kind === "pass") log.appendChild(el("p", "empty", "No cards on the table."));
        return;
      }
      var moved = st.kind === "play" || st.kind === "pass" || st.kind === "rejected";
      st.log.forEach(function (p, i) { log.appendChild(playBox(p, i, st, moved && i === st.log.length - 1)); });
    }

    function drawDetail(st) {
      var d = clear($("detail"));
      if (st.top !== null) {
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
      if (st.won) d.appendChild(wonBox(st.won));
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
    function wonBox(won) {
      var w = el("div", "won");
      add(w, el("strong", null, name(won[0]) + " takes the trick"),
        el("span", null, won[1] ? " — " + plural(won[1], "point") : " — no points"));
      var taken = unpack(won[2]).filter(function (c) { return counters[c]; });
      if (taken.length) w.appendChild(el("div", null)).appendChild(cardRow(taken));
      return w;
    }

    function resultTable(st) {
      var table = el("table", "data results");
      var head = el("tr");
      ["Player", "Place", "Points", "Game"].forEach(function (h, i) {
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
        add(who, el("span", "dot s" + s), nameEl(s));
        var p = st.places[s];
        add(row, who, el("td", null, p === null ? "—" : p === n ? "last" : place(p)),
          el("td", "num", st.points[s]), el("td", "num", st.totals[s]));
        body.appendChild(row);
      });
      return add(table, body);
    }

    // --- the previous trick, one tap away
    var prevEnd = [];
    (function () {
      var last = -1;
      steps.forEach(function (st, i) {
        prevEnd.push(last); // at the step that ends a trick, the one before it
        if (st.won) last = i;
      });
    })();
    var prevOpen = false;
    function drawPrev() {
      var j = prevEnd[cur];
      var btn = $("prevtrick");
      btn.hidden = j < 0;
      btn.setAttribute("aria-expanded", prevOpen && j >= 0 ? "true" : "false");
      var box = clear($("prevbox"));
      box.hidden = !(prevOpen && j >= 0);
      if (box.hidden) return;
      var st = steps[j];
      add(box, el("div", "prevtitle", "Trick " + st.trick));
      var log = el("div", "log");
      st.log.forEach(function (p, i) { log.appendChild(playBox(p, i, st, false)); });
      add(box, log, wonBox(st.won));
    }
    $("prevtrick").addEventListener("click", function () {
      prevOpen = !prevOpen;
      drawPrev();
      // opened below the fold, its last rows would sit behind the controls
      if (prevOpen && !$("prevbox").hidden) window.zfMoveList.reveal($("prevbox"), $("moves"), buttons[cur]);
      else if (fitMoves) fitMoves();
    });

    // --- the hindsight solver's table: what each seat can still make from here
    function perfectTable(values) {
      var t = el("table", "perfect");
      t.appendChild(el("caption", null, "Perfect play from here"));
      values.forEach(function (v, s) {
        if (v === null) return;
        var tr = el("tr");
        add(tr, el("th", null, name(s)), el("td", "num", v));
        t.appendChild(tr);
      });
      return t;
    }

    // --- notes at this step
    function drawNotes(st) {
      var box = clear($("notes-body"));
      if (st.annotation) add(box, el("p", "annot", st.annotation + "  " + (st.annotation_words || "")));
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
          if (g.cause) li.appendChild(el("span", "muted", " (follows from " + g.cause + ")"));
          ul.appendChild(li);
        });
        box.appendChild(ul);
      }
      st.notes.forEach(function (note) { box.appendChild(el("p", "analysis prewrap k-" + note.kind, note.text)); });
      if (st.perfect) box.appendChild(perfectTable(st.perfect));
      var empty = !box.firstChild;
      $("notes").classList.toggle("empty", empty);
      $("notes-dot").hidden = empty;
      if (empty) box.appendChild(el("p", "none", "Nothing noted at this move."));
    }

    // --- the move list, the jump menu
    var buttons = [];
    var jumps = []; // [step index, label]
    (function buildMoves() {
      var list = clear($("moves"));
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
          list.appendChild(el("li", "gtitle", title));
          list.appendChild(group);
        }
        var b = el("button", "mv k-" + st.kind);
        b.type = "button";
        b.setAttribute("data-step", i);
        var what = el("span", "what");
        if (st.kind === "play" || (st.kind === "rejected" && st.log.length && !st.log[st.log.length - 1].pass)) {
          what.appendChild(cardText(unpack(st.log[st.log.length - 1].cards)));
        } else {
          what.textContent = st.kind === "pass" || st.kind === "rejected" ? "pass" : st.kind === "deal" ? "cards dealt" : st.kind === "transfer" ? "last → first" : "points and totals";
        }
        var who = el("span", "who");
        if (st.seat !== null) who.appendChild(nameEl(st.seat));
        add(b, who, what);
        if (st.annotation) add(b, el("span", "mark ann", st.annotation));
        if (st.comments.length) add(b, el("span", "mark", "✎"));
        var kinds = {};
        st.notes.forEach(function (note) { kinds[note.kind] = true; });
        Object.keys(kinds).forEach(function (kind) {
          var known = has(NOTE_MARKS, kind);
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
      var sel = clear($("jump"));
      jumps.forEach(function (j) {
        var o = el("option", null, j[1]);
        o.value = j[0];
        sel.appendChild(o);
      });
      sel.addEventListener("change", function () { go(+sel.value); });
    })();

    function scrollMove(b) { window.zfMoveList.scroll($("moves"), b); }

    // --- stepping
    function where(st) {
      // `Hand 1 (2nd)` for the second hand 1 (data.label: only where the number repeats)
      var label = typeof data.label === "string" ? data.label : "Hand " + data.hand;
      return label + " · " + (st.trick !== null ? "trick " + st.trick : st.kind);
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
      drawToHand(st);
      drawNotes(st);
      drawPrev();
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
        window.zfMoveList.keepFocus($("moves"), i);
        scrollMove(buttons[i]);
        if (fitMoves) fitMoves();
      }
      $("slider").value = cur;
      // Steps count from 0, the deal, as the address does: "#step=40" is "step 40".
      $("pos").textContent = "step " + cur + " / " + (steps.length - 1);
      document.body.setAttribute("data-step", cur);
      $("first").disabled = $("prev").disabled = cur === 0;
      $("last").disabled = $("next").disabled = cur === steps.length - 1;
      var j = 0;
      for (var k = 0; k < jumps.length; k++) if (jumps[k][0] <= cur) j = k;
      $("jump").selectedIndex = j;
      shareStep(cur);
      if (!fromHash) {
        var h = hashFor(cur);
        if (location.hash !== h) {
          try { history.replaceState(null, "", h); } catch (e) { location.hash = h; }
        }
      }
    }
    function hashFor(i) { return viewer ? "#" + viewer + "&step=" + i : "#step=" + i; }
    function fromHash() {
      var m = /(?:^#|&)(?:step=)?(\d+)$/.exec(location.hash);
      return m ? +m[1] : 0;
    }
    function trickJump(dir) {
      var target = dir > 0 ? steps.length - 1 : 0;
      for (var k = 0; k < jumps.length; k++) {
        var at = jumps[dir > 0 ? k : jumps.length - 1 - k][0];
        if (dir > 0 ? at > cur : at < cur) { target = at; break; }
      }
      go(target);
    }

    // --- autoplay, with its speed
    var timer = null;
    function speed() { return +$("speed").value || 1; }
    function setPlaying(on) {
      var b = $("play");
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.setAttribute("aria-label", on ? "Pause" : "Play");
      b.title = (on ? "Pause" : "Play") + " (Space)";
      document.body.classList.toggle("playing", on);
    }
    function tick() {
      timer = null;
      if (cur >= steps.length - 1) { stop(); return; }
      go(cur + 1);
      if (cur >= steps.length - 1) stop();
      else timer = setTimeout(tick, STEP_MS / speed());
    }
    function play() {
      if (cur >= steps.length - 1) go(0);
      setPlaying(true);
      if (timer === null) timer = setTimeout(tick, STEP_MS / speed());
    }
    function stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      setPlaying(false);
    }
    function toggle() { if (timer === null) play(); else stop(); }
    $("play").addEventListener("click", toggle);
    $("speed").addEventListener("change", function () {
      if (timer !== null) { clearTimeout(timer); timer = setTimeout(tick, STEP_MS / speed()); }
    });

    // --- controls
    $("slider").max = steps.length - 1;
    $("first").addEventListener("click", function () { go(0); });
    $("prev").addEventListener("click", function () { go(cur - 1); });
    $("next").addEventListener("click", function () { go(cur + 1); });
    $("last").addEventListener("click", function () { go(steps.length - 1); });
    $("slider").addEventListener("input", function () { go(+$("slider").value); });
    var viewSel = $("viewas");
    if (data.viewer === null || data.viewer === undefined) {
      players.forEach(function (p, s) {
        var o = el("option", null, "As " + p);
        o.value = s;
        viewSel.appendChild(o);
      });
      viewSel.hidden = false;
      viewSel.addEventListener("change", function () {
        viewAs = viewSel.value === "" ? null : +viewSel.value;
        draw();
      });
    }
    Array.prototype.forEach.call(document.querySelectorAll("[role=tab]"), function (tab) {
      tab.addEventListener("click", function () {
        Array.prototype.forEach.call(document.querySelectorAll("[role=tab]"), function (t) {
          t.setAttribute("aria-selected", t === tab ? "true" : "false");
        });
        $("side").setAttribute("data-tab", tab.getAttribute("aria-controls"));
        if (fitMoves) fitMoves(); // the list, hidden while the notes were open, fitted again
      });
    });
    window.addEventListener("hashchange", function () {
      if (viewer && location.hash.indexOf("#" + viewer) !== 0) { location.reload(); return; }
      go(fromHash(), true);
    });
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      var handled = true;
      if (e.key === "ArrowRight") { if (e.shiftKey) trickJump(1); else go(cur + 1); }
      else if (e.key === "ArrowLeft") { if (e.shiftKey) trickJump(-1); else go(cur - 1); }
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(steps.length - 1);
      else if (e.key === " " && tag !== "BUTTON" && tag !== "A") toggle();
      else handled = false;
      if (handled) e.preventDefault();
    });
    // The move list fitted to the screen (movelist.js); the controls' height is kept for the
    // previous trick's box (replay.css).
    fitMoves = function () {
      var bar = document.querySelector(".controls").offsetHeight;
      document.documentElement.style.setProperty("--controls-h", bar + "px");
      window.zfMoveList.fit($("moves"), buttons[cur]);
    };
    window.addEventListener("resize", fitMoves);
    share(raw);
    document.body.classList.add("ready");
    go(fromHash(), true);
    fitMoves();
  }

  // --- one link that carries the hand: deflated JSON, base64url, in the fragment -------------
  function toBase64Url(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function pipe(bytes, stream) {
    var reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
    var parts = [], size = 0;
    function pump() {
      return reader.read().then(function (r) {
        if (r.done) return;
        size += r.value.length;
        if (size > MAX_BYTES) { reader.cancel(); throw new Error("too large"); }
        parts.push(r.value);
        return pump();
      });
    }
    return pump().then(function () {
      var out = new Uint8Array(size), at = 0;
      parts.forEach(function (p) { out.set(p, at); at += p.length; });
      return out;
    });
  }
  // The link keeps the step being viewed (`&step=N`, as the viewer's own address does).
  var shareBase = null, sharedStep = 0;
  function shareStep(i) {
    sharedStep = i;
    if (shareBase !== null) $("share").href = shareBase + (i ? "&step=" + i : "");
  }
  function share(raw) {
    var a = $("share");
    if (!a || !raw || typeof CompressionStream === "undefined") return;
    var target = a.getAttribute("data-viewer");
    pipe(new TextEncoder().encode(raw), new CompressionStream("deflate-raw")).then(function (bytes) {
      shareBase = target + "#z=" + toBase64Url(bytes);
      shareStep(sharedStep);
      a.hidden = false;
    }).catch(function () { /* no link then: the page itself still works */ });
  }

  // --- start: a replay page's inline data (the viewer page starts from its fragment) -------
  window.zfReplay = { start: start, expand: expand, pipe: pipe };
  var inline = document.getElementById("zf-data");
  if (inline) {
    var text = inline.textContent;
    start(expand(JSON.parse(text)), text, null);
  }
})();
