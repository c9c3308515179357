/* Playing: a move is sent with the number of the move it answers (sent twice, it counts
 * once); the rematch, and following it. */

import { $, clearError, showError } from "./dom.js";
import { app } from "./state.js";
import { api, tablePath } from "./api.js";
import { fragmentFor, loadInvitations, saveInvitations } from "./fragment.js";
import { focusKey, setBusy } from "./focus.js";
import { receiveSnapshot } from "./playback.js";

export async function act(action) {
  if (app.posted !== null || !app.table || app.move === null) return;
  clearError();
  const generation = app.generation;
  // Disabling the buttons below blurs the focused one: remember it for the redraw.
  app.pendingFocus = focusKey(document.activeElement);
  app.posted = app.move;
  setBusy(true);
  const started = performance.now();
  document.body.dataset.sentAt = String(Date.now());
  try {
    // The move number makes a request sent twice count once: the second is refused.
    const body = { action, move: app.move };
    const data = await api("POST", tablePath("/actions", { after: app.received, lang: app.language }), body);
    app.answerMs = performance.now() - started;
    document.body.dataset.answerMs = app.answerMs.toFixed(1);
    if (generation !== app.generation) return;
    receiveSnapshot(data, "post");
  } catch (error) {
    if (generation !== app.generation) return;
    app.posted = null;
    setBusy(false);
    showError(error.message);
    // The table may have moved on: read it again.
    try {
      receiveSnapshot(await api("GET", tablePath("", { after: app.received, lang: app.language })), "poll");
    } catch (again) {
      // The stream brings it when it can.
    }
  }
}

export async function rematch() {
  const button = $("rematch");
  button.disabled = true;
  clearError();
  try {
    const data = await api("POST", tablePath("/rematch"), {});
    follow(String(data.table));
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
  }
}

/** Go to the rematch of this table, at the same seat (the same token holds it there; the
 * invitations of the seats still free invite to it too). */
export function follow(table) {
  const invitations = loadInvitations(app.table);
  if (Object.keys(invitations).length) saveInvitations(table, invitations);
  window.location.hash = fragmentFor(table, app.token);
}
