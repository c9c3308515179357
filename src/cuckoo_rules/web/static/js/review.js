/* The review of a finished game: a "Review" tab beside the game once it is over, with each
 * player's chance of winning move by move (a line chart drawn here in SVG) and each
 * player's costliest moves; clicking one shows the position as that player saw it before
 * the move, the better move marked.
 *
 * The server computes the review once per table, on its bot workers, when someone asks
 * (POST /api/tables/ID/review: 200 with it, or 202 with its progress), and pushes its
 * progress and then the review on the table's stream (`event: review`, which stream.js
 * hands on as a "cuckoo:review" event of the document); GET /api/tables/ID/review reads
 * it once ready (404 before). This module asks when the tab is opened, listens to the
 * stream, and asks again (POST: it joins the review under way) now and then in case the
 * stream has ended. It redraws itself
 * after each redraw of the page (render.js counts them in body[data-renders]) and
 * touches nothing else of the page but body[data-review-tab] (which the style sheet reads
 * to show the board or the review).
 *
 * The review document (the library's `cuckoo-rules/review`): `chances[k][seat]`, each
 * seat's chance before move k (k = 0..moves, the last the result); the answer adds
 * `costliest`: per reviewed seat its mean cost and its costliest moves, each with the
 * seat's view before the move and the move played and the best one, in words. */

import { $, el, setText, svgEl } from "./dom.js";
import { app, isOver } from "./state.js";
import { speciesName, t, tn } from "./phrases.js";
import { api, tablePath } from "./api.js";
import { seatName } from "./words.js";
import { birdCard } from "./cards.js";

const POLL_MS = 2000; // how often to ask while the review is being computed
const CHART = { height: 220, left: 44, right: 14, top: 12, bottom: 26 }; // pixels
const SEAT_COLORS = 5; // style.css has --review-seat-0 to 4

/** What this module knows: the table it is for, the tab shown, the answer. */
const review = freshReview();

function freshReview() {
  return {
    table: null,
    language: null,
    tab: "game",
    status: null, // null (not asked), "asking", "queued", "computing", "ready", "failed"
    done: 0,
    total: 0,
    error: "",
    data: null, // the answer of GET .../review
    selected: null, // "seat:move" of the costly move shown
    polling: false,
  };
}

/** Wire the module: redraw after each redraw of the page, take the stream's pushes. */
export function startReview() {
  new MutationObserver(update).observe(document.body, { attributes: true, attributeFilter: ["data-renders"] });
  document.addEventListener("cuckoo:review", (event) => receive(event.detail));
  update();
}

function percent(chance) {
  return `${Math.round(Number(chance) * 100)}%`;
}

/** A number of percentage points with one decimal, as the page's language writes it. */
function decimal(value) {
  return value.toLocaleString(app.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

function points(cost) {
  return Math.round(Number(cost) * 100);
}

/** The review's elements, made once: the tabs after the game-over banner, and the panel. */
function elements() {
  let tabs = $("review-tabs");
  if (tabs) return { tabs, panel: $("review") };
  tabs = el("div", { className: "review-tabs", attrs: { id: "review-tabs", role: "tablist" } });
  for (const [name, key] of [["game", "web.review.tab_game"], ["review", "web.review.tab"]]) {
    const tab = el("button", {
      className: "review-tab",
      attrs: { type: "button", role: "tab", id: `tab-${name}`, "data-tab": name, "aria-controls": name === "review" ? "review" : null },
    });
    tab.dataset.t = key;
    tab.addEventListener("click", () => choose(name));
    tab.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      const other = name === "game" ? "review" : "game";
      choose(other);
      $(`tab-${other}`).focus();
    });
    tabs.append(tab);
  }
  const panel = el("section", { className: "review", attrs: { id: "review", role: "tabpanel", "aria-labelledby": "tab-review" } });
  panel.hidden = true;
  $("gameover").after(tabs, panel);
  return { tabs, panel };
}

function choose(tab) {
  review.tab = tab;
  if (tab === "review" && (review.status === null || review.status === "failed")) ask();
  update();
}

/** Redraw the tabs and the panel from what is known (after each redraw of the page). */
function update() {
  if (review.table !== app.table || review.language !== app.language) {
    const open = review.table === app.table && review.tab === "review";
    Object.assign(review, freshReview(), { table: app.table, language: app.language });
    if (open) choose("review"); // the language changed: the texts are asked for again
  }
  const { tabs, panel } = elements();
  const over = Boolean(app.table) && isOver();
  if (!over) review.tab = "game";
  tabs.hidden = !over;
  const showing = over && review.tab === "review";
  document.body.dataset.reviewTab = showing ? "review" : "game";
  document.body.dataset.review = review.status || "";
  for (const tab of tabs.querySelectorAll("[role=tab]")) {
    const selected = tab.dataset.tab === (showing ? "review" : "game");
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    setText(tab, t(tab.dataset.t));
  }
  tabs.setAttribute("aria-label", t("web.review.tabs"));
  panel.hidden = !showing;
  if (showing) renderPanel(panel);
}

