/* What the page knows, in one object (`app`): the DOM is redrawn from it. Also the
 * questions the other modules ask of it, the timers that belong to the table shown, and
 * the hooks through which the drawn controls reach the modules that play. */

export const FALLBACK_LANGUAGES = ["en", "de", "ru"]; // until /api/phrases names them
const DEFAULT_BOTS = ["random", "greedy", "ismcts"];

/** What the page knows about the table it shows (none: every field empty). */
export function freshTableState(table = null, token = null) {
  return {
    table,
    token,
    doc: null, // the last table document drawn
    seat: null,
    seats: [],
    names: [],
    players: [],
    free: [],
    move: null, // the move the seat answers, sent back with its action
    view: null,
    outcome: null,
    deal: null,
    notices: [],
    progress: [],
    handFlocks: null,
    legal: [],
    previews: [],
    status: null,
    receivedStatus: null, // the status of the last document received
    thinking: null,
    rematch: null,
    received: 0, // the number of the first event not received yet (the stream's `after`)
    queue: [], // received, not yet shown: {item: {index, event, narration}} or {doc, source}
    playing: false,
    lastLay: null, // the last lay shown: {row, side, count, refilled}, to highlight
    selected: null,
    hint: null, // the last hint asked: {move, loading, data}
    posted: null, // the move of an action sent and not yet shown
    live: "off", // "stream", "polling" or "off"
    stream: null, // the AbortController of the open stream
    timers: new Set(),
    answerMs: null,
  };
}

/** Everything the page knows; the DOM is redrawn from it. */
export const app = {
  language: "en",
  languages: FALLBACK_LANGUAGES,
  phrases: {},
  plurals: new Intl.PluralRules("en"),
  bots: DEFAULT_BOTS,
  meta: null,
  // From /api/meta: the species in canonical order, each {id, name, copies,
  // small_flock, big_flock}, and what a collection needs to win.
  species: [],
  byId: new Map(),
  win: null,
  options: [],
  hints: false, // whether the server gives hints (the batch extra): /api/meta's "hints"
  ...freshTableState(),
  generation: 0,
  renders: 0,
  animations: 0,
  pointer: false,
  pendingFocus: null,
  lobbyTimer: null,
  lobby: null,
};

/** The two calls that go up the order of the modules, set once by app.js before anything
 * is drawn: a move's control (drawn by rows.js, hand.js and hint.js) plays it with
 * moves.js's `act`, and the lobby's Join button opens the table with table.js's
 * `openTable`. Through these the modules need not import each other in a circle. */
export const hooks = {
  act: (action) => undefined,
  openTable: (table, token) => Promise.resolve(),
};

/** Run `work` in `ms` milliseconds, unless the page has left the table by then. */
export function later(ms, work) {
  const generation = app.generation;
  const timer = window.setTimeout(() => {
    app.timers.delete(timer);
    if (generation === app.generation) work();
  }, ms);
  app.timers.add(timer);
  return timer;
}

/** Stop everything that belongs to the table shown: timers, the stream, the playback. */
export function leaveTable() {
  app.generation += 1;
  for (const timer of app.timers) window.clearTimeout(timer);
  app.timers.clear();
  if (app.stream) app.stream.abort();
  app.stream = null;
}

export function handCount(species) {
  const hand = app.view && app.view.hand;
  return (hand && hand[species]) || 0;
}

export function isOver() {
  return Boolean(app.view && app.view.phase === "game_over");
}

export function isFinished() {
  return isOver() || app.status === "over" || app.status === "expired";
}

export function myTurn() {
  return app.legal.length > 0;
}

export function isBusy() {
  return app.posted !== null;
}

export function isBot(seat) {
  return Boolean(app.seats[seat]) && app.seats[seat] !== "human";
}

/** What the server says a legal action would do (its preview), or null. */
export function previewOf(action) {
  const index = app.legal.indexOf(action);
  return index >= 0 ? app.previews[index] || null : null;
}

/** The winning seats, from the outcome the server sends (empty while the game is on). */
export function winners() {
  return app.outcome && Array.isArray(app.outcome.winners) ? app.outcome.winners : [];
}

/** The species of a multiset {id: count}, in canonical order, with their counts. */
export function countsList(counts) {
  const items = [];
  for (const species of app.species) {
    const count = counts && counts[species.id];
    if (count) items.push([species, count]);
  }
  return items;
}

export function total(counts) {
  return countsList(counts).reduce((sum, [, count]) => sum + count, 0);
}
