/* The moves shown moving (Web Animations API): laid cards come from the player, captured
 * ones go to them, refilled ones come face down from the draw pile and turn over. Nothing
 * moves under prefers-reduced-motion. */

import { $, el } from "./dom.js";
import { app } from "./state.js";
import { birdCard } from "./cards.js";
import { layoutRow } from "./rows.js";

const ANIMATION_MS = 320;
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function motionOk() {
  return !reducedMotion.matches && typeof Element.prototype.animate === "function";
}

function animate(node, frames, options) {
  if (!motionOk() || !node) return Promise.resolve();
  app.animations += 1;
  document.body.dataset.animations = String(app.animations);
  const timing = { duration: ANIMATION_MS, easing: "cubic-bezier(.2,.7,.2,1)", fill: "none", ...options };
  return node.animate(frames, timing).finished.catch(() => undefined);
}

/** Where a player's cards come from and go to: their hand (the reader's own) or their
 * place among the players. */
function seatBox(seat, species) {
  if (seat === app.seat) {
    const card = document.querySelector(`#hand [data-species="${CSS.escape(String(species))}"] .stack`);
    if (card) return card.getBoundingClientRect();
    const hand = $("hand");
    if (hand && hand.offsetParent) return hand.getBoundingClientRect();
  }
  const panel = document.querySelector(`#players [data-seat="${seat}"]`);
  return panel ? panel.getBoundingClientRect() : null;
}

function offset(from, node) {
  const to = node.getBoundingClientRect();
  return {
    x: from.left + from.width / 2 - (to.left + to.width / 2),
    y: from.top + from.height / 2 - (to.top + to.height / 2),
  };
}

/** The laid cards come from the player to their end of the row. */
export async function animateLay(event) {
  const row = document.querySelector(`#rows [data-row="${event.row}"]`);
  const list = row && row.querySelector(".row-cards");
  if (!list) return;
  const from = seatBox(event.player, event.species);
  const added = [];
  for (let i = 0; i < event.count; i += 1) {
    const item = el("li", { className: "incoming" }, birdCard(event.species, "last", null));
    if (event.side === "left") list.prepend(item);
    else list.append(item);
    added.push(item);
  }
  layoutRow(row);
  row.classList.add("last-row");
  await Promise.all(
    added.map((item, i) => {
      const shift = from ? offset(from, item) : { x: 0, y: -40 };
      return animate(
        item,
        [
          { transform: `translate(${shift.x}px, ${shift.y}px) scale(0.8) rotate(-8deg)`, opacity: 0.4 },
          { transform: "none", opacity: 1 },
        ],
        { delay: i * 60 },
      );
    }),
  );
}

/** The captured cards, next to the laid ones, go to the player. */
export async function animateCapture(event, lay) {
  const row = document.querySelector(`#rows [data-row="${event.row}"]`);
  const list = row && row.querySelector(".row-cards");
  if (!list) return;
  const items = [...list.children];
  const count = Array.isArray(event.cards) ? event.cards.length : 0;
  const taken =
    lay.side === "left"
      ? items.slice(lay.count, lay.count + count)
      : items.slice(Math.max(0, items.length - lay.count - count), items.length - lay.count);
  const to = seatBox(event.player, null);
  await Promise.all(
    taken.map((item, i) => {
      item.classList.add("taken");
      const shift = to ? offset(to, item) : { x: 0, y: 60 };
      return animate(
        item,
        [
          { transform: "none", opacity: 1 },
          { transform: "translateY(-14px) scale(1.05)", opacity: 1, offset: 0.3 },
          { transform: `translate(${-shift.x}px, ${-shift.y}px) scale(0.5)`, opacity: 0 },
        ],
        { delay: i * 50, duration: ANIMATION_MS + 120, fill: "forwards" },
      );
    }),
  );
}

/** The refilled cards come face down from the draw pile and turn over. */
export function animateRefill(event) {
  const row = document.querySelector(`#rows [data-row="${event.row}"] .row-cards`);
  if (!row) return;
  const items = [...row.children].slice(-event.cards.length);
  const pile = document.querySelector("#piles .draw-pile");
  const from = pile ? pile.getBoundingClientRect() : null;
  items.forEach((item, i) => {
    const shift = from ? offset(from, item) : { x: 0, y: -40 };
    animate(
      item,
      [
        { transform: `translate(${shift.x}px, ${shift.y}px) rotateY(90deg)`, opacity: 0 },
        { transform: "rotateY(90deg)", opacity: 1, offset: 0.6 },
        { transform: "none", opacity: 1 },
      ],
      { delay: i * 80, duration: ANIMATION_MS + 160 },
    );
  });
}

export function pulse(selector) {
  const node = document.querySelector(selector);
  if (node) animate(node, [{ transform: "scale(1)" }, { transform: "scale(1.12)" }, { transform: "scale(1)" }], {});
}
