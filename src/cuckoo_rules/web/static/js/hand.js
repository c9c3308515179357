/* The dock: the hand (a stack per species; click one to choose it), the phase's buttons
 * and, folded, every legal move. */

import { $, el, setText, srOnly } from "./dom.js";
import { app, countsList, handCount, hooks, isBusy, isOver, myTurn, previewOf, total } from "./state.js";
import { birdsObject, capitalize, cardsText, speciesName, t, tn } from "./phrases.js";
import { actionLabel, effectText, layLabel, seatName } from "./words.js";
import { birdCard } from "./cards.js";
import { focusKey, restoreFocus, setBusy } from "./focus.js";
import { renderRows } from "./rows.js";

export function renderHand() {
  const section = $("hand-section");
  const hand = app.view.hand;
  section.hidden = hand === null || hand === undefined;
  if (section.hidden) return;
  const lay = new Set(app.legal.filter((a) => a.type === "lay").map((a) => a.species));
  const items = countsList(hand);
  const container = $("hand");
  container.replaceChildren();
  if (!items.length) container.append(el("p", { className: "muted", text: t("web.hand_empty") }));
  for (const [species, count] of items) container.append(handCard(species, count, lay.has(species.id)));
  setText($("hand-title"), tn("web.hand_title", total(hand)));
  setText($("hand-help"), handHelp(lay.size > 0));
}

function handHelp(canLay) {
  if (canLay && app.selected) return t("web.hand_selected", { species: speciesName(app.selected) });
  if (canLay) return t("web.hand_choose");
  return t("web.hand_flocks");
}

function handCard(species, count, selectable) {
  const selected = app.selected === species.id;
  // The birds a flock of this species would fly home now, as the server says.
  const ready = Boolean(app.handFlocks && app.handFlocks[species.id] > 0);
  const classes = ["hand-card"];
  if (selected) classes.push("selected");
  if (ready) classes.push("ready");
  if (count > 1) classes.push("stacked");
  const node = el(selectable ? "button" : "div", {
    className: classes.join(" "),
    attrs: {
      type: selectable ? "button" : null,
      "aria-pressed": selectable ? String(selected) : null,
      "data-focus": `hand:${species.id}`,
      "data-species": species.id,
      "data-action": selectable ? "" : null,
      "data-enabled": selectable ? "true" : null,
      title: t("web.flock_sizes", { small: species.small_flock, big: species.big_flock }),
    },
  });
  const stack = el("span", { className: "stack", attrs: { "aria-hidden": "true" } });
  for (let i = 0; i < Math.min(count, 3); i += 1) stack.append(birdCard(species.id, `layer layer-${i}`, null));
  node.append(stack);
  node.append(el("span", { className: "count", text: `×${count}`, attrs: { "aria-hidden": "true" } }));
  node.append(el("span", { className: "name", text: speciesName(species.id) }));
  if (ready) {
    const attrs = { "aria-hidden": "true", title: t("web.flock_ready") };
    node.append(el("span", { className: "ready-mark", text: "✓", attrs }));
  }
  const sizes = t("web.flock_sizes", { small: species.small_flock, big: species.big_flock });
  node.append(srOnly(`, ${tn("web.cards", count)}; ${sizes}${ready ? `; ${t("web.flock_ready")}` : ""}`));
  if (selectable) node.addEventListener("click", () => selectSpecies(selected ? null : species.id));
  return node;
}

export function selectSpecies(species) {
  app.selected = species;
  const key = focusKey(document.activeElement);
  renderRows();
  renderHand();
  renderControls();
  renderMoveList();
  setBusy(isBusy());
  if (species && !app.pointer) {
    // From the keyboard: go on to the row ends where it may be laid.
    const first = document.querySelector("#rows button.target:not([disabled])");
    if (first) {
      first.focus();
      return;
    }
  }
  restoreFocus(key);
  const again = document.querySelector(`[data-focus="${CSS.escape(key || "")}"]`);
  if (again && document.activeElement === document.body) again.focus({ preventScroll: true });
}

/** The buttons of the phase: draw or not, fly a flock home or not (lays: the hand and
 * the row ends). */
export function renderControls() {
  const container = $("controls");
  container.replaceChildren();
  const dock = $("dock");
  dock.hidden = app.seat === null || isOver();
  if (dock.hidden) return;
  if (!myTurn()) {
    const waiting =
      app.thinking !== null
        ? t("web.thinking", { player: capitalize(seatName(app.thinking)) })
        : t("web.waiting");
    container.append(el("p", { className: "muted waiting", text: waiting }));
    return;
  }
  const others = app.legal.filter((action) => action.type !== "lay");
  for (const action of others) container.append(actionButton(action, "phase"));
  if (!others.length) {
    const prompt = t(app.selected ? "web.prompt_end" : "web.prompt_species");
    container.append(el("p", { className: "prompt", text: prompt }));
  }
}

/** Every legal action, folded away: lays grouped by species, then the others. */
export function renderMoveList() {
  const container = $("all-moves-list");
  container.replaceChildren();
  const details = $("all-moves");
  details.hidden = !myTurn() || app.seat === null || isOver();
  if (details.hidden) return;
  setText($("all-moves-title"), tn("web.all_moves", app.legal.length));
  const lays = new Map();
  const others = [];
  for (const action of app.legal) {
    if (action.type === "lay") {
      if (!lays.has(action.species)) lays.set(action.species, []);
      lays.get(action.species).push(action);
    } else {
      others.push(action);
    }
  }
  for (const [species, actions] of lays) {
    const title = t("web.lay_group", { birds: birdsObject(species, handCount(species)) });
    container.append(el("h3", { className: `action-group sp-${species}`, text: title }));
    const list = el("ul", { className: "action-list" });
    for (const action of actions) list.append(el("li", null, actionButton(action, "list")));
    container.append(list);
  }
  if (others.length) {
    const list = el("ul", { className: "action-list" });
    for (const action of others) list.append(el("li", null, actionButton(action, "list")));
    container.append(list);
  }
}

function actionButton(action, where) {
  const button = el("button", {
    className: `action action-${action.type}${where === "phase" ? " phase-button" : ""}`,
    attrs: {
      type: "button",
      "data-focus": `${where}:${JSON.stringify(action)}`,
      "data-action": "",
      "data-enabled": "true",
    },
  });
  if (action.type === "lay") {
    const seen = previewOf(action);
    const taken = (seen && seen.captured) || [];
    const key = action.side === "left" ? "web.where_left" : "web.where_right";
    button.append(
      el("span", { className: "where", text: t(key, { row: action.row }) }),
      el("span", { className: "effect", text: effectText(seen, false) }),
      srOnly(taken.length ? `: ${cardsText(taken)}` : ""),
    );
    button.title = layLabel(action);
    button.setAttribute("aria-label", layLabel(action));
    if (action.species === app.selected) button.classList.add("match");
  } else {
    if (action.type === "fly_home") button.append(birdCard(action.species, "chip", null));
    button.append(document.createTextNode(actionLabel(action)));
    if (action.type === "pass") button.classList.add("secondary");
  }
  button.disabled = isBusy();
  button.addEventListener("click", () => hooks.act(action));
  return button;
}
