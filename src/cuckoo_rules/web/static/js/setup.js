/* The start screen's new-game form: the seats, the rule variants (from /api/meta), the
 * seed; the fan of cards; the species key. */

import { $, clearError, el, showError } from "./dom.js";
import { app } from "./state.js";
import { has, speciesName, t } from "./phrases.js";
import { api } from "./api.js";
import { fragmentFor, saveInvitations, setFragment } from "./fragment.js";
import { botLabel } from "./words.js";
import { birdCard } from "./cards.js";
import { myName } from "./lobby.js";
import { openTable } from "./table.js";

function seatSelect(id, selectedValue) {
  const select = el("select", { attrs: { id } });
  for (const value of [...app.bots, "human"]) {
    const text = value === "human" ? t("web.human_seat") : botLabel(value);
    select.append(el("option", { text, attrs: { value, selected: value === selectedValue } }));
  }
  return select;
}

export function renderSeatFields() {
  const container = $("seat-fields");
  const previous = [...container.querySelectorAll("select")].map((select) => select.value);
  const names = [...container.querySelectorAll("input")].map((input) => input.value);
  const players = Number($("num-players").value);
  const fallback = app.bots.includes("greedy") ? "greedy" : app.bots[0];
  container.replaceChildren();
  for (let seat = 1; seat < players; seat += 1) {
    const select = seatSelect(`seat-${seat}`, previous[seat - 1] || fallback);
    const name = el("input", {
      attrs: {
        id: `seat-name-${seat}`,
        type: "text",
        maxlength: 24,
        autocomplete: "off",
        value: names[seat - 1] || "",
        "aria-label": t("web.seat_name", { seat }),
        placeholder: t("web.name_placeholder"),
      },
    });
    const label = el("label", { text: t("web.seat_n", { seat }), attrs: { for: `seat-${seat}` } });
    container.append(el("div", { className: "seat-row" }, label, select, name));
  }
}

/** A fan of the species' cards, above the lobby. */
export function renderStartArt() {
  const fan = $("start-art");
  const count = app.species.length;
  fan.replaceChildren(
    ...app.species.map((species, i) => {
      const card = birdCard(species.id, "fan-card", null);
      card.style.setProperty("--turn", String(i - (count - 1) / 2));
      return card;
    }),
  );
}

/** The texts of the start form that are built, not fixed: seats, variants. */
export function renderSetupTexts() {
  renderSeatFields();
  renderVariantFields();
  renderSpeciesTable();
}

function optionType(values) {
  if (values.every((value) => typeof value === "boolean")) return "bool";
  if (values.every((value) => typeof value === "number")) return "int";
  return "str";
}

/** An option's words: this client's phrases, else /api/meta's English. */
function optionText(option, part, fallback) {
  const key = part ? `web.option.${option.name}.${part}` : `web.option.${option.name}`;
  return has(key) ? t(key) : fallback;
}

function choiceText(option, choice) {
  const key = `web.choice.${option.name}.${String(choice.value)}`;
  return has(key) ? t(key) : choice.text;
}

function variantField(option, current) {
  const id = `opt-${option.name}`;
  const values = option.choices.map((choice) => choice.value);
  const type = optionType(values);
  const help = el("p", {
    className: "help",
    text: optionText(option, "help", option.description),
    attrs: { id: `${id}-help` },
  });
  const label = el("label", { text: optionText(option, null, option.label), attrs: { for: id } });
  const attrs = { id, "data-option": option.name, "aria-describedby": `${id}-help` };
  if (type !== "str") attrs["data-type"] = type;
  if (type === "bool") {
    const input = el("input", { attrs: { ...attrs, type: "checkbox", checked: option.default === true } });
    if (current !== undefined) input.checked = current;
    return el("div", { className: "check" }, input, el("div", null, label, help));
  }
  const select = el("select", { attrs });
  for (const choice of option.choices) {
    const standard = choice.value === option.default;
    const text = standard ? t("web.standard", { text: choiceText(option, choice) }) : choiceText(option, choice);
    select.append(el("option", { text, attrs: { value: String(choice.value), selected: standard } }));
  }
  if (current !== undefined) select.value = current;
  return el("div", { className: "field" }, label, select, help);
}

/** Build the rule variants from the options of /api/meta (the number of players is set
 * by the seats, so it has no field here); the choices made are kept. */
function renderVariantFields() {
  const current = {};
  for (const input of document.querySelectorAll("#variant-fields [data-option]")) {
    current[input.dataset.option] = input.dataset.type === "bool" ? input.checked : input.value;
  }
  const fields = app.options
    .filter((option) => option.name !== "num_players" && Array.isArray(option.choices) && option.choices.length)
    .map((option) => variantField(option, current[option.name]));
  $("variant-fields").replaceChildren(...fields);
}

function renderSpeciesTable() {
  const body = document.querySelector("#species-table tbody");
  const rows = app.species.map((s) => {
    const label = el("span", { className: "name", text: speciesName(s.id) });
    const name = el("th", { attrs: { scope: "row" } }, birdCard(s.id, "chip", null), label);
    const numbers = [s.copies, s.small_flock, s.big_flock].map((n) => el("td", { text: n }));
    return el("tr", null, name, ...numbers);
  });
  body.replaceChildren(...rows);
}

function readOptions() {
  const options = { num_players: Number($("num-players").value) };
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    let value;
    let standard;
    if (input.dataset.type === "bool") {
      value = input.checked;
      standard = input.defaultChecked;
    } else {
      value = input.dataset.type === "int" ? Number(input.value) : input.value;
      const first = [...input.options].find((option) => option.defaultSelected);
      standard = first ? (input.dataset.type === "int" ? Number(first.value) : first.value) : value;
    }
    if (value !== standard) options[name] = value;
  }
  return options;
}

function readSeed() {
  const text = $("seed").value.trim();
  if (!text) return null;
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new Error(t("web.seed_invalid", { max: Number.MAX_SAFE_INTEGER }));
  }
  return Number(text);
}

export async function startGame(event) {
  event.preventDefault();
  clearError();
  let body;
  try {
    const options = readOptions();
    const seats = ["human", ...[...$("seat-fields").querySelectorAll("select")].map((s) => s.value)];
    const others = [...$("seat-fields").querySelectorAll("input")].map((input) => input.value.trim() || null);
    const names = [myName() || null, ...others];
    body = { options, seats };
    if (names.some((name) => name !== null)) body.names = names;
    if ($("lobby-check").checked) body.lobby = true;
    const seed = readSeed();
    if (seed !== null) body.seed = seed;
  } catch (error) {
    showError(error.message);
    $("seed").setAttribute("aria-invalid", "true");
    $("seed").focus();
    return;
  }
  $("seed").removeAttribute("aria-invalid");
  const button = $("start");
  button.disabled = true;
  try {
    app.token = null;
    const created = await api("POST", "/api/tables", body);
    // The creator's token (seat 0), and an invitation for each other human seat: the
    // share links. The other seats' tokens exist only in the browsers that take them.
    const mine = (created.tokens || {})["0"] || null;
    saveInvitations(created.table, created.invitations || {});
    setFragment(fragmentFor(created.table, mine));
    await openTable(created.table, mine);
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
  }
}
