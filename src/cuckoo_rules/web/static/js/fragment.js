/* The address's fragment (#table=ID&token=T, never sent to the server) and the other
 * seats' tokens kept in this browser for the share links. */

import { store, stored } from "./dom.js";

export function readFragment() {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  return { table: params.get("table"), token: params.get("token") };
}

export function fragmentFor(table, token) {
  const params = new URLSearchParams({ table });
  if (token) params.set("token", token);
  return `#${params.toString()}`;
}

export function pageUrl(table, token) {
  const { origin, pathname, search } = window.location;
  return `${origin}${pathname}${search}${fragmentFor(table, token)}`;
}

export function setFragment(fragment) {
  window.history.replaceState(null, "", fragment || window.location.pathname + window.location.search);
}

/** Other seats' tokens, kept in this browser so the share links survive a reload. */
export function saveShareTokens(table, tokens) {
  store(`share:${table}`, JSON.stringify(tokens));
}

export function loadShareTokens(table) {
  try {
    const value = JSON.parse(stored(`share:${table}`, "{}"));
    return value && typeof value === "object" ? value : {};
  } catch (error) {
    return {};
  }
}
