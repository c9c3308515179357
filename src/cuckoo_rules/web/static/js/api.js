/* The JSON API: requests with the seat's token in a header and errors in the reader's
 * words, and the documents read at start (phrases, meta, bots). */

import { app } from "./state.js";
import { has, t } from "./phrases.js";

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export function authHeaders(headers) {
  if (app.token) headers.Authorization = `Bearer ${app.token}`;
  return headers;
}

export async function api(method, path, body, options) {
  // The server says what was wrong in the page's language when it can (Content-Language).
  const headers = { Accept: "application/json", "Accept-Language": app.language };
  if (!options || options.auth !== false) authHeaders(headers);
  const init = { method, headers, cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, has("web.error.network") ? t("web.error.network") : String(error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const what = explainStatus(response.status);
    const spoken = (response.headers.get("Content-Language") || "en") === app.language;
    // The server's English detail is left out of a German or Russian page.
    const detail = data && typeof data.error === "string" && spoken ? data.error : null;
    throw new ApiError(response.status, detail ? t("web.error.detail", { what, detail }) : what);
  }
  if (data === null) throw new ApiError(response.status, t("web.error.unreadable"));
  return data;
}

export function explainStatus(status) {
  const key = `web.error.${status}`;
  return has(key) ? t(key) : t("web.error.status", { status });
}

export function tablePath(suffix, query) {
  const params = new URLSearchParams(query || {});
  const text = params.toString();
  return `/api/tables/${encodeURIComponent(app.table)}${suffix || ""}${text ? `?${text}` : ""}`;
}

export async function loadPhrases(language) {
  const data = await api("GET", `/api/phrases/${encodeURIComponent(language)}`, undefined, {
    auth: false,
  });
  app.phrases = data.phrases && typeof data.phrases === "object" ? data.phrases : {};
  app.language = typeof data.language === "string" ? data.language : language;
  if (Array.isArray(data.languages) && data.languages.length) app.languages = data.languages.map(String);
  app.plurals = new Intl.PluralRules(app.language);
}

/** Read /api/meta: the rule variants for the form, the species, the win, and whether
 * the server gives hints (no Hint button when it cannot). */
export async function loadMeta() {
  const data = await api("GET", "/api/meta", undefined, { auth: false });
  app.meta = data;
  app.species = Array.isArray(data.species) ? data.species : [];
  app.byId = new Map(app.species.map((s) => [s.id, s]));
  app.win = data.win || null;
  app.options = Array.isArray(data.options) ? data.options : [];
  app.hints = data.hints === true;
}

export async function loadBots() {
  try {
    const data = await api("GET", "/api/bots", undefined, { auth: false });
    if (Array.isArray(data.bots) && data.bots.length) app.bots = data.bots.map(String);
  } catch (error) {
    // The usual bots are offered; creating a table says what is wrong, if anything.
  }
}
