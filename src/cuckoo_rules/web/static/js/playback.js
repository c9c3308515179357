/* What arrives (events, table documents) goes to a queue, played one action at a time:
 * its log lines, its animations, then its table; a pause after other players' actions. */

import { sleep, stored } from "./dom.js";
import { app, isFinished, later } from "./state.js";
import { setBusy } from "./focus.js";
import { renderRows } from "./rows.js";
import { appendLog } from "./panels.js";
import { render } from "./render.js";
import { animateCapture, animateLay, animateRefill, pulse, reducedMotion } from "./animation.js";

const PAUSE_MS = 500; // after each other player's action, so that moves come one by one
const PAUSE_MS_MOST = 5000;
const FAST_FORWARD = 30; // events waiting beyond which they are shown without animation
const EVENTS_WITHOUT_TABLE_MS = 1500;
const MOVES = new Set(["laid", "drew", "declined_draw", "flew_home", "declined_flock"]);

/** A document with its events (an answer to GET or POST): both go to the queue. */
export function receiveSnapshot(data, source) {
  const events = Array.isArray(data.events) ? data.events : [];
  const narration = Array.isArray(data.narration) ? data.narration : [];
  const next = Number(data.next_event);
  const first = Number.isFinite(next) ? next - events.length : app.received;
  receiveEvents(events.map((event, i) => ({ index: first + i, event, narration: narration[i] })));
  receiveDoc(data, source);
}

export function receiveEvents(items) {
  for (const item of items) {
    if (item.index < app.received) continue; // seen already (a POST's answer, a resent one)
    app.received = item.index + 1;
    app.queue.push({ item });
  }
  if (app.queue.length && !app.queue.some((entry) => entry.doc)) {
    later(EVENTS_WITHOUT_TABLE_MS, () => {
      if (app.queue.length && !app.queue.some((entry) => entry.doc)) {
        app.queue.push({ doc: null, source: "none" });
        pump();
      }
    });
  }
  pump();
}

export function receiveDoc(doc, source) {
  if (typeof doc.status === "string") app.receivedStatus = doc.status;
  app.queue.push({ doc, source });
  pump();
}

/** Whether the table takes no more moves, as the last document received says (it may
 * not be shown yet). */
export function tableClosed() {
  return isFinished() || (app.receivedStatus !== null && app.receivedStatus !== "open");
}

/** Whether a document is newer than the one drawn (a stream's may be as new: it says
 * who is thinking now; an answer's must be newer, it may come after the stream's). */
function isNewer(doc, source) {
  const shown = app.doc;
  if (!shown) return true;
  const next = Number(doc.next_event);
  const was = Number(shown.next_event);
  if (next !== was) return next > was;
  if (doc.move !== shown.move) return doc.move > shown.move;
  if (source === "post") return false;
  return true;
}

/** Show what is queued, one action at a time: its events (animated), then its table. */
async function pump() {
  if (app.playing) return;
  app.playing = true;
  document.body.dataset.playing = "true";
  const generation = app.generation;
  try {
    while (generation === app.generation && app.queue.some((entry) => entry.doc !== undefined)) {
      const items = [];
      while (app.queue.length && app.queue[0].doc === undefined) items.push(app.queue.shift().item);
      const { doc, source } = app.queue.shift();
      // Several actions may come before one table (a fast bot): each is played in turn.
      const actions = splitActions(items);
      for (let i = 0; i < actions.length - 1 && generation === app.generation; i += 1) {
        await playAction(actions[i], null, source, generation);
      }
      if (generation === app.generation) {
        await playAction(actions[actions.length - 1] || [], doc, source, generation);
      }
    }
  } finally {
    if (generation === app.generation) {
      app.playing = false; // (another table's player may have started meanwhile)
      document.body.dataset.playing = "false";
    }
  }
}

/** The events of each action: an action's own event (a lay, a draw...) starts it. */
function splitActions(items) {
  const actions = [];
  for (const item of items) {
    const type = item.event && item.event.type;
    if (!actions.length || MOVES.has(type)) actions.push([]);
    actions[actions.length - 1].push(item);
  }
  return actions;
}

