/* Opening a table (from the address, a new game, the lobby or a rematch) and going back
 * to the start screen. */

import { $, clearError, setText, showError } from "./dom.js";
import { app, freshTableState, later, leaveTable } from "./state.js";
import { t } from "./phrases.js";
import { api, tablePath } from "./api.js";
import { forgetSharedTokens, fragmentFor, readFragment, setFragment } from "./fragment.js";
import { appendLog } from "./panels.js";
import { applyDoc, lastLayOf } from "./playback.js";
import { connect, POLL_MS } from "./stream.js";
import { myName, startLobby, stopLobby } from "./lobby.js";

export function showSetup() {
  leaveTable();
  Object.assign(app, freshTableState());
  $("game").hidden = true;
  $("start-screen").hidden = false;
  document.title = t("web.page_title");
  document.body.dataset.screen = "start";
  startLobby();
}

export async function openTable(table, token) {
  leaveTable();
  stopLobby();
  const generation = app.generation;
  Object.assign(app, freshTableState(table, token || null));
  $("log").replaceChildren();
  $("share").open = false;
  delete $("share").dataset.auto;
  document.body.dataset.playing = "false";
  $("start-screen").hidden = true;
  $("game").hidden = false;
  document.body.dataset.screen = "game";
  setText($("status"), t("web.loading"));
  try {
    const data = await api("GET", tablePath("", { lang: app.language }));
    if (generation !== app.generation) return;
    const events = Array.isArray(data.events) ? data.events : [];
    const narration = Array.isArray(data.narration) ? data.narration : [];
    // The last lay so far is marked, with what followed it (the rest of that turn).
    let last = events.length;
    for (let i = events.length - 1; i >= 0; i -= 1) {
      if (events[i] && events[i].type === "laid") {
        last = i;
        const refill = events.slice(i).find((e) => e && e.type === "row_refilled" && e.row === events[i].row);
        app.lastLay = lastLayOf(events[i], refill);
        break;
      }
    }
    appendLog(events.slice(0, last), narration.slice(0, last), null);
    appendLog(events.slice(last), narration.slice(last), "new");
    app.received = Number(data.next_event) || 0;
    app.receivedStatus = typeof data.status === "string" ? data.status : null;
    applyDoc(data);
    $("main").focus({ preventScroll: true });
    connect();
  } catch (error) {
    if (generation !== app.generation) return;
    if (error.status === 401 && token) {
      // A link from before invitations: the token of a seat nobody had taken is now that
      // seat's invitation, which buys the seat once.
      try {
        const mine = await acceptInvitation(table, token);
        if (generation !== app.generation) return;
        setFragment(fragmentFor(table, mine));
        await openTable(table, mine);
        return;
      } catch (ignored) {
        if (generation !== app.generation) return;
      }
    }
    showError(error.message);
    if (error.status === 401 || error.status === 404 || error.status === 400) showSetup();
    else later(POLL_MS * 3, () => openTable(table, token));
  }
}

/** Exchange an invitation for its seat's token (once: whoever comes first holds the seat),
 * under the name typed in "Your name" if any (else the one the host gave the seat). */
async function acceptInvitation(table, invitation) {
  const name = myName();
  const body = name ? { invitation, name } : { invitation };
  const data = await api("POST", `/api/tables/${encodeURIComponent(table)}/accept`, body, { auth: false });
  return String(data.token);
}

/** Open an invitation's link: take the seat, and keep only its token in the address. If
 * the invitation was used already, say so and show the table to watch. */
async function openInvitation(table, invitation) {
  leaveTable();
  const generation = app.generation;
  try {
    const token = await acceptInvitation(table, invitation);
    if (generation !== app.generation) return;
    setFragment(fragmentFor(table, token));
    await openTable(table, token);
  } catch (error) {
    if (generation !== app.generation) return;
    setFragment(fragmentFor(table, null));
    await openTable(table, null);
    showError(error.message);
  }
}

export function openFromFragment() {
  const { table, token, invite } = readFragment();
  forgetSharedTokens();
  clearError();
  if (table && invite && !token) openInvitation(table, invite);
  else if (table) openTable(table, token);
  else showSetup();
}
