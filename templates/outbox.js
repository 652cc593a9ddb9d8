/* zfrec live: the outbox of a table's page, shared by Zheng Fen's (live-table.js) and Sheng
   ji's (sj-live-table.js). Every change the page makes (a move, a round or hand start, an undo,
   a mark, a correction) goes into it, with the table version it was made against and a request
   id of its own, and is kept in local storage until the server has answered it: a reload keeps
   it. It is sent in order, one at a time. A failed connection or an answer 5xx (the store
   read-only, locked, full) leaves it there, shown as "not sent, retrying", and it goes again by
   itself: after a wait that grows from a few seconds (RETRY_MS, doubled on each try up to
   RETRY_MAX_MS), at once when the phone is back online or the table's events come again (the
   server is back), and when the page is loaded again. Sent again, the server knows it by its
   request id (`repeated`): none is made twice. An entry the server refuses leaves the outbox,
   with the ones made after it (they depended on it): never sent again as they were; the page
   names them, and again() queues their moves anew, against the table as it is then.

   Two tabs (or windows) of one table on one phone: each has an outbox of its own, stored under
   its own key (`zfrec-outbox:TABLE:tab:TAB`, the tab's id kept in its session storage, so that
   a reload finds it again), which only that tab writes: one tab's save never overwrites what
   another tab typed. They are as two phones: each sends its own entries, made against the table
   it shows. The stored outbox of a tab that is gone (closed, or its page killed) is taken over
   by an open tab of the table, which sends it (the same request ids: what the gone tab sent
   already is answered `repeated`): when a page is loaded, when a tab closes, when a tab comes
   into view or back online. Which tabs are open they tell each other over a BroadcastChannel: a
   tab about to take a stored outbox over names it (`claim`), and the tab that owns it answers
   (`mine`); of two tabs claiming one, the one with the smaller id takes it. A tab finds its own
   stored outbox again on a reload (marked closed as the page went); one not so marked is an
   open tab's (this tab is a copy of it, its session storage copied) or its page was killed:
   the tab takes an id of its own, and claims that outbox as any other.
   Whatever the timing, nothing is lost (an outbox is taken over into the taker's own before it
   is removed) and nothing is entered twice (an entry sent from two tabs carries one request
   id).

   The page gives the hooks: state() (the table shown), inAlready(item, state) (a 409 stale whose
   table's one change is this very entry: it is in), taken(item, res), refused(item, res,
   dropped) and trouble(item, res) (a 5xx with the server's line). Text only by textContent. */
