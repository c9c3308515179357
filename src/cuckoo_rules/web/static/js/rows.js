/* The four rows on the felt, each on one line (long rows overlap), with a lay target at
 * both ends that shows what laying the chosen species there would capture. */

import { $, el, range, srOnly } from "./dom.js";
import { app, hooks, isBusy, previewOf } from "./state.js";
import { speciesName, t, tn } from "./phrases.js";
import { layLabel } from "./words.js";
import { birdCard, cardSvg } from "./cards.js";

const MIN_VISIBLE_PX = 9; // of a card covered by the next one in a long row

export function renderRows() {
  if (!app.view) return;
  const rows = app.view.rows || [];
  const list = $("rows");
  list.replaceChildren(...rows.map((row, index) => renderRow(row, index)));
  layoutRows();
}

/** The positions of the last lay's cards in a row as it is now. */
function lastLaidPositions(index, row) {
  const last = app.lastLay;
  if (!last || last.row !== index) return [];
  if (last.side === "left") return range(0, Math.min(last.count, row.length));
  const end = row.length - last.refilled;
  return range(Math.max(0, end - last.count), end);
}

function renderRow(row, index) {
  const label = t("web.row_label", { row: index, cards: tn("web.cards", row.length) });
  const cards = el("ol", { className: "row-cards", attrs: { "aria-label": label } });
  const laid = new Set(lastLaidPositions(index, row));
  row.forEach((species, position) => {
    const classes = [];
    if (app.selected === species) classes.push("match");
    if (laid.has(position)) classes.push("last");
    const card = birdCard(species, classes.join(" "), speciesName(species));
    cards.append(el("li", { attrs: { "data-position": position } }, card));
  });
  const item = el("li", { className: "row", attrs: { "data-row": index } });
  if (laid.size) item.classList.add("last-row");
  const number = el("span", { className: "row-number", text: index, attrs: { "aria-hidden": "true" } });
  const line = el("div", { className: "row-line" }, number);
  if (app.seat === null) line.append(cards); // a spectator lays nothing
  else line.append(rowTarget(row, index, "left"), cards, rowTarget(row, index, "right"));
  item.append(line);
  return item;
}

function layFor(species, row, side) {
  return app.legal.find(
    (action) => action.type === "lay" && action.species === species && action.row === row && action.side === side,
  );
}

/** The button at one end of a row: lays the selected species there when that is legal,
 * and shows what that lay would capture. */
function rowTarget(row, index, side) {
  const action = app.selected ? layFor(app.selected, index, side) : null;
  const button = el("button", {
    className: `target target-${side}`,
    attrs: {
      type: "button",
      "data-focus": `target:${index}:${side}`,
      "data-action": "",
      "data-enabled": String(Boolean(action)),
      "data-row": index,
      "data-side": side,
    },
  });
  const arrow = el("span", {
    className: "arrow",
    text: side === "left" ? "◀" : "▶",
    attrs: { "aria-hidden": "true" },
  });
  if (action) {
    const seen = previewOf(action);
    const taken = (seen && seen.captured) || [];
    const preview = el("span", { className: "target-preview", attrs: { "aria-hidden": "true" } });
    const className = taken.length ? "take-count" : "take-count none";
    const count = el("span", { className, text: `+${taken.length}` });
    preview.append(count);
    if (taken.length) {
      const chips = el("span", { className: "take-chips" });
      for (const species of taken.slice(0, 6)) chips.append(birdCard(species, "chip", null));
      preview.append(chips);
    }
    const marks = el("span", { className: "take-marks" });
    if (seen && seen.refilled) marks.append(el("span", { className: "take-mark", text: "↻" }));
    if (seen && seen.draw_offered !== false) {
      const mark = el("span", { className: "take-mark draw-mark" }, cardSvg("card-back", "chip", null));
      if (seen.draw_offered === null) mark.classList.add("maybe");
      marks.append(mark);
    }
    if (marks.childNodes.length) preview.append(marks);
    button.append(srOnly(layLabel(action)), arrow, preview);
    button.title = layLabel(action);
    button.classList.add(taken.length ? "captures" : "no-capture");
    button.addEventListener("click", () => hooks.act(action));
    showCaptureOnHover(button, row, index, action);
  } else {
    const name = t(side === "left" ? "web.end_left" : "web.end_right", { row: index });
    const why = t(app.selected ? "web.not_here" : "web.choose_first");
    button.append(srOnly(`${name}: ${why}`), arrow);
  }
  button.disabled = isBusy() || !action;
  return button;
}

/** While a target is hovered or focused, mark the cards its lay would capture: the
 * preview's cards, which are the ones next to the end laid at. */
function showCaptureOnHover(button, row, index, action) {
  const seen = previewOf(action);
  const taken = (seen && seen.captured) || [];
  const first = action.side === "left" ? 0 : row.length - taken.length;
  const positions = range(first, first + taken.length);
  const mark = (on) => markCaptured(index, positions, on);
  button.addEventListener("mouseenter", () => mark(true));
  button.addEventListener("mouseleave", () => mark(false));
  button.addEventListener("focus", () => mark(true));
  button.addEventListener("blur", () => mark(false));
}

function markCaptured(row, positions, on) {
  const list = document.querySelector(`#rows [data-row="${row}"] .row-cards`);
  if (!list) return;
  for (const position of positions) {
    const item = list.querySelector(`[data-position="${position}"]`);
    if (item) item.classList.toggle("captured", on);
  }
}

/** Keep each row on one line: when its cards do not fit, they overlap (more as it grows). */
export function layoutRows() {
  for (const row of document.querySelectorAll("#rows > li.row")) layoutRow(row);
}

export function layoutRow(row) {
  const line = row.querySelector(".row-line");
  const list = row.querySelector(".row-cards");
  const cards = list ? list.children : [];
  if (!line || !cards.length || !line.clientWidth) return;
  const style = window.getComputedStyle(line);
  const gap = parseFloat(style.columnGap) || 0;
  let room = line.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  for (const child of line.children) {
    if (child !== list) room -= child.getBoundingClientRect().width + gap;
  }
  const width = cards[0].firstElementChild.getBoundingClientRect().width;
  const spacing = parseFloat(window.getComputedStyle(list).getPropertyValue("--gap")) || 4;
  const count = cards.length;
  let step = spacing;
  if (count > 1 && count * width + (count - 1) * spacing > room) {
    step = Math.max((room - width) / (count - 1) - width, MIN_VISIBLE_PX - width);
  }
  list.style.setProperty("--step", `${step.toFixed(1)}px`);
  list.classList.toggle("overlap", step < 0);
}
