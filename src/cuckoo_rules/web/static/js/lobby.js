/* The lobby: the open tables with a free seat, refreshed while the start screen shows,
 * and joining one under the name typed in "Your name". */

import { $, clearError, el, setText, showError, store } from "./dom.js";
import { app, hooks } from "./state.js";
import { t, tn } from "./phrases.js";
import { api } from "./api.js";
import { fragmentFor, setFragment } from "./fragment.js";
import { botLabel } from "./words.js";

const LOBBY_MS = 4000;

export function myName() {
  const name = $("my-name").value.trim();
  store("name", name || null);
  return name;
}

export function startLobby() {
  stopLobby();
  refreshLobby();
}

export function stopLobby() {
  if (app.lobbyTimer !== null) window.clearTimeout(app.lobbyTimer);
  app.lobbyTimer = null;
}

export async function refreshLobby() {
  stopLobby();
  if ($("start-screen").hidden) return;
  try {
    const data = await api("GET", "/api/lobby", undefined, { auth: false });
    app.lobby = Array.isArray(data.tables) ? data.tables : [];
  } catch (error) {
    app.lobby = null;
  }
  if ($("start-screen").hidden) return;
  renderLobby();
  app.lobbyTimer = window.setTimeout(refreshLobby, LOBBY_MS);
}

/** When a table was created, in the reader's words ("2 minutes ago"). */
function ago(created) {
  let time = null;
  if (typeof created === "number") time = created > 1e12 ? created : created * 1000;
  else if (typeof created === "string") time = Date.parse(created);
  if (time === null || !Number.isFinite(time)) return "";
  const seconds = Math.round((time - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat(app.language, { numeric: "auto" });
  if (Math.abs(seconds) < 60) return format.format(Math.min(0, seconds), "second");
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return format.format(minutes, "minute");
  return format.format(Math.round(minutes / 60), "hour");
}

function lobbySeat(entry, seat) {
  const names = Array.isArray(entry.players) ? entry.players : [];
  const seats = Array.isArray(entry.seats) ? entry.seats : [];
  const free = Array.isArray(entry.free) ? entry.free : [];
  if (free.includes(seat)) return t("web.free_seat");
  if (names[seat]) return String(names[seat]);
  if (seats[seat] && seats[seat] !== "human") return botLabel(seats[seat]);
  return t("seat", { seat });
}

export function renderLobby() {
  const list = $("lobby-list");
  const note = $("lobby-note");
  list.replaceChildren();
  if (app.lobby === null) {
    setText(note, t("web.lobby_unavailable"));
    return;
  }
  const entries = app.lobby.filter((entry) => Array.isArray(entry.free) && entry.free.length);
  setText(note, entries.length ? "" : t("web.lobby_empty"));
  note.hidden = entries.length > 0;
  for (const entry of entries) {
    const seats = Array.isArray(entry.seats) ? entry.seats : [];
    const who = seats.map((_, seat) => lobbySeat(entry, seat));
    const host = who[0] || t("seat", { seat: 0 });
    const people = el("p", { className: "lobby-people" });
    who.forEach((name, seat) => {
      const free = entry.free.includes(seat);
      people.append(el("span", { className: free ? "lobby-seat free" : "lobby-seat", text: name }));
    });
    const details = [tn("web.players_n", seats.length), tn("web.free_seats", entry.free.length)];
    const when = ago(entry.created);
    if (when) details.push(when);
    const join = el("button", {
      className: "primary small join",
      text: t("web.join"),
      attrs: { type: "button", "aria-label": t("web.join_label", { name: host }), "data-table": entry.table },
    });
    join.addEventListener("click", () => joinTable(String(entry.table), join));
    list.append(
      el(
        "li",
        { className: "lobby-table" },
        el("div", null, people, el("p", { className: "muted", text: details.join(" · ") })),
        join,
      ),
    );
  }
}

async function joinTable(table, button) {
  clearError();
  button.disabled = true;
  try {
    const name = myName();
    const body = name ? { name } : {};
    const joined = await api("POST", `/api/tables/${encodeURIComponent(table)}/join`, body, { auth: false });
    setFragment(fragmentFor(joined.table, joined.token));
    await hooks.openTable(String(joined.table), String(joined.token));
  } catch (error) {
    showError(error.message);
    refreshLobby();
  } finally {
    button.disabled = false;
  }
}
