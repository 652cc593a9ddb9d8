/* zfrec live: the table page. The server judges every entry; this script shows the table's
   state, keeps every entry in an outbox on the phone until the server has answered it, and
   follows changes by server-sent events. User text is only ever set with textContent.

   The outbox (outbox.js, shared with Sheng ji's page) holds each change with the table version
   it was made against and its request id. It is sent in order, one at a time; a failed
   connection leaves it there, shown as "not sent, retrying", and it goes again by itself, and
   when the page reloads. The server refuses an entry made against a version that is not the
   current one (409 stale): the entry is never applied to another position. */
(function () {
  "use strict";

  var Z = window.zfrecLive;
  if (!Z || document.body.getAttribute("data-page") !== "table") return;
  var $ = Z.$, el = Z.el, clear = Z.clear, parsePlay = Z.parsePlay, playText = Z.playText;
  var cardsOf = Z.cardsOf, cardId = Z.cardId, cardName = Z.cardName;
  var ANNOTATIONS = ["!", "?", "!!", "??", "!?", "?!"];

  var id = document.body.getAttribute("data-table");
  var token = Z.tokenFor(id);
  var params = new URLSearchParams(location.search);
  var viewer = params.get("seat") ? +params.get("seat") : null;
  var state = JSON.parse($("zf-state").textContent);
  // seat: who plays; touched: the user picked a seat or cards (a move from another phone then
  // changes neither); editing: {entry, action} while correcting an earlier entry.
  var ui = { seat: null, touched: false, input: null, picker: null, deal: null, decl: {},
    armed: null, editing: null, markEntry: null, markForm: null };

  function name(seat) { return state.players[seat - 1]; }
  /* A name where room is short (the dock over the cards): one line, cut with an ellipsis, the
     whole name in its title. A name may have 60 characters. */
  function nameEl(seat) { return el("span", { cls: "pname", title: name(seat), text: name(seat) }); }
  function names(seats) {
    var list = seats.map(name);
    return list.length < 2 ? list.join("") : list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
  }
  function statePath() { return "/api/tables/" + id + (viewer ? "?seat=" + viewer : ""); }
  function message(kind, code, text, extra) {
    $("msg").removeAttribute("data-inferred");
    ui.asking = null;  // a question asked is answered or gone
    Z.showMessage($("msg"), kind, code, text, extra);
  }

  // the outbox (outbox.js) ------------------------------------------------------------------

  var outbox = new Z.Outbox(id, token, {
    state: function () { return state; },
    inAlready: inAlready,
    taken: taken,
    refused: refused,
    again: function () { startable(); },  // a hand start taken over from a closed tab waits here
    trouble: function (item, res) {
      message("error", res.data.code, res.data.message + ". The entry is kept, and sent again every few seconds.");
    }
  });
  function queue(path, body, label, extra, version) { return outbox.queue(path, body, label, extra, version); }
  function waiting() { return outbox.waiting(); }

  /* A 409 stale whose table is one on, its last change this very entry. An entry kept from
     before request ids (none) is found by what the table shows; with one, only another phone's
     same move (the same seat and cards): it is in once, as both phones meant. */
  function inAlready(item, st) {
    if (!item.body.request_id) return alreadyIn(item, st);
    return item.path === "/moves" && alreadyIn(item, st);
  }

  function taken(item, res) {
    var d = res.data;
    if (res.ok) done(item, d); else show(d.state);
    // Taken after all (its first answer was lost): what a failed try said of it is over.
    if (!res.ok && item.trouble) message("", null, null);
    if (!res.ok && item.body.request_id) message("ok", null, item.label + ": entered already, by another phone.");
  }

  /* Refused: this entry and the ones made after it (against positions that now will not come)
     have left the outbox; the first goes back into the entry box to be looked at. */
  function refused(item, res, dropped) {
    var d = res.data || {};
    if (d.code === "stale" && d.state) show(d.state);
    var repeat = d.code === "stale" && item.repeat;  // a double tap's second: the first is in
    if (!repeat) restore(item);  // (nothing to put back for a second tap)
    startable();
    // the entries made after it are named, and their moves can be queued again with one tap
    var extra = outbox.droppedNote(dropped);
    if (d.code === "stale") {
      message("error", "stale", repeat ? Z.repeatText(item) : staleText(item), extra);
    } else {
      reportError(res, extra);
    }
  }

  /* The Start hand button as the outbox stands: a start waiting (tapped here, or taken over
     from a closed tab) is one start, its button says so; one refused (no shuffler picked, a
     deal that does not fit) gives the button back (else the page stayed "waiting" until
     reloaded, or a tap on it did nothing and said nothing). */
  function startable() {
    var btn = $("start-btn");
    if (!btn || !state.next) return;
    var waits = outbox.has("/hands");
    btn.disabled = waits;
    btn.textContent = startText(state.next.hand, waits);
  }
  function startText(hand, waits) { return waits ? "Hand " + hand + "'s start is waiting to be sent" : "Start hand " + hand; }

  /* Why a change was not made (409 stale): the table changed before it reached the server. */
  function staleText(item) {
    var why = " the table changed before it reached the server (another phone entered, undid or marked).";
    if (item.path === "/undo") {
      return "Not undone:" + why + " Nothing was undone: look at the table, and tap Undo again if it is still wanted.";
    }
    if (item.path === "/hands") {
      return "Not started (" + item.label + "): the table changed before it reached the server (another phone " +
        "started the hand, or entered or undid). Look at the table, and start the hand again if it is still needed.";
    }
    if (item.path === "/marks") {
      return "Not marked (" + item.label + "):" + why + " Look at the move, and mark it again if it is still wanted.";
    }
    return "Not entered: " + item.label + " was made before the table moved " +
      "on (another phone entered). It is kept in the entry box: check it and send it again.";
  }

  /* An answer's state shows every hand: a page seen by one seat asks for its own view. */
  function show(st) { if (viewer) refresh(); else if (st.version >= state.version) render(st, false); }

  /* Whether the move a mark names carries it: its comment last, its annotation, its dispute. */
  function marked(body, st) {
    var m = null;
    (st.moves || []).forEach(function (x) { if (x.entry === body.entry) m = x; });
    if (!m) return false;
    var comments = m.comments || [];
    if (body.comment && comments[comments.length - 1] !== body.comment) return false;
    if (body.annotation !== undefined && (m.annotation || "") !== body.annotation) return false;
    if (body.disputed !== undefined && !!m.disputed !== body.disputed) return false;
    if (body.note && m.note !== body.note) return false;
    return true;
  }

  /* A stale answer to an entry whose first answer was lost: the table's last change is it. */
  function alreadyIn(item, st) {
    if (!st || st.version !== item.body.version + 1) return false;
    if (item.path === "/hands") return !!item.extra && st.hand === item.extra.hand && st.status === "playing";
    var at = item.extra && typeof item.extra.entries === "number" ? item.extra.entries : null;
    if (item.path === "/undo") return at !== null && st.entries === at - 1;
    if (item.path === "/marks") return at !== null && st.entries === at && marked(item.body, st);
    if (item.path === "/edit") {
      // A deletion leaves fewer entries (later ones may be left out too); a replaced or an
      // inserted move is found at its entry. So neither is made twice.
      if (item.body.action === "delete") return at !== null && st.entries < at;
      var m = null;
      (st.moves || []).forEach(function (x) { if (x.entry === item.body.entry) m = x; });
      return !!m && m.seat === item.body.seat && Z.samePlay(item.body.play, m.play);
    }
    if (item.path !== "/moves") return false;
    var last = st.moves && st.moves.length ? st.moves[st.moves.length - 1] : null;
    if (!last || last.seat !== item.body.seat || last.entry !== st.entries) return false;
    return Z.samePlay(item.body.play, last.play);
  }

  /* Put a refused move back where it was typed. */
  function restore(item) {
    if (item.path !== "/moves" && item.path !== "/edit") return;
    if (item.body.seat) ui.seat = item.body.seat;
    ui.touched = true;
    var text = item.body.play === "-" ? "-" : item.body.play;
    if (ui.input) { ui.input.value = text; ui.picker.set(parsePlay(text).ids); }
    ui.pending = text;
    if (item.path === "/edit") ui.editing = { entry: item.body.entry, action: item.body.action };
    renderEntry(false);
  }

  function done(item, d) {
    if (item.path === "/moves" || item.path === "/edit") {
      ui.touched = false; ui.seat = null; ui.pending = null; ui.editing = null;
    }
    // An answer that comes after a newer table was shown (the server's event for another
    // phone's entry was answered first) does not take the page back to it.
    if (viewer) refresh(); else render(d.version >= state.version ? d : state, true);
    if (d.dropped && d.dropped.length) {
      message("error", null, "Corrected. These later entries no longer fit and were left out: " +
        d.dropped.map(function (x) {
          return "entry " + x.entry + " " + (x.kind === "hand" ? "hand start" : name(x.seat) + ": " + x.play) +
            (x.code ? " (" + x.code + " " + x.message + ")" : "");
        }).join("; ") + ". Enter them again as they were played.");
    } else if (d.inferred && d.inferred.length) {
      var undo = el("button", { type: "button", cls: "btn small", id: "undo-inferred", text: "Not so: undo",
        onclick: function () {
          if (!outbox.queue("/undo", {}, "undo", null)) return;  // an undo waits already
          var queued = outbox.items[outbox.items.length - 1];
          if (queued && queued.repeat) return;  // a double tap's second (on Yes): it undoes nothing
          ui.pending = item.body.play; ui.seat = item.body.seat; ui.touched = true;
        } });
      message("ok", null, names(d.inferred) + " passed (inferred from " + name(item.body.seat) +
        "'s move).", el("div", { cls: "row" }, [undo]));
      $("msg").setAttribute("data-inferred", d.inferred.join(","));
    } else {
      message("", null, null);
    }
  }

  // answers and refusals -----------------------------------------------------------------------

  function refresh() {  // an answer older than the state shown (two asked at once) is not shown
    return Z.api("GET", statePath()).then(function (res) { if (res.ok && res.data.version >= state.version) render(res.data, false); });
  }

  function reportError(res, more) {
    var d = res.data || {};
    var extra = el("div");
    var chips = null;
    if (d.code === "ZF102" && d.readings && d.readings.length) {
      chips = el("div", { cls: "chips", "aria-label": "Readings" }, d.readings.map(function (r) {
        return el("button", {
          type: "button", cls: "chip", "data-play": r.play, text: r.reading + " [" + r.play + "]",
          onclick: function () { enter(r.play); }
        });
      }));
      chips.insertBefore(el("div", { cls: "small", text: "Which reading?" }), chips.firstChild);
    }
    if (more) extra.appendChild(more);
    var text = d.message || ("the server answered " + res.status);
    if (res.status === 401 || res.status === 403) text += ". Open the table's join link on this phone to enter moves.";
    message("error", d.code, text, extra);
    // The readings first: on a phone the validator's long message scrolls below them.
    var box = $("msg").firstChild;
    if (chips && box) box.insertBefore(chips, box.querySelector(".text"));
  }

  // entering -------------------------------------------------------------------------------------

  /* The passes a play by `seat` implies, as the server will infer them (LIVE.md). */
  function impliedPasses(seat) {
    if (seat === state.turn || waiting().length) return [];
    var chain = state.pass_chain || [];
    var at = chain.indexOf(seat);
    if (at >= 0) return chain.slice(0, at);
    return seat === state.next_leader ? chain.slice() : [];
  }

  /* Queue a move; the entry box is free for the next one at once (the outbox shows this one
     until it is in, and a refusal puts it back). */
  function queueMove(path, body, label, version) {
    queue(path, body, label, null, version);
    if (ui.input && !ui.editing) { ui.input.value = ""; ui.picker.set([]); }
    ui.touched = false; ui.armed = null;
  }

  function enter(play) {
    var seat = ui.seat || state.turn;
    var label = name(seat) + ": " + (play === "-" ? "pass" : play);
    if (ui.editing) {
      var e = ui.editing;
      queue("/edit", { entry: e.entry, action: e.action, seat: seat, play: play },
        (e.action === "insert" ? "insert before entry " : "entry " + "") + e.entry + " \u2192 " + label);
      return;
    }
    var passes = impliedPasses(seat);
    if (!passes.length) { queueMove("/moves", { seat: seat, play: play }, label); return; }
    // Made against the table as it is now: if it changes before the answer, the server says so.
    var made = state.version;
    var yes = el("button", { type: "button", cls: "btn primary small", id: "confirm-passes",
      text: "Yes, enter it", onclick: function () { message("", null, null); queueMove("/moves", { seat: seat, play: play }, label, made); } });
    var no = el("button", { type: "button", cls: "btn small", id: "cancel-passes", text: "No",
      onclick: function () { message("", null, null); } });
    message("ask", null, names(passes) + " passed? " + label + " means so.",
      el("div", { cls: "row" }, [yes, no]));
    ui.asking = { version: made, label: label };
  }

  // rendering -----------------------------------------------------------------------------------

  function render(st, own) {
    var fresh = st.version !== state.version || !own;
    // The table moved on while the passes were asked (another phone entered): the question is
    // out of date, and "Yes" would be refused. The move stays in the box, to be looked at again.
    if (ui.asking && st.version !== ui.asking.version) {
      message("error", "stale", "The table moved on before this was answered (another phone entered): " +
        ui.asking.label + " was not entered. It is kept in the entry box: tap Play to enter it as the table is now.");
    }
    state = st;
    document.body.setAttribute("data-version", String(st.version));
    document.body.setAttribute("data-status", st.status);
    renderSeats();
    renderFelt();
    renderEntry(fresh);
    renderHandStart(fresh);
    renderHandEnd();
    renderMarks();
    renderMoves();
    renderViewer();
    renderInvite();
    var sub = st.players.join(" \u00b7 ") + " \u00b7 " + st.rules + " \u00b7 to " + st.target;
    if (st.date) sub += " \u00b7 " + st.date;
    if (st.hand) sub += " \u00b7 hand " + st.hand;
    $("sub").textContent = sub;
  }

  function renderSeats() {
    var box = clear($("seats"));
    state.players.forEach(function (p, i) {
      var seat = i + 1;
      var cls = "seat";
      if (state.status === "playing" && state.turn === seat) cls += " turn";
      if (state.top_seat === seat) cls += " top";
      if (state.out[i]) cls += " out";
      var left = state.cards_left[i];
      box.appendChild(el("article", { cls: cls, "data-seat": seat }, [
        el("div", { cls: "name", text: seat + ". " + p }),
        el("div", { cls: "score", text: String(state.scores[i]) }),
        el("div", { cls: "small muted", text:
          (left === null ? "" : left + " cards") + (state.hand ? " \u00b7 " + state.points[i] + " pts" : "") }),
        state.out[i] ? el("span", { cls: "badge", text: "out " + state.out[i] }) : null
      ]));
    });
  }

  function renderFelt() {
    var felt = $("felt");
    if (state.status !== "playing") { felt.classList.add("hidden"); return; }
    felt.classList.remove("hidden");
    clear(felt);
    felt.appendChild(el("div", { cls: "turn-line", id: "turn" }, ["Trick " + state.trick + ": ",
      nameEl(state.turn), " to " + (state.top ? "play or pass" : "lead")]));
    var top = el("div", { cls: "top", id: "top" });
    if (state.top) {
      top.appendChild(Z.cardRow(state.top));
      top.appendChild(el("span", { cls: "reading" }, [state.top_reading + " \u2014 ", nameEl(state.top_seat)]));
    } else {
      top.appendChild(el("span", { cls: "reading", text: "No top play: a new trick." }));
    }
    felt.appendChild(top);
    if (state.trick_open && state.trick_moves.length) {
      felt.appendChild(el("div", { cls: "trick", "aria-label": "This trick" },
        state.trick_moves.map(function (m) {
          return el("span", {}, [nameEl(m.seat), ": " + (m.play === "pass" ? "pass" : m.play)]);
        })));
    }
  }

  function knownCards(seat) {
    var h = state.hands[seat - 1];
    return h ? cardsOf(h.cards).map(cardId) : [];
  }

  function renderEntry(fresh) {
    var box = $("entry");
    var editing = ui.editing;
    if (!token || (state.status !== "playing" && !editing)) { clear(box); box.classList.add("hidden"); ui.input = null; return; }
    box.classList.remove("hidden");
    // A change from elsewhere moves the seat on only if this phone has not started a move.
    if (ui.seat === null || (fresh && !ui.touched)) ui.seat = state.turn || 1;
    var keep = ui.input ? ui.input.value : "";
    if (ui.pending !== null && ui.pending !== undefined) { keep = ui.pending; ui.pending = null; }
    else if (fresh && !ui.touched) keep = "";
    var refocus = Z.keepFocus(box);  // the control that had the focus keeps it
    clear(box);
    if (editing) {
      box.appendChild(el("div", { cls: "msg ask", id: "editing" }, [
        el("span", { text: (editing.action === "insert" ? "Inserting a move before entry " : "Correcting entry ") +
          editing.entry + ": pick the seat and the cards, then Play. Later entries are entered again. " }),
        el("button", { type: "button", cls: "btn small", text: "Cancel", onclick: function () {
          ui.editing = null; ui.touched = false; renderEntry(true); } })
      ]));
    }
    var seats = el("div", { cls: "chips", role: "group", "aria-label": "Who plays" },
      state.players.map(function (p, i) {
        var seat = i + 1;
        if (state.cards_left[i] === 0 && !editing) return null;
        return el("button", {
          type: "button", cls: "chip seat-chip" + (ui.seat === seat ? " on" : ""), "data-seat": seat,
          "aria-pressed": ui.seat === seat ? "true" : "false", text: p, title: p,
          onclick: function () { ui.seat = seat; ui.touched = true; renderEntry(false); }
        });
      }));
    box.appendChild(el("div", { cls: "small muted", text: "Who plays (a later seat means the seats between passed):" }));
    box.appendChild(seats);
    var input = el("input", { type: "text", cls: "notation", id: "play-text", autocomplete: "off",
      autocapitalize: "off", spellcheck: "false", "aria-label": "Play in notation",
      placeholder: "tap cards or type: 8s 8h, -, BJ=8h" });
    input.value = keep;
    var jokers = el("div", { cls: "chips jokers", id: "jokers" });
    var picker = new Z.Picker(function (ids) {
      ui.touched = true;
      var decl = parsePlay(input.value).decl;
      input.value = playText(ids, decl);
      drawJokers();
    }, function (cid) {
      // A joker armed for declaring: the next card tapped is what it stands for.
      if (ui.armed === null || cid >= Z.SJ) return false;
      var parsed = parsePlay(input.value);
      parsed.decl[ui.armed] = cardName(cid);
      ui.armed = null;
      input.value = playText(parsed.ids, parsed.decl);
      drawJokers();
      return true;
    });
    input.addEventListener("input", function () { ui.touched = true; picker.set(parsePlay(input.value).ids); drawJokers(); });
    function drawJokers() {
      clear(jokers);
      var parsed = parsePlay(input.value);
      parsed.ids.filter(function (c) { return c >= Z.SJ; }).forEach(function (j) {
        var jn = cardName(j);
        var armed = ui.armed === j;
        jokers.appendChild(el("button", { type: "button", cls: "chip" + (armed ? " on" : ""), "data-declare": jn,
          text: armed ? jn + " = ? tap the card it stands for" : jn + (parsed.decl[j] ? " = " + parsed.decl[j] : " stands for\u2026"),
          onclick: function () { ui.armed = armed ? null : j; drawJokers(); } }));
        if (parsed.decl[j]) {
          jokers.appendChild(el("button", { type: "button", cls: "chip", text: "\u00d7 undeclare " + jn,
            onclick: function () { var p = parsePlay(input.value); delete p.decl[j]; input.value = playText(p.ids, p.decl); drawJokers(); } }));
        }
      });
    }
    var played = cardsOf(state.played).map(cardId);
    var held = knownCards(ui.seat);
    var elsewhere = [];
    state.players.forEach(function (p, i) {
      if (i + 1 !== ui.seat) elsewhere = elsewhere.concat(knownCards(i + 1));
    });
    picker.mark(held, editing ? [] : played.concat(elsewhere));
    picker.set(parsePlay(keep).ids);
    ui.picker = picker; ui.input = input;
    box.appendChild(picker.root);
    box.appendChild(jokers);
    drawJokers();
    box.appendChild(input);
    box.appendChild(el("div", { cls: "row" }, [
      el("button", { type: "button", cls: "btn primary", id: "play-btn", text: "Play",
        onclick: function () {
          var text = input.value.trim();
          if (!text) { message("error", null, "Tap the cards played, or type them."); return; }
          enter(Z.PASS[text.toLowerCase()] ? "-" : text);
        } }),
      el("button", { type: "button", cls: "btn", id: "pass-btn", text: "Pass",
        // entries waiting to be sent leave the table shown behind them: the server judges it
        disabled: !state.can_pass && !editing && !waiting().length,
        onclick: function () { enter("-"); } }),
      el("button", { type: "button", cls: "btn", text: "Clear",
        onclick: function () { input.value = ""; picker.set([]); ui.touched = false; ui.armed = null; drawJokers(); } }),
      editing ? null : el("button", { type: "button", cls: "btn danger", id: "undo-btn", text: "Undo",
        onclick: function () { queue("/undo", {}, "undo"); } })
    ]));
    if (state.legal && ui.seat === state.turn && !editing) {
      box.appendChild(el("div", { cls: "small muted", text: "Legal plays for " + name(state.turn) + ":" }));
      var chip = function (p) {
        return el("button", { type: "button", cls: "chip", "data-play": p.play, title: p.reading,
          text: p.play, onclick: function () { ui.touched = true; input.value = p.play; picker.set(parsePlay(p.play).ids); drawJokers(); } });
      };
      // Plays without jokers first: they are what is usually played; the rest fold away.
      var plain = state.legal.filter(function (p) { return !/[SB]J/.test(p.play); });
      var wild = state.legal.filter(function (p) { return /[SB]J/.test(p.play); });
      box.appendChild(el("div", { cls: "chips", id: "legal" }, plain.map(chip)));
      if (wild.length) {
        box.appendChild(el("details", null, [
          el("summary", { cls: "small", text: wild.length + " more with jokers" }),
          el("div", { cls: "chips" }, wild.map(chip))
        ]));
      }
    }
    refocus();
  }

  function renderHandStart(fresh) {
    var box = $("handstart");
    if (!token || ui.editing || !(state.status === "new" || state.status === "between")) {
      clear(box); ui.deal = null; box.classList.add("hidden"); return;
    }
    box.classList.remove("hidden");
    if (!fresh && ui.deal) return;
    clear(box);
    var next = state.next;
    var n = state.players.length;
    var deal = ui.deal = { mode: "none", seat: 1, texts: {}, active: 1 };
    box.appendChild(el("h2", { text: "Hand " + next.hand }));
    var shuffler = el("select", { id: "shuffler", "aria-label": "Shuffler" },
      [el("option", { value: "", text: "\u2014 who shuffled? \u2014" })].concat(
        state.players.map(function (p, i) {
          return el("option", { value: i + 1, text: p, selected: next.shuffler === i + 1 });
        })));
    box.appendChild(el("label", { cls: "field" }, [
      el("span", { text: next.shuffler ? "Shuffler (the last player of the previous hand, by the rules)" : "Shuffler" }),
      shuffler]));
    if (next.leader) box.appendChild(el("p", { cls: "small muted", text: name(next.leader) + " went out first: draws first and leads." }));
    var modes = el("div", { cls: "chips", role: "radiogroup", "aria-label": "Deals to record" });
    var body = el("div");
    [["none", "No deals"], ["own", "One hand"], ["all", "All hands"]].forEach(function (m) {
      modes.appendChild(el("button", { type: "button", cls: "chip" + (deal.mode === m[0] ? " on" : ""),
        "data-mode": m[0], role: "radio", "aria-checked": deal.mode === m[0] ? "true" : "false", text: m[1],
        onclick: function () { deal.mode = m[0]; Array.prototype.forEach.call(modes.children, function (c) {
          var on = c.getAttribute("data-mode") === deal.mode;
          c.classList.toggle("on", on); c.setAttribute("aria-checked", on ? "true" : "false");
        }); drawDeal(); } }));
    });
    box.appendChild(el("div", { cls: "small muted", text: "Deals to record:" }));
    box.appendChild(modes);
    box.appendChild(body);

    function sizeOf(seat) {
      var s = +shuffler.value || next.shuffler || 1;
      return next.sizes[s - 1][seat - 1];
    }

    function drawDeal() {
      clear(body);
      if (deal.mode === "none") {
        body.appendChild(el("p", { cls: "small muted", text: "Only the plays are recorded; the deal is rebuilt from them." }));
        return;
      }
      var seats = el("div", { cls: "chips", role: "group", "aria-label": "Whose cards" });
      state.players.forEach(function (p, i) {
        var seat = i + 1;
        var on = deal.mode === "own" ? deal.seat === seat : deal.active === seat;
        var count = parsePlay(deal.texts[seat] || "").ids.length;
        seats.appendChild(el("button", { type: "button", cls: "chip" + (on ? " on" : ""), "data-deal-seat": seat,
          text: p + (deal.mode === "all" || on ? " " + count + "/" + sizeOf(seat) : ""),
          onclick: function () { if (deal.mode === "own") deal.seat = seat; else deal.active = seat; drawDeal(); } }));
      });
      body.appendChild(seats);
      var current = deal.mode === "own" ? deal.seat : deal.active;
      var input = el("input", { type: "text", cls: "notation", id: "deal-text", autocomplete: "off",
        autocapitalize: "off", spellcheck: "false", "aria-label": "Cards of " + name(current),
        placeholder: "tap cards or type: 3h 4h 5s ..." });
      input.value = deal.texts[current] || "";
      var counter = el("div", { cls: "small muted", id: "deal-count" });
      function count() {
        var got = parsePlay(input.value).ids.length;
        counter.textContent = name(current) + ": " + got + " of " + sizeOf(current) + " cards";
        var chip = seats.querySelector('[data-deal-seat="' + current + '"]');
        if (chip) chip.textContent = name(current) + " " + got + "/" + sizeOf(current);
      }
      var picker = new Z.Picker(function (ids) {
        input.value = playText(ids); deal.texts[current] = input.value; count();
      });
      input.addEventListener("input", function () {
        deal.texts[current] = input.value; picker.set(parsePlay(input.value).ids); count();
      });
      var taken = [];
      if (deal.mode === "all") {
        Object.keys(deal.texts).forEach(function (k) {
          if (+k !== current) taken = taken.concat(parsePlay(deal.texts[k]).ids);
        });
      }
      picker.set(parsePlay(input.value).ids);
      picker.mark([], taken);
      body.appendChild(picker.root);
      body.appendChild(input);
      body.appendChild(counter);
      count();
    }
    drawDeal();
    shuffler.addEventListener("change", drawDeal);

    // a hand start waiting in the outbox is one hand start: a second tap makes none
    var starting = outbox.has("/hands");
    box.appendChild(el("div", { cls: "row" }, [
      el("button", { type: "button", cls: "btn primary", id: "start-btn", disabled: starting,
        text: startText(next.hand, starting),
        onclick: function (e) {
          var btn = e.currentTarget;
          var body = {};
          if (shuffler.value) body.shuffler = +shuffler.value;
          if (deal.mode === "own" && deal.texts[deal.seat]) {
            body.deals = {}; body.deals[deal.seat] = deal.texts[deal.seat];
          } else if (deal.mode === "all") {
            body.deals = {};
            for (var s = 1; s <= n; s++) body.deals[s] = deal.texts[s] || "";
          }
          if (!queue("/hands", body, "start hand " + next.hand, { hand: next.hand })) return;
          ui.deal = null;
          btn.disabled = true;
          btn.textContent = startText(next.hand, true);
        } }),
      state.entries && state.status !== "over" ? el("button", { type: "button", cls: "btn danger", id: "undo-btn", text: "Undo last entry",
        onclick: function () { ui.deal = null; queue("/undo", {}, "undo"); } }) : null
    ]));
  }

  function renderHandEnd() {
    var box = $("handend");
    var last = state.last_hand;
    if (!last || state.status === "playing") { clear(box); box.classList.add("hidden"); return; }
    box.classList.remove("hidden");
    clear(box);
    box.appendChild(el("h2", { text: "Hand " + last.hand + " over" }));
    box.appendChild(el("p", { id: "transfer", text: name(last.last) + " came last: " + name(last.first) +
      ", first out, takes " + name(last.last) + "'s tricks and hand (" + last.transfer_points + " points)." }));
    var winners = state.winners || [];
    var rows = state.players.map(function (p, i) {
      return el("tr", { cls: winners.indexOf(i + 1) >= 0 ? "win" : "" }, [
        el("td", { text: p }), el("td", { text: String(last.points[i]) }), el("td", { text: String(last.totals[i]) })
      ]);
    });
    box.appendChild(el("table", { cls: "score", id: "score" }, [
      el("thead", null, [el("tr", null, [el("th", { text: "Player" }), el("th", { text: "Hand" }), el("th", { text: "Total" })])]),
      el("tbody", null, rows)
    ]));
    if (state.status === "over") {
      box.appendChild(el("p", { cls: "msg ok", id: "winners", text: "Game over: " +
        winners.map(name).join(" and ") + (winners.length > 1 ? " win" : " wins") + " with " +
        state.scores[winners[0] - 1] + "." }));
      box.appendChild(el("p", null, [el("a", { href: "/api/tables/" + id + "/record.zfn", text: "The record (.zfn)" })]));
      if (token && !ui.editing) box.appendChild(el("button", { type: "button", cls: "btn danger", id: "undo-btn", text: "Undo last entry",
        onclick: function () { queue("/undo", {}, "undo"); } }));
    } else if (state.next) {
      box.appendChild(el("p", { cls: "small", text: "Next: " + name(state.next.shuffler) + " shuffles; " +
        name(state.next.leader) + " draws first and leads." }));
    }
  }

  // marks: dispute, comment, annotation -----------------------------------------------------------

  function moveByEntry(entry) {
    var found = null;
    (state.moves || []).forEach(function (m) { if (m.entry === entry) found = m; });
    return found;
  }

  function renderMarks() {
    var box = $("marks");
    var moves = state.moves || [];
    if (!token || !moves.length || state.moves_from) { clear(box); box.classList.add("hidden"); return; }
    box.classList.remove("hidden");
    clear(box);
    var target = (ui.markEntry && moveByEntry(ui.markEntry)) || moves[moves.length - 1];
    var marks = [];
    if (target.annotation) marks.push(target.annotation);
    if (target.disputed) marks.push("disputed" + (target.note ? " \u201c" + target.note + "\u201d" : "") +
      (target.or && target.or.length ? " or " + target.or.join(" or ") : ""));
    (target.comments || []).forEach(function (c) { marks.push("{" + c + "}"); });
    box.appendChild(el("div", { cls: "small", id: "mark-target" }, [
      el("strong", { text: (ui.markEntry ? "Move " : "Last move ") }),
      el("span", { text: "hand " + target.hand + ", " + name(target.seat) + ": " + target.play +
        (marks.length ? "  " + marks.join("  ") : "") })
    ]));
    var form = el("div", { id: "mark-form" });
    function mark(body, label) { body.entry = target.entry; queue("/marks", body, label + " on " + name(target.seat) + ": " + target.play); }
    function openForm(kind) {
      clear(form);
      ui.markForm = kind;
      if (kind === "dispute") {
        var alt = el("input", { type: "text", cls: "notation", id: "dispute-or", autocomplete: "off", spellcheck: "false",
          "aria-label": "The other version", placeholder: "the other version: Kc, or - for a pass" });
        var note = el("input", { type: "text", id: "dispute-note", maxlength: "200", "aria-label": "Note",
          placeholder: "note (optional): Bo says it was the Kc" });
        form.appendChild(alt); form.appendChild(note);
        form.appendChild(el("button", { type: "button", cls: "btn primary small", id: "dispute-send", text: "Mark disputed",
          onclick: function () {
            var or = alt.value.split(/\s+or\s+|\|/).map(function (s) { return s.trim(); }).filter(Boolean);
            var body = { disputed: true, or: or };
            if (note.value.trim()) body.note = note.value.trim();
            ui.markForm = null; mark(body, "disputed");
          } }));
      } else if (kind === "comment") {
        var text = el("input", { type: "text", id: "comment-text", maxlength: "1000", "aria-label": "Comment",
          placeholder: "a comment on this move" });
        form.appendChild(text);
        form.appendChild(el("button", { type: "button", cls: "btn primary small", id: "comment-send", text: "Add comment",
          onclick: function () { if (text.value.trim()) { ui.markForm = null; mark({ comment: text.value.trim() }, "comment"); } } }));
      } else if (kind === "annotate") {
        form.appendChild(el("div", { cls: "chips", "aria-label": "Annotation" }, ANNOTATIONS.concat([""]).map(function (a) {
          return el("button", { type: "button", cls: "chip" + (target.annotation === a ? " on" : ""), "data-annotation": a,
            text: a || "none", onclick: function () { ui.markForm = null; mark({ annotation: a }, a ? "annotation " + a : "no annotation"); } });
        })));
      }
    }
    box.appendChild(el("div", { cls: "row" }, [
      el("button", { type: "button", cls: "btn small", id: "dispute-btn", text: "Dispute", onclick: function () { openForm("dispute"); } }),
      el("button", { type: "button", cls: "btn small", id: "comment-btn", text: "Comment", onclick: function () { openForm("comment"); } }),
      el("button", { type: "button", cls: "btn small", id: "annotate-btn", text: "!? Annotate", onclick: function () { openForm("annotate"); } }),
      target.disputed ? el("button", { type: "button", cls: "btn small", text: "Undispute",
        onclick: function () { mark({ disputed: false }, "undisputed"); } }) : null
    ]));
    box.appendChild(form);
  }

  // the moves, to mark or correct ----------------------------------------------------------------

  function renderMoves() {
    var box = $("moves");
    var moves = state.moves || [];
    if (!token || !moves.length || state.moves_from) { clear(box); box.classList.add("hidden"); return; }
    var open = box.querySelector("details") && box.querySelector("details").open;
    box.classList.remove("hidden");
    clear(box);
    var details = el("details", { open: open }, [el("summary", { text: "Moves (" + moves.length + "): mark or correct one" })]);
    var list = el("ol", { cls: "moves" });
    var hand = 0;
    moves.forEach(function (m) {
      if (m.hand !== hand) { hand = m.hand; list.appendChild(el("li", { cls: "hand-row", text: "Hand " + hand })); }
      list.appendChild(el("li", { "data-entry": m.entry }, [
        el("span", { cls: "what", text: m.line + ". " + name(m.seat) + ": " + m.play + (m.annotation || "") +
          (m.disputed ? " disputed" : "") + (m.comments ? " {\u2026}" : "") }),
        el("button", { type: "button", cls: "chip", text: "Mark", "data-mark": m.entry, onclick: function () {
          ui.markEntry = m.entry; renderMarks(); $("marks").scrollIntoView({ block: "center" }); } }),
        el("button", { type: "button", cls: "chip", text: "Correct", "data-correct": m.entry, onclick: function () {
          ui.editing = { entry: m.entry, action: "replace" }; ui.seat = m.seat; ui.touched = true;
          ui.pending = m.play === "pass" ? "-" : m.play; ui.input = null; render(state, true); $("entry").scrollIntoView(); } }),
        el("button", { type: "button", cls: "chip", text: "Insert before", "data-insert": m.entry, onclick: function () {
          ui.editing = { entry: m.entry, action: "insert" }; ui.touched = true; ui.pending = ""; ui.input = null;
          render(state, true); $("entry").scrollIntoView(); } }),
        el("button", { type: "button", cls: "chip", text: "Delete", "data-delete": m.entry, onclick: function (e) {
          var b = e.currentTarget;  // two taps: a stray one deletes nothing
          if (!b.classList.contains("on")) { b.classList.add("on"); b.textContent = "Tap again to delete"; return; }
          queue("/edit", { entry: m.entry, action: "delete" }, "delete entry " + m.entry + " (" + name(m.seat) + ": " + m.play + ")"); } })
      ]));
    });
    details.appendChild(list);
    box.appendChild(details);
  }

  function renderViewer() {
    var box = clear($("viewer"));
    var links = [el("a", { href: "/t/" + id, text: "All hands" })];
    state.players.forEach(function (p, i) {
      links.push(document.createTextNode(" \u00b7 "));
      links.push(el("a", { href: "/t/" + id + "?seat=" + (i + 1), text: "as " + p }));
    });
    box.appendChild(el("div", null, [el("strong", { text: viewer ? "Seen by " + name(viewer) + ". " : "View: " })].concat(links)));
    box.appendChild(el("div", null, [
      el("a", { href: "/t/" + id + "/watch" + (viewer ? "?seat=" + viewer : ""), text: "Watch the replay" }),
      document.createTextNode(" \u00b7 "),
      el("a", { href: "/api/tables/" + id + "/record.zfn", text: "record (.zfn)" }),
      document.createTextNode(token ? " \u00b7 you can enter moves" : " \u00b7 spectator")
    ]));
  }

  var inviteDone = false;
  function renderInvite() {
    if (!token || inviteDone) return;
    inviteDone = true;
    Z.invite($("invite"), id, token);
  }

  render(state, false);
  outbox.render();
  outbox.pump();
  // An event from the table: the server is there, so what waits for a retry goes now.
  Z.follow(id, function (version) { outbox.now(); if (version !== state.version) refresh(); });
})();
