(function () {
  "use strict";
  // The step controls of a replay page, for any game: the buttons, slider, position, speed and
  // jump menu of controls.html.j2, the keyboard (← → step, Shift for a jump, Home, End, Space
  // for autoplay), a swipe on the board (touch), the address's #step=N, and the "link to this
  // step". The game's own script draws a step; this one decides which step is shown.
  var STEP_MS = 1400; // one step at speed 1×

  function $(id) { return document.getElementById(id); }

  // opts: count (steps), draw(i), jumps ([[step, title], ...], ascending), onGo(i) (after a
  // step is drawn: the move list's current entry, say), swipe (the element a swipe steps on).
  function stepper(opts) {
    var count = opts.count, jumps = opts.jumps || [], cur = -1, timer = null;

    function go(i, fromHash) {
      i = Math.max(0, Math.min(count - 1, i | 0));
      if (i !== cur) {
        cur = i;
        opts.draw(i);
        if (opts.onGo) opts.onGo(i);
      }
      $("slider").value = cur;
      // Steps count from 0, the deal, as the address does: "#step=40" is "step 40".
      $("pos").textContent = "step " + cur + " / " + (count - 1);
      document.body.setAttribute("data-step", cur);
      $("first").disabled = $("prev").disabled = cur === 0;
      $("last").disabled = $("next").disabled = cur === count - 1;
      var j = 0;
      for (var k = 0; k < jumps.length; k++) if (jumps[k][0] <= cur) j = k;
      if (jumps.length) $("jump").selectedIndex = j;
      var h = "#step=" + cur;
      var share = $("share");
      if (share) { share.href = location.search + h; share.hidden = false; }
      if (!fromHash && location.hash !== h) {
        try { history.replaceState(null, "", h); } catch (e) { location.hash = h; }
      }
    }
    function fromHash() {
      var m = /(?:^#|&)step=(\d+)$/.exec(location.hash);
      return m ? +m[1] : 0;
    }
    function jump(dir) {
      var target = dir > 0 ? count - 1 : 0;
      for (var k = 0; k < jumps.length; k++) {
        var at = jumps[dir > 0 ? k : jumps.length - 1 - k][0];
        if (dir > 0 ? at > cur : at < cur) { target = at; break; }
      }
      go(target);
    }

    // --- autoplay, with its speed
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
      if (cur >= count - 1) { stop(); return; }
      go(cur + 1);
      if (cur >= count - 1) stop();
      else timer = setTimeout(tick, STEP_MS / speed());
    }
    function play() {
      if (cur >= count - 1) go(0);
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
    $("slider").max = count - 1;
    $("first").addEventListener("click", function () { go(0); });
    $("prev").addEventListener("click", function () { go(cur - 1); });
    $("next").addEventListener("click", function () { go(cur + 1); });
    $("last").addEventListener("click", function () { go(count - 1); });
    $("slider").addEventListener("input", function () { go(+$("slider").value); });
    var sel = $("jump");
    while (sel.firstChild) sel.removeChild(sel.firstChild);
    jumps.forEach(function (j) {
      var o = document.createElement("option");
      o.textContent = j[1];
      o.value = j[0];
      sel.appendChild(o);
    });
    sel.addEventListener("change", function () { go(+sel.value); });
    window.addEventListener("hashchange", function () { go(fromHash(), true); });
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      var handled = true;
      if (e.key === "ArrowRight") { if (e.shiftKey) jump(1); else go(cur + 1); }
      else if (e.key === "ArrowLeft") { if (e.shiftKey) jump(-1); else go(cur - 1); }
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(count - 1);
      else if (e.key === " " && tag !== "BUTTON" && tag !== "A") toggle();
      else handled = false;
      if (handled) e.preventDefault();
    });
    // a horizontal swipe on the board steps: left for the next step, right for the one before
    if (opts.swipe) {
      var x0 = null, y0 = null;
      opts.swipe.addEventListener("touchstart", function (e) {
        if (e.touches.length !== 1) { x0 = null; return; }
        x0 = e.touches[0].clientX;
        y0 = e.touches[0].clientY;
      }, { passive: true });
      opts.swipe.addEventListener("touchend", function (e) {
        if (x0 === null || !e.changedTouches.length) return;
        var dx = e.changedTouches[0].clientX - x0, dy = e.changedTouches[0].clientY - y0;
        x0 = null;
        if (Math.abs(dx) > 48 && Math.abs(dx) > 2 * Math.abs(dy)) go(cur + (dx < 0 ? 1 : -1));
      }, { passive: true });
    }
    return {
      go: go,
      current: function () { return cur; },
      start: function () { go(fromHash(), true); },
    };
  }

  window.zfStepper = stepper;
})();
