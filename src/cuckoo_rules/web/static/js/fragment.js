/* The address's fragment (never sent to the server): #table=ID&token=T for a seat,
 * #table=ID&invite=CODE for an invitation link, #table=ID for a spectator; and the
 * invitations of the other seats, kept in this browser for the share links. A browser
 * keeps its own seat's token and the invitations it may send, never another seat's
 * token: an invitation buys its seat once, and then only the one who used it holds it. */

import { store, stored } from "./dom.js";

export function readFragment() {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  return { table: params.get("table"), token: params.get("token"), invite: params.get("invite") };
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

/** The link of an invitation: whoever opens it first takes the seat (once). */
export function inviteUrl(table, invitation) {
  const { origin, pathname, search } = window.location;
  const params = new URLSearchParams({ table, invite: invitation });
  return `${origin}${pathname}${search}#${params.toString()}`;
}

export function setFragment(fragment) {
  window.history.replaceState(null, "", fragment || window.location.pathname + window.location.search);
}

/** The other seats' invitations ({seat: code}), kept so the share links survive a reload. */
export function saveInvitations(table, invitations) {
  store(`invite:${table}`, Object.keys(invitations).length ? JSON.stringify(invitations) : null);
}

export function loadInvitations(table) {
  try {
    const value = JSON.parse(stored(`invite:${table}`, "{}"));
    return value && typeof value === "object" ? value : {};
  } catch (error) {
    return {};
  }
}

/** Forget what clients before invitations kept: every other seat's token ("share:ID"). */
export function forgetSharedTokens() {
  try {
    const storage = window.localStorage;
    const old = [];
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key && key.startsWith("cuckoo-rules:share:")) old.push(key);
    }
    for (const key of old) storage.removeItem(key);
  } catch (error) {
    // Storage disabled: nothing was kept.
  }
}