(function () {
  "use strict";

  var Z = window.zfrecLive;
  if (!Z) return;
  var RETRY_MS = 2500, RETRY_MAX_MS = 10000;
  var CLAIM_MS = 500;  // how long a tab waits for an open tab to answer a claim
  // A tap on the spot the last one hit, this soon after it and with nothing typed or picked
  // between, is the second of a double tap, also where the phone counts every tap as one of its
  // own (the click's `detail` always 1: no tap count to tell it).
  var DOUBLE_TAP_MS = 400;
  var SHOWN = { sent: "sent", sending: "sending\u2026", retrying: "not sent, retrying",
    waiting: "waiting to be sent" };

  function newId() { return Date.now().toString(36) + Math.random().toString(36).slice(2, 8); }

  /* This tab's id for the table: kept in session storage (per tab), so a reload is the same
     tab; a new one where there is none. */
  function tabId(table) {
    var key = "zfrec-tab:" + table, id = null;
    try { id = sessionStorage.getItem(key); } catch (e) { /* private mode */ }
    if (!id) {
      id = newId();
      try { sessionStorage.setItem(key, id); } catch (e) { /* private mode */ }
    }
    return id;
  }

  function getItem(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
  function removeItem(key) { try { localStorage.removeItem(key); } catch (e) { /* private mode */ } }
  function parsed(text, empty) {
    try { var v = JSON.parse(text || "null"); return v === null ? empty : v; } catch (e) { return empty; }
  }
  function list(v) { return Array.isArray(v) ? v : []; }
  function made(item) { return parseInt(String(item.uid).split("-")[0], 10) || 0; }  // when it was queued

  function Outbox(id, token, hooks) {
    var self = this;
    this.base = "zfrec-outbox:" + id;  // the one outbox of every tab, before tabs had their own
    this.tabs = this.base + ":tab:";
    this.path = "/api/tables/" + id;
    this.token = token;
    this.hooks = hooks;
    // This tab's stored outbox, as it left it (a reload: marked closed as the page went). One
    // not marked so, even empty, is an open tab's (this tab is a copy of it: its session storage copied),
    // or its page was killed: this tab takes an id of its own, and claims that one as any other.
    this.tab = tabId(id);
    var mine = this.read(this.tabs + this.tab);
    if (getItem(this.tabs + this.tab) !== null && !mine.closed) {
      this.tab = newId();
      try { sessionStorage.setItem("zfrec-tab:" + id, this.tab); } catch (e) { /* private mode */ }
      mine = { items: [], held: [] };
    }
    this.key = this.tabs + this.tab;
    this.items = mine.items;
    this.held = mine.held;  // moves dropped after a refused one, to enter again
    this.wrote = null;  // the uids this tab last stored (gone from storage: taken over)
    this.busy = false;
    this.timer = null;
    this.madeAt = {};  // the version each entry sent made
    this.claims = {};  // key -> {lost}: the stored outboxes this tab is claiming
    this.channel = null;
    // What the user saw when tapping: the table shown at a tap's first touch (its version, and
    // this tab's entries waiting then). A tap the phone counts as part of a double (or triple)
    // tap (the click's `detail`, its tap count) was made from that same view: a first tap's
    // answer shown in between (a fast server) is not what the second was made against.
    this.gesture = null;
    this.tap = null;
    document.addEventListener("click", function (e) { self.tapped(e); }, true);
    // A held key's repeats make no entry: Enter (or Space) held on a control activates it once
    // (its repeats activated it again: an undo, a comment, ... for each repeat answered)
    document.addEventListener("keydown", held, true);
    // cards typed or a seat picked between two taps: the second is a tap of its own
    ["input", "change"].forEach(function (t) {
      document.addEventListener(t, function () { self.gesture = null; }, true);
    });
    this.listen();
    window.addEventListener("online", function () { self.sweep(); self.now(); });
    window.addEventListener("storage", function (e) { self.stored(e); });
    window.addEventListener("pagehide", function () { self.close(); });
    window.addEventListener("pageshow", function (e) {
      if (e.persisted) { self.listen(); self.check(); self.save(); self.sweep(); }
    });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { self.check(); self.sweep(); }
    });
    this.save();  // no longer marked closed
    // a tab that heard this one go (a reload) and claims its outbox: it is this tab's again
    this.post({ t: "mine", key: this.key });
    this.sweep(true);
  }

  /* Hear the other tabs of the table (no channel: every stored outbox found on load is taken). */
  Outbox.prototype.listen = function () {
    var self = this;
    if (this.channel) return;
    try { this.channel = new BroadcastChannel(this.base); } catch (e) { return; }
    this.channel.onmessage = function (e) { self.heard(e.data || {}); };
  };

  /* A stored outbox: {items, held} (`closed` once its tab has gone); the one outbox of every tab
     from before is a list of items, with its held moves under a key of their own. */
  Outbox.prototype.read = function (key) {
    if (key === this.base) {
      return { items: list(parsed(getItem(key), [])), held: list(parsed(getItem(key + ":held"), [])) };
    }
    var rec = parsed(getItem(key), {});
    return { items: list(rec.items), held: list(rec.held), closed: !!rec.closed };
  };

  /* The stored outboxes of this table: every tab's, and the one from before tabs had their own. */
  Outbox.prototype.keys = function () {
    var out = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i);
        if (k && k.indexOf(this.tabs) === 0) out.push(k);
      }
      if (getItem(this.base) !== null || getItem(this.base + ":held") !== null) out.push(this.base);
    } catch (e) { /* private mode */ }
    return out;
  };

  Outbox.prototype.post = function (msg) { if (this.channel) this.channel.postMessage(msg); };

  /* Another tab of the table: it claims a stored outbox (this tab's own: answered `mine`; one
     this tab claims too: the smaller id takes it), or answers a claim. */
  Outbox.prototype.heard = function (msg) {
    if (msg.t === "claim") {
      if (msg.key === this.key) { this.post({ t: "mine", key: msg.key }); return; }
      // two tabs claim one: the smaller id takes it
      if (this.claims[msg.key] && msg.by < this.tab) this.claims[msg.key].lost = true;
    } else if (msg.t === "mine" && this.claims[msg.key]) {
      this.claims[msg.key].lost = true;
    }
  };

  /* Look for the stored outboxes of tabs that are gone and take them over: each is claimed,
     and taken unless its tab (open) or a tab with a smaller id (taking it too) answers. */
  Outbox.prototype.sweep = function (start) {
    var self = this;
    if (this.sweeping) { this.more = true; return; }  // looked for again once this look is over
    // a page without the writer token sends nothing: it leaves the outboxes to a writer's tab
    var keys = !this.token ? [] : this.keys().filter(function (k) { return k !== self.key; });
    // without a channel no tab can answer: only a page loaded takes outboxes over
    if (!keys.length || (!this.channel && !start)) return;
    this.sweeping = true;
    keys.forEach(function (k) {
      self.claims[k] = { lost: false };
      self.post({ t: "claim", key: k, by: self.tab });
    });
    setTimeout(function () {
      var claims = self.claims;
      self.claims = {};
      self.sweeping = false;
      self.adopt(keys.filter(function (k) { return !claims[k].lost; }));
      if (self.more) { self.more = false; self.sweep(); }
    }, this.channel ? CLAIM_MS : 0);
  };

  /* Take the stored outboxes of gone tabs over: their entries go after this tab's (in the
     order they were made), stored here first, then their keys removed. */
  Outbox.prototype.adopt = function (keys) {
    var self = this, found = [];
    keys.forEach(function (k) {
      var rec = self.read(k);
      if (rec.items.length || rec.held.length) found.push(rec);
    });
    // a gone tab's with nothing in it (its page killed): removed, not left to grow the storage
    if (!found.length) { keys.forEach(function (k) { self.drop(k); }); return; }
    found.sort(function (a, b) { return (a.items.length ? made(a.items[0]) : 0) - (b.items.length ? made(b.items[0]) : 0); });
    var have = {};
    this.items.forEach(function (it) { have[it.uid] = true; });
    found.forEach(function (rec) {
      rec.items.forEach(function (it) { if (!have[it.uid]) { have[it.uid] = true; self.items.push(it); } });
      self.held = self.held.concat(rec.held);
    });
    this.save();
    keys.forEach(function (k) { self.drop(k); });
    if (this.hooks.again) this.hooks.again();  // the page shows them (Sheng ji's felt: plays waiting)
    this.render();
    this.pump();
  };

  Outbox.prototype.drop = function (key) {
    removeItem(key);
    if (key === this.base) removeItem(key + ":held");
  };

  /* Whether this tab's stored outbox was taken over while it slept (a phone's background tab
     can be frozen, and taken for gone): the entries it had stored are the taker's now. */
  Outbox.prototype.check = function () {
    var wrote = this.wrote;
    if (!wrote || getItem(this.key) !== null) return;
    this.wrote = null;
    this.items = this.items.filter(function (it) { return wrote.indexOf(it.uid) < 0; });
    this.held = [];
    this.write();  // stored again, open: a copy of this tab takes an id of its own
    this.render();
    // the page shows what it still has (a start's button that said it waited, plays waiting)
    if (this.hooks.again) this.hooks.again();
  };

  /* Another tab closed with entries not yet answered: take them over (one open tab does). */
  Outbox.prototype.stored = function (e) {
    if (e.key === this.key) { this.check(); return; }
    if (!e.key || e.key.indexOf(this.tabs) !== 0 || !e.newValue) return;
    if (parsed(e.newValue, {}).closed) this.sweep();
  };

  /* The tab goes (closed, reloaded, left): its stored outbox is marked so that an open tab
     takes it over (a reload of this tab finds it again first). */
  Outbox.prototype.close = function () {
    // gone: it no longer answers claims (its outbox is an open tab's to take)
    if (this.channel) { this.channel.close(); this.channel = null; }
    this.check();
    this.save(true);
  };

  Outbox.prototype.save = function (closed) {
    this.check();
    this.write(closed);
  };

  /* Store this tab's outbox. Sent entries are shown once, then forgotten; waiting ones survive
     a reload. A writer's open tab stores its outbox even empty: a tab opened as a copy of it
     (its session storage, and so its id, copied) finds it open and takes an id of its own;
     else the two tabs wrote one key, each overwriting the other's entries. Closed and empty,
     it is removed (a gone tab's left by a killed page is removed by the tab that claims it). */
  Outbox.prototype.write = function (closed) {
    var waiting = this.waiting();
    try {
      if (!waiting.length && !this.held.length && (closed || !this.token)) {
        localStorage.removeItem(this.key);
        this.wrote = null;
      } else {
        var rec = { items: waiting, held: this.held };
        if (closed) rec.closed = true;
        localStorage.setItem(this.key, JSON.stringify(rec));
        this.wrote = waiting.map(function (it) { return it.uid; });
      }
    } catch (e) { /* private mode */ }
  };

  Outbox.prototype.waiting = function () {
    return this.items.filter(function (it) { return it.status !== "sent"; });
  };

  /* A key held down: its repeats (`repeat`) do nothing where they would activate a control
     again (Enter anywhere but a text area, Space on a control that is no text field). Pressed
     again, the key works as ever. */
  function held(e) {
    if (!e.repeat || (e.key !== "Enter" && e.key !== " ")) return;
    var t = e.target, tag = t && t.tagName ? t.tagName.toLowerCase() : "";
    if (tag === "textarea" || t.isContentEditable) return;
    var text = tag === "select" || (tag === "input" && !/^(button|submit|reset|checkbox|radio|image)$/i.test(t.type || ""));
    if (e.key === " " && text) return;
    e.preventDefault();
  }

  /* A click, heard before the page's own handlers: the first of a gesture (`detail` 0 or 1: a
     key, or a tap the phone counts as a new one) notes the table shown, the entries waiting and
     the spot tapped (the control's box); a second or third tap of it (`detail` 2, 3) on that
     spot is made from that view, whatever the first tap's answer put there (Yes, then "Not so:
     undo"), unless something was typed or picked in between (a tap of its own). The phone
     counts a quick tap near the last as its second (on a phone, the next button too): a tap
     off the first's control (Play, then Pass) is a tap of its own. A phone that counts every
     tap as a new one (`detail` 1) gives no tap count: a tap on that spot within DOUBLE_TAP_MS
     of the last is taken as its second all the same. */
  Outbox.prototype.tapped = function (e) {
    var self = this, g = this.gesture, now = Date.now();
    var on = !!g && e.clientX >= g.box.left && e.clientX <= g.box.right &&
      e.clientY >= g.box.top && e.clientY <= g.box.bottom;
    var counted = e.detail >= 2 || (e.detail === 1 && !!g && now - g.last <= DOUBLE_TAP_MS);
    if (on && counted) {
      // (a copy: the entries this one click queues, Enter again's several, count for the next)
      this.tap = { version: g.version, ahead: g.ahead.slice() };
      g.last = now;  // a third tap as quick is one of them too
    } else {
      this.tap = null;
      var spot = e.target.closest ? e.target.closest("button, a, summary, label") || e.target : e.target;
      this.gesture = { version: this.hooks.state().version, box: spot.getBoundingClientRect(),
        ahead: this.waiting().map(function (it) { return it.uid; }), last: now };
    }
    setTimeout(function () { self.tap = null; }, 0);  // this click's handlers have run
  };

  /* Put a change in the outbox, made against the version the table will have when the entries
     before it are in (each accepted change adds one), or against `version` where given (a move
     asked about first is made against the table as it was then). A change tapped as the second
     tap of a double tap is made against the table the first tap saw, with the entries that
     waited then: where the first tap's change went in meanwhile, the server refuses it as
     stale, and nothing is entered twice (whatever the tap, Undo, Pass, Play). */
  Outbox.prototype.queue = function (path, body, label, extra, version) {
    // An undo waiting is the undo a second tap meant (a double tap on Undo, or Undo tapped
    // again before the first is answered): one undo, not two. Once it is in, Undo undoes more.
    if (path === "/undo" && this.has("/undo")) return false;
    if (this.second(path, body)) return false;
    var state = this.hooks.state();
    var tap = version === undefined ? this.tap : null;
    // Made against the table shown, with the entries ahead of it in: their count is settled
    // when it is sent (one ahead that was in already, its answer lost, is in what is shown).
    var base = version !== undefined ? version : tap ? tap.version : state.version;
    var ahead = version !== undefined ? [] : tap ? tap.ahead.slice() : this.waiting().map(function (it) { return it.uid; });
    body.version = base + ahead.length;
    // An undo or a mark leaves no move of its own to find if its answer is lost: the entry
    // count it was made at tells (Zheng Fen's pages from before request ids).
    if (!extra && (path === "/undo" || path === "/marks" || path === "/edit")) extra = { entries: this.entriesAhead() };
    var uid = Date.now() + "-" + Math.random().toString(36).slice(2);
    // Its request id: sent again (its answer lost), the server knows it and answers it as
    // taken, without making it twice; a 409 stale then means it was not made.
    body.request_id = uid;
    var item = { uid: uid, base: base, ahead: ahead,
      path: path, body: body, label: label, status: "waiting", extra: extra || null };
    if (tap && tap.version !== state.version) item.repeat = true;  // a double tap's second, the table on since
    if (tap) tap.ahead.push(uid);
    this.items = this.waiting().concat([item]);
    this.save();
    this.render();
    this.pump();
    return true;
  };

  /* The moves (plays, bids, ...) that left the outbox after a refused one, kept (`held`,
     shown under the outbox as not sent) until the player queues them again with one tap (as
     they were made: seat and cards, nothing retyped; now against the table as it is, with the
     entries ahead of them, under new request ids) or lets them go. An undo, a mark, a
     correction or a start is not kept: what it meant depends on the table. */
  Outbox.prototype.again = function () {
    var self = this, held = this.held;
    this.held = [];
    this.save();
    held.forEach(function (it) {
      var body = JSON.parse(JSON.stringify(it.body));
      delete body.version;
      delete body.request_id;
      self.queue(it.path, body, it.label, null);
    });
    this.render();
    if (this.hooks.again) this.hooks.again();
  };

  Outbox.prototype.forget = function () {
    this.held = [];
    this.save();
    this.render();
  };

  /* What the page says of the entries that left the outbox after a refused one (`dropped`,
     the refused one first): named; their moves are kept under the outbox to enter again. Null
     where none were made after it. */
  Outbox.prototype.droppedNote = function (dropped) {
    var later = dropped.slice(1);
    if (!later.length) return null;
    var kept = later.some(function (it) { return it.path === "/moves"; });
    return Z.el("div", { cls: "small dropped", text: "Also not sent (made after it): " +
      later.map(function (it) { return it.label; }).join("; ") + (kept ? " (kept below: Enter again sends them)." : ".") });
  };

  /* The table's entry count once the outbox's changes are in; null where a correction makes
     it unknown. A move (with any passes it implies) or a hand or round start is one entry. */
  Outbox.prototype.entriesAhead = function () {
    var n = this.hooks.state().entries, items = this.waiting();
    for (var i = 0; i < items.length; i++) {
      var p = items[i].path;
      if (p === "/moves" || p === "/hands") n += 1;
      else if (p === "/undo") n -= 1;
      else if (p === "/edit") return null;
    }
    return n;
  };

  /* Whether this change is a second tap on what waits already, and so nothing to queue: a hand
     or round start while one waits (the server refuses a second), or a pass by the seat whose
     pass is the last entry waiting (a double tap on Pass; the second pass, sent, was entered
     for the next seat). As with Undo: once the first is in, the button does its work again. */
  Outbox.prototype.second = function (path, body) {
    if (path === "/hands") return this.has("/hands");
    var items = this.waiting(), last = items[items.length - 1];
    return path === "/moves" && body.play === "-" && !!last && last.path === "/moves" &&
      last.body.play === "-" && last.body.seat === body.seat;
  };

  /* Whether an entry of this path waits (a round start tapped twice is one round start). */
  Outbox.prototype.has = function (path) {
    return this.waiting().some(function (it) { return it.path === path; });
  };

  Outbox.prototype.pump = function () {
    var self = this;
    if (this.busy || !this.token) return;
    var item = this.waiting()[0];
    if (!item) return;
    if (item.ahead) {  // the entries ahead are answered: those made after `base` count
      item.body.version = item.base + item.ahead.filter(function (u) { return !(self.madeAt[u] <= item.base); }).length;
      item.ahead = null;
      this.save();
    }
    this.busy = true;
    if (item.status !== "retrying") item.status = "sending";  // a retry stays shown as not sent
    this.render();
    Z.api("POST", this.path + item.path, item.body, this.token).then(function (res) {
      self.busy = false;
      // taken over by another tab meanwhile (this one slept): that tab sends it, and sees to it
      if (self.items.indexOf(item) < 0) { self.pump(); return; }
      self.answered(item, res);
    }, function () {
      self.busy = false;
      if (self.items.indexOf(item) < 0) { self.pump(); return; }
      self.retry(item);
    });
  };

  /* Not sent, or its answer lost: kept, and sent again after a wait that grows. */
  Outbox.prototype.retry = function (item) {
    var self = this;
    item.status = "retrying";
    item.tries = (item.tries || 0) + 1;
    this.save();
    this.render();
    if (this.timer) return;
    var wait = Math.min(RETRY_MS * Math.pow(2, item.tries - 1), RETRY_MAX_MS);
    this.timer = setTimeout(function () { self.timer = null; self.pump(); }, wait);
  };

  /* Send now what waits for a retry: the phone is back online, or the server is back. */
  Outbox.prototype.now = function () {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.pump();
  };

  Outbox.prototype.answered = function (item, res) {
    var d = res.data || {};
    var stale = res.status === 409 && d.code === "stale";
    if (res.ok || (stale && d.state && this.hooks.inAlready(item, d.state))) {
      this.madeAt[item.uid] = res.ok ? d.repeated || d.version : d.state.version;
      item.status = "sent";
      this.save();
      this.hooks.taken(item, res);
      this.render();
      this.pump();
      return;
    }
    if (res.status >= 500 || res.status === 0) {  // the server is in trouble: try again later
      // Its one line says why (the store read-only, locked, full): someone can see to it.
      if (d.message) item.trouble = true;
      this.retry(item);
      if (d.message) this.hooks.trouble(item, res);
      return;
    }
    // Refused: this entry and the ones made after it (against positions that now will not
    // come) leave the outbox, never to be sent again; the page says why.
    var dropped = this.waiting();
    this.items = [];
    this.save();
    // the moves made after it are kept, not sent: the player enters them again with one tap
    this.held = this.held.concat(dropped.slice(1).filter(function (it) { return it.path === "/moves"; }));
    this.save();
    this.hooks.refused(item, res, dropped);
    this.render();
  };

  Outbox.prototype.render = function () {
    var box = Z.$("outbox");
    var items = this.items;
    if (box) {
      // the control that had the focus (the count, Enter again, Let go) has it again: drawn
      // anew on every change and retry, else the focus went to the page's top (a keyboard or a
      // screen reader lost its place every few seconds while offline)
      var focused = document.activeElement, again = null;
      if (focused && focused.id && box.contains(focused)) again = focused.id;
      Z.clear(box);
      items.filter(function (it, i) { return it.status !== "sent" || i === items.length - 1; }).forEach(function (it) {
        box.appendChild(Z.el("div", { cls: "out " + it.status, "data-status": it.status },
          [Z.el("span", { cls: "what", text: it.label }), Z.el("span", { cls: "state", text: SHOWN[it.status] })]));
      });
      this.renderHeld(box);
      var back = again && Z.$(again);
      if (back) back.focus();
    }
    document.body.setAttribute("data-outbox", String(this.waiting().length));
  };

  /* The moves dropped after a refused one, not sent, with Enter again and Let go: one line in
     the dock over the cards (their count), listed when the count is tapped (listed one a line,
     they took some 110 px of a phone's screen). */
  Outbox.prototype.renderHeld = function (box) {
    var self = this;
    if (!this.held.length || !this.token) return;
    var tapped = false;  // a double tap queues them once
    var n = this.held.length;
    var listed = Z.el("details", { cls: "grow", open: !!this.heldOpen }, [
      Z.el("summary", { cls: "small", id: "held-count", title: "made after an entry that was refused",
        text: n + (n === 1 ? " move" : " moves") + " not sent" })
    ].concat(this.held.map(function (it) {
      return Z.el("div", { cls: "out dropped", "data-status": "dropped" },
        [Z.el("span", { cls: "what", text: it.label }), Z.el("span", { cls: "state", text: "not sent" })]);
    })));
    listed.addEventListener("toggle", function () { self.heldOpen = listed.open; });
    box.appendChild(Z.el("div", { cls: "held", id: "held" }, [listed,
      Z.el("button", { type: "button", cls: "btn small primary", id: "again-btn", text: "Enter again",
        onclick: function () { if (!tapped) { tapped = true; self.again(); } } }),
      Z.el("button", { type: "button", cls: "btn small", id: "forget-btn", text: "Let go",
        onclick: function () { if (!tapped) { tapped = true; self.forget(); } } })
    ]));
  };

  /* What a page says of a double tap's second tap refused as stale: made from the table the
     first tap saw, which has changed since (the first tap's entry, or another phone's, went
     in); nothing was entered for it. */
  Z.repeatText = function (item) {
    var why = "a double tap's second tap, made before the table last changed";
    if (item.path === "/undo") return "Not undone: " + why + ". Tap Undo again to undo one more.";
    if (item.path === "/hands") return "Not started: " + item.label + ", " + why + ".";
    if (item.path === "/marks") return "Not marked: " + item.label + ", " + why + ".";
    return "Not entered: " + item.label + ", " + why + ". Tap again if it is meant.";
  };

  Z.Outbox = Outbox;
})();
