/* A card drawn from the sprite birds.svg: <svg class="card"><use href="...#bird-ID"/></svg>,
 * its top left corner marked with the species' initial in the page's language
 * (the web.initial phrases: O for the owl in English, Eu in German, Св in Russian), drawn
 * over the sprite's own (English) letter. */

import { svgEl } from "./dom.js";
import { has, t } from "./phrases.js";

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
  const key = `web.initial.${species}`;
  if (has(key)) {
    const initial = t(key);
    svg.append(
      svgEl("rect", { class: "initial-box", x: 4, y: 4, width: 31, height: 26, rx: 6, fill: "#ffffff" }),
      svgEl("text", {
        class: "initial",
        x: 19.5,
        y: 24,
        "font-family": "system-ui, sans-serif",
        "font-size": initial.length > 1 ? 17 : 22,
        "font-weight": 800,
        "text-anchor": "middle",
        fill: "#2b2b2b",
      }),
    );
    svg.lastChild.textContent = initial;
  }
  return svg;
}
