/* A card drawn from the sprite birds.svg: <svg class="card"><use href="...#bird-ID"/></svg>. */

import { svgEl } from "./dom.js";

const SPRITE = "/static/birds.svg";

/** A card drawn from the sprite: <svg class="card"><use href="birds.svg#bird-ID"/></svg>;
 * `label` names it for screen readers (null: decorative). */
export function cardSvg(symbol, className, label) {
  const svg = svgEl("svg", {
    class: `card ${className || ""}`.trim(),
    viewBox: "0 0 100 140",
    focusable: "false",
    role: label ? "img" : null,
    "aria-label": label || null,
    "aria-hidden": label ? null : "true",
  });
  if (label) {
    const title = svgEl("title");
    title.textContent = label;
    svg.append(title);
  }
  svg.append(svgEl("use", { href: `${SPRITE}#${symbol}` }));
  return svg;
}

export function birdCard(species, className, label) {
  const svg = cardSvg(`bird-${species}`, `sp-${species} ${className || ""}`, label);
  svg.dataset.species = species;
  return svg;
}
