(function () {
  "use strict";
  // The single-file viewer: the hand arrives in the address's fragment (#z=…, deflated JSON in
  // base64url; #j=… plain JSON), is checked here for the shape the replay script expects, and
  // is drawn by it (text only). A crafted link can show nonsense, never run anything.
  var zf = window.zfReplay;
  var FSI = "\u2068", PDI = "\u2069";
  var TABLE_KEYS = ["counts", "places", "captured", "points", "totals"];
  function $(id) { return document.getElementById(id); }
  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }
  function fail(why) { throw new Error(why); }
  function isInt(v) { return typeof v === "number" && Math.floor(v) === v; }
  function isCards(v) {
    return typeof v === "string" && v.length <= 54 && /^[0-9a-zA-R]*$/.test(v);
  }
  function check(data) {
    if (!data || typeof data !== "object" || data.v !== 2) fail("not a hand of this version");
    var p = data.players;
    if (!Array.isArray(p) || p.length < 2 || p.length > 8) fail("no players");
    p.forEach(function (x) { if (typeof x !== "string") fail("a name is not text"); });
    if (!Array.isArray(data.plays) || !Array.isArray(data.steps) || !data.steps.length) fail("no steps");
    data.plays.forEach(function (play) {
      if (!play || !isInt(play.seat) || play.seat < 0 || play.seat >= p.length || !isCards(play.cards)) fail("a bad play");
      if (has(play, "reading") && typeof play.reading !== "string") fail("a bad reading");
      if (has(play, "jokers") && !Array.isArray(play.jokers)) fail("bad jokers");
      (play.jokers || []).forEach(function (j) {
        if (!Array.isArray(j) || (j[0] !== 52 && j[0] !== 53) || typeof j[1] !== "string") fail("a bad joker");
      });
    });
    var seen = {};
    data.steps.forEach(function (st, i) {
      if (!st || typeof st.kind !== "string" || typeof st.headline !== "string" || !Array.isArray(st.log)) fail("a bad step");
      st.log.forEach(function (k) { if (!isInt(k) || k < 0 || k >= data.plays.length) fail("a bad log"); });
      TABLE_KEYS.concat(["hands"]).forEach(function (k) {
        if (has(st, k)) seen[k] = true;
        else if (i === 0) fail("the first step lacks " + k);
      });
      if (i === 0 && (!Array.isArray(st.hands) || st.hands.length !== p.length)) fail("bad hands");
      var hands = i === 0 ? st.hands : st.hands ? Object.keys(st.hands).map(function (s) {
        if (!/^\d$/.test(s) || +s >= p.length) fail("a bad seat");
        return st.hands[s];
      }) : [];
      hands.forEach(function (h) { if (h !== null && !isCards(h)) fail("a bad hand"); });
      ["counts", "points", "totals"].forEach(function (k) {
        if (has(st, k) && (!Array.isArray(st[k]) || st[k].length !== p.length || !st[k].every(isInt))) fail("bad " + k);
      });
      if (has(st, "places") && (!Array.isArray(st.places) || st.places.length !== p.length)) fail("bad places");
      if (has(st, "captured") && (!Array.isArray(st.captured) || !st.captured.every(isCards))) fail("bad captures");
      ["trick", "seat", "top", "to_act"].forEach(function (k) {
        if (has(st, k) && st[k] !== null && !isInt(st[k])) fail("bad " + k);
      });
      ["seat", "to_act"].forEach(function (k) { if (has(st, k) && (st[k] < 0 || st[k] >= p.length)) fail("bad " + k); });
      if (has(st, "top") && (st.top < 0 || st.top >= st.log.length)) fail("bad top");
      ["comments", "diagnostics", "notes"].forEach(function (k) { if (has(st, k) && !Array.isArray(st[k])) fail("bad " + k); });
      if (has(st, "won") && (!Array.isArray(st.won) || !isInt(st.won[0]) || !isCards(st.won[2]))) fail("bad won");
      if (has(st, "transfer") && (typeof st.transfer !== "object" || !isCards(st.transfer.trick_cards) || !isCards(st.transfer.hand_cards))) fail("bad transfer");
    });
    return data;
  }

  function fromBase64Url(text) {
    var s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  function showError(text) {
    var box = $("viewer-help");
    if (box) {
      box.hidden = false;
      var msg = $("viewer-error");
      msg.textContent = text;
      msg.hidden = !text;
    }
  }

  // --- start from the fragment ---------------------------------------------------------------
  var m = /^#([zj])=([A-Za-z0-9_-]+)/.exec(location.hash);
  $("viewer-open").addEventListener("click", function () {
    var v = $("viewer-link").value.trim();
    var at = v.indexOf("#");
    if (at >= 0 && /^#[zj]=/.test(v.slice(at))) {
      location.hash = v.slice(at);
      location.reload();
    } else {
      showError("That is not a link to a hand: it has no #z=… part.");
    }
  });
  if (!m) { showError(""); return; }
  var bytes;
  try { bytes = fromBase64Url(m[2]); } catch (e) { showError("This link is damaged: " + e.message); return; }
  var got = m[1] === "j" ? Promise.resolve(bytes)
    : typeof DecompressionStream === "undefined" ? Promise.reject(new Error("this browser cannot unpack it"))
      : zf.pipe(bytes, new DecompressionStream("deflate-raw"));
  got.then(function (plain) {
    var text = new TextDecoder("utf-8", { fatal: true }).decode(plain);
    var data = check(JSON.parse(text));
    document.title = data.title ? data.title + " · hand viewer" : document.title;
    $("viewer-title").textContent = typeof data.title === "string" ? data.title : "A hand";
    $("viewer-meta").textContent = (typeof data.meta === "string" ? data.meta + " — " : "") + players(data);
    zf.start(zf.expand(data), null, m[1] + "=" + m[2]);
  }).catch(function (e) {
    showError("This link does not hold a hand this viewer can show (" + e.message + ").");
  });
  function players(data) { return data.players.map(function (p) { return FSI + p + PDI; }).join(" · "); }
})();
