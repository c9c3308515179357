/* The whole redraw of the game screen from the state, the focus kept. */

import { app, isBusy } from "./state.js";
import { focusKey, restoreFocus, setBusy } from "./focus.js";
import { renderRows } from "./rows.js";
import { renderControls, renderHand, renderMoveList } from "./hand.js";
import { renderHint } from "./hint.js";
import { renderPlayers } from "./players.js";
import { renderGameOver, renderNotices, renderPiles, renderShare, renderStatus } from "./panels.js";

export function render() {
  const key = focusKey(document.activeElement) || app.pendingFocus;
  app.pendingFocus = null;
  renderStatus();
  renderPiles();
  renderGameOver();
  renderNotices();
  renderShare();
  renderRows();
  renderHand();
  renderControls();
  renderMoveList();
  renderHint();
  renderPlayers();
  setBusy(isBusy());
  restoreFocus(key);
  app.renders += 1;
  document.body.dataset.renders = String(app.renders);
  document.body.dataset.phase = app.view ? app.view.phase : "";
  document.body.dataset.move = app.move === null ? "" : String(app.move);
  document.body.dataset.events = String(app.doc ? app.doc.next_event : 0);
}
