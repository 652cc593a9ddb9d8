/* zfrec live: the pages of `zfrec serve`. The server judges every entry; this script only shows
   the table's state (GET /api/tables/ID), sends entries, and follows changes by server-sent
   events. User text is only ever set with textContent. */
(function () {
  "use strict";

  var RANKS = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"];
  var SUITS = ["s", "h", "d", "c"];
  var GLYPH = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  var SJ = 52, BJ = 53;
  var PASS = { "-": 1, "pass": 1, "\u2013": 1, "\u2014": 1, "\uff0d": 1, "\u8fc7": 1 };

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs, kids) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) return;
        if (k === "text") node.textContent = v;
        else if (k === "cls") node.className = v;
        else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), v);
        else node.setAttribute(k, v === true ? "" : v);
      });
    }
    (kids || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  // cards -----------------------------------------------------------------------------------

  function cardName(id) {
    if (id === SJ) return "SJ";
    if (id === BJ) return "BJ";
    return RANKS[id >> 2] + SUITS[id & 3];
  }

  function cardId(token) {
    var t = token.trim();
    var up = t.toUpperCase();
    if (up === "SJ") return SJ;
    if (up === "BJ") return BJ;
    var suit = t.slice(-1).toLowerCase();
    var glyphs = { "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c" };
    suit = glyphs[suit] || suit;
    var rank = up.slice(0, -1);
    if (rank === "10") rank = "T";
    var r = RANKS.indexOf(rank), s = SUITS.indexOf(suit);
    return r < 0 || s < 0 ? -1 : r * 4 + s;
  }

  /* What a typed play selects, for the picker only: the server reads the notation itself. */
  function parsePlay(text) {
    var out = { ids: [], decl: {} };
    text.replace(/,/g, " ").split(/\s+/).forEach(function (tok) {
      if (!tok) return;
      var parts = tok.split("=");
      var id = cardId(parts[0]);
      if (id < 0) return;
      if (out.ids.indexOf(id) < 0) out.ids.push(id);
      if (parts.length > 1 && id >= SJ) out.decl[id] = parts[1];
    });
    return out;
  }

  function playText(ids, decl) {
    return ids.slice().sort(function (a, b) { return a - b; }).map(function (id) {
      return cardName(id) + (decl && decl[id] ? "=" + decl[id] : "");
    }).join(" ");
  }

  function cardsOf(text) {
    return (text || "").split(/\s+/).filter(Boolean);
  }

  function cardFace(token) {
    var name = token.split("=")[0];
    var id = cardId(name);
    var label, red = false;
    if (id === SJ || id === BJ) {
      label = name.toUpperCase() + (token.indexOf("=") > 0 ? "=" + token.split("=")[1] : "");
    } else if (id >= 0) {
      var r = RANKS[id >> 2];
      label = (r === "T" ? "10" : r) + GLYPH[SUITS[id & 3]];
      red = (id & 3) === 1 || (id & 3) === 2;
    } else {
      label = token;
    }
    return el("span", { cls: "card" + (red ? " red" : "") + (id >= SJ ? " joker" : ""), text: label });
  }

  function cardRow(text) {
    return el("span", { cls: "cards" }, cardsOf(text).map(cardFace));
  }

  /* The 54-card grid: 8 rows of 7, ranks 3-9 for each suit, then T-2 and the jokers. */
  function Picker(onChange) {
    var self = this;
    this.sel = [];
    this.buttons = {};
    this.root = el("div", { cls: "picker", role: "group", "aria-label": "Cards" });
    var order = [];
    SUITS.forEach(function (s, si) { for (var r = 0; r < 7; r++) order.push(r * 4 + si); });
    SUITS.forEach(function (s, si) {
      for (var r = 7; r < 13; r++) order.push(r * 4 + si);
      order.push(si === 0 ? SJ : si === 1 ? BJ : -1);
    });
    order.forEach(function (id) {
      if (id < 0) { self.root.appendChild(el("span", { cls: "gap" })); return; }
      var face = cardFace(cardName(id));
      var b = el("button", {
        type: "button",
        cls: face.className.indexOf("red") >= 0 ? "red" : "",
        "data-card": cardName(id),
        "aria-pressed": "false",
        text: face.textContent,
        onclick: function () { self.toggle(id); if (onChange) onChange(self.sel.slice()); }
      });
      self.buttons[id] = b;
      self.root.appendChild(b);
    });
  }
  Picker.prototype.toggle = function (id) {
    var i = this.sel.indexOf(id);
    if (i >= 0) this.sel.splice(i, 1); else this.sel.push(id);
    this.paint();
  };
  Picker.prototype.set = function (ids) { this.sel = ids.slice(); this.paint(); };
  Picker.prototype.mark = function (held, disabled) {
    var self = this;
    Object.keys(this.buttons).forEach(function (k) {
      var id = +k, b = self.buttons[k];
      b.classList.toggle("held", held.indexOf(id) >= 0);
      b.disabled = disabled.indexOf(id) >= 0 && self.sel.indexOf(id) < 0;
    });
  };
  Picker.prototype.paint = function () {
    var self = this;
    Object.keys(this.buttons).forEach(function (k) {
      var on = self.sel.indexOf(+k) >= 0;
      self.buttons[k].classList.toggle("sel", on);
      self.buttons[k].setAttribute("aria-pressed", on ? "true" : "false");
    });
  };

  // talking to the server ------------------------------------------------------------------------

  function tokenFor(id) {
    var key = "zfrec-token:" + id;
    var m = /^#k=([A-Za-z0-9_\-]+)$/.exec(location.hash);
    if (m) {
      try { localStorage.setItem(key, m[1]); } catch (e) { /* private mode: keep it in memory */ }
      history.replaceState(null, "", location.pathname + location.search);
      return m[1];
    }
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }

  function api(method, path, body, token) {
    var headers = { "Accept": "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers["Authorization"] = "Bearer " + token;
    return fetch(path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store"
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        return { ok: r.ok, status: r.status, data: data };
      });
    });
  }

  function showMessage(box, kind, code, text, extra) {
    clear(box);
    if (!text) return;
    var m = el("div", { cls: "msg " + kind }, [
      code ? el("span", { cls: "code", text: code }) : null,
      el("span", { cls: "text", text: text })
    ]);
    if (extra) m.appendChild(extra);
    box.appendChild(m);
  }

  // the new-table page -----------------------------------------------------------------------

  function initNew() {
    var form = $("new-table");
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var players = Array.prototype.map.call(form.querySelectorAll("input[name=player]"),
        function (i) { return i.value.trim(); }).filter(Boolean);
      var options = {};
      ["self_overplay", "jokers_wild"].forEach(function (k) {
        var v = form.elements[k].value;
        if (v) options[k] = v === "true";
      });
      if (form.elements.sequence_lengths.value) options.sequence_lengths = form.elements.sequence_lengths.value;
      var body = {
        players: players,
        rules: form.elements.rules.value,
        options: options,
        target: +form.elements.target.value || 500
      };
      if (form.elements.event.value.trim()) body.event = form.elements.event.value.trim();
      api("POST", "/api/tables", body).then(function (res) {
        if (!res.ok) { showMessage($("msg"), "error", res.data.code, res.data.message); return; }
        try { localStorage.setItem("zfrec-token:" + res.data.id, res.data.token); } catch (err) { /* */ }
        location.href = "/t/" + res.data.id + "#k=" + res.data.token;
      });
    });
  }

  // the table page -------------------------------------------------------------------------------

  function initTable() {
    var id = document.body.getAttribute("data-table");
    var token = tokenFor(id);
    var params = new URLSearchParams(location.search);
    var viewer = params.get("seat") ? +params.get("seat") : null;
    var state = JSON.parse($("zf-state").textContent);
    var ui = { seat: null, picker: null, input: null, deal: null };

    function statePath() { return "/api/tables/" + id + (viewer ? "?seat=" + viewer : ""); }

    function refresh() {
      return api("GET", statePath()).then(function (res) { if (res.ok) render(res.data, false); });
    }

    function send(method, path, body) {
      return api(method, "/api/tables/" + id + path, body, token).then(function (res) {
        if (res.ok) {
          showMessage($("msg"), "", null, null);
          if (viewer) refresh(); else render(res.data, true);
        } else {
          reportError(res);
        }
        return res;
      });
    }

    function reportError(res) {
      var d = res.data || {};
      var extra = null;
      if (d.code === "ZF102" && d.readings && d.readings.length) {
        extra = el("div", { cls: "chips", "aria-label": "Readings" }, d.readings.map(function (r) {
          return el("button", {
            type: "button", cls: "chip", "data-play": r.play, text: r.reading + " [" + r.play + "]",
            onclick: function () { enter(r.play); }
          });
        }));
        extra.insertBefore(el("div", { cls: "small", text: "Which reading?" }), extra.firstChild);
      }
      var text = d.message || ("the server answered " + res.status);
      if (res.status === 401 || res.status === 403) text += ". Open the table's join link on this phone to enter moves.";
      showMessage($("msg"), "error", d.code, text, extra);
    }

    function enter(play) {
      var seat = ui.seat || state.turn;
      return send("POST", "/moves", { seat: seat, play: play });
    }

    function name(seat) { return state.players[seat - 1]; }

    function render(st, own) {
      var fresh = st.version !== state.version || !own;
      state = st;
      document.body.setAttribute("data-version", String(st.version));
      document.body.setAttribute("data-status", st.status);
      renderSeats();
      renderFelt();
      renderEntry(fresh);
      renderHandStart(fresh);
      renderHandEnd();
      renderViewer();
      renderInvite();
      var sub = st.players.join(" \u00b7 ") + " \u00b7 " + st.rules + " \u00b7 to " + st.target;
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
            (left === null ? "" : left + " cards") +
            (state.hand ? " \u00b7 " + state.points[i] + " pts" : "") }),
          state.out[i] ? el("span", { cls: "badge", text: "out " + state.out[i] }) : null
        ]));
      });
    }

    function renderFelt() {
      var felt = $("felt");
      if (state.status !== "playing") { felt.classList.add("hidden"); return; }
      felt.classList.remove("hidden");
      clear(felt);
      felt.appendChild(el("div", { cls: "turn-line", id: "turn",
        text: "Trick " + state.trick + ": " + name(state.turn) + " to " + (state.top ? "play or pass" : "lead") }));
      var top = el("div", { cls: "top", id: "top" });
      if (state.top) {
        top.appendChild(cardRow(state.top));
        top.appendChild(el("div", { cls: "reading", text: state.top_reading + " \u2014 " + name(state.top_seat) }));
      } else {
        top.appendChild(el("div", { cls: "reading", text: "No top play: a new trick." }));
      }
      felt.appendChild(top);
      if (state.trick_open && state.trick_moves.length) {
        felt.appendChild(el("div", { cls: "trick", "aria-label": "This trick" },
          state.trick_moves.map(function (m) {
            return el("span", { text: name(m.seat) + ": " + (m.play === "pass" ? "pass" : m.play) });
          })));
      }
    }

    function knownCards(seat) {
      var h = state.hands[seat - 1];
      return h ? cardsOf(h.cards).map(cardId) : [];
    }

    function renderEntry(fresh) {
      var box = $("entry");
      if (!token || state.status !== "playing") { box.classList.add("hidden"); return; }
      box.classList.remove("hidden");
      if (fresh || ui.seat === null) ui.seat = state.turn;
      var keep = ui.input && !fresh ? ui.input.value : "";
      clear(box);
      var seats = el("div", { cls: "chips", role: "group", "aria-label": "Who plays" },
        state.players.map(function (p, i) {
          var seat = i + 1;
          if (state.cards_left[i] === 0) return null;
          return el("button", {
            type: "button", cls: "chip" + (ui.seat === seat ? " on" : ""), "data-seat": seat,
            "aria-pressed": ui.seat === seat ? "true" : "false", text: p,
            onclick: function () { ui.seat = seat; renderEntry(false); }
          });
        }));
      box.appendChild(el("div", { cls: "small muted", text: "Who plays (a later seat means the seats between passed):" }));
      box.appendChild(seats);
      var input = el("input", { type: "text", cls: "notation", id: "play-text", autocomplete: "off",
        autocapitalize: "off", spellcheck: "false", "aria-label": "Play in notation",
        placeholder: "tap cards or type: 8s 8h, -, BJ=8h" });
      input.value = keep;
      var picker = new Picker(function (ids) {
        var decl = parsePlay(input.value).decl;
        input.value = playText(ids, decl);
      });
      input.addEventListener("input", function () { picker.set(parsePlay(input.value).ids); });
      var played = cardsOf(state.played).map(cardId);
      var held = knownCards(ui.seat);
      var elsewhere = [];
      state.players.forEach(function (p, i) {
        if (i + 1 !== ui.seat) elsewhere = elsewhere.concat(knownCards(i + 1));
      });
      picker.mark(held, played.concat(elsewhere));
      picker.set(parsePlay(keep).ids);
      ui.picker = picker; ui.input = input;
      box.appendChild(picker.root);
      box.appendChild(input);
      box.appendChild(el("div", { cls: "row", style: null }, [
        el("button", { type: "button", cls: "btn primary", id: "play-btn", text: "Play",
          onclick: function () {
            var text = input.value.trim();
            if (!text) { showMessage($("msg"), "error", null, "Tap the cards played, or type them."); return; }
            enter(PASS[text.toLowerCase()] ? "-" : text);
          } }),
        el("button", { type: "button", cls: "btn", id: "pass-btn", text: "Pass", disabled: !state.can_pass,
          onclick: function () { enter("-"); } }),
        el("button", { type: "button", cls: "btn", text: "Clear",
          onclick: function () { input.value = ""; picker.set([]); } }),
        el("button", { type: "button", cls: "btn danger", id: "undo-btn", text: "Undo",
          onclick: function () { send("POST", "/undo"); } })
      ]));
      if (state.legal && ui.seat === state.turn) {
        box.appendChild(el("div", { cls: "small muted", text: "Legal plays for " + name(state.turn) + ":" }));
        var chip = function (p) {
          return el("button", { type: "button", cls: "chip", "data-play": p.play, title: p.reading,
            text: p.play, onclick: function () { input.value = p.play; picker.set(parsePlay(p.play).ids); } });
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
    }

    function renderHandStart(fresh) {
      var box = $("handstart");
      if (!token || !(state.status === "new" || state.status === "between")) {
        box.classList.add("hidden"); return;
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
        var picker = new Picker(function (ids) {
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

      box.appendChild(el("div", { cls: "row" }, [
        el("button", { type: "button", cls: "btn primary", id: "start-btn", text: "Start hand " + next.hand,
          onclick: function () {
            var body = {};
            if (shuffler.value) body.shuffler = +shuffler.value;
            if (deal.mode === "own" && deal.texts[deal.seat]) {
              body.deals = {}; body.deals[deal.seat] = deal.texts[deal.seat];
            } else if (deal.mode === "all") {
              body.deals = {};
              for (var s = 1; s <= n; s++) body.deals[s] = deal.texts[s] || "";
            }
            ui.deal = null;
            send("POST", "/hands", body);
          } }),
        state.entries ? el("button", { type: "button", cls: "btn danger", id: "undo-btn", text: "Undo last entry",
          onclick: function () { ui.deal = null; send("POST", "/undo"); } }) : null
      ]));
    }

    function renderHandEnd() {
      var box = $("handend");
      var last = state.last_hand;
      if (!last || state.status === "playing") { box.classList.add("hidden"); return; }
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
        if (token) box.appendChild(el("button", { type: "button", cls: "btn danger", id: "undo-btn", text: "Undo last entry",
          onclick: function () { send("POST", "/undo"); } }));
      } else if (state.next) {
        box.appendChild(el("p", { cls: "small", text: "Next: " + name(state.next.shuffler) + " shuffles; " +
          name(state.next.leader) + " draws first and leads." }));
      }
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
      var box = $("invite");
      if (!token || inviteDone) return;
      inviteDone = true;
      box.classList.remove("hidden");
      var link = location.origin + "/t/" + id + "#k=" + token;
      var watch = location.origin + "/t/" + id;
      var details = el("details", null, [el("summary", { text: "Invite: the join link and its QR code" })]);
      var img = el("div", { cls: "qr" });
      details.appendChild(img);
      details.appendChild(el("p", { cls: "small" }, [el("span", { text: "Writers (can enter moves): " }),
        el("code", { id: "join-link", text: link })]));
      details.appendChild(el("p", { cls: "small" }, [el("span", { text: "Spectators: " }), el("code", { text: watch })]));
      details.addEventListener("toggle", function () {
        if (!details.open || img.firstChild) return;
        fetch("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ text: link }) }).then(function (r) { return r.text(); }).then(function (svg) {
          img.appendChild(el("img", { alt: "QR code of the join link", src: "data:image/svg+xml;base64," + btoa(svg) }));
        });
      });
      box.appendChild(details);
    }

    render(state, false);
    follow(id, function (version) { if (version !== state.version) refresh(); });
  }

  // following a table -----------------------------------------------------------------------

  function follow(id, onVersion) {
    if (!window.EventSource) { setInterval(function () { onVersion(-1); }, 3000); return; }
    var source = new EventSource("/api/tables/" + id + "/events");
    source.addEventListener("version", function (e) {
      try { onVersion(JSON.parse(e.data).version); } catch (err) { /* ignore a bad event */ }
    });
  }

  function initWatch() {
    var id = document.body.getAttribute("data-table");
    var seat = document.body.getAttribute("data-seat");
    var version = +document.body.getAttribute("data-version");
    follow(id, function (v) {
      if (v === version) return;
      version = v;
      api("GET", "/api/tables/" + id + (seat ? "?seat=" + seat : "")).then(function (res) {
        if (!res.ok || !res.data.hand) return;
        // A new query makes the frame load the page again; the hash shows its last step.
        var src = "/t/" + id + "/replay/" + res.data.hand + "?v=" + v + (seat ? "&seat=" + seat : "") +
          "#step=99999";
        var frame = $("frame");
        if (!frame) {
          var none = $("frame-none");
          frame = el("iframe", { cls: "watch-frame", id: "frame", title: "Replay of the hand in play" });
          none.parentNode.replaceChild(frame, none);
        }
        frame.setAttribute("src", src);
      });
    });
  }

  var page = document.body.getAttribute("data-page");
  if (page === "new") initNew();
  else if (page === "table") initTable();
  else if (page === "watch") initWatch();
})();
