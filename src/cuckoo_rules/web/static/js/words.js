/* What the page calls things: seats and bots, a seat's progress, the outcome, and what
 * a legal action would do (from the previews the server sends). */

import { app, handCount, previewOf } from "./state.js";
import { birds, birdsObject, cardsObjectText, has, t, tn } from "./phrases.js";

/** A seat as people call it: its name (given, or its bot's kind) when no other seat has
 * it, else the narration's ("P1 greedy"). */
export function seatName(seat) {
  const name = app.players[seat];
  const spec = app.seats[seat];
  const kind = spec && spec !== "human" ? String(spec).split(":")[0] : null;
  // A bot nobody named is called as the language calls its kind ("Gieriger Bot").
  if (kind && name === kind && app.players.filter((other) => other === name).length === 1) {
    return botLabel(spec);
  }
  if (name && app.players.filter((other) => other === name).length === 1) return String(name);
  if (app.names[seat] !== undefined && app.names[seat] !== null) return String(app.names[seat]);
  return t("seat", { seat });
}

/** "you" for the reader's own seat, else its name. */
export function who(seat) {
  return seat === app.seat && app.seat !== null ? t("web.you") : seatName(seat);
}

export function botLabel(spec) {
  const kind = String(spec).split(":")[0];
  return has(`web.bot.${kind}`) ? t(`web.bot.${kind}`) : t("web.bot_kind", { name: spec });
}

/** Who won and why, in the server's words ("Game over: you win (two triples ...)."). */
export function overText() {
  return app.outcome && app.outcome.text ? String(app.outcome.text) : t("web.game_over");
}

/** A seat's progress towards a win, as the server counts it (and /api/meta's win). */
export function progressText(seat) {
  const progress = app.progress[seat] || { species: 0, triples: 0, cards: 0 };
  const win = app.win || { species: "?", triples: "?" };
  return t("web.progress", {
    species: progress.species,
    win_species: win.species,
    triples: progress.triples,
    win_triples: win.triples,
    cards: tn("web.cards", progress.cards),
  });
}

export function layLabel(action) {
  const key = action.side === "left" ? "web.lay_left" : "web.lay_right";
  // The birds laid are the verb's object: "Выложить 1 сову ...".
  const base = t(key, { birds: birdsObject(action.species, handCount(action.species)), row: action.row });
  return `${base}: ${effectText(previewOf(action), true)}`;
}

/** What a lay does, from its preview: the cards taken, a refill, the draw offered after
 * it (long: in full, for a label; short: for the text of a move's button). */
export function effectText(seen, long) {
  const taken = (seen && seen.captured) || [];
  const parts = [];
  if (long) parts.push(taken.length ? t("web.captures", { cards: cardsObjectText(taken) }) : t("web.captures_nothing"));
  else parts.push(taken.length ? tn("web.captures_short", taken.length) : t("web.captures_nothing"));
  if (seen && seen.refilled) parts.push(t(long ? "web.refilled" : "web.refilled_short"));
  if (seen && seen.draw_offered === true) parts.push(t(long ? "web.may_draw" : "web.may_draw_short"));
  if (seen && seen.draw_offered === null) parts.push(t(long ? "web.maybe_draw" : "web.maybe_draw_short"));
  return parts.join(long ? "; " : " · ");
}

export function actionLabel(action) {
  if (action.type === "lay") return layLabel(action);
  if (action.type === "draw") return t("web.draw");
  if (action.type === "fly_home") {
    const seen = previewOf(action) || { birds_home: 0, discarded: 0 };
    const held = seen.birds_home + seen.discarded;
    return t("web.fly", { birds: birds(action.species, held), home: seen.birds_home, discarded: seen.discarded });
  }
  if (action.type === "pass") {
    const phase = app.view.phase;
    return has(`web.pass.${phase}`) ? t(`web.pass.${phase}`) : t("web.pass");
  }
  return JSON.stringify(action);
}
