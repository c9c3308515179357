/* The hint: the expert's best moves (GET /api/tables/ID/hint), each a button that plays it. */

import { $, clearError, el, setText, showError } from "./dom.js";
import { app, hooks, isBusy, isOver, myTurn } from "./state.js";
import { t } from "./phrases.js";
import { api, tablePath } from "./api.js";

/** Ask the server for the expert's best moves at this move (computed from this seat's
 * view and what its history proves); the answer is kept until the next move. */
export async function askHint() {
  if (isBusy() || !app.hints || !app.table || !myTurn()) return;
  const generation = app.generation;
  const move = app.move;
  clearError();
  app.hint = { move, loading: true, data: null };
  renderHint();
  try {
    const data = await api("GET", tablePath("/hint", { lang: app.language }));
    if (generation !== app.generation || !app.hint || app.hint.move !== move) return;
    app.hint = { move, loading: false, data };
    renderHint();
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused === $("hint-button")) {
      const first = document.querySelector("#hint-list button:not([disabled])");
      if (first) first.focus({ preventScroll: app.pointer });
    }
  } catch (error) {
    if (generation !== app.generation) return;
    if (app.hint && app.hint.move === move) app.hint = null;
    renderHint();
    showError(error.message);
  }
}

/** The same action: the server encodes every action the same way, key for key. */
function sameAction(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function renderHint() {
  const button = $("hint-button");
  const box = $("hint");
  const list = $("hint-list");
  // A server without the batch extra gives no hints (/api/meta): no button then.
  const offered = app.hints && app.seat !== null && myTurn() && !isOver();
  const current = offered && app.hint && app.hint.move === app.move ? app.hint : null;
  const loading = Boolean(current && current.loading);
  button.hidden = !offered;
  button.dataset.enabled = String(!loading);
  button.disabled = isBusy() || loading;
  setText(button, loading ? t("web.hint_busy") : t("web.hint"));
  list.replaceChildren();
  box.hidden = current === null;
  if (current === null) return;
  if (loading) {
    setText($("hint-title"), t("web.hint_loading"));
    return;
  }
  const data = current.data || {};
  const hints = Array.isArray(data.hints) ? data.hints : [];
  setText($("hint-title"), t("web.hint_title", { simulations: data.simulations }));
  for (const hint of hints) {
    const action = app.legal.find((legal) => sameAction(legal, hint.action)) || null;
    const percent = `${Math.round(Number(hint.win_chance) * 100)}%`;
    const move = el("button", {
      className: "hint-move",
      attrs: {
        type: "button",
        "data-focus": `hint:${JSON.stringify(hint.action)}`,
        "data-action": "",
        "data-enabled": String(Boolean(action)),
      },
    });
    move.append(el("span", { className: "chance", text: percent }), " ", String(hint.text));
    move.disabled = isBusy() || !action;
    if (action) move.addEventListener("click", () => hooks.act(action));
    list.append(el("li", null, move));
  }
}
