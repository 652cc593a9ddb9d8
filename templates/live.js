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

  /* Before `box` is drawn anew: the control in it that has the focus (Undo tapped, or a key
     pressed on it) lets it go, and the function returned, called once the box is drawn, gives
     the focus back to the control drawn in its place (found by its id, else by its text and
     place among those of that text), without scrolling. Taken away with the box while it had the focus, the browser laid the
     page out as the focus went, without the box: where the box was most of the page, the page
     was left at its top (Sheng ji's, after Undo). */
  function keepFocus(box) {
    var had = document.activeElement;
    if (!had || had === document.body || !box.contains(had)) return function () {};
    var id = had.id, tag = had.tagName, text = had.textContent, at = null;
    // without an id, the control is told by its text and which of that text it is (Sheng ji's
    // hand holds two 3♠ of two decks: the second keeps the focus, not the first)
    function alike() {
      return Array.prototype.filter.call(box.querySelectorAll(tag), function (n) {
        return !n.id && n.textContent === text;
      });
    }
    var nth = Math.max(0, alike().indexOf(had));
    try { if (typeof had.selectionStart === "number") at = [had.selectionStart, had.selectionEnd]; } catch (e) { /* no caret */ }
    had.blur();
    return function () {
      var again = id ? $(id) : null;
      if (!again || !box.contains(again)) again = alike()[nth];
      if (!again) return;
      again.focus({ preventScroll: true });
      // typing goes on where it was (the box's text is kept through a redraw)
      try { if (at && again.value.length >= at[1]) again.setSelectionRange(at[0], at[1]); } catch (e) { /* no caret */ }
    };
  }

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

  /* The words of a typed text of cards, as the server reads them (zfrec/cardwords.py): words
     apart by spaces, commas or the variation selector a phone puts after a glyph (♥️), a word's
     cards glued or not (`7h7s`, `8d8d`), suits as letters or glyphs (outlined ones too), a
     joker with what it stands for (`BJ=8h`, `SJ=8`). Each word: {cards: the cards read, each
     {id, decl}, up to where it could not be read; whole: whether the server reads it all}. */
  var SUIT_SPELLINGS = "shdc\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667";
  var RANK_RE = "(10|[2-9tjqka])";
  var CARD_AT = new RegExp("^(?:" + RANK_RE + "([" + SUIT_SPELLINGS + "])|([sb]j)(?:=" +
    RANK_RE + "([" + SUIT_SPELLINGS + "])?)?)", "i");
  function cardWords(text) {
    return text.replace(/[,\ufe0f]/g, " ").split(/\s+/).filter(Boolean).map(function (word) {
      var cards = [];
      while (word) {
        var m = CARD_AT.exec(word);
        if (!m) return { cards: cards, whole: false };  // (`BJ=` half typed: BJ picked)
        if (m[3]) {
          cards.push({ id: cardId(m[3]), decl: m[4] ? m[4] + (m[5] || "") : null });
        } else {
          cards.push({ id: cardId(m[1] + SUITS[SUIT_SPELLINGS.indexOf(m[2].toLowerCase()) % 4]), decl: null });
        }
        word = word.slice(m[0].length);
      }
      return { cards: cards, whole: true };
    });
  }

  /* What a typed play selects, for the picker only: the server reads the notation itself. */
  function parsePlay(text) {
    var out = { ids: [], decl: {} };
    cardWords(text).forEach(function (word) {
      word.cards.forEach(function (c) {
        if (out.ids.indexOf(c.id) < 0) out.ids.push(c.id);
        if (c.decl) out.decl[c.id] = c.decl;
      });
    });
    return out;
  }

  function playText(ids, decl) {
    return ids.slice().sort(function (a, b) { return a - b; }).map(function (id) {
      return cardName(id) + (decl && decl[id] ? "=" + decl[id] : "");
    }).join(" ");
  }

  /* Whether a typed play and a stored one are the same: cards read as the server reads them
     (glued `7h7s` too), or both a pass. What the server cannot read it refused. */
  function samePlay(typed, stored) {
    if (!PASS[typed.toLowerCase()] && cardWords(typed).some(function (w) { return !w.whole; })) return false;
    var mine = PASS[typed.toLowerCase()] ? "pass" : playText(parsePlay(typed).ids);
    var theirs = stored === "pass" ? "pass" : playText(parsePlay(stored).ids);
    return mine === theirs;
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
  /* `onTap(id)` may take a tap for itself (a joker's declaration) by returning true. */
  function Picker(onChange, onTap) {
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
        onclick: function () {
          if (onTap && onTap(id)) return;
          self.toggle(id);
          if (onChange) onChange(self.sel.slice());
        }
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

  function today() {
    var d = new Date();
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
  }

  function initNew() {
    var form = $("new-table");
    if (!form.elements.date.value) form.elements.date.value = today();  // the phone's own day
    // The chosen preset's group names its game and the fields that game takes (the server
    // writes them from the game kinds); the others are hidden and not sent.
    var group = function () {
      var o = form.elements.rules.selectedOptions[0];
      return o ? o.parentNode : null;
    };
    var takes = function (field) {
      var g = group();
      return !!g && (g.getAttribute("data-fields") || "").split(" ").indexOf(field) >= 0;
    };
    var shown = function () {
      Array.prototype.forEach.call(form.querySelectorAll("[data-field]"), function (e) {
        e.classList.toggle("hidden", !takes(e.getAttribute("data-field")));
      });
    };
    form.elements.rules.addEventListener("change", shown);
    shown();
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
      if (group()) body.game = group().getAttribute("data-game");
      if (!takes("options")) delete body.options;
      if (!takes("target")) delete body.target;
      if (form.elements.event.value.trim()) body.event = form.elements.event.value.trim();
      if (form.elements.date.value) body.date = form.elements.date.value.replace(/-/g, ".");
      api("POST", "/api/tables", body).then(function (res) {
        if (!res.ok) { showMessage($("msg"), "error", res.data.code, res.data.message); return; }
        try { localStorage.setItem("zfrec-token:" + res.data.id, res.data.token); } catch (err) { /* */ }
        location.href = "/t/" + res.data.id + "#k=" + res.data.token;
      });
    });
  }

  // the Invite panel of a table's page (a writer's): the join link, Copy, Share, its QR code --

  function invite(box, id, token) {
    box.classList.remove("hidden");
    var link = location.origin + "/t/" + id + "#k=" + token;
    var watch = location.origin + "/t/" + id;
    var details = el("details", null, [el("summary", { text: "Invite: the join link and its QR code" })]);
    var img = el("div", { cls: "qr" });
    var copied = el("span", { cls: "small muted", id: "copied" });
    details.appendChild(img);
    details.appendChild(el("p", { cls: "small" }, [el("span", { text: "Writers (can enter moves): " }),
      el("code", { id: "join-link", cls: "link", text: link })]));
    details.appendChild(el("div", { cls: "row" }, [
      el("button", { type: "button", cls: "btn small", id: "copy-link", text: "Copy", onclick: function () {
        var ok = function () { copied.textContent = "Copied."; };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(link).then(ok, function () { select($("join-link")); });
        } else { select($("join-link")); }
      } }),
      navigator.share ? el("button", { type: "button", cls: "btn small", id: "share-link", text: "Share", onclick: function () {
        navigator.share({ title: document.title, url: link }).catch(function () { /* dismissed */ });
      } }) : null,
      copied
    ]));
    details.appendChild(el("p", { cls: "small" }, [el("span", { text: "Spectators: " }), el("code", { cls: "link", text: watch })]));
    details.addEventListener("toggle", function () {
      if (!details.open || img.firstChild) return;
      fetch("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text: link }) }).then(function (r) { return r.text(); }).then(function (svg) {
        var b64 = btoa(unescape(encodeURIComponent(svg)));
        img.appendChild(el("img", { alt: "QR code of the join link", src: "data:image/svg+xml;base64," + b64 }));
      });
    });
    box.appendChild(details);
  }


  function select(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
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

  // What the table page's script (live-table.js) uses.
  window.zfrecLive = {
    $: $, el: el, clear: clear, keepFocus: keepFocus, cardName: cardName, cardId: cardId, parsePlay: parsePlay, cardWords: cardWords,
    playText: playText, samePlay: samePlay, cardsOf: cardsOf, cardFace: cardFace, cardRow: cardRow, Picker: Picker,
    tokenFor: tokenFor, api: api, showMessage: showMessage, follow: follow, invite: invite, PASS: PASS, SJ: SJ, BJ: BJ
  };

  var page = document.body.getAttribute("data-page");
  if (page === "new") initNew();
  else if (page === "watch") initWatch();
})();