/** Ask the server for the review: the answer, or its progress (then ask again later). */
async function ask() {
  const table = app.table;
  review.status = "asking";
  try {
    const data = await api("POST", tablePath("/review", { lang: app.language }), {});
    if (table !== review.table) return;
    receive(data);
  } catch (error) {
    if (table !== review.table) return;
    review.status = "failed";
    review.error = error.message;
    update();
  }
}

/** Take the server's word on the review: its progress, or the answer itself. */
function receive(data) {
  if (!data || typeof data !== "object" || data.table !== review.table) return;
  if (data.status === "ready" && data.review) {
    review.data = data;
    review.status = "ready";
    const first = firstMoment();
    if (review.selected === null && first) review.selected = momentKey(first);
  } else if (review.status !== "ready") {
    review.status = ["queued", "computing", "failed"].includes(data.status) ? data.status : "queued";
    review.done = Number(data.done) || 0;
    review.total = Number(data.total) || 0;
    review.error = data.error ? String(data.error) : "";
    if (review.status !== "failed") poll(review.table);
  }
  update();
}

/** While the review is computed: ask now and then (the stream may have ended). */
function poll(table) {
  if (review.polling) return;
  review.polling = true;
  window.setTimeout(async () => {
    review.polling = false;
    if (table !== review.table || review.status === "ready" || review.status === "failed") return;
    try {
      // POST again (it joins the review under way): its progress, never a 404.
      receive(await api("POST", tablePath("/review", { lang: app.language }), {}));
    } catch (error) {
      if (table === review.table) {
        review.status = "failed";
        review.error = error.message;
        update();
        return;
      }
    }
    if (table === review.table && review.status !== "ready") poll(table);
  }, POLL_MS);
}

function momentKey(moment) {
  return `${moment.seat}:${moment.move}`;
}

/** Every costly move of the answer, seat by seat. */
function moments() {
  const entries = (review.data && review.data.costliest) || [];
  return entries.flatMap((entry) => (entry.moves || []).filter((moment) => points(moment.cost) >= 1));
}

function firstMoment() {
  return moments()[0] || null;
}

function select(moment) {
  review.selected = momentKey(moment);
  update();
  const title = $("review-position-title");
  if (title) {
    title.focus({ preventScroll: true });
    title.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }
}

function renderPanel(panel) {
  const data = review.data;
  if (!data) {
    const status = review.status;
    let text = t("web.review.loading");
    if (status === "queued") text = t("web.review.queued");
    if (status === "computing") {
      text = review.total ? t("web.review.computing", { done: review.done, total: review.total }) : t("web.review.computing_start");
    }
    if (status === "failed") text = t("web.review.failed", { error: review.error });
    const note = el("p", { className: "review-status", text, attrs: { "aria-live": "polite" } });
    if (status === "queued" || status === "computing" || status === "asking") {
      const bar = el("progress", { attrs: { max: review.total || 1 } });
      if (review.total) bar.value = review.done;
      panel.replaceChildren(note, bar);
    } else {
      panel.replaceChildren(note);
    }
    return;
  }
  const doc = data.review;
  const title = el("h2", { className: "review-title", text: t("web.review.title", { simulations: data.simulations }) });
  const intro = el("p", { className: "help", text: t("web.review.chart") });
  panel.replaceChildren(title, intro, chartFigure(doc), costliestList(data), positionBox());
}

