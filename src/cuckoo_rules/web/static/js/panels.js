/* The status bar (whose turn, who is thinking, the piles, the counters), the game-over
 * banner, the notices, the share links and the log. */

import { $, el, setText, srOnly } from "./dom.js";
import { app, isOver, myTurn, winners } from "./state.js";
import { capitalize, has, t } from "./phrases.js";
import { inviteUrl, loadInvitations, pageUrl, saveInvitations } from "./fragment.js";
import { overText, progressText, seatName, who } from "./words.js";
import { cardSvg } from "./cards.js";

const MAX_LOG = 400;

function phaseWords(phase) {
  return has(`web.phase.${phase}`) ? t(`web.phase.${phase}`) : String(phase);
}

function statusText() {
  const view = app.view;
  if (!view) return t("web.loading");
  if (isOver()) return overText();
  if (app.status === "expired") return t("web.expired");
  if (myTurn()) return t("web.your_turn", { doing: phaseWords(view.phase) });
  const current = view.current_player;
  const doing = phaseWords(view.phase);
  let text;
  if (app.free.includes(current)) text = t("web.waiting_join", { player: seatName(current) });
  else text = t("web.other_turn", { player: capitalize(who(current)), doing });
  return app.seat === null ? `${t("web.watching_note")} ${text}` : text;
}

export function renderStatus() {
  setText($("status"), statusText());
  const thinking = $("thinking");
  const bot = app.thinking !== null && !isOver();
  thinking.hidden = !bot;
  if (bot) setText($("thinking-text"), t("web.thinking", { player: capitalize(seatName(app.thinking)) }));
  if (isOver()) document.title = t("web.title_over");
  else if (myTurn()) document.title = t("web.title_turn");
  else document.title = t("web.page_title");
  $("game").classList.toggle("my-turn", myTurn());
}

export function renderPiles() {
  const view = app.view;
  const piles = $("piles");
  const pile = (symbol, className, count, label) =>
    el(
      "div",
      { className: `pile ${className}`, attrs: { title: label } },
      cardSvg(symbol, "pile-card", null),
      el("span", { className: "pile-count", text: count }),
      srOnly(label),
    );
  piles.replaceChildren(
    pile("card-back", "draw-pile", view.draw_pile_size, t("web.draw_pile", { count: view.draw_pile_size })),
    pile(
      "card-back",
      "discard-pile",
      view.discard_pile_size,
      t("web.discard_pile", { count: view.discard_pile_size }),
    ),
  );
  const counters = [
    [t("web.round"), view.round],
    [t("web.turn"), view.turn],
    [t("web.you_are"), app.seat === null ? t("web.spectator") : t("seat", { seat: app.seat })],
  ];
  $("counters").replaceChildren(
    ...counters.map(([term, value]) => el("div", null, el("dt", { text: term }), el("dd", { text: value }))),
  );
}

export function renderGameOver() {
  const box = $("gameover");
  if (!isOver()) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const won = winners();
  setText($("gameover-title"), overText());
  const reason = app.outcome ? app.outcome.reason_text : null;
  setText($("gameover-reason"), reason ? t("web.reason", { reason }) : "");
  box.classList.toggle("won", app.seat !== null && won.includes(app.seat));
  const standings = $("standings");
  standings.replaceChildren();
  (app.view.collections || []).forEach((collection, seat) => {
    const key = won.includes(seat) ? "web.standing_winner" : "web.standing";
    const text = t(key, { player: capitalize(who(seat)), progress: progressText(seat) });
    standings.append(el("li", { text, className: won.includes(seat) ? "winner" : "" }));
  });
  // The fairness proof (seed, salt, commitment, check_deal), folded under "Check this
  // deal", closed until opened.
  const deal = app.deal;
  const proven = Boolean(deal && deal.seed !== null && deal.commitment);
  $("gameover-check").hidden = !proven;
  if (!proven) $("gameover-check").open = false;
  setText(
    $("gameover-deal"),
    proven ? t("web.deal", { seed: deal.seed, salt: deal.salt, commitment: deal.commitment }) : "",
  );
  const seated = app.seat !== null && app.token;
  $("rematch").hidden = !seated || Boolean(app.rematch);
  const offer = $("rematch-offer");
  offer.hidden = !app.rematch;
  if (app.rematch) {
    setText($("rematch-text"), t("web.rematch_ready"));
    const go = $("rematch-follow");
    setText(go, seated ? t("web.rematch_follow") : t("web.rematch_watch"));
    go.dataset.table = app.rematch;
  }
}

/** The moves a stand-in played (a bot that failed twice), as the server words them. */
export function renderNotices() {
  const list = $("notices");
  list.replaceChildren();
  for (const notice of app.notices) {
    list.append(el("li", { text: t("web.notice", { move: Number(notice.move) + 1, text: String(notice.text) }) }));
  }
  list.hidden = app.notices.length === 0;
}

export function renderShare() {
  // An invitation works once: the link of a seat someone took is dead, and forgotten.
  const saved = loadInvitations(app.table);
  const invitations = Object.fromEntries(
    Object.entries(saved).filter(([seat]) => !app.doc || app.free.includes(Number(seat))),
  );
  if (Object.keys(invitations).length !== Object.keys(saved).length) saveInvitations(app.table, invitations);
  const list = $("share-list");
  list.replaceChildren();
  for (const [seat, invitation] of Object.entries(invitations)) {
    if (Number(seat) === app.seat) continue; // this page is that seat
    const label = t("web.share_seat", { seat, player: seatName(Number(seat)) });
    list.append(shareItem(label, inviteUrl(app.table, String(invitation)), `share-${seat}`, `share-seat`));
  }
  list.append(shareItem(t("web.share_watch"), pageUrl(app.table, null), "share-watch", "share-watch"));
  // Open while a friend's seat is free (the links are wanted then), closed after.
  const box = $("share");
  const waiting = Object.keys(invitations).some((seat) => Number(seat) !== app.seat);
  if (waiting && box.dataset.auto !== "open") {
    box.open = true;
    box.dataset.auto = "open";
  } else if (!waiting && box.dataset.auto === "open") {
    box.open = false;
    box.dataset.auto = "closed";
  }
}

function shareItem(label, url, key, className) {
  const link = el("a", { text: label, className, attrs: { href: url, target: "_blank", rel: "noopener" } });
  const copy = el("button", {
    text: t("web.copy"),
    className: "small",
    attrs: { type: "button", "data-focus": key },
  });
  copy.addEventListener("click", () => copyText(url, copy));
  return el("li", null, link, " ", copy);
}

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t("web.copied");
  } catch (error) {
    window.prompt(t("web.copy_prompt"), text);
  }
}

/** Add the sentences the server sent with the events (null: nothing to say). `last`
 * marks them as the last turn's: "new" (a new turn, the marks before go), "more" (the
 * same turn goes on) or null (no move). */
export function appendLog(events, narration, last) {
  const log = $("log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 48;
  if (last === "new") for (const item of log.querySelectorAll("li.last")) item.classList.remove("last");
  events.forEach((event, index) => {
    const text = narration[index];
    if (typeof text !== "string" || !text) return;
    const item = el("li", { text, className: `ev-${event.type}` });
    if (typeof event.player === "number" && event.player === app.seat) item.classList.add("mine");
    if (last) item.classList.add("last");
    log.append(item);
  });
  while (log.children.length > MAX_LOG) log.firstElementChild.remove();
  setText($("log-empty"), log.children.length ? "" : t("web.log_empty"));
  if (atBottom || last) log.scrollTop = log.scrollHeight;
}
