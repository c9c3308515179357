/* The CuBirds browser client of `cuckoo-rules serve`: plain JavaScript, no framework.
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
"use strict";

(function () {
  // ------------------------------------------------------------------ constants

  const SVG_NS = "http://www.w3.org/2000/svg";
  const SPRITE = "/static/birds.svg";
  const STORE = "cuckoo-rules:";
  const FALLBACK_LANGUAGES = ["en", "de", "ru"]; // until /api/phrases names them
  const DEFAULT_BOTS = ["random", "greedy", "ismcts"];
  const PAUSE_MS = 500; // after each other player's action, so that moves come one by one
  const ANIMATION_MS = 320;
  const FAST_FORWARD = 30; // events waiting beyond which they are shown without animation
  const STREAM_RETRIES = 3; // failed connections in a row before falling back to polling
  const STREAM_RETRY_MS = [300, 1000, 2500];
  const STREAM_AGAIN_MS = 30000; // while polling, how often the stream is tried again
  const POLL_MS = 1000;
  const WATCH_MS = 2000; // after the game, how often a finished table is asked for a rematch
  const WATCH_FOR_MS = 20 * 60 * 1000;
  const LOBBY_MS = 4000;
  const EVENTS_WITHOUT_TABLE_MS = 1500;
  const MAX_LOG = 400;
  const MIN_VISIBLE_PX = 9; // of a card covered by the next one in a long row
  const MOVES = new Set(["laid", "drew", "declined_draw", "flew_home", "declined_flock"]);

  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  const darkScheme = window.matchMedia("(prefers-color-scheme: dark)");

  /** What the page knows about the table it shows (none: every field empty). */
  function freshTableState(table = null, token = null) {
    return {
      table,
      token,
      doc: null, // the last table document drawn
      seat: null,
      seats: [],
      names: [],
      players: [],
      free: [],
      move: null, // the move the seat answers, sent back with its action
      view: null,
      outcome: null,
      deal: null,
      notices: [],
      progress: [],
      handFlocks: null,
      legal: [],
      previews: [],
      status: null,
      receivedStatus: null, // the status of the last document received
      thinking: null,
      rematch: null,
      received: 0, // the number of the first event not received yet (the stream's `after`)
      queue: [], // received, not yet shown: {item: {index, event, narration}} or {doc, source}
      playing: false,
      lastLay: null, // the last lay shown: {row, side, count, refilled}, to highlight
      selected: null,
      hint: null, // the last hint asked: {move, loading, data}
      posted: null, // the move of an action sent and not yet shown
      live: "off", // "stream", "polling" or "off"
      stream: null, // the AbortController of the open stream
      timers: new Set(),
      answerMs: null,
    };
  }

  /** Everything the page knows; the DOM is redrawn from it. */
  const app = {
    language: "en",
    languages: FALLBACK_LANGUAGES,
    phrases: {},
    plurals: new Intl.PluralRules("en"),
    bots: DEFAULT_BOTS,
    meta: null,
    // From /api/meta: the species in canonical order, each {id, name, copies,
    // small_flock, big_flock}, and what a collection needs to win.
    species: [],
    byId: new Map(),
    win: null,
    options: [],
    ...freshTableState(),
    generation: 0,
    renders: 0,
    animations: 0,
    pointer: false,
    pendingFocus: null,
    lobbyTimer: null,
    lobby: null,
  };

  // ------------------------------------------------------------------ small helpers

  function $(id) {
    return document.getElementById(id);
  }

  /** Make an element; `text` is set with textContent, `attrs` with setAttribute. */
  function el(tag, options, ...children) {
    const node = document.createElement(tag);
    const opts = options || {};
    if (opts.className) node.className = opts.className;
    if (opts.text !== undefined) node.textContent = String(opts.text);
    setAttrs(node, opts.attrs);
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  function setAttrs(node, attrs) {
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined && value !== false) {
        node.setAttribute(name, value === true ? "" : String(value));
      }
    }
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    return node;
  }

  /** Text only screen readers read (a part of a button's name, for example). */
  function srOnly(text) {
    return el("span", { className: "visually-hidden", text });
  }

  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function capitalize(text) {
    const value = String(text);
    return value.charAt(0).toLocaleUpperCase(app.language) + value.slice(1);
  }

  function range(start, stop) {
    const values = [];
    for (let i = start; i < stop; i += 1) values.push(i);
    return values;
  }

  function sleep(ms) {
    return new Promise((resolve) => window.setTimeout(resolve, ms));
  }

  function stored(key, fallback) {
    try {
      const value = window.localStorage.getItem(STORE + key);
      return value === null ? fallback : value;
    } catch (error) {
      return fallback; // storage may be disabled (private mode)
    }
  }

  function store(key, value) {
    try {
      if (value === null) window.localStorage.removeItem(STORE + key);
      else window.localStorage.setItem(STORE + key, value);
    } catch (error) {
      // Not remembered: it still holds until the page is closed.
    }
  }

  // ------------------------------------------------------------------ phrases

  /** Fill a template of the phrase table: "{name}" fields, "{{" and "}}" for braces. */
  function fill(template, fields) {
    return template.replace(/\{\{|\}\}|\{([A-Za-z_]\w*)\}/g, (whole, name) => {
      if (whole === "{{") return "{";
      if (whole === "}}") return "}";
      return Object.prototype.hasOwnProperty.call(fields, name) ? String(fields[name]) : whole;
    });
  }

  /** The phrase `key` in the page's language, its fields filled in. */
  function t(key, fields) {
    const template = app.phrases[key];
    return typeof template === "string" ? fill(template, fields || {}) : key;
  }

  /** A counted phrase: `key#category` for the plural category of `count` in the language. */
  function tn(key, count, fields) {
    const category = app.plurals.select(count);
    for (const name of [`${key}#${category}`, `${key}#other`, `${key}#many`]) {
      if (typeof app.phrases[name] === "string") {
        return fill(app.phrases[name], { ...(fields || {}), count });
      }
    }
    return key;
  }

  function has(key) {
    return typeof app.phrases[key] === "string";
  }

  /** A species' name ("Owl", "Eule", "Сова"): the narration's word, capitalised. */
  function speciesName(id) {
    if (has(`species.${id}`)) return capitalize(t(`species.${id}`));
    const species = app.byId.get(id);
    return species ? species.name : String(id);
  }

  /** "3 owls", "1 Eule", "2 совы": the narration's counted bird names. */
  function birds(id, count) {
    const key = `birds.${id}`;
    return has(`${key}#other`) || has(`${key}#many`) ? tn(key, count) : `${count} ${speciesName(id)}`;
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
  function cardsText(cards) {
    const counts = new Map();
    for (const card of cards) counts.set(card, (counts.get(card) || 0) + 1);
    return joinList([...counts].map(([id, count]) => birds(id, count)));
  }

  function countsText(counts) {
    return joinList(countsList(counts).map(([species, count]) => birds(species.id, count)));
  }

  /** Put the phrases into the page's fixed texts (data-t and data-t-* attributes). */
  function translatePage() {
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
  function firstLanguage() {
    const chosen = stored("language", null);
    if (chosen && FALLBACK_LANGUAGES.includes(chosen)) return chosen;
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const primary = String(tag).toLowerCase().split("-")[0];
      if (FALLBACK_LANGUAGES.includes(primary)) return primary;
    }
    return "en";
  }

  async function loadPhrases(language) {
    const data = await api("GET", `/api/phrases/${encodeURIComponent(language)}`, undefined, {
      auth: false,
    });
    app.phrases = data.phrases && typeof data.phrases === "object" ? data.phrases : {};
    app.language = typeof data.language === "string" ? data.language : language;
    if (Array.isArray(data.languages) && data.languages.length) app.languages = data.languages.map(String);
    app.plurals = new Intl.PluralRules(app.language);
  }

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
    renderLobby();
    if (app.table) {
      // The narration comes in the reader's language: read the table again, whole.
      await openTable(app.table, app.token);
    }
  }

  // ------------------------------------------------------------------ the theme

  function currentTheme() {
    const chosen = stored("theme", null);
    if (chosen === "dark" || chosen === "light") return chosen;
    return darkScheme.matches ? "dark" : "light";
  }

  function applyTheme() {
    const theme = currentTheme();
    document.documentElement.dataset.theme = theme;
    const button = $("theme");
    button.setAttribute("aria-pressed", String(theme === "dark"));
  }

  function toggleTheme() {
    store("theme", currentTheme() === "dark" ? "light" : "dark");
    applyTheme();
  }

  // ------------------------------------------------------------------ the URL fragment

  function readFragment() {
    const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    return { table: params.get("table"), token: params.get("token") };
  }

  function fragmentFor(table, token) {
    const params = new URLSearchParams({ table });
    if (token) params.set("token", token);
    return `#${params.toString()}`;
  }

  function pageUrl(table, token) {
    const { origin, pathname, search } = window.location;
    return `${origin}${pathname}${search}${fragmentFor(table, token)}`;
  }

  function setFragment(fragment) {
    window.history.replaceState(null, "", fragment || window.location.pathname + window.location.search);
  }

  /** Other seats' tokens, kept in this browser so the share links survive a reload. */
  function saveShareTokens(table, tokens) {
    store(`share:${table}`, JSON.stringify(tokens));
  }

  function loadShareTokens(table) {
    try {
      const value = JSON.parse(stored(`share:${table}`, "{}"));
      return value && typeof value === "object" ? value : {};
    } catch (error) {
      return {};
    }
  }

  // ------------------------------------------------------------------ the API

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  function authHeaders(headers) {
    if (app.token) headers.Authorization = `Bearer ${app.token}`;
    return headers;
  }

  async function api(method, path, body, options) {
    const headers = { Accept: "application/json" };
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
      const detail = data && typeof data.error === "string" ? data.error : response.statusText;
      throw new ApiError(response.status, t("web.error.detail", { what: explainStatus(response.status), detail }));
    }
    if (data === null) throw new ApiError(response.status, t("web.error.unreadable"));
    return data;
  }

  function explainStatus(status) {
    const key = `web.error.${status}`;
    return has(key) ? t(key) : t("web.error.status", { status });
  }

  function tablePath(suffix, query) {
    const params = new URLSearchParams(query || {});
    const text = params.toString();
    return `/api/tables/${encodeURIComponent(app.table)}${suffix || ""}${text ? `?${text}` : ""}`;
  }

  // ------------------------------------------------------------------ messages

  /** Show a message in the alert area; `kind` "live" marks one that a good answer clears. */
  function showError(message, kind) {
    $("error-text").textContent = message;
    $("error").dataset.kind = kind || "other";
    $("error").hidden = false;
  }

  function clearError(kind) {
    if (kind && $("error").dataset.kind !== kind) return;
    $("error").hidden = true;
    $("error-text").textContent = "";
  }

  // ------------------------------------------------------------------ timers of a table

  function later(ms, work) {
    const generation = app.generation;
    const timer = window.setTimeout(() => {
      app.timers.delete(timer);
      if (generation === app.generation) work();
    }, ms);
    app.timers.add(timer);
    return timer;
  }

  /** Stop everything that belongs to the table shown: timers, the stream, the playback. */
  function leaveTable() {
    app.generation += 1;
    for (const timer of app.timers) window.clearTimeout(timer);
    app.timers.clear();
    if (app.stream) app.stream.abort();
    app.stream = null;
  }

  // ------------------------------------------------------------------ the start screen

  function botLabel(spec) {
    const kind = String(spec).split(":")[0];
    return has(`web.bot.${kind}`) ? t(`web.bot.${kind}`) : t("web.bot_kind", { name: spec });
  }

  function seatSelect(id, selectedValue) {
    const select = el("select", { attrs: { id } });
    for (const value of [...app.bots, "human"]) {
      const text = value === "human" ? t("web.human_seat") : botLabel(value);
      select.append(el("option", { text, attrs: { value, selected: value === selectedValue } }));
    }
    return select;
  }

  function renderSeatFields() {
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
  function renderStartArt() {
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
  function renderSetupTexts() {
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

  /** Read /api/meta: the rule variants for the form, the species and the win. */
  async function loadMeta() {
    const data = await api("GET", "/api/meta", undefined, { auth: false });
    app.meta = data;
    app.species = Array.isArray(data.species) ? data.species : [];
    app.byId = new Map(app.species.map((s) => [s.id, s]));
    app.win = data.win || null;
    app.options = Array.isArray(data.options) ? data.options : [];
  }

  async function loadBots() {
    try {
      const data = await api("GET", "/api/bots", undefined, { auth: false });
      if (Array.isArray(data.bots) && data.bots.length) app.bots = data.bots.map(String);
    } catch (error) {
      // The usual bots are offered; creating a table says what is wrong, if anything.
    }
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

  function myName() {
    const name = $("my-name").value.trim();
    store("name", name || null);
    return name;
  }

  async function startGame(event) {
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
      const tokens = created.tokens || {};
      const mine = tokens["0"] || null;
      const others = Object.fromEntries(Object.entries(tokens).filter(([seat]) => seat !== "0"));
      saveShareTokens(created.table, others);
      setFragment(fragmentFor(created.table, mine));
      await openTable(created.table, mine);
    } catch (error) {
      showError(error.message);
    } finally {
      button.disabled = false;
    }
  }

  // ------------------------------------------------------------------ the lobby

  function startLobby() {
    stopLobby();
    refreshLobby();
  }

  function stopLobby() {
    if (app.lobbyTimer !== null) window.clearTimeout(app.lobbyTimer);
    app.lobbyTimer = null;
  }

  async function refreshLobby() {
    stopLobby();
    if ($("start-screen").hidden) return;
    try {
      const data = await api("GET", "/api/lobby", undefined, { auth: false });
      app.lobby = Array.isArray(data.tables) ? data.tables : [];
    } catch (error) {
      app.lobby = null;
    }
    if ($("start-screen").hidden) return;
    renderLobby();
    app.lobbyTimer = window.setTimeout(refreshLobby, LOBBY_MS);
  }

  /** When a table was created, in the reader's words ("2 minutes ago"). */
  function ago(created) {
    let time = null;
    if (typeof created === "number") time = created > 1e12 ? created : created * 1000;
    else if (typeof created === "string") time = Date.parse(created);
    if (time === null || !Number.isFinite(time)) return "";
    const seconds = Math.round((time - Date.now()) / 1000);
    const format = new Intl.RelativeTimeFormat(app.language, { numeric: "auto" });
    if (Math.abs(seconds) < 60) return format.format(Math.min(0, seconds), "second");
    const minutes = Math.round(seconds / 60);
    if (Math.abs(minutes) < 60) return format.format(minutes, "minute");
    return format.format(Math.round(minutes / 60), "hour");
  }

  function lobbySeat(entry, seat) {
    const names = Array.isArray(entry.players) ? entry.players : [];
    const seats = Array.isArray(entry.seats) ? entry.seats : [];
    const free = Array.isArray(entry.free) ? entry.free : [];
    if (free.includes(seat)) return t("web.free_seat");
    if (names[seat]) return String(names[seat]);
    if (seats[seat] && seats[seat] !== "human") return botLabel(seats[seat]);
    return t("seat", { seat });
  }

  function renderLobby() {
    const list = $("lobby-list");
    const note = $("lobby-note");
    list.replaceChildren();
    if (app.lobby === null) {
      setText(note, t("web.lobby_unavailable"));
      return;
    }
    const entries = app.lobby.filter((entry) => Array.isArray(entry.free) && entry.free.length);
    setText(note, entries.length ? "" : t("web.lobby_empty"));
    note.hidden = entries.length > 0;
    for (const entry of entries) {
      const seats = Array.isArray(entry.seats) ? entry.seats : [];
      const who = seats.map((_, seat) => lobbySeat(entry, seat));
      const host = who[0] || t("seat", { seat: 0 });
      const people = el("p", { className: "lobby-people" });
      who.forEach((name, seat) => {
        const free = entry.free.includes(seat);
        people.append(el("span", { className: free ? "lobby-seat free" : "lobby-seat", text: name }));
      });
      const details = [tn("web.players_n", seats.length), tn("web.free_seats", entry.free.length)];
      const when = ago(entry.created);
      if (when) details.push(when);
      const join = el("button", {
        className: "primary small join",
        text: t("web.join"),
        attrs: { type: "button", "aria-label": t("web.join_label", { name: host }), "data-table": entry.table },
      });
      join.addEventListener("click", () => joinTable(String(entry.table), join));
      list.append(
        el(
          "li",
          { className: "lobby-table" },
          el("div", null, people, el("p", { className: "muted", text: details.join(" · ") })),
          join,
        ),
      );
    }
  }

  async function joinTable(table, button) {
    clearError();
    button.disabled = true;
    try {
      const name = myName();
      const body = name ? { name } : {};
      const joined = await api("POST", `/api/tables/${encodeURIComponent(table)}/join`, body, { auth: false });
      setFragment(fragmentFor(joined.table, joined.token));
      await openTable(String(joined.table), String(joined.token));
    } catch (error) {
      showError(error.message);
      refreshLobby();
    } finally {
      button.disabled = false;
    }
  }

  // ------------------------------------------------------------------ opening a table

  function showSetup() {
    leaveTable();
    Object.assign(app, freshTableState());
    $("game").hidden = true;
    $("start-screen").hidden = false;
    document.title = t("web.page_title");
    document.body.dataset.screen = "start";
    startLobby();
  }

  async function openTable(table, token) {
    leaveTable();
    stopLobby();
    const generation = app.generation;
    Object.assign(app, freshTableState(table, token || null));
    $("log").replaceChildren();
    $("share").open = false;
    delete $("share").dataset.auto;
    document.body.dataset.playing = "false";
    $("start-screen").hidden = true;
    $("game").hidden = false;
    document.body.dataset.screen = "game";
    setText($("status"), t("web.loading"));
    try {
      const data = await api("GET", tablePath("", { lang: app.language }));
      if (generation !== app.generation) return;
      const events = Array.isArray(data.events) ? data.events : [];
      const narration = Array.isArray(data.narration) ? data.narration : [];
      // The last lay so far is marked, with what followed it (the rest of that turn).
      let last = events.length;
      for (let i = events.length - 1; i >= 0; i -= 1) {
        if (events[i] && events[i].type === "laid") {
          last = i;
          const refill = events.slice(i).find((e) => e && e.type === "row_refilled" && e.row === events[i].row);
          app.lastLay = lastLayOf(events[i], refill);
          break;
        }
      }
      appendLog(events.slice(0, last), narration.slice(0, last), null);
      appendLog(events.slice(last), narration.slice(last), "new");
      app.received = Number(data.next_event) || 0;
      app.receivedStatus = typeof data.status === "string" ? data.status : null;
      applyDoc(data);
      $("main").focus({ preventScroll: true });
      connect();
    } catch (error) {
      if (generation !== app.generation) return;
      showError(error.message);
      if (error.status === 401 || error.status === 404 || error.status === 400) showSetup();
      else later(POLL_MS * 3, () => openTable(table, token));
    }
  }

  function openFromFragment() {
    const { table, token } = readFragment();
    clearError();
    if (table) openTable(table, token);
    else showSetup();
  }

  // ------------------------------------------------------------------ the push stream

  function setLive(live) {
    app.live = live;
    document.body.dataset.live = live;
    const note = $("live-note");
    note.hidden = live !== "polling";
    if (live === "polling") setText(note, t("web.live_off"));
  }

  /** Read the table's stream, reconnecting after a drop; poll only if it keeps failing. */
  async function connect() {
    const generation = app.generation;
    let failures = 0;
    while (generation === app.generation) {
      const result = await readStream(generation);
      if (generation !== app.generation) return;
      if (result.fatal) return;
      if (tableClosed()) {
        setLive("off");
        watchForRematch(Date.now());
        return;
      }
      failures = result.messages > 0 ? 0 : failures + 1;
      if (failures >= STREAM_RETRIES) {
        setLive("polling");
        poll(generation, Date.now());
        return;
      }
      await sleep(STREAM_RETRY_MS[Math.min(failures, STREAM_RETRY_MS.length - 1)]);
    }
  }

  /** One connection of the stream: {messages} read before it ended ({fatal} when the
   * table is gone or the token refused). */
  async function readStream(generation) {
    const controller = new AbortController();
    app.stream = controller;
    const headers = authHeaders({ Accept: "text/event-stream" });
    // Last-Event-ID is the id of the last event received (Server-Sent Events' meaning).
    if (app.received > 0) headers["Last-Event-ID"] = String(app.received - 1);
    let messages = 0;
    try {
      const response = await fetch(tablePath("/stream", { after: app.received, lang: app.language }), {
        headers,
        cache: "no-store",
        signal: controller.signal,
      });
      if (response.status === 401 || response.status === 404) {
        showError(explainStatus(response.status));
        return { messages, fatal: true };
      }
      if (!response.ok || !response.body) return { messages };
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = sseParser((message) => {
        messages += 1;
        if (generation === app.generation) onStreamMessage(message);
      });
      for (;;) {
        const { value, done } = await reader.read();
        if (done || generation !== app.generation) break;
        parser(value);
      }
      return { messages };
    } catch (error) {
      return { messages };
    } finally {
      if (app.stream === controller) app.stream = null;
    }
  }

  /** A parser of Server-Sent Events: feed it text as it comes, it calls `dispatch` with
   * {event, id, data} for each message (comments, the pings, are skipped). */
  function sseParser(dispatch) {
    let buffer = "";
    let event = "";
    let data = [];
    let id = null;
    function line(text) {
      if (text === "") {
        if (data.length) dispatch({ event: event || "message", id, data: data.join("\n") });
        event = "";
        data = [];
        return;
      }
      if (text.startsWith(":")) return;
      const colon = text.indexOf(":");
      const field = colon < 0 ? text : text.slice(0, colon);
      let value = colon < 0 ? "" : text.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id" && !value.includes("\0")) id = value;
    }
    return (chunk) => {
      buffer += chunk;
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) break;
        // A "\r" at the very end may be the first half of "\r\n": wait for the next chunk.
        if (match[0] === "\r" && match.index === buffer.length - 1) break;
        line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    };
  }

  function onStreamMessage(message) {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch (error) {
      return;
    }
    if (message.event === "game" && data && typeof data.index === "number") {
      receiveEvents([{ index: data.index, event: data.event, narration: data.narration }]);
    } else if (message.event === "table" && data && typeof data === "object") {
      receiveDoc(data, "stream");
    }
  }

  /** The fallback: ask for the table every second while the game is on, and now and then
   * try the stream again. */
  async function poll(generation, since) {
    if (generation !== app.generation) return;
    if (Date.now() - since > STREAM_AGAIN_MS) {
      setLive("off");
      connect();
      return;
    }
    try {
      const data = await api("GET", tablePath("", { after: app.received, lang: app.language }));
      if (generation !== app.generation) return;
      clearError("live");
      receiveSnapshot(data, "poll");
    } catch (error) {
      if (generation !== app.generation) return;
      showError(error.message, "live");
    }
    if (tableClosed()) {
      setLive("off");
      watchForRematch(Date.now());
      return;
    }
    later(POLL_MS, () => poll(generation, since));
  }

  /** After the game the stream has ended: ask now and then whether a rematch was made. */
  function watchForRematch(since) {
    if (app.rematch || Date.now() - since > WATCH_FOR_MS) return;
    later(WATCH_MS, async () => {
      try {
        const data = await api("GET", tablePath("", { after: app.received, lang: app.language }));
        receiveSnapshot(data, "poll");
      } catch (error) {
        // Asked again in a moment.
      }
      watchForRematch(since);
    });
  }

  // ------------------------------------------------------------------ receiving

  /** A document with its events (an answer to GET or POST): both go to the queue. */
  function receiveSnapshot(data, source) {
    const events = Array.isArray(data.events) ? data.events : [];
    const narration = Array.isArray(data.narration) ? data.narration : [];
    const next = Number(data.next_event);
    const first = Number.isFinite(next) ? next - events.length : app.received;
    receiveEvents(events.map((event, i) => ({ index: first + i, event, narration: narration[i] })));
    receiveDoc(data, source);
  }

  function receiveEvents(items) {
    for (const item of items) {
      if (item.index < app.received) continue; // seen already (a POST's answer, a resent one)
      app.received = item.index + 1;
      app.queue.push({ item });
    }
    if (app.queue.length && !app.queue.some((entry) => entry.doc)) {
      later(EVENTS_WITHOUT_TABLE_MS, () => {
        if (app.queue.length && !app.queue.some((entry) => entry.doc)) {
          app.queue.push({ doc: null, source: "none" });
          pump();
        }
      });
    }
    pump();
  }

  function receiveDoc(doc, source) {
    if (typeof doc.status === "string") app.receivedStatus = doc.status;
    app.queue.push({ doc, source });
    pump();
  }

  /** Whether the table takes no more moves, as the last document received says (it may
   * not be shown yet). */
  function tableClosed() {
    return isFinished() || (app.receivedStatus !== null && app.receivedStatus !== "open");
  }

  /** Whether a document is newer than the one drawn (a stream's may be as new: it says
   * who is thinking now; an answer's must be newer, it may come after the stream's). */
  function isNewer(doc, source) {
    const shown = app.doc;
    if (!shown) return true;
    const next = Number(doc.next_event);
    const was = Number(shown.next_event);
    if (next !== was) return next > was;
    if (doc.move !== shown.move) return doc.move > shown.move;
    if (source === "post") return false;
    return true;
  }

  /** Show what is queued, one action at a time: its events (animated), then its table. */
  async function pump() {
    if (app.playing) return;
    app.playing = true;
    document.body.dataset.playing = "true";
    const generation = app.generation;
    try {
      while (generation === app.generation && app.queue.some((entry) => entry.doc !== undefined)) {
        const items = [];
        while (app.queue.length && app.queue[0].doc === undefined) items.push(app.queue.shift().item);
        const { doc, source } = app.queue.shift();
        // Several actions may come before one table (a fast bot): each is played in turn.
        const actions = splitActions(items);
        for (let i = 0; i < actions.length - 1 && generation === app.generation; i += 1) {
          await playAction(actions[i], null, source, generation);
        }
        if (generation === app.generation) {
          await playAction(actions[actions.length - 1] || [], doc, source, generation);
        }
      }
    } finally {
      if (generation === app.generation) {
        app.playing = false; // (another table's player may have started meanwhile)
        document.body.dataset.playing = "false";
      }
    }
  }

  /** The events of each action: an action's own event (a lay, a draw...) starts it. */
  function splitActions(items) {
    const actions = [];
    for (const item of items) {
      const type = item.event && item.event.type;
      if (!actions.length || MOVES.has(type)) actions.push([]);
      actions[actions.length - 1].push(item);
    }
    return actions;
  }

  async function playAction(items, doc, source, generation) {
    const events = items.map((item) => item.event).filter((event) => event && typeof event === "object");
    const waiting = app.queue.filter((entry) => entry.doc === undefined).length;
    const animate = Boolean(app.view) && !reducedMotion.matches && waiting < FAST_FORWARD;
    const moves = events.filter((event) => MOVES.has(event.type));
    const lay = events.find((event) => event.type === "laid") || null;
    if (items.length) {
      // The last turn is marked: a lay starts a new one, the draw and flock go on with it.
      appendLog(
        items.map((item) => item.event || {}),
        items.map((item) => item.narration),
        moves.length === 0 ? null : lay ? "new" : "more",
      );
    }
    const capture = events.find((event) => event.type === "captured") || null;
    const refills = events.filter((event) => event.type === "row_refilled");
    if (animate && lay) {
      await animateLay(lay);
      if (capture && generation === app.generation) await animateCapture(capture, lay);
    }
    if (generation !== app.generation) return;
    if (lay) app.lastLay = lastLayOf(lay, refills.find((event) => event.row === lay.row));
    if (doc && isNewer(doc, source)) applyDoc(doc);
    else if (doc && moves.length) renderRows();
    if (animate) {
      refills.forEach((event) => animateRefill(event));
      for (const event of events) {
        if (event.type === "flew_home") pulse(`#players [data-seat="${event.player}"] .collection`);
        if (event.type === "drew") pulse(`#players [data-seat="${event.player}"] .hand-size`);
      }
    }
    const others = moves.some((event) => event.player !== app.seat);
    if (others && waiting < FAST_FORWARD) await sleep(PAUSE_MS);
  }

  /** What to mark of a lay: its row, side and cards, and the cards refilled after it
   * (they come after the laid ones on the right). */
  function lastLayOf(lay, refill) {
    const refilled = refill && Array.isArray(refill.cards) ? refill.cards.length : 0;
    return { row: lay.row, side: lay.side, count: lay.count, refilled };
  }

  /** Take in a table document: it is what the page shows from now on. */
  function applyDoc(data) {
    app.doc = data;
    app.seat = typeof data.seat === "number" ? data.seat : null;
    app.seats = Array.isArray(data.seats) ? data.seats : app.seats;
    app.names = Array.isArray(data.names) ? data.names : app.names;
    app.players = Array.isArray(data.players) ? data.players : [];
    app.free = Array.isArray(data.free) ? data.free : [];
    app.move = typeof data.move === "number" ? data.move : null;
    app.view = data.view;
    app.outcome = data.outcome || null;
    app.deal = data.deal || null;
    app.notices = Array.isArray(data.notices) ? data.notices : [];
    app.progress = Array.isArray(data.progress) ? data.progress : [];
    app.handFlocks = data.hand_flocks || null;
    app.legal = Array.isArray(data.legal_actions) ? data.legal_actions : [];
    app.previews = Array.isArray(data.previews) ? data.previews : [];
    app.status = typeof data.status === "string" ? data.status : null;
    app.thinking = typeof data.thinking === "number" ? data.thinking : null;
    app.rematch = typeof data.rematch === "string" ? data.rematch : null;
    if (!app.legal.some((action) => action.type === "lay" && action.species === app.selected)) {
      app.selected = null;
    }
    if (app.posted !== null && app.move !== null && app.move > app.posted) {
      app.posted = null;
      setBusy(false);
    }
    if (app.hint && app.hint.move !== app.move) app.hint = null;
    render();
  }

  // ------------------------------------------------------------------ acting

  async function act(action) {
    if (app.posted !== null || !app.table || app.move === null) return;
    clearError();
    const generation = app.generation;
    // Disabling the buttons below blurs the focused one: remember it for the redraw.
    app.pendingFocus = focusKey(document.activeElement);
    app.posted = app.move;
    setBusy(true);
    const started = performance.now();
    document.body.dataset.sentAt = String(Date.now());
    try {
      // The move number makes a request sent twice count once: the second is refused.
      const body = { action, move: app.move };
      const data = await api("POST", tablePath("/actions", { after: app.received, lang: app.language }), body);
      app.answerMs = performance.now() - started;
      document.body.dataset.answerMs = app.answerMs.toFixed(1);
      if (generation !== app.generation) return;
      receiveSnapshot(data, "post");
    } catch (error) {
      if (generation !== app.generation) return;
      app.posted = null;
      setBusy(false);
      showError(error.message);
      // The table may have moved on: read it again.
      try {
        receiveSnapshot(await api("GET", tablePath("", { after: app.received, lang: app.language })), "poll");
      } catch (again) {
        // The stream brings it when it can.
      }
    }
  }

  function setBusy(busy) {
    document.body.dataset.busy = String(busy);
    $("game").setAttribute("aria-busy", String(busy));
    for (const button of document.querySelectorAll("#game [data-action]")) {
      button.disabled = busy || button.dataset.enabled !== "true";
    }
  }

  function isBusy() {
    return app.posted !== null;
  }

  async function rematch() {
    const button = $("rematch");
    button.disabled = true;
    clearError();
    try {
      const data = await api("POST", tablePath("/rematch"), {});
      follow(String(data.table));
    } catch (error) {
      showError(error.message);
    } finally {
      button.disabled = false;
    }
  }

  /** Go to the rematch of this table, at the same seat (the same token works there). */
  function follow(table) {
    const shares = loadShareTokens(app.table);
    if (Object.keys(shares).length) saveShareTokens(table, shares);
    window.location.hash = fragmentFor(table, app.token);
  }

  // ------------------------------------------------------------------ rendering

  function render() {
    const key = focusKey(document.activeElement) || app.pendingFocus;
    app.pendingFocus = null;
    renderStatus();
    renderPiles();
    renderGameOver();
    renderNotices();
    renderShare();
    renderRows();
    renderHand();
    renderControls();
    renderMoveList();
    renderHint();
    renderPlayers();
    setBusy(isBusy());
    restoreFocus(key);
    app.renders += 1;
    document.body.dataset.renders = String(app.renders);
    document.body.dataset.phase = app.view ? app.view.phase : "";
    document.body.dataset.move = app.move === null ? "" : String(app.move);
    document.body.dataset.events = String(app.doc ? app.doc.next_event : 0);
  }

  function focusKey(node) {
    return node && node.dataset ? node.dataset.focus || null : null;
  }

  /** After a redraw, give the focus back to the same control, or to the first move. */
  function restoreFocus(key) {
    const parked = document.activeElement === $("dock-title") && key === null;
    if (parked && myTurn()) key = "dock"; // the focus waited there for this seat's turn
    else if (document.activeElement && document.activeElement !== document.body) return;
    if (key === null) return;
    const same = document.querySelector(`[data-focus="${CSS.escape(key)}"]:not([disabled])`);
    // After a mouse or touch click, do not scroll the page to the new focus.
    const options = { preventScroll: app.pointer };
    if (same) {
      same.focus(options);
    } else if (isOver()) {
      $("gameover-title").focus(options);
    } else {
      const first = document.querySelector(
        "#controls button:not([disabled]), #hand button:not([disabled]), #rows button:not([disabled])",
      );
      (first || $("dock-title")).focus(options);
    }
  }

  function handCount(species) {
    const hand = app.view && app.view.hand;
    return (hand && hand[species]) || 0;
  }

  function isOver() {
    return Boolean(app.view && app.view.phase === "game_over");
  }

  function isFinished() {
    return isOver() || app.status === "over" || app.status === "expired";
  }

  function myTurn() {
    return app.legal.length > 0;
  }

  /** What the server says a legal action would do (its preview), or null. */
  function previewOf(action) {
    const index = app.legal.indexOf(action);
    return index >= 0 ? app.previews[index] || null : null;
  }

  /** The species of a multiset {id: count}, in canonical order, with their counts. */
  function countsList(counts) {
    const items = [];
    for (const species of app.species) {
      const count = counts && counts[species.id];
      if (count) items.push([species, count]);
    }
    return items;
  }

  function total(counts) {
    return countsList(counts).reduce((sum, [, count]) => sum + count, 0);
  }

  /** A seat as people call it: its name (given, or its bot's kind) when no other seat has
   * it, else the narration's ("P1 greedy"). */
  function seatName(seat) {
    const name = app.players[seat];
    if (name && app.players.filter((other) => other === name).length === 1) return String(name);
    if (app.names[seat] !== undefined && app.names[seat] !== null) return String(app.names[seat]);
    return t("seat", { seat });
  }

  /** "you" for the reader's own seat, else its name. */
  function who(seat) {
    return seat === app.seat && app.seat !== null ? t("web.you") : seatName(seat);
  }

  function isBot(seat) {
    return Boolean(app.seats[seat]) && app.seats[seat] !== "human";
  }

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

  /** The winning seats, from the outcome the server sends (empty while the game is on). */
  function winners() {
    return app.outcome && Array.isArray(app.outcome.winners) ? app.outcome.winners : [];
  }

  /** Who won and why, in the server's words ("Game over: you win (two triples ...)."). */
  function overText() {
    return app.outcome && app.outcome.text ? String(app.outcome.text) : t("web.game_over");
  }

  function renderStatus() {
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

  function renderPiles() {
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

  function renderGameOver() {
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
    const deal = app.deal;
    setText(
      $("gameover-deal"),
      deal && deal.seed !== null && deal.commitment
        ? t("web.deal", { seed: deal.seed, salt: deal.salt, commitment: deal.commitment })
        : "",
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
  function renderNotices() {
    const list = $("notices");
    list.replaceChildren();
    for (const notice of app.notices) {
      list.append(el("li", { text: t("web.notice", { move: Number(notice.move) + 1, text: String(notice.text) }) }));
    }
    list.hidden = app.notices.length === 0;
  }

  function renderShare() {
    const tokens = loadShareTokens(app.table);
    const list = $("share-list");
    list.replaceChildren();
    for (const [seat, token] of Object.entries(tokens)) {
      if (Number(seat) === app.seat) continue; // this page is that seat
      const free = app.free.includes(Number(seat));
      const label = t(free ? "web.share_seat" : "web.share_seat_taken", { seat, player: seatName(Number(seat)) });
      list.append(shareItem(label, pageUrl(app.table, token), `share-${seat}`, `share-seat`));
    }
    list.append(shareItem(t("web.share_watch"), pageUrl(app.table, null), "share-watch", "share-watch"));
    // Open while a friend's seat is free (the links are wanted then), closed after.
    const box = $("share");
    const waiting = app.free.some((seat) => seat !== app.seat) && Object.keys(tokens).length > 0;
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

  // ------------------------------------------------------------------ cards

  /** A card drawn from the sprite: <svg class="card"><use href="birds.svg#bird-ID"/></svg>;
   * `label` names it for screen readers (null: decorative). */
  function cardSvg(symbol, className, label) {
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

  function birdCard(species, className, label) {
    const svg = cardSvg(`bird-${species}`, `sp-${species} ${className || ""}`, label);
    svg.dataset.species = species;
    return svg;
  }

  function layFor(species, row, side) {
    return app.legal.find(
      (action) => action.type === "lay" && action.species === species && action.row === row && action.side === side,
    );
  }

  function layLabel(action) {
    const key = action.side === "left" ? "web.lay_left" : "web.lay_right";
    const base = t(key, { birds: birds(action.species, handCount(action.species)), row: action.row });
    return `${base}: ${effectText(previewOf(action), true)}`;
  }

  /** What a lay does, from its preview: the cards taken, a refill, the draw offered after
   * it (long: in full, for a label; short: for the text of a move's button). */
  function effectText(seen, long) {
    const taken = (seen && seen.captured) || [];
    const parts = [];
    if (long) parts.push(taken.length ? t("web.captures", { cards: cardsText(taken) }) : t("web.captures_nothing"));
    else parts.push(taken.length ? tn("web.captures_short", taken.length) : t("web.captures_nothing"));
    if (seen && seen.refilled) parts.push(t(long ? "web.refilled" : "web.refilled_short"));
    if (seen && seen.draw_offered === true) parts.push(t(long ? "web.may_draw" : "web.may_draw_short"));
    if (seen && seen.draw_offered === null) parts.push(t(long ? "web.maybe_draw" : "web.maybe_draw_short"));
    return parts.join(long ? "; " : " · ");
  }

  // ------------------------------------------------------------------ rows

  function renderRows() {
    if (!app.view) return;
    const rows = app.view.rows || [];
    const list = $("rows");
    list.replaceChildren(...rows.map((row, index) => renderRow(row, index)));
    layoutRows();
  }

  /** The positions of the last lay's cards in a row as it is now. */
  function lastLaidPositions(index, row) {
    const last = app.lastLay;
    if (!last || last.row !== index) return [];
    if (last.side === "left") return range(0, Math.min(last.count, row.length));
    const end = row.length - last.refilled;
    return range(Math.max(0, end - last.count), end);
  }

  function renderRow(row, index) {
    const label = t("web.row_label", { row: index, cards: tn("web.cards", row.length) });
    const cards = el("ol", { className: "row-cards", attrs: { "aria-label": label } });
    const laid = new Set(lastLaidPositions(index, row));
    row.forEach((species, position) => {
      const classes = [];
      if (app.selected === species) classes.push("match");
      if (laid.has(position)) classes.push("last");
      const card = birdCard(species, classes.join(" "), speciesName(species));
      cards.append(el("li", { attrs: { "data-position": position } }, card));
    });
    const item = el("li", { className: "row", attrs: { "data-row": index } });
    if (laid.size) item.classList.add("last-row");
    const number = el("span", { className: "row-number", text: index, attrs: { "aria-hidden": "true" } });
    const line = el("div", { className: "row-line" }, number);
    if (app.seat === null) line.append(cards); // a spectator lays nothing
    else line.append(rowTarget(row, index, "left"), cards, rowTarget(row, index, "right"));
    item.append(line);
    return item;
  }

  /** The button at one end of a row: lays the selected species there when that is legal,
   * and shows what that lay would capture. */
  function rowTarget(row, index, side) {
    const action = app.selected ? layFor(app.selected, index, side) : null;
    const button = el("button", {
      className: `target target-${side}`,
      attrs: {
        type: "button",
        "data-focus": `target:${index}:${side}`,
        "data-action": "",
        "data-enabled": String(Boolean(action)),
        "data-row": index,
        "data-side": side,
      },
    });
    const arrow = el("span", {
      className: "arrow",
      text: side === "left" ? "◀" : "▶",
      attrs: { "aria-hidden": "true" },
    });
    if (action) {
      const seen = previewOf(action);
      const taken = (seen && seen.captured) || [];
      const preview = el("span", { className: "target-preview", attrs: { "aria-hidden": "true" } });
      const className = taken.length ? "take-count" : "take-count none";
      const count = el("span", { className, text: `+${taken.length}` });
      preview.append(count);
      if (taken.length) {
        const chips = el("span", { className: "take-chips" });
        for (const species of taken.slice(0, 6)) chips.append(birdCard(species, "chip", null));
        preview.append(chips);
      }
      const marks = el("span", { className: "take-marks" });
      if (seen && seen.refilled) marks.append(el("span", { className: "take-mark", text: "↻" }));
      if (seen && seen.draw_offered !== false) {
        const mark = el("span", { className: "take-mark draw-mark" }, cardSvg("card-back", "chip", null));
        if (seen.draw_offered === null) mark.classList.add("maybe");
        marks.append(mark);
      }
      if (marks.childNodes.length) preview.append(marks);
      button.append(srOnly(layLabel(action)), arrow, preview);
      button.title = layLabel(action);
      button.classList.add(taken.length ? "captures" : "no-capture");
      button.addEventListener("click", () => act(action));
      showCaptureOnHover(button, row, index, action);
    } else {
      const name = t(side === "left" ? "web.end_left" : "web.end_right", { row: index });
      const why = t(app.selected ? "web.not_here" : "web.choose_first");
      button.append(srOnly(`${name}: ${why}`), arrow);
    }
    button.disabled = isBusy() || !action;
    return button;
  }

  /** While a target is hovered or focused, mark the cards its lay would capture: the
   * preview's cards, which are the ones next to the end laid at. */
  function showCaptureOnHover(button, row, index, action) {
    const seen = previewOf(action);
    const taken = (seen && seen.captured) || [];
    const first = action.side === "left" ? 0 : row.length - taken.length;
    const positions = range(first, first + taken.length);
    const mark = (on) => markCaptured(index, positions, on);
    button.addEventListener("mouseenter", () => mark(true));
    button.addEventListener("mouseleave", () => mark(false));
    button.addEventListener("focus", () => mark(true));
    button.addEventListener("blur", () => mark(false));
  }

  function markCaptured(row, positions, on) {
    const list = document.querySelector(`#rows [data-row="${row}"] .row-cards`);
    if (!list) return;
    for (const position of positions) {
      const item = list.querySelector(`[data-position="${position}"]`);
      if (item) item.classList.toggle("captured", on);
    }
  }

  /** Keep each row on one line: when its cards do not fit, they overlap (more as it grows). */
  function layoutRows() {
    for (const row of document.querySelectorAll("#rows > li.row")) layoutRow(row);
  }

  function layoutRow(row) {
    const line = row.querySelector(".row-line");
    const list = row.querySelector(".row-cards");
    const cards = list ? list.children : [];
    if (!line || !cards.length || !line.clientWidth) return;
    const style = window.getComputedStyle(line);
    const gap = parseFloat(style.columnGap) || 0;
    let room = line.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (const child of line.children) {
      if (child !== list) room -= child.getBoundingClientRect().width + gap;
    }
    const width = cards[0].firstElementChild.getBoundingClientRect().width;
    const spacing = parseFloat(window.getComputedStyle(list).getPropertyValue("--gap")) || 4;
    const count = cards.length;
    let step = spacing;
    if (count > 1 && count * width + (count - 1) * spacing > room) {
      step = Math.max((room - width) / (count - 1) - width, MIN_VISIBLE_PX - width);
    }
    list.style.setProperty("--step", `${step.toFixed(1)}px`);
    list.classList.toggle("overlap", step < 0);
  }

  // ------------------------------------------------------------------ the hand and moves

  function renderHand() {
    const section = $("hand-section");
    const hand = app.view.hand;
    section.hidden = hand === null || hand === undefined;
    if (section.hidden) return;
    const lay = new Set(app.legal.filter((a) => a.type === "lay").map((a) => a.species));
    const items = countsList(hand);
    const container = $("hand");
    container.replaceChildren();
    if (!items.length) container.append(el("p", { className: "muted", text: t("web.hand_empty") }));
    for (const [species, count] of items) container.append(handCard(species, count, lay.has(species.id)));
    setText($("hand-title"), tn("web.hand_title", total(hand)));
    setText($("hand-help"), handHelp(lay.size > 0));
  }

  function handHelp(canLay) {
    if (canLay && app.selected) return t("web.hand_selected", { species: speciesName(app.selected) });
    if (canLay) return t("web.hand_choose");
    return t("web.hand_flocks");
  }

  function handCard(species, count, selectable) {
    const selected = app.selected === species.id;
    // The birds a flock of this species would fly home now, as the server says.
    const ready = Boolean(app.handFlocks && app.handFlocks[species.id] > 0);
    const classes = ["hand-card"];
    if (selected) classes.push("selected");
    if (ready) classes.push("ready");
    if (count > 1) classes.push("stacked");
    const node = el(selectable ? "button" : "div", {
      className: classes.join(" "),
      attrs: {
        type: selectable ? "button" : null,
        "aria-pressed": selectable ? String(selected) : null,
        "data-focus": `hand:${species.id}`,
        "data-species": species.id,
        "data-action": selectable ? "" : null,
        "data-enabled": selectable ? "true" : null,
        title: t("web.flock_sizes", { small: species.small_flock, big: species.big_flock }),
      },
    });
    const stack = el("span", { className: "stack", attrs: { "aria-hidden": "true" } });
    for (let i = 0; i < Math.min(count, 3); i += 1) stack.append(birdCard(species.id, `layer layer-${i}`, null));
    node.append(stack);
    node.append(el("span", { className: "count", text: `×${count}`, attrs: { "aria-hidden": "true" } }));
    node.append(el("span", { className: "name", text: speciesName(species.id) }));
    if (ready) {
      const attrs = { "aria-hidden": "true", title: t("web.flock_ready") };
      node.append(el("span", { className: "ready-mark", text: "✓", attrs }));
    }
    const sizes = t("web.flock_sizes", { small: species.small_flock, big: species.big_flock });
    node.append(srOnly(`, ${tn("web.cards", count)}; ${sizes}${ready ? `; ${t("web.flock_ready")}` : ""}`));
    if (selectable) node.addEventListener("click", () => selectSpecies(selected ? null : species.id));
    return node;
  }

  function selectSpecies(species) {
    app.selected = species;
    const key = focusKey(document.activeElement);
    renderRows();
    renderHand();
    renderControls();
    renderMoveList();
    setBusy(isBusy());
    if (species && !app.pointer) {
      // From the keyboard: go on to the row ends where it may be laid.
      const first = document.querySelector("#rows button.target:not([disabled])");
      if (first) {
        first.focus();
        return;
      }
    }
    restoreFocus(key);
    const again = document.querySelector(`[data-focus="${CSS.escape(key || "")}"]`);
    if (again && document.activeElement === document.body) again.focus({ preventScroll: true });
  }

  function actionLabel(action) {
    if (action.type === "lay") return layLabel(action);
    if (action.type === "draw") return t("web.draw");
    if (action.type === "fly_home") {
      const seen = previewOf(action) || { birds_home: 0, discarded: 0 };
      const held = seen.birds_home + seen.discarded;
      return t("web.fly", { birds: birds(action.species, held), home: seen.birds_home, discarded: seen.discarded });
    }
    if (action.type === "pass") {
      const phase = app.view.phase;
      return has(`web.pass.${phase}`) ? t(`web.pass.${phase}`) : t("web.pass");
    }
    return JSON.stringify(action);
  }

  /** The buttons of the phase: draw or not, fly a flock home or not (lays: the hand and
   * the row ends). */
  function renderControls() {
    const container = $("controls");
    container.replaceChildren();
    const dock = $("dock");
    dock.hidden = app.seat === null || isOver();
    if (dock.hidden) return;
    if (!myTurn()) {
      const waiting =
        app.thinking !== null
          ? t("web.thinking", { player: capitalize(seatName(app.thinking)) })
          : t("web.waiting");
      container.append(el("p", { className: "muted waiting", text: waiting }));
      return;
    }
    const others = app.legal.filter((action) => action.type !== "lay");
    for (const action of others) container.append(actionButton(action, "phase"));
    if (!others.length) {
      const prompt = t(app.selected ? "web.prompt_end" : "web.prompt_species");
      container.append(el("p", { className: "prompt", text: prompt }));
    }
  }

  /** Every legal action, folded away: lays grouped by species, then the others. */
  function renderMoveList() {
    const container = $("all-moves-list");
    container.replaceChildren();
    const details = $("all-moves");
    details.hidden = !myTurn() || app.seat === null || isOver();
    if (details.hidden) return;
    setText($("all-moves-title"), tn("web.all_moves", app.legal.length));
    const lays = new Map();
    const others = [];
    for (const action of app.legal) {
      if (action.type === "lay") {
        if (!lays.has(action.species)) lays.set(action.species, []);
        lays.get(action.species).push(action);
      } else {
        others.push(action);
      }
    }
    for (const [species, actions] of lays) {
      const title = t("web.lay_group", { birds: birds(species, handCount(species)) });
      container.append(el("h3", { className: `action-group sp-${species}`, text: title }));
      const list = el("ul", { className: "action-list" });
      for (const action of actions) list.append(el("li", null, actionButton(action, "list")));
      container.append(list);
    }
    if (others.length) {
      const list = el("ul", { className: "action-list" });
      for (const action of others) list.append(el("li", null, actionButton(action, "list")));
      container.append(list);
    }
  }

  function actionButton(action, where) {
    const button = el("button", {
      className: `action action-${action.type}${where === "phase" ? " phase-button" : ""}`,
      attrs: {
        type: "button",
        "data-focus": `${where}:${JSON.stringify(action)}`,
        "data-action": "",
        "data-enabled": "true",
      },
    });
    if (action.type === "lay") {
      const seen = previewOf(action);
      const taken = (seen && seen.captured) || [];
      const key = action.side === "left" ? "web.where_left" : "web.where_right";
      button.append(
        el("span", { className: "where", text: t(key, { row: action.row }) }),
        el("span", { className: "effect", text: effectText(seen, false) }),
        srOnly(taken.length ? `: ${cardsText(taken)}` : ""),
      );
      button.title = layLabel(action);
      button.setAttribute("aria-label", layLabel(action));
      if (action.species === app.selected) button.classList.add("match");
    } else {
      if (action.type === "fly_home") button.append(birdCard(action.species, "chip", null));
      button.append(document.createTextNode(actionLabel(action)));
      if (action.type === "pass") button.classList.add("secondary");
    }
    button.disabled = isBusy();
    button.addEventListener("click", () => act(action));
    return button;
  }

  // ------------------------------------------------------------------ hints

  /** Ask the server for the expert's best moves at this move (computed from this seat's
   * view and what its history proves); the answer is kept until the next move. */
  async function askHint() {
    if (isBusy() || !app.table || !myTurn()) return;
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

  function renderHint() {
    const button = $("hint-button");
    const box = $("hint");
    const list = $("hint-list");
    const offered = app.seat !== null && myTurn() && !isOver();
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
      if (action) move.addEventListener("click", () => act(action));
      list.append(el("li", null, move));
    }
  }

  // ------------------------------------------------------------------ players

  function renderPlayers() {
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
    else if (isBot(seat)) tags.push(botLabel(app.seats[seat]));
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

  /** A seat's progress towards a win, as the server counts it (and /api/meta's win). */
  function progressText(seat) {
    const progress = app.progress[seat] || { species: 0, triples: 0, cards: 0 };
    const win = app.win || { species: "?", triples: "?" };
    return t("web.progress", {
      species: progress.species,
      win_species: win.species,
      triples: progress.triples,
      win_triples: win.triples,
      cards: tn("web.cards", progress.cards),
    });
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

  // ------------------------------------------------------------------ the log

  /** Add the sentences the server sent with the events (null: nothing to say). `last`
   * marks them as the last turn's: "new" (a new turn, the marks before go), "more" (the
   * same turn goes on) or null (no move). */
  function appendLog(events, narration, last) {
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

  // ------------------------------------------------------------------ animations

  function motionOk() {
    return !reducedMotion.matches && typeof Element.prototype.animate === "function";
  }

  function animate(node, frames, options) {
    if (!motionOk() || !node) return Promise.resolve();
    app.animations += 1;
    document.body.dataset.animations = String(app.animations);
    const timing = { duration: ANIMATION_MS, easing: "cubic-bezier(.2,.7,.2,1)", fill: "none", ...options };
    return node.animate(frames, timing).finished.catch(() => undefined);
  }

  /** Where a player's cards come from and go to: their hand (the reader's own) or their
   * place among the players. */
  function seatBox(seat, species) {
    if (seat === app.seat) {
      const card = document.querySelector(`#hand [data-species="${CSS.escape(String(species))}"] .stack`);
      if (card) return card.getBoundingClientRect();
      const hand = $("hand");
      if (hand && hand.offsetParent) return hand.getBoundingClientRect();
    }
    const panel = document.querySelector(`#players [data-seat="${seat}"]`);
    return panel ? panel.getBoundingClientRect() : null;
  }

  function offset(from, node) {
    const to = node.getBoundingClientRect();
    return {
      x: from.left + from.width / 2 - (to.left + to.width / 2),
      y: from.top + from.height / 2 - (to.top + to.height / 2),
    };
  }

  /** The laid cards come from the player to their end of the row. */
  async function animateLay(event) {
    const row = document.querySelector(`#rows [data-row="${event.row}"]`);
    const list = row && row.querySelector(".row-cards");
    if (!list) return;
    const from = seatBox(event.player, event.species);
    const added = [];
    for (let i = 0; i < event.count; i += 1) {
      const item = el("li", { className: "incoming" }, birdCard(event.species, "last", null));
      if (event.side === "left") list.prepend(item);
      else list.append(item);
      added.push(item);
    }
    layoutRow(row);
    row.classList.add("last-row");
    await Promise.all(
      added.map((item, i) => {
        const shift = from ? offset(from, item) : { x: 0, y: -40 };
        return animate(
          item,
          [
            { transform: `translate(${shift.x}px, ${shift.y}px) scale(0.8) rotate(-8deg)`, opacity: 0.4 },
            { transform: "none", opacity: 1 },
          ],
          { delay: i * 60 },
        );
      }),
    );
  }

  /** The captured cards, next to the laid ones, go to the player. */
  async function animateCapture(event, lay) {
    const row = document.querySelector(`#rows [data-row="${event.row}"]`);
    const list = row && row.querySelector(".row-cards");
    if (!list) return;
    const items = [...list.children];
    const count = Array.isArray(event.cards) ? event.cards.length : 0;
    const taken =
      lay.side === "left"
        ? items.slice(lay.count, lay.count + count)
        : items.slice(Math.max(0, items.length - lay.count - count), items.length - lay.count);
    const to = seatBox(event.player, null);
    await Promise.all(
      taken.map((item, i) => {
        item.classList.add("taken");
        const shift = to ? offset(to, item) : { x: 0, y: 60 };
        return animate(
          item,
          [
            { transform: "none", opacity: 1 },
            { transform: "translateY(-14px) scale(1.05)", opacity: 1, offset: 0.3 },
            { transform: `translate(${-shift.x}px, ${-shift.y}px) scale(0.5)`, opacity: 0 },
          ],
          { delay: i * 50, duration: ANIMATION_MS + 120, fill: "forwards" },
        );
      }),
    );
  }

  /** The refilled cards come face down from the draw pile and turn over. */
  function animateRefill(event) {
    const row = document.querySelector(`#rows [data-row="${event.row}"] .row-cards`);
    if (!row) return;
    const items = [...row.children].slice(-event.cards.length);
    const pile = document.querySelector("#piles .draw-pile");
    const from = pile ? pile.getBoundingClientRect() : null;
    items.forEach((item, i) => {
      const shift = from ? offset(from, item) : { x: 0, y: -40 };
      animate(
        item,
        [
          { transform: `translate(${shift.x}px, ${shift.y}px) rotateY(90deg)`, opacity: 0 },
          { transform: "rotateY(90deg)", opacity: 1, offset: 0.6 },
          { transform: "none", opacity: 1 },
        ],
        { delay: i * 80, duration: ANIMATION_MS + 160 },
      );
    });
  }

  function pulse(selector) {
    const node = document.querySelector(selector);
    if (node) animate(node, [{ transform: "scale(1)" }, { transform: "scale(1.12)" }, { transform: "scale(1)" }], {});
  }

  // ------------------------------------------------------------------ the key

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

  // ------------------------------------------------------------------ start

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
    document.body.dataset.ready = "true";
    openFromFragment();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