/** The line chart: one line per seat of its chance before each move (0 to 100%). */
function chartFigure(doc) {
  // As wide as the panel, in its pixels: the lines, dots and labels keep their sizes.
  const { height, left, right, top, bottom } = CHART;
  const width = Math.max(280, Math.min(1000, Math.round(($("review").clientWidth || 640) - 34)));
  const moves = Math.max(1, Number(doc.moves) || 1);
  const chances = Array.isArray(doc.chances) ? doc.chances : [];
  const seats = chances.length ? chances[0].length : 0;
  const x = (move) => left + ((width - left - right) * move) / moves;
  const y = (chance) => top + (height - top - bottom) * (1 - Number(chance));
  const svg = svgEl("svg", {
    class: "review-chart",
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": t("web.review.chart_label"),
  });
  for (const level of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(svgEl("line", { class: "review-grid", x1: left, x2: width - right, y1: y(level), y2: y(level) }));
    const label = svgEl("text", { class: "review-axis", x: left - 6, y: y(level) + 4, "text-anchor": "end" });
    label.textContent = percent(level);
    svg.append(label);
  }
  const step = moves > 80 ? 20 : 10;
  for (let move = 0; move <= moves; move += step) {
    const label = svgEl("text", { class: "review-axis", x: x(move), y: height - 8, "text-anchor": "middle" });
    label.textContent = String(move);
    svg.append(label);
  }
  for (let seat = 0; seat < seats; seat += 1) {
    const points = chances.map((row, move) => `${x(move).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
    svg.append(svgEl("polyline", { class: `review-line seat-${seat % SEAT_COLORS}`, points, "data-seat": seat }));
  }
  for (const moment of moments()) {
    const row = chances[moment.move] || [];
    const selected = momentKey(moment) === review.selected;
    const dot = svgEl("circle", {
      class: `review-dot seat-${moment.seat % SEAT_COLORS}${selected ? " selected" : ""}`,
      cx: x(moment.move),
      cy: y(row[moment.seat] || 0),
      r: selected ? 7 : 5,
      "data-move": moment.move,
    });
    const tip = svgEl("title");
    tip.textContent = `${seatName(moment.seat)} · ${moveText(moment)}`;
    dot.append(tip);
    dot.addEventListener("click", () => select(moment));
    svg.append(dot);
  }
  const legend = el("ul", { className: "review-legend" });
  for (let seat = 0; seat < seats; seat += 1) {
    const final = chances.length ? chances[chances.length - 1][seat] : 0;
    legend.append(
      el(
        "li",
        { className: `seat-${seat % SEAT_COLORS}` },
        el("span", { className: "review-swatch", attrs: { "aria-hidden": "true" } }),
        `${seatName(seat)} · ${percent(final)}`,
      ),
    );
  }
  const caption = el("figcaption", null, legend);
  return el("figure", { className: "review-figure" }, svg, caption);
}

function moveText(moment) {
  return t("web.review.move", { move: moment.move, points: tn("web.review.points", points(moment.cost)) });
}

/** Each seat's costliest moves, as buttons that show them. */
function costliestList(data) {
  const box = el("div", { className: "review-seats" });
  for (const entry of data.costliest || []) {
    const average = t("web.review.average", { points: decimal(Number(entry.average_cost) * 100) });
    const section = el("section", { className: `review-seat seat-${entry.seat % SEAT_COLORS}` });
    section.append(el("h3", { text: t("web.review.costliest", { player: seatName(entry.seat), average }) }));
    const costly = (entry.moves || []).filter((moment) => points(moment.cost) >= 1);
    if (!costly.length) section.append(el("p", { className: "muted", text: t("web.review.no_costly") }));
    const list = el("ol", { className: "review-moves" });
    for (const moment of costly) {
      const selected = momentKey(moment) === review.selected;
      const button = el("button", {
        className: "review-move",
        attrs: { type: "button", "aria-pressed": String(selected), "data-move": moment.move, "data-seat": moment.seat },
      });
      button.append(
        el("strong", { text: moveText(moment) }),
        el("span", { text: t("web.review.played", { chance: percent(moment.chosen.win_chance), action: moment.chosen.text }) }),
        el("span", { className: "better", text: t("web.review.better", { chance: percent(moment.best.win_chance), action: moment.best.text }) }),
      );
      button.addEventListener("click", () => select(moment));
      list.append(el("li", null, button));
    }
    section.append(list);
    box.append(section);
  }
  return box;
}

/** The costly move chosen: the position its seat saw, the better move marked. */
function positionBox() {
  const moment = moments().find((item) => momentKey(item) === review.selected);
  const box = el("section", { className: "review-position", attrs: { id: "review-position", "aria-labelledby": "review-position-title" } });
  if (!moment) {
    box.hidden = true;
    return box;
  }
  const player = seatName(moment.seat);
  box.append(
    el("h3", { text: t("web.review.position", { move: moment.move, player }), attrs: { id: "review-position-title", tabindex: "-1" } }),
  );
  const view = moment.view || {};
  const best = moment.best.action || {};
  const chosen = moment.chosen.action || {};
  const rows = el("ol", { className: "review-rows" });
  (view.rows || []).forEach((row, index) => {
    const item = el("li", { className: "review-row", attrs: { "data-row": index } });
    const label = el("span", { className: "review-row-number", text: index, attrs: { "aria-hidden": "true" } });
    const cards = el("span", { className: "review-row-cards", attrs: { "aria-label": t("web.review.row", { row: index }) } });
    for (const species of row) cards.append(birdCard(species, "", speciesName(species)));
    const layHere = best.type === "lay" && best.row === index;
    const marker = (side) =>
      layHere && best.side === side
        ? el("span", { className: "review-here better", text: side === "left" ? "▶" : "◀", attrs: { title: t("web.review.here"), "aria-label": t("web.review.here") } })
        : null;
    if (layHere) item.classList.add("better");
    item.append(...[label, marker("left"), cards, marker("right")].filter(Boolean));
    rows.append(item);
  });
  const hand = el("ul", { className: "review-hand", attrs: { "aria-label": t("web.review.hand", { player }) } });
  for (const [species, count] of Object.entries(view.hand || {})) {
    const classes = ["review-hand-card"];
    if (best.species === species) classes.push("better");
    if (chosen.species === species) classes.push("chosen");
    hand.append(el("li", { className: classes.join(" ") }, birdCard(species, "", speciesName(species)), el("span", { className: "count", text: `×${count}` })));
  }
  box.append(
    el("p", { className: "review-played", text: t("web.review.played", { chance: percent(moment.chosen.win_chance), action: moment.chosen.text }) }),
    el("p", { className: "review-better better", text: t("web.review.better", { chance: percent(moment.best.win_chance), action: moment.best.text }) }),
    rows,
    el("h4", { text: t("web.review.hand", { player }) }),
    hand,
  );
  return box;
}
