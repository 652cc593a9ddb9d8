(function () {
  "use strict";
  // The move list of a replay page, for any game (Zheng Fen's replay.js, Sheng ji's
  // sj_replay.js): fitted to the screen and scrolled to the current move.
  var narrow = window.matchMedia("(max-width: 900px)");

  // the top of a move's line: its trick's title where the move is on the trick's first line
  function lineTop(b) {
    var group = b.parentNode.parentNode, title = group.previousElementSibling;
    var first = group.querySelector(".mv");
    return title && first && first.offsetTop >= b.offsetTop - 2 ? title.offsetTop : b.offsetTop;
  }

  // The current move `b` brought into the list's view (a little of its neighbours with it).
  // On a narrow screen, where the list writes a trick a line (replay.css), the current move's
  // line is the list's second, under the whole line before it (or its first, where the list
  // has room for one line only): no line is cut at the top, and the list moves a line at a time.
  function scroll(list, b) {
    var top = b.offsetTop - list.offsetTop;
    if (narrow.matches) {
      var above = null, all = list.querySelectorAll(".mv");
      for (var k = 0; k < all.length && all[k] !== b; k++) {
        if (all[k].offsetTop < b.offsetTop - 2) above = all[k];
      }
      var line = above ? Math.min(above.offsetTop, lineTop(above)) - list.offsetTop : top;
      if (top + b.offsetHeight - line > list.clientHeight) line = Math.min(top, lineTop(b) - list.offsetTop);
      list.scrollTop = Math.max(0, line - 2);
      return;
    }
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
  var autoY = 0; // where fit() last left the page's scroll, on a narrow screen
  function fit(list, current) {
    var controls = document.querySelector(".controls").offsetHeight;
    var shown = list.getClientRects().length > 0, notes = document.getElementById("notes");
    if (!narrow.matches) {
      if (notes) notes.style.minHeight = "";
      if (!shown) return;
      list.style.maxHeight = "";
      var room = window.innerHeight - controls - list.getBoundingClientRect().top - 12;
      if (room < list.clientHeight) list.style.maxHeight = Math.max(120, room) + "px";
    } else {
      // On a phone the list, or "At this move" with its tab open, reaches down to the controls:
      // the list no further (its current move above them), the notes at least so far (short
      // notes ended the page above the screen's foot, and the controls rose with it, away from
      // the reader's finger). A hidden list is fitted when its tab is opened again.
      // Where the table and the hand to play leave the panel less than its least height above
      // the controls (a trick's last play under a tall table), the page moves up by what is
      // missing, as far as the felt's top, so the current move is seen without scrolling the
      // page by hand; at a step with room it moves back. A page the reader scrolled is theirs,
      // but at its top, where it rests (a reader back there to see the seats above the felt).
      var box = shown ? list : notes;
      if (!box || !box.getClientRects().length) return;
      var least = 64, felt = document.getElementById("felt");
      var top = box.getBoundingClientRect().top + window.scrollY;
      if (window.scrollY < 2 || Math.abs(window.scrollY - autoY) < 2) {
        var need = top + least + 8 + controls - window.innerHeight;
        var cap = felt ? felt.getBoundingClientRect().top + window.scrollY - 8 : 0;
        var want = Math.max(0, Math.min(need, cap));
        if (want !== window.scrollY) window.scrollTo(0, want);
        autoY = window.scrollY;
        top -= autoY;
      }
      var height = Math.max(least, window.innerHeight - controls - top - 8) + "px";
      if (shown) list.style.maxHeight = height;
      else box.style.minHeight = height;
    }
    if (current && shown) scroll(list, current);
  }

  // The previous trick, opened on the felt, brought into view (its scroll margin keeps it clear
  // of the controls) and the list fitted under it. A page at rest stays the list's to move
  // (scrolling it here made it the reader's, and the list, pushed down, ran under the controls).
  function reveal(box, list, current) {
    var rest = window.scrollY < 2 || Math.abs(window.scrollY - autoY) < 2;
    box.scrollIntoView({ block: "nearest" });
    if (rest) autoY = window.scrollY;
    fit(list, current);
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

  window.zfMoveList = { fit: fit, scroll: scroll, keepFocus: keepFocus, reveal: reveal };
})();
