(function () {
  "use strict";
  // The move list of a replay page, for any game (Zheng Fen's replay.js, Sheng ji's
  // sj_replay.js): fitted to the screen and scrolled to the current move.

  // The current move `b` brought into the list's view (a little of its neighbours with it).
  function scroll(list, b) {
    var top = b.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top - 24;
    else if (top + b.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + b.offsetHeight - list.clientHeight + 24;
    }
  }

  // On a narrow screen the list takes the height left above the sticky controls, so the
  // board, the hand to play and the current move are on the screen together; what is above
  // the list changes height from step to step, so it is fitted at every step. Beside the board
  // the side column is sticky: the list (52vh at most) ends above the controls however tall
  // "At this move" is, or its current move could not be seen. Then `current` (the current
  // move's button, if any) is scrolled into the list's view.
  var narrow = window.matchMedia("(max-width: 900px)");
  function fit(list, current) {
    var controls = document.querySelector(".controls").offsetHeight;
    if (!narrow.matches) {
      list.style.maxHeight = "";
      var room = window.innerHeight - controls - list.getBoundingClientRect().top - 12;
      if (room < list.clientHeight) list.style.maxHeight = Math.max(120, room) + "px";
    } else {
      var top = list.getBoundingClientRect().top + window.scrollY;
      list.style.maxHeight = Math.max(64, window.innerHeight - controls - top - 8) + "px";
    }
    if (current) scroll(list, current);
  }

  // A keyboard reader in the list (a move's button focused) who steps with the arrows, Enter on
  // another move or the controls' keys keeps their place: the focus goes to the current move,
  // found by its step index (a move's text can repeat), so that Enter, Tab and the arrows go on
  // from there rather than from a move left behind.
  function keepFocus(list, step) {
    var had = document.activeElement;
    if (!had || !list.contains(had) || !had.classList.contains("mv")) return;
    var b = list.querySelector('.mv[data-step="' + step + '"]');
    if (b && b !== had) b.focus({ preventScroll: true });
  }

  window.zfMoveList = { fit: fit, scroll: scroll, keepFocus: keepFocus };
})();
