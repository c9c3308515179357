/* The CuBirds browser client of `cuckoo-rules serve`: plain JavaScript, no framework, no
 * build step. This file starts it; the rest are the ES modules of js/, which the browser
 * loads through their `import`s (each module imports only from the ones listed before it):
 *
 * - dom.js: making elements, setting text, the browser's storage, the alert area;
 * - state.js: what the page knows (`app`), the questions asked of it, a table's timers;
 * - phrases.js: the phrase table (every text of the page), bird names, lists;
 * - api.js: the JSON API, and the documents read at start (phrases, meta, bots);
 * - theme.js, fragment.js: dark mode; the address's #table=ID&token=T (or &invite=CODE,
 *   an invitation to exchange for a seat's token) and the invitations of the share links;
 * - words.js: what the page calls seats, bots, progress, the outcome and each move;
 * - cards.js: a card drawn from the sprite birds.svg;
 * - focus.js: where the focus goes after a redraw, and the controls disabled while busy;
 * - rows.js, hand.js, hint.js, players.js, panels.js: drawing the rows (and their ends,
 *   the lay targets), the hand and the phase's moves, the hint, the players, the status
 *   bar, the game-over banner, the share links and the log; render.js draws them all;
 * - animation.js: cards laid, captured and refilled, moved with the Web Animations API;
 * - playback.js: what was received, shown one action at a time, and the table document
 *   taken in;
 * - moves.js: playing a move (click-to-play), the rematch;
 * - stream.js: the push stream (Server-Sent Events read with fetch), polling as fallback;
 * - lobby.js, table.js, setup.js: the open tables, opening a table, the new-game form;
 * - review.js: the review of a finished game (its tab, chart, costliest moves).
 *
 * What it reads (docs/web.md is the API, docs/web-client.md this client):
 * - GET /api/phrases/LANG: every text of the page (keys "web.*"), the bird names and their
 *   counted forms (keys "species.*", "birds.*#category"), in English, German or Russian;
 * - GET /api/meta and /api/bots: the species, the win, the rule variants, the bot kinds;
 * - GET /api/lobby: the open tables with a free seat (POST .../join takes one);
 * - GET /api/tables/ID: the seat's table document (the view, the legal actions and what
 *   each would do, the outcome, the names), and GET /api/tables/ID/stream: the same
 *   pushed as Server-Sent Events, read with fetch so that the token stays in a header.
 *
 * The server owns the rules, the species and the sentences: the page holds no rule and no
 * species table. It offers the legal actions it is sent and says what each would do from
 * the previews sent with them, shows who won and why from the outcome, and tells what
 * happened with the sentences sent with the events. The events it receives are played one
 * action at a time (cards laid, captured and refilled move with the Web Animations API,
 * unless the reader asks for reduced motion), with a short pause after each other
 * player's action. Every piece of data goes into the page with textContent, never as HTML.
 */

import { $, clearError, showError, store, stored } from "./js/dom.js";
import { app, hooks } from "./js/state.js";
import { firstLanguage, translatePage } from "./js/phrases.js";
import { loadBots, loadMeta, loadPhrases } from "./js/api.js";
import { applyTheme, darkScheme, toggleTheme } from "./js/theme.js";
import { setFragment } from "./js/fragment.js";
import { layoutRows } from "./js/rows.js";
import { selectSpecies } from "./js/hand.js";
import { askHint } from "./js/hint.js";
import { act, follow, rematch } from "./js/moves.js";
import { refreshLobby, renderLobby } from "./js/lobby.js";
import { openFromFragment, openTable, showSetup } from "./js/table.js";
import { renderSeatFields, renderSetupTexts, renderStartArt, startGame } from "./js/setup.js";
import { startReview } from "./js/review.js";

// The calls that go up the order of the modules (see `hooks` in state.js).
hooks.act = act;
hooks.openTable = openTable;

/** Speak `language`: its phrases, the page's texts, and the table read again whole (the
 * narration comes from the server in the reader's language). */
async function switchLanguage(language) {
  if (language === app.language && Object.keys(app.phrases).length) return;
  try {
    await loadPhrases(language);
  } catch (error) {
    showError(error.message);
    $("lang").value = app.language;
    return;
  }
  store("language", app.language);
  translatePage();
  renderSetupTexts();
  renderStartArt(); // the cards' initials are the language's
  renderLobby();
  if (app.table) {
    // The narration comes in the reader's language: read the table again, whole.
    await openTable(app.table, app.token);
  }
}

/** Wire the page's fixed controls, read the phrases, the meta and the bots, then open the
 * table the address names (or the start screen). */
async function init() {
  document.body.dataset.renders = "0";
  document.body.dataset.busy = "false";
  document.body.dataset.live = "off";
  applyTheme();
  darkScheme.addEventListener("change", applyTheme);
  $("theme").addEventListener("click", toggleTheme);
  $("lang").addEventListener("change", () => switchLanguage($("lang").value));
  $("num-players").addEventListener("change", renderSeatFields);
  $("setup-form").addEventListener("submit", startGame);
  $("error-close").addEventListener("click", () => clearError());
  $("hint-button").addEventListener("click", askHint);
  $("rematch").addEventListener("click", rematch);
  $("rematch-follow").addEventListener("click", () => {
    const table = $("rematch-follow").dataset.table;
    if (table) follow(table);
  });
  $("lobby-refresh").addEventListener("click", refreshLobby);
  $("my-name").value = stored("name", "");
  $("new-game").addEventListener("click", () => {
    setFragment("");
    clearError();
    showSetup();
    $("num-players").focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && app.selected) selectSpecies(null);
  });
  document.addEventListener("pointerdown", () => { app.pointer = true; }, true);
  document.addEventListener("keydown", () => { app.pointer = false; }, true);
  window.addEventListener("hashchange", openFromFragment);
  if (typeof ResizeObserver === "function") new ResizeObserver(() => layoutRows()).observe($("rows"));
  try {
    await Promise.all([loadPhrases(firstLanguage()), loadMeta(), loadBots()]);
  } catch (error) {
    showError(error.message);
  }
  translatePage();
  renderSetupTexts();
  renderStartArt();
  startReview();
  document.body.dataset.ready = "true";
  openFromFragment();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
