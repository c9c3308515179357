/* The focus after a redraw (the same control, else the first move), and the controls
 * disabled while a move is on its way. */

import { $ } from "./dom.js";
import { app, isOver, myTurn } from "./state.js";

export function focusKey(node) {
  return node && node.dataset ? node.dataset.focus || null : null;
}

/** After a redraw, give the focus back to the same control, or to the first move. */
export function restoreFocus(key) {
  const parked = document.activeElement === $("dock-title") && key === null;
  if (parked && myTurn()) key = "dock"; // the focus waited there for this seat's turn
  else if (document.activeElement && document.activeElement !== document.body) return;
  if (key === null) return;
  const same = document.querySelector(`[data-focus="${CSS.escape(key)}"]:not([disabled])`);
  // After a mouse or touch click, do not scroll the page to the new focus.
  const options = { preventScroll: app.pointer };
  if (same) {
    same.focus(options);
  } else if (isOver()) {
    $("gameover-title").focus(options);
  } else {
    const first = document.querySelector(
      "#controls button:not([disabled]), #hand button:not([disabled]), #rows button:not([disabled])",
    );
    (first || $("dock-title")).focus(options);
  }
}

export function setBusy(busy) {
  document.body.dataset.busy = String(busy);
  $("game").setAttribute("aria-busy", String(busy));
  for (const button of document.querySelectorAll("#game [data-action]")) {
    button.disabled = busy || button.dataset.enabled !== "true";
  }
}
