/* The phrase table (GET /api/phrases/LANG): every text of the page, bird names and their
 * counted forms, lists joined with the narration's words, and the page's fixed texts. */

import { $, setText, stored } from "./dom.js";
import { app, countsList, FALLBACK_LANGUAGES } from "./state.js";

/** Fill a template of the phrase table: "{name}" fields, "{{" and "}}" for braces. */
function fill(template, fields) {
  return template.replace(/\{\{|\}\}|\{([A-Za-z_]\w*)\}/g, (whole, name) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    return Object.prototype.hasOwnProperty.call(fields, name) ? String(fields[name]) : whole;
  });
}

/** The phrase `key` in the page's language, its fields filled in. */
export function t(key, fields) {
  const template = app.phrases[key];
  return typeof template === "string" ? fill(template, fields || {}) : key;
}

/** A counted phrase: `key#category` for the plural category of `count` in the language. */
export function tn(key, count, fields) {
  const category = app.plurals.select(count);
  for (const name of [`${key}#${category}`, `${key}#other`, `${key}#many`]) {
    if (typeof app.phrases[name] === "string") {
      return fill(app.phrases[name], { ...(fields || {}), count });
    }
  }
  return key;
}

export function has(key) {
  return typeof app.phrases[key] === "string";
}

export function capitalize(text) {
  const value = String(text);
  return value.charAt(0).toLocaleUpperCase(app.language) + value.slice(1);
}

/** A species' name ("Owl", "Eule", "Сова"): the narration's word, capitalised. */
export function speciesName(id) {
  if (has(`species.${id}`)) return capitalize(t(`species.${id}`));
  const species = app.byId.get(id);
  return species ? species.name : String(id);
}

/** "3 owls", "1 Eule", "2 совы": the narration's counted bird names. */
export function birds(id, count) {
  const key = `birds.${id}`;
  return has(`${key}#other`) || has(`${key}#many`) ? tn(key, count) : `${count} ${speciesName(id)}`;
}

/** "1 сову", "3 ducks": the counted bird names as a verb's object (the narration's
 * "birds_object" phrases: the accusative in Russian, the plain form in English and German). */
export function birdsObject(id, count) {
  const key = `birds_object.${id}`;
  return has(`${key}#other`) || has(`${key}#many`) ? tn(key, count) : birds(id, count);
}

/** "a, b and c", with the narration's list phrases. */
function joinList(items) {
  if (items.length === 0) return t("nothing");
  if (items.length === 1) return items[0];
  if (items.length === 2) return t("list_two", { a: items[0], b: items[1] });
  let text = items[0];
  for (const item of items.slice(1, -1)) text = t("list_start", { a: text, b: item });
  return t("list_end", { a: text, b: items[items.length - 1] });
}

/** Cards as counted birds, in the order they come: ["robin", "robin", "duck"] ->
 * "2 robins and 1 duck". */
export function cardsText(cards) {
  const counts = new Map();
  for (const card of cards) counts.set(card, (counts.get(card) || 0) + 1);
  return joinList([...counts].map(([id, count]) => birds(id, count)));
}

/** Cards as counted birds that a verb takes as its object ("забираете 1 малиновку"). */
export function cardsObjectText(cards) {
  const counts = new Map();
  for (const card of cards) counts.set(card, (counts.get(card) || 0) + 1);
  return joinList([...counts].map(([id, count]) => birdsObject(id, count)));
}

export function countsText(counts) {
  return joinList(countsList(counts).map(([species, count]) => birds(species.id, count)));
}

/** Put the phrases into the page's fixed texts (data-t and data-t-* attributes). */
export function translatePage() {
  document.documentElement.lang = app.language;
  for (const node of document.querySelectorAll("[data-t]")) setText(node, t(node.dataset.t));
  for (const [attribute, target] of [
    ["data-t-label", "aria-label"],
    ["data-t-title", "title"],
    ["data-t-placeholder", "placeholder"],
  ]) {
    for (const node of document.querySelectorAll(`[${attribute}]`)) {
      node.setAttribute(target, t(node.getAttribute(attribute)));
    }
  }
  $("lang").value = app.language;
}

/** The language to start in: the one chosen before, else the browser's first we have. */
export function firstLanguage() {
  const chosen = stored("language", null);
  if (chosen && FALLBACK_LANGUAGES.includes(chosen)) return chosen;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const primary = String(tag).toLowerCase().split("-")[0];
    if (FALLBACK_LANGUAGES.includes(primary)) return primary;
  }
  return "en";
}
