(function () {
  "use strict";
  // A Sheng ji round's replay: draws each step of the round's JSON (zfrec.games.shengji.pages)
  // on the board of board.html.j2; stepper.js drives the steps. Text goes in with textContent
  // only, never as markup. `?seat=N` (1-based) shows one player's view: that seat at the
  // bottom, the other hands face down.
  var SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
  var SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  var RANK_NAMES = { T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
  var FSI = "\u2068", PDI = "\u2069";
  var POSITIONS = {
    4: ["b", "r", "t", "l"], 5: ["b", "r", "tr", "tl", "l"], 6: ["b", "r", "tr", "t", "tl", "l"],
    7: ["b", "r", "tr", "t", "tl", "l", "bl"], 8: ["b", "br", "r", "tr", "t", "tl", "l", "bl"],
  };

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

  var data = JSON.parse($("sj-data").textContent);
  var players = data.players, n = players.length, steps = data.steps;
  var rankCode = data.rank_code;

  function isTrump(code) {
    if (code === "SJ" || code === "BJ") return true;
    return code.charAt(0) === rankCode || (data.trump !== null && code.charAt(1) === data.trump);
  }
  function card(code) {
    var c = el("span", "card");
    c.setAttribute("role", "img");
    if (code === "SJ" || code === "BJ") {
      c.className += " joker " + (code === "BJ" ? "red" : "black");
      c.setAttribute("aria-label", code === "BJ" ? "big joker" : "small joker");
      add(c, el("span", "r", code), el("span", "s", "★"));
    } else {
      var r = code.charAt(0), s = code.charAt(1);
      c.className += (s === "h" || s === "d") ? " red" : " black";
      if (r === "5" || r === "T" || r === "K") c.className += " counter";
      c.setAttribute("aria-label", (RANK_NAMES[r] || r) + " of " + SUIT_NAMES[s]);
      add(c, el("span", "r", r === "T" ? "10" : r), el("span", "s", SUITS[s]));
    }
    if (isTrump(code)) c.className += " trump";
    c.setAttribute("data-card", code);
    c.title = c.getAttribute("aria-label");
    return c;
  }
  function cardRow(codes, cls) {
    var row = el("div", "cards" + (cls ? " " + cls : ""));
    codes.forEach(function (code) { row.appendChild(card(code)); });
    return row;
  }
  function units(list, cls) {
    var row = el("div", "units" + (cls ? " " + cls : ""));
    list.forEach(function (u) {
      var g = cardRow(u, "unit" + (u.length > 2 ? " tractor" : u.length === 2 ? " pair" : ""));
      row.appendChild(g);
    });
    return row;
  }
  function cardText(codes) {
    return codes.map(function (c) {
      if (c === "SJ" || c === "BJ") return c;
      return (c.charAt(0) === "T" ? "10" : c.charAt(0)) + SUITS[c.charAt(1)];
    }).join(" ");
  }
  function nameEl(s) {
    var text = typeof players[s] === "string" ? players[s] : "seat " + (s + 1);
    var b = el("bdi", "nm", text);
    if (text.length > 18) b.title = text;
    return b;
  }
  function name(s) { return FSI + players[s] + PDI; }

  // --- whose view: the page's own (a seat's file), ?seat=N, or the "As …" menu
  var viewAs = data.viewer;
  var m = /[?&]seat=(\d+)/.exec(location.search);
  if (viewAs === null && m && +m[1] >= 1 && +m[1] <= n) viewAs = +m[1] - 1;
  var bottom = viewAs === null ? 0 : viewAs;
  $("board").classList.toggle("seatview", viewAs !== null);
  // the rounds before and after open in the same seat's view
  if (data.viewer === null && viewAs !== null) {
    Array.prototype.forEach.call(document.querySelectorAll("a[rel=prev], a[rel=next]"), function (a) {
      a.setAttribute("href", a.getAttribute("href") + "?seat=" + (viewAs + 1));
    });
  }

  // --- each step's hands: the deal less what each seat has played so far
  var hands = data.hands.map(function (h) { return h ? h.slice() : null; });
  var counts = data.counts.map(function (c) { return c === null ? 0 : c; });
  var perStep = [];
  steps.forEach(function (st) {
    if (st.kind === "play") {
      var play = data.tricks[st.trick - 1].plays[st.turn - 1];
      var played = [].concat.apply([], play.units);
      counts[st.seat] -= played.length;
      var h = hands[st.seat];
      if (h) {
        h = h.slice();
        played.forEach(function (code) { var at = h.indexOf(code); if (at >= 0) h.splice(at, 1); });
        hands[st.seat] = h;
      }
    }
    perStep.push({ hands: hands.slice(), counts: counts.slice() });
  });
  function toAct(i) {
    var next = steps[i + 1];
    return next && next.kind === "play" ? next.seat : null;
  }
  // who is known to declare at this step: with fixed partners the dealer's team; in zhao
  // pengyou the dealer and the friends who have shown themselves so far
  var curSide = steps[0].declarers;
  function team(s) {
    return curSide.indexOf(s) >= 0 ? "declarers" : "opponents";
  }

  // --- the seats around the felt: the bottom seat, then on in play order (anticlockwise)
  var table = $("seats");
  table.setAttribute("data-n", n);
  var seats = [], pinned = null;
  for (var s = 0; s < n; s++) {
    var d = (s - bottom + n) % n;
    var box = el("article", "seat s" + (s % 6));
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
    var parts = { box: box, name: nm, badges: el("span", "badges"), count: el("span", "count"),
                  hand: el("div", "hand"), level: el("span", "pts"), side: el("span", "muted side") };
    add(head, nm, parts.badges, parts.count);
    var foot = el("div", "foot");
    add(foot, parts.side, parts.level);
    add(box, head, parts.hand, foot);
    table.appendChild(box);
    seats.push(parts);
    (function (seat) {
      nm.addEventListener("click", function () { pinned = pinned === seat ? null : seat; draw(cur); });
    })(s);
  }
  function visible(s) { return viewAs === null || viewAs === s; }
  function backs(k) {
    var row = el("div", "hidden");
    row.appendChild(el("span", null, plural(k, "card") + " face down"));
    return row;
  }

  // --- the felt: status strip (always shown), the trick in play, the previous trick
  var felt = $("felt");
  var status = el("div", "sjstatus");
  status.setAttribute("aria-label", "Trump, points and levels");
  felt.insertBefore(status, $("headline"));
  var prevOpen = false;
  $("prevtrick").addEventListener("click", function () {
    prevOpen = !prevOpen;
    draw(cur);
    if (prevOpen) window.zfMoveList.reveal($("prevbox"), $("moves"), buttons[cur]);
    else fitMoves();
  });

  function levelsText(which) {
    var lv = which === "after" && data.levels_after ? data.levels_after : data.levels_before;
    if (data.teams) {
      return data.teams.map(function (t) {
        return t.map(name).join(" & ") + " " + lv[t[0]];
      }).join(" · ");
    }
    return players.map(function (p, i) { return name(i) + " " + lv[i]; }).join(" · ");
  }
  function chip(label, value, cls) {
    var c = el("span", "chip" + (cls ? " " + cls : ""));
    add(c, el("span", "label", label), el("b", null, value));
    return c;
  }
  function drawStatus(st) {
    clear(status);
    add(status,
      chip("Trump", data.trump_text, "trumpchip"),
      chip("Rank", data.rank),
      chip("Opponents' points", String(st.taken) + " / " + data.swap_at),
      chip("Levels", levelsText(st.kind === "result" ? "after" : "before"), "levels"));
  }
  function playBox(play, st, turn, winning) {
    var b = el("div", "play");
    if (play.seat === winning) b.className += " top";
    if (st.kind === "play" && st.seat === play.seat && st.turn === turn) b.className += " latest";
    var who = add(el("div", "who"), nameEl(play.seat));
    // a finished trick (its last play, or the previous trick) was taken, not being won
    var over = st.kind === "prev" || (st.kind === "play" && st.done);
    if (play.seat === winning) who.appendChild(el("span", "winning", over ? " took it" : " winning"));
    if (play.joins) who.appendChild(el("span", "winning", " joins the dealer"));
    b.appendChild(who);
    if (play.attempt) {
      b.className += " failed";
      var f = el("div", "throw");
      add(f, el("span", "tag", "throw"), units(play.attempt, "attempt"), el("span", "arrow", "→"),
          units(play.units, "forced"));
      b.appendChild(f);
      var why = "failed";
      if (play.blocker !== null && play.blocker !== undefined) why += ": " + name(play.blocker) + " could beat it";
      b.appendChild(el("div", "flag", why));
    } else {
      var row = units(play.units);
      // a lead of a tractor or a throw says so: its units are grouped, but not named
      if (play.kind === "tractor" || play.kind === "throw") {
        row.insertBefore(el("span", "tag", play.kind === "throw" ? "throw · " + play.units.length + " units" : "tractor"), row.firstChild);
      }
      b.appendChild(row);
    }
    return b;
  }
  function drawTrick(st) {
    var log = clear($("log"));
    if (st.kind !== "play") {
      if (st.kind === "deal") {
        var bids = el("div", "reading");
        if (data.bids.length) {
          bids.appendChild(el("span", null, "Bids: "));
          data.bids.forEach(function (b, i) {
            bids.appendChild(el("span", null, (i ? " · " : "") + name(b.seat) + " " + cardText(b.cards)));
          });
        } else bids.appendChild(el("span", null, "No bids written"));
        log.appendChild(bids);
        if (data.calls.length && data.dealer !== null) {
          log.appendChild(el("div", "reading", name(data.dealer) + " calls " + data.calls.map(function (c) {
            return "the " + c[0] + " " + cardText([c[1]]);
          }).join(" and ")));
        }
      }
      return;
    }
    var plays = data.tricks[st.trick - 1].plays;
    for (var k = 0; k < st.turn; k++) log.appendChild(playBox(plays[k], st, k + 1, st.winning));
  }
  function drawPrev(st) {
    var t = st.kind === "result" ? data.tricks.length : st.trick === null ? 0 : st.trick - 1;
    var btn = $("prevtrick"), box = clear($("prevbox"));
    btn.hidden = t < 1;
    btn.setAttribute("aria-expanded", prevOpen && t >= 1 ? "true" : "false");
    box.hidden = !(prevOpen && t >= 1);
    if (t < 1) return;
    var last = null;
    for (var i = 0; i < steps.length; i++) if (steps[i].trick === t) last = steps[i];
    var plays = data.tricks[t - 1].plays;
    var title = "Trick " + t;
    if (last && last.winning !== null) title += ": " + name(last.winning) + " took " + plural(last.points, "point");
    box.appendChild(el("div", "prevtitle", title));
    var log = el("div", "log");
    plays.forEach(function (p, k) { log.appendChild(playBox(p, { kind: "prev" }, k + 1, last ? last.winning : null)); });
    box.appendChild(log);
  }
  function drawDetail(st) {
    var d = clear($("detail"));
    if (st.kind === "play" && st.done && st.winning !== null) {
      d.appendChild(el("div", "won", name(st.winning) + " (" + (team(st.winning) === "declarers" ? "declarers" : "opponents") + ") takes the trick: " + plural(st.points, "point")));
    }
    var dealerView = viewAs !== null && viewAs === data.dealer;
    if (data.kitty && (st.kind === "result" || dealerView)) {
      var k = el("div", "won kitty");
      var what = st.kind === "result" ? "The kitty, revealed" : "The kitty you buried";
      var pts = plural(data.kitty_points, "point");
      if (st.kind === "result" && data.kitty_added) pts += " × " + data.multiplier + " = " + data.kitty_added + " to the opponents";
      else if (st.kind === "result" && data.kitty_added === 0) pts += ", kept: the declarers took the last trick";
      add(k, el("div", null, what + " (" + pts + ")"), cardRow(data.kitty));
      d.appendChild(k);
    }
    if (st.kind === "result" && data.change) d.appendChild(el("div", "reading", data.change));
  }
  function drawSeat(s, st, i) {
    var p = seats[s], at = perStep[i];
    p.box.classList.toggle("declarers", team(s) === "declarers");
    p.side.textContent = team(s) === "declarers" ? "declarer" : "opponent";
    p.box.classList.toggle("acted", st.seat === s && st.kind === "play");
    p.box.classList.toggle("to-act", toAct(i) === s);
    p.name.setAttribute("aria-pressed", pinned === s ? "true" : "false");
    clear(p.badges);
    if (viewAs === s) add(p.badges, el("span", "badge you", "you"));
    if (data.dealer === s) add(p.badges, el("span", "badge place", "dealer"));
    if (toAct(i) === s) add(p.badges, el("span", "badge turn", "to play"));
    if (st.kind === "play" && st.winning === s) add(p.badges, el("span", "badge win", st.done ? "took the trick" : "winning"));
    p.count.textContent = plural(at.counts[s], "card");
    var lv = st.kind === "result" && data.levels_after ? data.levels_after : data.levels_before;
    p.level.textContent = "level " + lv[s];
    clear(p.hand);
    var h = at.hands[s];
    if (h === null || !visible(s)) p.hand.appendChild(backs(at.counts[s]));
    else if (h.length) p.hand.appendChild(cardRow(h));
    else p.hand.appendChild(el("span", "muted", "no cards"));
  }
  function drawToHand(st, i) {
    // a seat's view shows the viewer's own hand, not the face-down hand of the seat to play
    var s = pinned !== null ? pinned : viewAs !== null ? viewAs : toAct(i);
    var head = clear($("tohand-head")), cards = clear($("tohand-cards"));
    $("tohand").hidden = s === null;
    if (s === null) return;
    $("tohand").setAttribute("data-seat", s);
    add(head, el("span", null, pinned !== null || viewAs === s ? "Hand of " : "To play: "), nameEl(s));
    if (viewAs === s && toAct(i) === s) add(head, el("span", null, " (to play)"));
    var h = perStep[i].hands[s];
    if (h === null || !visible(s)) cards.appendChild(backs(perStep[i].counts[s]));
    else cards.appendChild(cardRow(h));
  }
  function drawNotes(st) {
    var body = clear($("notes-body"));
    var any = false;
    if (st.annotation) { body.appendChild(el("p", "annot", "Annotated " + st.annotation)); any = true; }
    if (st.mark) { body.appendChild(el("p", "analysis k-cost", st.mark_note || st.mark + " against perfect play")); any = true; }
    st.notes.forEach(function (c) { body.appendChild(el("p", "comment", c)); any = true; });
    st.diagnostics.forEach(function (g) {
      body.appendChild(el("p", "dispute " + g.severity, g.code + " " + g.severity + ": " + g.message));
      any = true;
    });
    if (!any) body.appendChild(el("p", "none", "Nothing noted at this move."));
    $("notes-dot").hidden = !any;
  }
  function where(st) {
    return (data.label || "Round " + data.round) + " · " + (st.trick !== null ? "trick " + st.trick : st.kind === "deal" ? "deal" : "result");
  }

  // --- the move list
  var buttons = [], jumps = [];
  (function () {
    var list = clear($("moves")), group = null, lastKey = null;
    steps.forEach(function (st, i) {
      var key = st.trick !== null ? "t" + st.trick : st.kind;
      if (key !== lastKey) {
        lastKey = key;
        var title = st.trick !== null ? "Trick " + st.trick : st.kind === "deal" ? "Deal" : "Result";
        jumps.push([i, title]);
        group = el("ol", "group");
        group.setAttribute("aria-label", title);
        add(list, el("li", "gtitle", title), group);
      }
      var b = el("button", "mv k-" + st.kind);
      b.type = "button";
      b.setAttribute("data-step", i);
      var who = el("span", "who");
      if (st.seat !== null && st.kind === "play") who.appendChild(nameEl(st.seat));
      var what = el("span", "what");
      if (st.kind === "play") {
        var play = data.tricks[st.trick - 1].plays[st.turn - 1];
        what.textContent = play.attempt ? cardText([].concat.apply([], play.attempt)) + " → " + cardText([].concat.apply([], play.units)) : cardText([].concat.apply([], play.units));
      } else {
        what.textContent = st.kind === "deal" ? "cards dealt, kitty buried" : "points, kitty, levels";
      }
      add(b, who, what);
      if (st.annotation) add(b, el("span", "mark ann", st.annotation));
      if (st.mark) { var mk = el("span", "mark k-cost", st.mark); mk.title = "against perfect play"; add(b, mk); }
      if (st.notes.length) add(b, el("span", "mark", "✎"));
      if (st.diagnostics.length) {
        var worst = st.diagnostics.some(function (g) { return g.severity === "error"; });
        add(b, el("span", "mark" + (worst ? " error" : ""), "⚠"));
      }
      b.addEventListener("click", function () { stepper.go(i); });
      group.appendChild(add(el("li"), b));
      buttons.push(b);
    });
  })();
  // The move list fitted to the screen at every step and scrolled to the current move
  // (movelist.js, shared with Zheng Fen's pages).
  function fitMoves() { window.zfMoveList.fit($("moves"), buttons[cur]); }

  var cur = 0;
  function draw(i) {
    cur = i;
    var st = steps[i];
    curSide = st.declarers || curSide;
    $("where").textContent = where(st);
    var head = clear($("headline"));
    head.appendChild(document.createTextNode(st.headline));
    if (st.annotation) add(head, el("span", "ann", st.annotation));
    drawStatus(st);
    drawTrick(st);
    drawDetail(st);
    for (var s = 0; s < n; s++) drawSeat(s, st, i);
    drawToHand(st, i);
    drawNotes(st);
    drawPrev(st);
    buttons.forEach(function (b, k) {
      b.classList.toggle("current", k === i);
      if (k === i) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
    window.zfMoveList.keepFocus($("moves"), i);
    fitMoves();
  }
  window.addEventListener("resize", fitMoves);

  // "As …": one player's view, kept in the address as ?seat=N
  var viewSel = $("viewas");
  if (data.viewer === null) {
    players.forEach(function (p, s) {
      var o = el("option", null, "As " + p);
      o.value = s;
      viewSel.appendChild(o);
    });
    viewSel.value = viewAs === null ? "" : String(viewAs);
    viewSel.hidden = false;
    viewSel.addEventListener("change", function () {
      var q = viewSel.value === "" ? location.pathname : "?seat=" + (+viewSel.value + 1);
      location.replace(q + location.hash);
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("[role=tab]"), function (tab) {
    tab.addEventListener("click", function () {
      Array.prototype.forEach.call(document.querySelectorAll("[role=tab]"), function (t) {
        t.setAttribute("aria-selected", t === tab ? "true" : "false");
      });
      $("side").setAttribute("data-tab", tab.getAttribute("aria-controls"));
      fitMoves();
    });
  });
  var stepper = window.zfStepper({ count: steps.length, draw: draw, jumps: jumps, swipe: $("board") });
  document.body.classList.add("ready");
  stepper.start();
})();
