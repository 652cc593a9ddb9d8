/* zfrec live: a Sheng ji table's page. The server judges every entry (the Sheng ji validator);
   this script shows the state the server sends (the seats around the felt, the trick with its
   units, who is winning it, the opponents' points, the round's end) and sends the entries:
   rounds, bids, the exchange, plays (tapped or typed, a throw's block), undo. Each entry goes
   through the outbox shared with Zheng Fen's page (outbox.js): kept on the phone until the
   server has answered it, through a reload and a dropped connection, with the table version it
   was made against (409 stale otherwise) and its request id. User text is only ever set with
   textContent. */
(function () {
  "use strict";

  var Z = window.zfrecLive;
  if (!Z || document.body.getAttribute("data-page") !== "sjtable") return;
  var $ = Z.$, el = Z.el, clear = Z.clear, cardRow = Z.cardRow, cardFace = Z.cardFace;
  var id = document.body.getAttribute("data-table");
  var token = Z.tokenFor(id);
  var params = new URLSearchParams(location.search);
  var viewer = params.get("seat") ? +params.get("seat") : null;
  var state = JSON.parse($("zf-state").textContent);
  var TRUMPS = [["", "from the bids"], ["s", "\u2660 spades"], ["h", "\u2665 hearts"],
    ["d", "\u2666 diamonds"], ["c", "\u2663 clubs"], ["nt", "no-trump"]];
  var ui = { seat: null, picked: [], text: "", touched: false, more: null, unfolded: null,
    waiting: { bySeat: {}, next: null }, block: null };

  function name(seat) { return state.players[seat - 1]; }
  /* A name on the felt: one line, cut with an ellipsis (a name may have 60 characters). */
  function nameEl(seat) { return el("span", { cls: "pname", title: name(seat), text: name(seat) }); }
  function namesEl(seats, join) {
    var out = [];
    seats.forEach(function (s, i) { if (i) out.push(join); out.push(nameEl(s)); });
    return out;
  }
  function statePath() { return "/api/tables/" + id + (viewer ? "?seat=" + viewer : ""); }
  function message(kind, code, text, extra) { Z.showMessage($("msg"), kind, code, text, extra); }
  function plural(k, word) { return k + " " + word + (k === 1 ? "" : "s"); }
  function isRed(card) { return /[hd]$/.test(card); }

  function refresh() {
    return Z.api("GET", statePath()).then(function (res) {
      // an answer older than the state shown (two asked at once, answered out of order) is
      // not shown: the page would stay behind until the next change
      if (res.ok && res.data.version >= state.version) { state = res.data; render(); }
    });
  }

  /* The table an answer carries, unless a newer one is shown already: an answer that comes
     after the server's event for another phone's entry was answered does not take the page
     back to the table before it. */
  function shown(st) { if (st.version >= state.version) state = st; }

  // the outbox (outbox.js, as on Zheng Fen's page) ---------------------------------------------
  // Every entry goes into the outbox with the table version it was made against and its
  // request id, kept on the phone until the server has answered it (a reload keeps it), and
  // is sent in order. A failed connection or an answer 5xx (the store read-only, locked, full)
  // leaves it there and it goes again by itself; sent again, the server knows it by its request
  // id and answers it as taken where it was (`repeated`). Nothing is guessed from the table's
  // entries: another phone's entry is never taken for this one.
  var outbox = new Z.Outbox(id, token, {
    state: function () { return state; },
    inAlready: function (item, st) { return twin(item.path, item.body, st); },
    taken: taken,
    refused: refused,
    again: function () { render(); },  // the moves queued again wait on the felt
    trouble: function (item, res) {
      message("error", res.data.code || String(res.status), res.data.message +
        ". The entry is kept, and sent again every few seconds.");
    }
  });

  /* An entry as the page and its outbox name it: the seat and its cards, or the undo or the
     round start. */
  function label(path, body) {
    if (path === "/undo") return "undo";
    if (path === "/hands") return "start round " + ((state.next && state.next.round) || 1);
    var what = body.play !== undefined ? body.play : body.bid !== undefined ? "bids " + body.bid :
      body.discard !== undefined ? "discards " + body.discard : "calls " + body.calls;
    return name(body.seat) + ": " + what + (body.blocked_by ? ", blocked by " + name(body.blocked_by) : "");
  }

  /* Why a change was not made, for a 409 stale: the table changed before it reached it. */
  var STALE = {
    "/undo": "Not undone: the table changed after Undo was tapped (another phone entered or undid " +
      "something). Nothing was undone: look at the table, and tap Undo again if it is still wanted.",
    "/hands": "Not started: the table changed after this round was set up (another phone started it, " +
      "or undid). Nothing was entered: look at the table, and start the round again if it is still needed.",
    "/moves": "Not entered: the table changed before this entry reached it (another phone entered " +
      "or undid). Look at the table: the cards are kept, send them again if they still stand."
  };

  /* Queue an entry; the box is free for the next one at once (the outbox shows this one until
     it is in, and a refusal puts it back). */
  function send(path, body) {
    outbox.queue(path, body, label(path, body));
    if (path === "/moves") clearBox();
    render();
  }

  function clearBox() {
    ui.picked = []; ui.text = ""; ui.touched = false; ui.block = null;
    if ($("sj-cards")) $("sj-cards").value = "";
  }

  /* In: answered as taken (`repeated`: taken before, its first answer lost), or another
     phone's same entry is the table's one change since. */
  function taken(item, res) {
    shown(res.ok ? res.data : res.data.state);
    if (!res.ok) {
      message("ok", "", item.label + " was entered already, by another phone.");
    } else if (res.data.repeated && item.path === "/undo") {
      message("ok", "", "Undone: the undo was done before its answer was lost. Tap Undo again only to undo one more entry.");
    } else {
      message("", "", "");
    }
    if (item.path === "/undo") ui.touched = false;
    render();
  }

  /* Refused (it and the entries made after it have left the outbox): the server's word, and
     a refused move back in the box. */
  function refused(item, res, dropped) {
    var d = res.data || {};
    if (d.code === "stale" && d.state) shown(d.state);
    var back = item.path === "/moves" && !(d.code === "stale" && item.repeat);  // (a double tap's second: nothing to put back)
    if (back) {
      var b = item.body;
      ui.seat = b.seat; ui.touched = true; ui.picked = [];
      ui.text = b.play || b.bid || b.discard || b.calls || "";
      ui.block = b.blocked_by ? { by: b.blocked_by, shows: b.shows || "" } : null;  // its blocker and shown cards too
      if ($("sj-cards")) $("sj-cards").value = ui.text;
    }
    var text = d.code === "stale" && item.repeat ? Z.repeatText(item) :
      d.code === "stale" && STALE[item.path] ? STALE[item.path] :
      // the entry named: its answer may come long after it was made (a reload, a connection back)
      item.label + ", not " + (item.path === "/undo" ? "done" : item.path === "/hands" ? "started" : "entered") + ": " +
      (d.message || "the server answered " + res.status);
    if (res.status === 401 || res.status === 403) text += ". Open the table's join link on this phone to enter moves.";
    // the entries made after it are named, and their moves can be queued again with one tap
    message("error", d.code || String(res.status), text, outbox.droppedNote(dropped));
    render();
    if (back) boxInView();
  }

  /* A move back in the box: its seat and cards below the dock (the refusal stays at the top of
     the screen), not behind it where the page was scrolled to the foot of the form. */
  function boxInView() {
    var form = $("entry"), dock = $("dock");
    if (!form || !dock || form.classList.contains("hidden")) return;
    var top = form.getBoundingClientRect().top, below = dock.getBoundingClientRect().bottom;
    if (top < below) window.scrollBy(0, top - below);
  }

  /* Whether the table's one change since this entry was made is this same entry, made by
     another phone: a move by the same seat of the same cards (read as the server reads them,
     glued `3s3s` and `10h` too). */
  function twin(path, body, fresh) {
    if (path !== "/moves" || fresh.version !== body.version + 1 || !fresh.moves.length) return false;
    var last = fresh.moves[fresh.moves.length - 1];
    if (last.entry !== fresh.entries || last.seat !== body.seat) return false;
    var field = ["play", "bid", "discard"].filter(function (k) { return body[k]; })[0];
    if (!field || !last[field] || body.blocked_by || last.blocked_by) return false;
    var a = cardsIn(body[field]), b = cardsIn(last[field]);
    var order = function (x, y) { return x - y; };
    return a.indexOf(-1) < 0 && b.indexOf(-1) < 0 && a.sort(order).join() === b.sort(order).join();
  }

  /* The cards of a text, as the server reads them; -1 for a word it cannot read. */
  function cardsIn(text) {
    var out = [];
    Z.cardWords(text).forEach(function (word) {
      out = out.concat(word.whole ? word.cards.map(function (c) { return c.id; }) : [-1]);
    });
    return out;
  }

  // the felt -------------------------------------------------------------------------------

  /* The plays waiting in this phone's outbox, as the felt shows them (outlined, "waiting"): per
     seat its last one; and the seat to play after them, where they leave the trick open (Sheng
     ji has no pass: each seat in turn). A full trick's winner leads, which only the server
     knows; after an undo or a round start nothing is guessed. */
  function waitingPlays() {
    var out = { bySeat: {}, next: state.turn }, n = state.players.length, inTrick = state.trick_moves.length;
    outbox.waiting().forEach(function (it) {
      if (it.path !== "/moves") { out.next = null; return; }
      if (!it.body.play) return;
      out.bySeat[it.body.seat] = cardsText(it.body.play);
      inTrick += 1;
      out.next = inTrick % n ? it.body.seat % n + 1 : null;
    });
    return out;
  }

  /* A typed play's cards as the notation writes them (`10h` Th, glued `3s3s` 3s 3s). */
  function cardsText(text) {
    var ids = cardsIn(text);
    return ids.indexOf(-1) >= 0 ? text : ids.map(Z.cardName).join(" ");
  }

  function seatCell(seat, area) {
    var pending = ui.waiting.bySeat[seat];
    var played = null;
    // between tricks (and at the round's end) the last trick stays in view, dimmed
    var last = !state.trick_moves.length && state.last_trick ? state.last_trick : null;
    (last || state.trick_moves).forEach(function (m) { if (m.seat === seat) played = m; });
    var decl = state.declarers.indexOf(seat) >= 0;
    var turn = Object.keys(ui.waiting.bySeat).length ? ui.waiting.next : state.turn;
    var cls = "sjseat" + (turn === seat ? " turn" : "") + (state.winning === seat ? " win" : "");
    var hand = state.hands[seat - 1];
    return el("div", { cls: cls + (area ? " a-" + area : ""), "data-seat": String(seat) }, [
      el("div", { cls: "name", text: seat + " " + name(seat) }),
      el("div", { cls: "team", text: (state.dealer === seat ? "dealer \u00b7 " : "") +
        (state.round ? (decl ? "declarer" : "opponent") + " \u00b7 " : "") + "level " + state.levels[seat - 1] +
        (state.cards_left[seat - 1] !== null ? " \u00b7 " + plural(state.cards_left[seat - 1], "card") : "") }),
      pending ? el("div", { cls: "played waiting", title: "waiting to be sent from this phone" },
        [cardRow(pending), el("span", { cls: "tag", text: "waiting" })]) :
        el("div", { cls: "played" + (last ? " last" : "") }, [played ? cardRow(last && played.forced ? played.forced : played.play) : null]),
      hand && viewer === seat && hand.cards ? el("div", { cls: "small" }, [cardRow(hand.cards)]) : null
    ]);
  }

  function renderFelt() {
    var felt = clear($("felt"));
    var head = el("div", { cls: "head" });
    if (!state.round) {
      head.appendChild(el("span", { text: "No round yet \u00b7 levels start at 2" }));
    } else {
      head.appendChild(el("span", {}, [el("b", { text: "Round " + state.round })]));
      head.appendChild(el("span", { text: "rank " + state.rank }));
      var glyph = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663", nt: "no-trump" };
      head.appendChild(el("span", { text: "trump " + (state.trump ? glyph[state.trump] : "not set yet") }));
      if (state.dealer) head.appendChild(el("span", {}, ["dealer ", nameEl(state.dealer)]));
      if (state.phase) head.appendChild(el("span", { text: state.phase }));
    }
    if (state.teams) {
      var sides = ["partners: "];
      state.teams.forEach(function (t, i) { if (i) sides.push(" vs "); sides = sides.concat(namesEl(t, " & ")); });
      head.appendChild(el("span", {}, sides));
    }
    felt.appendChild(head);
    // round 1's dealer picked at the start, overruled by the bid that stands (R14): the seats
    // are shown as the rules judge them, and the clash is named before the exchange is refused
    if (state.picked_dealer && state.dealer) {
      felt.appendChild(el("div", { cls: "picked", id: "sj-picked" }, [nameEl(state.picked_dealer),
        " was picked to deal, but ", nameEl(state.dealer), "'s bid stands: ", nameEl(state.dealer),
        " deals round 1 (R14). The exchange is refused (SJ304): undo to the round's start and start it again without the pick."]));
    }
    var n = state.players.length;
    var ring = el("div", { cls: "sjring" + (n === 4 ? "" : " many") });
    var center = el("div", { cls: "sjcenter" });
    var lead = state.trick_moves[0];
    var plays = Object.keys(ui.waiting.bySeat).length > 0;  // this phone's plays waiting
    center.appendChild(el("div", { cls: "pts", text: "Opponents " + state.points }));
    if (state.phase === "bids") center.appendChild(el("div", { text: "Bids, in the order made" }));
    else if (state.phase === "exchange") center.appendChild(el("div", { text: "Bids, then the dealer's exchange" }));
    else if (plays && ui.waiting.next) center.appendChild(el("div", {}, [nameEl(ui.waiting.next), " to play next"]));
    else if (plays) center.appendChild(el("div", { text: "The trick's winner leads next" }));
    else if (state.turn) center.appendChild(el("div", {}, [nameEl(state.turn), " to play" + (state.trick ? " \u00b7 trick " + state.trick : "")]));
    // a throw that was blocked: the lead on the felt is the part it was held to
    var led = state.trick_moves.length ? state.moves[state.moves.length - state.trick_moves.length] : null;
    if (led && led.forced && led.blocked_by) {
      center.appendChild(el("div", { cls: "lastnote", text: name(led.seat) + " threw " + led.play + ": " +
        name(led.blocked_by) + " blocked it, held to " + led.forced }));
    }
    if (lead && lead.units) center.appendChild(leadUnits(lead));
    if (!state.trick_moves.length && state.last_trick) center.appendChild(el("div", { cls: "lastnote", text: "the last trick" }));
    if (state.winning) center.appendChild(el("div", {}, [nameEl(state.winning), " is winning" + (state.trick_points ? " \u00b7 " + state.trick_points + " points" : "")]));
    if (state.status === "over") center.appendChild(el("div", { cls: "pts", text: "Won by " + state.winners.map(name).join(" & ") }));
    if (n === 4) {
      ring.appendChild(seatCell(3, "n"));
      ring.appendChild(seatCell(4, "w"));
      ring.appendChild(center);
      ring.appendChild(seatCell(2, "e"));
      ring.appendChild(seatCell(1, "s"));
    } else {
      for (var s = 1; s <= n; s++) ring.appendChild(seatCell(s, null));
      ring.appendChild(center);
    }
    felt.appendChild(ring);
  }

  // cards as their faces, the red ones red (a unit on the felt, a play to tap)
  function faces(cards) {
    return cards.map(function (c) { return el("span", { cls: isRed(c) ? "red" : "", text: cardFace(c).textContent }); });
  }

  /* The lead's units, named: "tractor 8♦8♦6♦6♦"; a throw says it is one and how many units
     it has. A unit's kind is told by its size (1 a single, 2 a pair, more a tractor). */
  function leadUnits(lead) {
    var kinds = { 1: "single", 2: "pair" };
    var throwing = lead.kind === "throw" || lead.units.length > 1;
    var box = el("div", { cls: "sjunits", "data-kind": lead.kind || "" });
    if (throwing) box.appendChild(el("b", { text: "throw of " + lead.units.length + " units:" }));
    lead.units.forEach(function (u) {
      var cards = u.split(" ");
      box.appendChild(el("span", { cls: "unit", "data-unit": u }, [
        el("i", { text: kinds[cards.length] || "tractor" }), " ",
        el("span", { cls: "faces" }, faces(cards))
      ]));
    });
    return box;
  }

  function renderEnd() {
    var box = $("roundend");
    var r = state.last_round;
    box.classList.toggle("hidden", !r || state.status === "playing");
    clear(box);
    if (!r) return;
    box.appendChild(el("h2", { text: "Round " + r.round + " over" }));
    var ch = r.change;
    var lines = [
      "Opponents took " + r.taken + (r.kitty_points !== null ? ", kitty " + r.kitty_points + " \u00d7 " + r.multiplier :
        " (the kitty does not count: the declarers took the last trick)") +
        (r.penalty ? ", penalty " + r.penalty : "") + ": " + r.total + " points",
      ch.swap ? "The opponents become the declarers" + (ch.opponents ? " and go up " + ch.opponents : "") :
        "The declarers go up " + ch.declarers,
      "Levels: " + state.players.map(function (p, i) { return p + " " + r.levels[i]; }).join(", "),
      state.status === "over" ? "The match is won by " + state.winners.map(name).join(" & ") :
        "Next dealer: " + name(r.next_dealer)
    ];
    lines.forEach(function (t) { box.appendChild(el("p", { text: t })); });
    if (r.kitty) box.appendChild(el("div", {}, [el("span", { cls: "muted", text: "Kitty " }), cardRow(r.kitty)]));
  }

  function renderMoves() {
    var box = clear($("moves"));
    var shown = state.moves.slice(-12).map(function (m) {
      var text = m.play || (m.bid ? "bids " + m.bid : m.discard ? "discards " + m.discard :
        m.calls ? "calls " + m.calls : "");
      if (m.joins) text += " joins";
      if (m.forced) text += " forced " + m.forced + " by " + name(m.blocked_by);
      return el("span", { text: m.round + "\u00b7" + name(m.seat) + ": " + text });  // round·player
    });
    box.appendChild(el("div", { cls: "muted", text: state.moves_total ? plural(state.moves_total, "move") + " \u00b7 the last ones:" : "No moves yet" }));
    box.appendChild(el("div", { cls: "sjmoves" }, shown));
  }

  // entry ----------------------------------------------------------------------------------

  function seatSelect(idName, value) {
    var sel = el("select", { id: idName, "aria-label": "Seat" });
    state.players.forEach(function (p, i) {
      var o = el("option", { value: String(i + 1), text: (i + 1) + " " + p });
      if (value === i + 1) o.selected = true;
      sel.appendChild(o);
    });
    return sel;
  }
  function field(label, input) { return el("label", { cls: "field" }, [el("span", { text: label }), input]); }
  function button(text, cls, onclick) { return el("button", { type: "button", cls: "btn " + cls, text: text, onclick: onclick }); }

  function roundForm(box) {
    var next = state.next || {};
    var form = el("div", { cls: "sjform" });
    form.appendChild(el("h2", { text: "Round " + (next.round || 1) + (next.rank ? " at " + next.rank : "") }));
    var dealer = seatSelect("sj-dealer", next.dealer || 0);
    if (next.dealer) dealer.disabled = true;
    else dealer.insertBefore(el("option", { value: "", text: "as the bids settle it (else 1 " + name(1) + ")", selected: true }), dealer.firstChild);
    form.appendChild(field("Dealer" + (next.dealer ? " (the rules name them)" : ""), dealer));
    var trump = el("select", { id: "sj-trump", "aria-label": "Trump" });
    TRUMPS.forEach(function (t) { trump.appendChild(el("option", { value: t[0], text: t[1] })); });
    form.appendChild(field("Trump", trump));
    var deals = el("details", {}, [el("summary", { text: "Deals (optional)" })]);
    state.players.forEach(function (p, i) {
      deals.appendChild(field((i + 1) + " " + p, el("input", { type: "text", cls: "notation", id: "sj-deal-" + (i + 1), placeholder: "3s 3s 4h ... or ?25" })));
    });
    form.appendChild(deals);
    // a round start waiting in the outbox is one round start: a second tap makes none
    var starting = outbox.has("/hands");
    form.appendChild(button(starting ? "The round's start is waiting to be sent" : "Start the round", "primary", function () {
      if (outbox.has("/hands")) return;
      var body = { trump: trump.value || null, deals: {} };
      if (!next.dealer && dealer.value) body.dealer = +dealer.value;
      state.players.forEach(function (p, i) {
        var v = $("sj-deal-" + (i + 1)).value.trim();
        if (v) body.deals[String(i + 1)] = v;
      });
      if (!Object.keys(body.deals).length) delete body.deals;
      send("/hands", body);
    }));
    form.lastChild.disabled = starting;
    box.appendChild(form);
  }

  function typed() { return $("sj-cards") ? $("sj-cards").value.trim() : ""; }

  function cardButtons(box, seat) {
    var hand = state.hands[seat - 1];
    var whole = hand && hand.cards && !hand.unknown;
    function add(c) { var i = $("sj-cards"); i.value = (i.value ? i.value + " " : "") + c; ui.touched = true; }
    if (hand && hand.cards) {
      // the cards known in the hand; a whole hand's are picked and unpicked, a partly known
      // hand's (the dealer's kitty) are added like the grid's below. The cards picked are the
      // box's, found in the hand as it is now: another phone's play from this hand moves the
      // hand's cards along, and a pick kept by position would light up other cards.
      if (whole) ui.picked = picksOf(ui.text || "", hand.cards.split(/\s+/));
      var row = el("div", { cls: "sjhand", role: "group", "aria-label": name(seat) + "'s cards" });
      hand.cards.split(/\s+/).forEach(function (c, i) {
        var key = c + "#" + i;
        var b = el("button", { type: "button", cls: (isRed(c) ? "red" : "") + (ui.picked.indexOf(key) >= 0 ? " sel" : ""),
          text: cardFace(c).textContent, "data-card": c, onclick: function () {
            if (!whole) { add(c); return; }
            var at = ui.picked.indexOf(key);
            if (at >= 0) ui.picked.splice(at, 1); else ui.picked.push(key);
            ui.touched = true;
            $("sj-cards").value = ui.picked.map(function (k) { return k.split("#")[0]; }).join(" ");
            b.classList.toggle("sel");
          } });
        row.appendChild(b);
      });
      box.appendChild(row);
      if (whole) return;
    }
    var grid = el("div", { cls: "sjgrid", role: "group", "aria-label": "Cards" });
    var ranks = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"];
    ["s", "h", "d", "c"].forEach(function (s) {
      ranks.forEach(function (r) {
        grid.appendChild(el("button", { type: "button", cls: isRed(s) ? "red" : "", "data-card": r + s,
          text: cardFace(r + s).textContent, onclick: function () { add(r + s); } }));
      });
      grid.appendChild(el("span"));
    });
    ["SJ", "BJ"].forEach(function (j) {
      grid.appendChild(el("button", { type: "button", "data-card": j, text: j, onclick: function () { add(j); } }));
    });
    if (!hand || !hand.cards) { box.appendChild(grid); return; }
    // open by default where most of the hand is not known (a bid's cards only, say)
    var open = ui.more === null ? hand.unknown > hand.cards.split(/\s+/).length : ui.more;
    var more = el("details", { id: "sj-more", open: open }, [el("summary", { text: "The other cards (" + hand.unknown + " not known)" }), grid]);
    more.addEventListener("toggle", function () { ui.more = more.open; });
    box.appendChild(more);
  }

  function playForm(box) {
    // the seat to play next, the plays waiting in the outbox counted
    if (!ui.touched || ui.seat === null) ui.seat = ui.waiting.next || state.turn || state.dealer || 1;
    var form = el("div", { cls: "sjform" });
    var phase = state.phase;
    form.appendChild(el("h2", { text: phase === "bids" || phase === "exchange" ? "Bids, the exchange, or the first play" : "Play" }));
    var seat = seatSelect("sj-seat", ui.seat);
    seat.onchange = function () { ui.seat = +seat.value; ui.picked = []; ui.touched = true; render(); };
    form.appendChild(field("Seat", seat));
    var input = el("input", { type: "text", cls: "notation", id: "sj-cards", placeholder: "Kd Qd, or tap the cards", value: ui.text });
    input.oninput = function () { ui.touched = true; ui.text = input.value; };
    cardButtons(form, ui.seat);
    form.appendChild(field("Cards", input));
    // a block being entered (or a refused one back in the box) stays through a new render
    var blk = ui.block;
    var block = el("details", { id: "sj-block" }, [el("summary", { text: "A throw that was blocked" })]);
    var blocker = seatSelect("sj-blocker", blk ? blk.by : ui.seat === state.players.length ? 1 : ui.seat + 1);
    var shows = el("input", { type: "text", cls: "notation", id: "sj-shows", placeholder: "Ad", value: blk ? blk.shows : "" });
    blocker.onchange = shows.oninput = function () { ui.block = { by: +blocker.value, shows: shows.value }; label(); };
    if (blk) block.open = true;
    block.ontoggle = function () { if (!block.open) ui.block = null; label(); };
    block.appendChild(field("Blocked by", blocker));
    block.appendChild(field("Shows", shows));
    form.appendChild(block);
    var buttons = el("div", { cls: "row" });
    // an empty box is no play, bid or exchange (Sheng ji has no pass): said here, not sent
    function filled() {
      if (typed().replace(/,/g, " ").trim()) return true;
      message("error", "", "Tap the cards played, or type them.");
      return false;
    }
    // a play of one card, or of two of one card, is no throw: a block left open (a refused
    // throw's, back in the box) is not sent with it, and closes
    function oneUnit() {
      var cards = typed().replace(/,/g, " ").trim().split(/\s+/);
      return cards.length === 1 || (cards.length === 2 && cards[0] === cards[1]);
    }
    function blocked() { return block.open && !!shows.value.trim(); }
    var playBtn = button("Play", "primary", function () {
      if (!filled()) return;
      var body = { seat: ui.seat, play: typed() };
      if (blocked() && !oneUnit()) {
        body.blocked_by = +$("sj-blocker").value;
        body.shows = $("sj-shows").value.trim();
      } else if (blocked()) {
        ui.block = null;
      }
      send("/moves", body);
    });
    buttons.appendChild(playBtn);
    // the button says when a play goes with a block (a scribe sees what it sends)
    function label() { playBtn.textContent = blocked() ? "Play, blocked" : "Play"; }
    label();
    if (phase === "bids" || phase === "exchange") {
      buttons.appendChild(button("Bid", "", function () { if (filled()) send("/moves", { seat: ui.seat, bid: typed() }); }));
      buttons.appendChild(button("Discard (dealer)", "", function () { if (filled()) send("/moves", { seat: ui.seat, discard: typed() }); }));
    }
    // the dealer calls before the first play, after the discard too (the server takes them so)
    var played = state.moves.some(function (m) { return m.round === state.round && m.play; });
    if (state.rules === "zhaopengyou" && !played) {
      buttons.appendChild(button("Calls (dealer)", "", function () { if (filled()) send("/moves", { seat: ui.seat, calls: typed() }); }));
    }
    buttons.appendChild(button("Clear", "small", function () { clearBox(); render(); }));
    form.appendChild(buttons);
    offerChips(form);
    box.appendChild(form);
  }

  /* The plays the seat to move may tap (the server's `offer`, where its hand is known): on a
     follow every legal follow, on a lead each single, pair and tractor. A tap fills the cards
     in (and picks them in the hand), as Zheng Fen's legal plays do; Play sends them. */
  function offerChips(form) {
    var offer = state.offer;
    if (!offer || offer.seat !== ui.seat) return;
    // the play filled in: render() keeps it in ui.text (the input is not on the page yet)
    var typedNow = (ui.text || "").trim();
    function chip(p) {
      return el("button", { type: "button", cls: "chip sjchip" + (p.play === typedNow ? " on" : ""),
        "data-play": p.play, "data-kind": p.kind || "follow", "aria-label": (p.kind ? p.kind + " " : "") + p.play,
        onclick: function () { pick(p.play); } }, faces(p.play.split(" ")));
    }
    // a folded list stays open across a redraw where it was opened, or holds the play picked
    function group(title, plays, open) {
      if (!plays.length) return null;
      var chips = el("div", { cls: "chips" }, plays.map(chip));
      if (open) return el("div", { cls: "sjoffer" }, [el("div", { cls: "small muted", text: title }), chips]);
      var key = offer.lead ? "lead" : "follow";
      var shut = el("details", { cls: "sjoffer", open: ui.unfolded === key ||
        plays.some(function (p) { return p.play === typedNow; }) }, [el("summary", { cls: "small", text: title }), chips]);
      shut.addEventListener("toggle", function () { ui.unfolded = shut.open ? key : null; });
      return shut;
    }
    var box = el("div", { id: "sj-offer" });
    var who = name(offer.seat);
    if (offer.lead) {
      var of = function (k) { return offer.plays.filter(function (p) { return p.kind === k; }); };
      box.appendChild(el("div", { cls: "small muted", text: who + " leads: tap a tractor, a pair or a single to fill it in. A throw: tap its cards in the hand, or type them." }));
      [group("Tractors", of("tractor"), true), group("Pairs", of("pair"), true),
        group(plural(of("single").length, "single"), of("single"), !of("tractor").length && !of("pair").length)
      ].forEach(function (g) { if (g) box.appendChild(g); });
    } else if (offer.plays.length) {
      box.appendChild(el("div", { cls: "small muted", text: who + "'s legal " + (offer.count === 1 ? "play" : "plays (" + offer.count + ")") + ": tap one to fill it in" }));
      var plays = offer.plays.map(function (p) { return { play: p }; });
      box.appendChild(el("div", { cls: "chips" }, plays.slice(0, 24).map(chip)));
      var rest = group(plural(plays.length - 24, "more play"), plays.slice(24), false);
      if (rest) box.appendChild(rest);
    } else {
      // a hand short of the led suit: what it must play, and how many others go with it
      var short = offer.must === null ? "" : offer.must ? ": " + offer.must + " and " + plural(offer.more, "more card") + " of any suit" :
        ": any " + plural(offer.more, "card") + " (none of the led suit is left)";
      box.appendChild(el("div", { cls: "small muted", id: "sj-offer-many", text: who + " has " + offer.count +
        " legal plays, too many to list" + short + ". Tap the cards in the hand." }));
    }
    form.appendChild(box);
  }

  /* The hand's buttons (card#position) that show the cards of `text`: each card once, its
     copies in turn. */
  function picksOf(text, cards) {
    var left = text.split(/\s+/).filter(Boolean), out = [];
    cards.forEach(function (c, i) {
      var at = left.indexOf(c);
      if (at >= 0) { left.splice(at, 1); out.push(c + "#" + i); }
    });
    return out;
  }

  function pick(play) {
    var input = $("sj-cards");
    input.value = play;
    ui.text = play;
    ui.touched = true;
    // the hand's buttons show the play picked: each of its cards once, copies in turn
    var hand = state.hands[ui.seat - 1];
    var cards = hand && hand.cards ? hand.cards.split(/\s+/) : [];
    var left = play.split(" ");
    ui.picked = [];
    cards.forEach(function (c, i) {
      var at = left.indexOf(c);
      if (at >= 0) { left.splice(at, 1); ui.picked.push(c + "#" + i); }
    });
    render();
  }

  /* The entry form, drawn anew: the control that had the focus keeps it (Z.keepFocus), and
     the page keeps its place (after Undo it went to its top). */
  function renderEntry() {
    var box = $("entry"), refocus = Z.keepFocus(box);
    clear(box);
    box.classList.toggle("hidden", !token || state.status === "over" && !state.entries);
    if (token) {
      if (state.status === "new" || state.status === "between") roundForm(box);
      else if (state.status === "playing") playForm(box);
      // nothing to undo on a table without entries: no Undo to tap
      if (state.entries) {
        box.appendChild(el("div", { cls: "row" }, [
          button("Undo", "danger small", function () { send("/undo", {}); })
        ]));
      }
    }
    refocus();
  }

  function render() {
    ui.text = $("sj-cards") ? $("sj-cards").value : ui.text;
    document.body.setAttribute("data-version", String(state.version));
    document.body.setAttribute("data-status", state.status);
    ui.waiting = waitingPlays();
    renderFelt();
    renderEnd();
    renderEntry();
    renderMoves();
  }

  render();
  outbox.render();
  outbox.pump();
  if (token) Z.invite($("invite"), id, token);  // the join link for the other phones
  // An event from the table: the server is there, so what waits for a retry goes now.
  Z.follow(id, function (v) { outbox.now(); if (v !== state.version) refresh(); });
})();