async function playAction(items, doc, source, generation) {
  const events = items.map((item) => item.event).filter((event) => event && typeof event === "object");
  const waiting = app.queue.filter((entry) => entry.doc === undefined).length;
  const animate = Boolean(app.view) && !reducedMotion.matches && waiting < FAST_FORWARD;
  const moves = events.filter((event) => MOVES.has(event.type));
  const lay = events.find((event) => event.type === "laid") || null;
  if (items.length) {
    // The last turn is marked: a lay starts a new one, the draw and flock go on with it.
    appendLog(
      items.map((item) => item.event || {}),
      items.map((item) => item.narration),
      moves.length === 0 ? null : lay ? "new" : "more",
    );
  }
  const capture = events.find((event) => event.type === "captured") || null;
  const refills = events.filter((event) => event.type === "row_refilled");
  if (animate && lay) {
    await animateLay(lay);
    if (capture && generation === app.generation) await animateCapture(capture, lay);
  }
  if (generation !== app.generation) return;
  if (lay) app.lastLay = lastLayOf(lay, refills.find((event) => event.row === lay.row));
  if (doc && isNewer(doc, source)) applyDoc(doc);
  else if (doc && moves.length) renderRows();
  if (animate) {
    refills.forEach((event) => animateRefill(event));
    for (const event of events) {
      if (event.type === "flew_home") pulse(`#players [data-seat="${event.player}"] .collection`);
      if (event.type === "drew") pulse(`#players [data-seat="${event.player}"] .hand-size`);
    }
  }
  const others = moves.some((event) => event.player !== app.seat);
  if (others && waiting < FAST_FORWARD) await sleep(pauseMs());
}

/** The pause after another player's action: PAUSE_MS, or the milliseconds (0 to
 * PAUSE_MS_MOST) stored under "pause-ms" in the page's local storage. */
export function pauseMs() {
  const text = stored("pause-ms", "");
  const chosen = Number(text);
  if (text.trim() === "" || !Number.isFinite(chosen)) return PAUSE_MS;
  return Math.min(Math.max(chosen, 0), PAUSE_MS_MOST);
}

/** What to mark of a lay: its row, side and cards, and the cards refilled after it
 * (they come after the laid ones on the right). */
export function lastLayOf(lay, refill) {
  const refilled = refill && Array.isArray(refill.cards) ? refill.cards.length : 0;
  return { row: lay.row, side: lay.side, count: lay.count, refilled };
}

/** Take in a table document: it is what the page shows from now on. */
export function applyDoc(data) {
  app.doc = data;
  app.seat = typeof data.seat === "number" ? data.seat : null;
  app.seats = Array.isArray(data.seats) ? data.seats : app.seats;
  app.names = Array.isArray(data.names) ? data.names : app.names;
  app.players = Array.isArray(data.players) ? data.players : [];
  app.free = Array.isArray(data.free) ? data.free : [];
  app.move = typeof data.move === "number" ? data.move : null;
  app.view = data.view;
  app.outcome = data.outcome || null;
  app.deal = data.deal || null;
  app.notices = Array.isArray(data.notices) ? data.notices : [];
  app.progress = Array.isArray(data.progress) ? data.progress : [];
  app.handFlocks = data.hand_flocks || null;
  app.legal = Array.isArray(data.legal_actions) ? data.legal_actions : [];
  app.previews = Array.isArray(data.previews) ? data.previews : [];
  app.status = typeof data.status === "string" ? data.status : null;
  app.thinking = typeof data.thinking === "number" ? data.thinking : null;
  app.rematch = typeof data.rematch === "string" ? data.rematch : null;
  if (!app.legal.some((action) => action.type === "lay" && action.species === app.selected)) {
    app.selected = null;
  }
  if (app.posted !== null && app.move !== null && app.move > app.posted) {
    app.posted = null;
    setBusy(false);
  }
  if (app.hint && app.hint.move !== app.move) app.hint = null;
  render();
}
