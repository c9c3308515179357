/* The players' panels: name, seat, bot, hand size, the cards seen entering it, the
 * collection and the progress towards a win. */

import { $, el } from "./dom.js";
import { app, countsList, isBot, isOver, winners } from "./state.js";
import { countsText, speciesName, t, tn } from "./phrases.js";
import { botLabel, progressText, seatName } from "./words.js";
import { birdCard, cardSvg } from "./cards.js";

export function renderPlayers() {
  const view = app.view;
  const container = $("players");
  const sizes = view.hand_sizes || [];
  container.replaceChildren(...sizes.map((_, seat) => playerPanel(view, seat)));
}

function playerPanel(view, seat) {
  const collection = (view.collections || [])[seat] || {};
  const known = (view.known_hands || [])[seat] || {};
  const won = winners();
  const classes = ["player"];
  if (seat === app.seat) classes.push("me");
  if (!isOver() && seat === view.current_player) classes.push("current");
  if (app.thinking === seat && !isOver()) classes.push("thinking");
  if (won.includes(seat)) classes.push("winner");
  const title = el("h3", null, el("span", { className: "player-name", text: seatName(seat) }));
  const label = t("seat", { seat });
  const tags = seatName(seat).startsWith(label) ? [] : [label];
  if (seat === app.seat) tags.push(t("web.you"));
  else if (isBot(seat) && seatName(seat) !== botLabel(app.seats[seat])) tags.push(botLabel(app.seats[seat]));
  else if (app.free.includes(seat)) tags.push(t("web.free_seat"));
  if (tags.length) title.append(el("span", { className: "muted tags", text: tags.join(" · ") }));
  if (classes.includes("thinking")) {
    title.append(el("span", { className: "badge thinking-badge", text: t("web.thinking_badge") }));
  }
  else if (classes.includes("current")) title.append(el("span", { className: "badge", text: t("web.to_play") }));
  if (won.includes(seat)) title.append(el("span", { className: "badge win", text: t("web.winner") }));
  const panel = el("article", { className: classes.join(" "), attrs: { "data-seat": seat } }, title);
  const size = view.hand_sizes[seat];
  const hand = el(
    "p",
    { className: "hand-size" },
    cardSvg("card-back", "back-chip", null),
    el("span", { text: tn("web.hand_size", size) }),
  );
  const knownItems = countsList(known);
  if (knownItems.length && seat !== app.seat) {
    hand.append(el("span", { className: "known", text: t("web.known", { cards: countsText(known) }) }));
  }
  panel.append(hand);
  panel.append(el("p", { className: "progress", text: progressText(seat) }));
  panel.append(collectionCards(collection));
  return panel;
}

function collectionCards(collection) {
  const items = countsList(collection);
  const list = el("ul", { className: "collection", attrs: { "aria-label": t("web.collection") } });
  if (!items.length) list.append(el("li", { className: "muted", text: t("web.no_birds") }));
  for (const [species, count] of items) {
    list.append(
      el(
        "li",
        { className: "collected", attrs: { "data-species": species.id } },
        birdCard(species.id, "mini", `${speciesName(species.id)} ×${count}`),
        el("span", { className: "count", text: count, attrs: { "aria-hidden": "true" } }),
      ),
    );
  }
  return list;
}
