/* The CuBirds browser client of `cuckoo-rules serve`: plain JavaScript, no framework.
 *
 * The page talks to the JSON API (/api/bots, /api/meta, /api/tables, /api/tables/ID,
 * /api/tables/ID/actions and /api/tables/ID/hint), builds its form of rule variants and
 * its species key from
 * /api/meta, keeps the table id and the seat's token in the URL fragment
 * (#table=ID&token=TOKEN) so that a reload resumes the game, and renders the seat's view.
 * The server owns the rules and the species: the page holds no rule and no species
 * table. It offers the legal actions it is sent and says what each would do from the
 * previews sent with them, shows who won and why from the outcome, the progress of each
 * collection and the flocks of the hand as sent, and the log as the sentences sent with
 * the events. The "Hint" button shows the expert's best moves as the server words them,
 * with its estimated chance of winning after each; clicking one plays it. Every piece of
 * data is put into the page with textContent, never as HTML.
 */
"use strict";

(function () {
  // ------------------------------------------------------------------ constants

  const POLL_MS = 1000;
  const POLL_ERROR_MS = 4000;
  const MAX_LOG = 400;
  const DEFAULT_BOTS = ["random", "greedy", "ismcts"];
  const PHASE_WORDS = {
    lay: "lay birds",
    draw: "decide whether to draw",
    flock: "fly a flock home or pass",
    game_over: "game over",
  };

  /** What the page knows about the table it shows (none: every field empty). */
  function freshTableState(table = null, token = null) {
    return {
      table,
      token,
      seat: null,
      seats: [],
      names: [],
      move: null, // the move the seat answers, sent back with its action
      view: null,
      outcome: null,
      deal: null, // the commitment to the deal; its seed and salt once the game is over
      notices: [], // the moves a stand-in played for a failed bot, and why
      progress: [],
      handFlocks: null,
      legal: [],
      previews: [],
      nextEvent: 0,
      selected: null,
      hint: null, // the last hint asked: {move, loading, data} (data: the server's answer)
    };
  }

  /** Everything the page knows; the DOM is redrawn from it. */
  const app = {
    bots: DEFAULT_BOTS,
    // From /api/meta: the species in canonical order, each {id, name, copies,
    // small_flock, big_flock}, and what a collection needs to win.
    species: [],
    byId: new Map(),
    win: null,
    ...freshTableState(),
    busy: false,
    pollTimer: null,
    generation: 0,
    renders: 0,
    pointer: false,
    pendingFocus: null,
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
    for (const [name, value] of Object.entries(opts.attrs || {})) {
      if (value !== null && value !== undefined && value !== false) {
        node.setAttribute(name, value === true ? "" : String(value));
      }
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  /** Text only screen readers read (a part of a button's name, for example). */
  function srOnly(text) {
    return el("span", { className: "visually-hidden", text });
  }

  function speciesName(id) {
    const species = app.byId.get(id);
    return species ? species.name : String(id);
  }

  function plural(count, word) {
    return `${count} ${word}${count === 1 ? "" : "s"}`;
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

  /** "you", or the seat's name as the server sends it ("P1 greedy", "P2"). */
  function seatName(seat) {
    if (seat === app.seat && app.seat !== null) return "you";
    return String(app.names[seat] !== undefined ? app.names[seat] : `P${seat}`);
  }

  function capitalize(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  /** What the server says a legal action would do (its preview), or null. */
  function previewOf(action) {
    const index = app.legal.indexOf(action);
    return index >= 0 ? app.previews[index] || null : null;
  }

  function handCount(species) {
    const hand = app.view && app.view.hand;
    return (hand && hand[species]) || 0;
  }

  function isOver() {
    return Boolean(app.view && app.view.phase === "game_over");
  }

  function myTurn() {
    return app.legal.length > 0;
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
    try {
      window.localStorage.setItem(`cuckoo-rules:share:${table}`, JSON.stringify(tokens));
    } catch (error) {
      // Storage may be disabled (private mode): the links are only shown until a reload.
    }
  }

  function loadShareTokens(table) {
    try {
      const text = window.localStorage.getItem(`cuckoo-rules:share:${table}`);
      return text ? JSON.parse(text) : {};
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

  async function api(method, path, body) {
    const headers = { Accept: "application/json" };
    if (app.token) headers.Authorization = `Bearer ${app.token}`;
    const init = { method, headers, cache: "no-store" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      throw new ApiError(0, "Cannot reach the server. Is it still running?");
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (!response.ok) {
      const detail = data && typeof data.error === "string" ? data.error : response.statusText;
      throw new ApiError(response.status, `${explainStatus(response.status)}: ${detail}`);
    }
    if (data === null) throw new ApiError(response.status, "The server sent an unreadable answer.");
    return data;
  }

  function explainStatus(status) {
    return {
      400: "Bad request",
      401: "This seat's link is not valid",
      404: "No such table",
      409: "Not allowed now",
      501: "Not available on this server",
    }[status] || `Error ${status}`;
  }

  function tablePath(suffix) {
    return `/api/tables/${encodeURIComponent(app.table)}${suffix || ""}`;
  }

  // ------------------------------------------------------------------ messages

  /** Show a message in the alert area; `kind` "poll" marks one that a good poll clears. */
  function showError(message, kind) {
    $("error-text").textContent = message;
    $("error").dataset.kind = kind || "other";
    $("error").hidden = false;
  }

  function clearError() {
    $("error").hidden = true;
    $("error-text").textContent = "";
  }

  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  // ------------------------------------------------------------------ the setup form

  function seatOptions(selectedValue) {
    const select = el("select");
    const choices = [...app.bots.map((bot) => [bot, `Bot: ${bot}`]), ["human", "Human (share a link)"]];
    for (const [value, label] of choices) {
      select.append(el("option", { text: label, attrs: { value, selected: value === selectedValue } }));
    }
    return select;
  }

  function renderSeatFields() {
    const container = $("seat-fields");
    const previous = [...container.querySelectorAll("select")].map((select) => select.value);
    const players = Number($("num-players").value);
    const fallback = app.bots.includes("greedy") ? "greedy" : app.bots[0];
    container.replaceChildren();
    for (let seat = 1; seat < players; seat += 1) {
      const id = `seat-${seat}`;
      const select = seatOptions(previous[seat - 1] || fallback);
      select.id = id;
      const label = el("label", { text: `Seat ${seat}`, attrs: { for: id } });
      container.append(el("div", { className: "field" }, label, select));
    }
  }

  /** The type of an option's values: "bool", "int" or "str" (as data-type says it). */
  function optionType(values) {
    if (values.every((value) => typeof value === "boolean")) return "bool";
    if (values.every((value) => Number.isInteger(value))) return "int";
    return "str";
  }

  /** The field of one option of /api/meta: a checkbox for a yes-or-no option, else a select.
   * Its id is opt-NAME; data-option names the option and data-type says how to read it. */
  function variantField(option) {
    const id = `opt-${option.name}`;
    const values = option.choices.map((choice) => choice.value);
    const type = optionType(values);
    const help = el("p", { className: "help", text: option.description, attrs: { id: `${id}-help` } });
    const label = el("label", { text: option.label, attrs: { for: id } });
    const attrs = { id, "data-option": option.name, "aria-describedby": `${id}-help` };
    if (type !== "str") attrs["data-type"] = type;
    if (type === "bool") {
      const input = el("input", { attrs: { ...attrs, type: "checkbox", checked: option.default === true } });
      return el("div", { className: "check" }, input, el("div", null, label, help));
    }
    const select = el("select", { attrs });
    for (const choice of option.choices) {
      const standard = choice.value === option.default;
      const text = standard ? `${choice.text} (standard)` : choice.text;
      select.append(el("option", { text, attrs: { value: String(choice.value), selected: standard } }));
    }
    return el("div", { className: "field" }, label, select, help);
  }

  /** Build the rule variants from the options of /api/meta (the number of players is set
   * by the seats, so it has no field here). */
  function renderVariantFields(options) {
    const fields = options
      .filter((option) => option.name !== "num_players" && Array.isArray(option.choices) && option.choices.length)
      .map(variantField);
    $("variant-fields").replaceChildren(...fields);
  }

  /** Read /api/meta: the rule variants for the form, the species and the win. */
  async function loadMeta() {
    try {
      const data = await api("GET", "/api/meta");
      app.species = Array.isArray(data.species) ? data.species : [];
      app.byId = new Map(app.species.map((s) => [s.id, s]));
      app.win = data.win || null;
      renderSpeciesTable();
      renderVariantFields(Array.isArray(data.options) ? data.options : []);
    } catch (error) {
      showError(`Could not load the game's description (${error.message}); reload the page.`);
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
      throw new Error(`The seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`);
    }
    return Number(text);
  }

  async function startGame(event) {
    event.preventDefault();
    clearError();
    let body;
    try {
      const options = readOptions();
      const seats = ["human", ...[...$("seat-fields").querySelectorAll("select")].map((s) => s.value)];
      body = { options, seats };
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

  async function loadBots() {
    try {
      const data = await api("GET", "/api/bots");
      if (Array.isArray(data.bots) && data.bots.length) app.bots = data.bots.map(String);
    } catch (error) {
      showError(`Could not load the list of bots (${error.message}); using the usual ones.`);
    }
    renderSeatFields();
  }

  // ------------------------------------------------------------------ opening a table

  function showSetup() {
    stopPolling();
    app.generation += 1;
    Object.assign(app, freshTableState());
    $("game").hidden = true;
    $("setup").hidden = false;
    document.title = "CuBirds · cuckoo-rules";
  }

  async function openTable(table, token) {
    stopPolling();
    app.generation += 1;
    Object.assign(app, freshTableState(table, token || null));
    $("log").replaceChildren();
    $("setup").hidden = true;
    $("game").hidden = false;
    setText($("status"), "Loading the table…");
    try {
      const data = await api("GET", tablePath());
      receive(data, app.generation);
      $("main").focus({ preventScroll: true });
    } catch (error) {
      showError(error.message);
      if (error.status === 401 || error.status === 404) showSetup();
      else schedulePoll(POLL_ERROR_MS);
    }
  }

  function openFromFragment() {
    const { table, token } = readFragment();
    clearError();
    if (table) openTable(table, token);
    else showSetup();
  }

  // ------------------------------------------------------------------ receiving snapshots

  /** Take in a snapshot from the server: the view, the legal actions and the new events. */
  function receive(data, generation) {
    if (generation !== app.generation) return;
    app.seat = typeof data.seat === "number" ? data.seat : null;
    app.seats = Array.isArray(data.seats) ? data.seats : app.seats;
    app.names = Array.isArray(data.names) ? data.names : app.names;
    app.move = typeof data.move === "number" ? data.move : null;
    app.view = data.view;
    app.outcome = data.outcome || null;
    app.deal = data.deal || null;
    app.notices = Array.isArray(data.notices) ? data.notices : [];
    app.progress = Array.isArray(data.progress) ? data.progress : [];
    app.handFlocks = data.hand_flocks || null;
    app.legal = Array.isArray(data.legal_actions) ? data.legal_actions : [];
    app.previews = Array.isArray(data.previews) ? data.previews : [];
    const events = Array.isArray(data.events) ? data.events : [];
    const narration = Array.isArray(data.narration) ? data.narration : [];
    const next = Number(data.next_event);
    // The events end at number `next`; keep only those not seen yet.
    const first = Number.isFinite(next) ? next - events.length : app.nextEvent;
    const skip = Math.max(0, app.nextEvent - first);
    if (Number.isFinite(next)) app.nextEvent = Math.max(app.nextEvent, next);
    if (!app.legal.some((action) => action.type === "lay" && action.species === app.selected)) {
      app.selected = null;
    }
    appendLog(events.slice(skip), narration.slice(skip));
    render();
    if (!myTurn() && !isOver()) schedulePoll(POLL_MS);
  }

  function schedulePoll(delay) {
    stopPolling();
    const generation = app.generation;
    app.pollTimer = window.setTimeout(() => poll(generation), delay);
  }

  function stopPolling() {
    if (app.pollTimer !== null) window.clearTimeout(app.pollTimer);
    app.pollTimer = null;
  }

  async function poll(generation) {
    app.pollTimer = null;
    if (generation !== app.generation || app.busy) return;
    try {
      const data = await api("GET", tablePath(`?after=${app.nextEvent}`));
      if (generation !== app.generation || app.busy) return;
      if (!$("error").hidden && $("error").dataset.kind === "poll") clearError();
      receive(data, generation);
    } catch (error) {
      if (generation !== app.generation) return;
      showError(error.message, "poll");
      schedulePoll(POLL_ERROR_MS);
    }
  }

  async function play(action) {
    if (app.busy || !app.table) return;
    clearError();
    stopPolling();
    const generation = app.generation;
    // Disabling the buttons below blurs the focused one: remember it for the redraw.
    app.pendingFocus = focusKey(document.activeElement);
    setBusy(true);
    try {
      // The move number makes a request sent twice count once: the second is refused.
      const body = app.move === null ? { action } : { action, move: app.move };
      const data = await api("POST", tablePath(`/actions?after=${app.nextEvent}`), body);
      setBusy(false);
      receive(data, generation);
    } catch (error) {
      setBusy(false);
      if (generation !== app.generation) return;
      showError(error.message);
      schedulePoll(0); // the table may have moved on: fetch it again
    }
  }

  function setBusy(busy) {
    app.busy = busy;
    document.body.dataset.busy = String(busy);
    $("game").setAttribute("aria-busy", String(busy));
    for (const button of document.querySelectorAll("#game [data-action]")) {
      button.disabled = busy || button.dataset.enabled !== "true";
    }
  }

  // ------------------------------------------------------------------ rendering

  function render() {
    const key = focusKey(document.activeElement) || app.pendingFocus;
    app.pendingFocus = null;
    renderStatus();
    renderCounters();
    renderGameOver();
    renderNotices();
    renderShare();
    renderRows();
    renderHand();
    renderActions();
    renderHint();
    renderPlayers();
    restoreFocus(key);
    app.renders += 1;
    document.body.dataset.renders = String(app.renders);
    document.body.dataset.phase = app.view ? app.view.phase : "";
  }

  function focusKey(node) {
    return node && node.dataset ? node.dataset.focus || null : null;
  }

  /** After a redraw, give the focus back to the same control, or to the moves. */
  function restoreFocus(key) {
    if (document.activeElement && document.activeElement !== document.body) return;
    if (key === null) return;
    const same = document.querySelector(`[data-focus="${CSS.escape(key)}"]:not([disabled])`);
    // After a mouse or touch click, do not scroll the page to the new focus.
    const options = { preventScroll: app.pointer };
    if (same) {
      same.focus(options);
    } else if (isOver()) {
      $("gameover-title").focus(options);
    } else {
      const first = document.querySelector("#actions button:not([disabled])");
      (first || $("actions-title")).focus(options);
    }
  }

  function statusText() {
    const view = app.view;
    if (!view) return "Loading…";
    if (isOver()) return overText();
    if (myTurn()) return `Your turn: ${PHASE_WORDS[view.phase] || view.phase}.`;
    const spectator = app.seat === null ? "You are watching. " : "";
    const doing = PHASE_WORDS[view.phase] || view.phase;
    return `${spectator}${capitalize(seatName(view.current_player))} to play (${doing})…`;
  }

  /** The winning seats, from the outcome the server sends (empty while the game is on). */
  function winners() {
    return app.outcome && Array.isArray(app.outcome.winners) ? app.outcome.winners : [];
  }

  /** Who won and why, in the server's words ("Game over: you win (two triples ...)."). */
  function overText() {
    return app.outcome && app.outcome.text ? String(app.outcome.text) : "Game over.";
  }

  function renderStatus() {
    setText($("status"), statusText());
    if (isOver()) document.title = "Game over · CuBirds";
    else if (myTurn()) document.title = "Your turn · CuBirds";
    else document.title = "CuBirds · cuckoo-rules";
  }

  function renderCounters() {
    const view = app.view;
    const items = [
      ["Round", view.round],
      ["Turn", view.turn],
      ["Draw pile", view.draw_pile_size],
      ["Discard pile", view.discard_pile_size],
      ["You are", app.seat === null ? "watching" : `P${app.seat}`],
    ];
    const pairs = items.map(([term, value]) =>
      el("div", null, el("dt", { text: term }), el("dd", { text: value })),
    );
    $("counters").replaceChildren(...pairs);
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
    setText($("gameover-reason"), reason ? `Reason: ${reason}.` : "");
    box.classList.toggle("won", app.seat !== null && won.includes(app.seat));
    const standings = $("standings");
    standings.replaceChildren();
    (app.view.collections || []).forEach((collection, seat) => {
      const mark = won.includes(seat) ? " (winner)" : "";
      const text = `${capitalize(seatName(seat))}${mark}: ${progressText(seat)}`;
      standings.append(el("li", { text }));
    });
    const deal = app.deal;
    setText(
      $("gameover-deal"),
      deal && deal.seed !== null && deal.commitment
        ? `Dealt from seed ${deal.seed} (salt ${deal.salt}), committed to before the first ` +
            `move as ${deal.commitment}: check it with cuckoo_rules.fairness.check_deal.`
        : "",
    );
  }

  /** The moves a stand-in played (a bot that failed twice), as the server words them. */
  function renderNotices() {
    const list = $("notices");
    list.replaceChildren();
    for (const notice of app.notices) {
      list.append(el("li", { text: `Move ${Number(notice.move) + 1}: ${String(notice.text)}` }));
    }
    list.hidden = app.notices.length === 0;
  }

  function renderShare() {
    const box = $("share");
    const tokens = loadShareTokens(app.table);
    const list = $("share-list");
    list.replaceChildren();
    for (const [seat, token] of Object.entries(tokens)) {
      if (Number(seat) === app.seat) continue; // this page is that seat
      const url = pageUrl(app.table, token);
      list.append(shareItem(`Seat ${seat} (human): share this seat`, url, `share-${seat}`));
    }
    if (list.children.length) {
      list.append(shareItem("Spectators: watch this table", pageUrl(app.table, null), "share-watch"));
    }
    box.hidden = list.children.length === 0 || isOver();
  }

  function shareItem(label, url, key) {
    const link = el("a", { text: label, attrs: { href: url, target: "_blank", rel: "noopener" } });
    const copy = el("button", {
      text: "Copy link",
      className: "small",
      attrs: { type: "button", "data-focus": key },
    });
    copy.addEventListener("click", () => copyText(url, copy));
    return el("li", null, link, " ", copy);
  }

  async function copyText(text, button) {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch (error) {
      window.prompt("Copy this link:", text);
    }
  }

  function card(species, options) {
    const info = app.byId.get(species) || { id: species, name: String(species) };
    const opts = options || {};
    const className = `card sp-${info.id} ${opts.className || ""}`.trim();
    const node = el(opts.tag || "span", { className, attrs: opts.attrs });
    node.append(el("span", { className: "band", attrs: { "aria-hidden": "true" } }));
    node.append(el("span", { className: "name", text: info.name }));
    return node;
  }

  function layFor(species, row, side) {
    return app.legal.find(
      (action) =>
        action.type === "lay" && action.species === species && action.row === row && action.side === side,
    );
  }

  function layLabel(action) {
    const count = handCount(action.species);
    const base = `Lay ${count} ${speciesName(action.species)} on the ${action.side} of row ${action.row}`;
    return `${base}, ${effectText(previewOf(action), true)}`;
  }

  /** What a lay does, from its preview: the cards taken, a refill, the draw offered after
   * it (long: in full, for a label; short: for the text of a move's button). */
  function effectText(seen, long) {
    const taken = (seen && seen.captured) || [];
    const parts = [taken.length ? `captures ${taken.length}` : "captures nothing"];
    if (long && taken.length) parts[0] += `: ${taken.map(speciesName).join(", ")}`;
    if (seen && seen.refilled) parts.push(long ? "the row is refilled" : "refill");
    if (seen && seen.draw_offered === true) parts.push(long ? "then you may draw" : "may draw");
    if (seen && seen.draw_offered === null) {
      parts.push(long ? "then you may be able to draw" : "may be able to draw");
    }
    return parts.join(long ? "; " : " · ");
  }

  function renderRows() {
    const rows = app.view.rows || [];
    const list = $("rows");
    list.replaceChildren();
    rows.forEach((row, index) => list.append(renderRow(row, index)));
  }

  function renderRow(row, index) {
    const label = `Row ${index}, left to right`;
    const cards = el("ol", { className: "row-cards", attrs: { "aria-label": label } });
    row.forEach((species, position) => {
      const match = app.selected === species ? " match" : "";
      cards.append(el("li", { attrs: { "data-position": position } }, card(species, { className: match })));
    });
    const item = el("li", { className: "row", attrs: { "data-row": index } });
    const size = el("span", { className: "muted", text: ` · ${plural(row.length, "card")}` });
    item.append(el("h3", { className: "row-title", text: `Row ${index}` }, size));
    const line = el("div", { className: "row-line" });
    if (app.seat === null) line.append(cards); // a spectator lays nothing
    else line.append(rowTarget(row, index, "left"), cards, rowTarget(row, index, "right"));
    item.append(line);
    return item;
  }

  /** The button at one end of a row: lays the selected species there when that is legal. */
  function rowTarget(row, index, side) {
    const action = app.selected ? layFor(app.selected, index, side) : null;
    const arrow = el("span", {
      className: "arrow",
      text: side === "left" ? "◀" : "▶",
      attrs: { "aria-hidden": "true" },
    });
    const button = el("button", {
      className: `target target-${side}`,
      attrs: {
        type: "button",
        "data-focus": `target:${index}:${side}`,
        "data-action": "",
        "data-enabled": String(Boolean(action)),
      },
    });
    if (action) {
      const text = el("span", { className: "target-text", text: "Lay" });
      text.append(el("span", { className: "wide-only", text: " here" }));
      button.append(srOnly(`${layLabel(action)}: `), arrow, text);
      button.title = layLabel(action);
      button.addEventListener("click", () => play(action));
      showCaptureOnHover(button, row, index, action);
    } else {
      button.append(srOnly(`${side} end of row ${index}`), arrow);
    }
    button.disabled = app.busy || !action;
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

  function range(start, stop) {
    const values = [];
    for (let i = start; i < stop; i += 1) values.push(i);
    return values;
  }

  function markCaptured(row, positions, on) {
    const list = document.querySelector(`#rows [data-row="${row}"] .row-cards`);
    if (!list) return;
    for (const position of positions) {
      const item = list.querySelector(`[data-position="${position}"] .card`);
      if (item) item.classList.toggle("captured", on);
    }
  }

  function renderHand() {
    const section = $("hand-section");
    const hand = app.view.hand;
    section.hidden = hand === null || hand === undefined;
    if (section.hidden) return;
    const laySpecies = new Set(app.legal.filter((a) => a.type === "lay").map((a) => a.species));
    const items = countsList(hand);
    const container = $("hand");
    container.replaceChildren();
    if (!items.length) {
      container.append(el("p", { className: "muted", text: "Your hand is empty." }));
    }
    for (const [species, count] of items) {
      container.append(handCard(species, count, laySpecies.has(species.id)));
    }
    setText($("hand-title"), `Your hand (${plural(total(hand), "card")})`);
    setText($("hand-help"), handHelp(laySpecies.size > 0));
  }

  function handHelp(canLay) {
    const flocks = "Under each name: cards needed to fly home 1 / 2 birds (in bold: enough now).";
    if (canLay && app.selected) {
      const name = speciesName(app.selected);
      return `${name} selected: choose “Lay” at an end of a row, or pick another species.`;
    }
    if (canLay) return `Choose a species, then an end of a row (or use the list of moves). ${flocks}`;
    return flocks;
  }

  function handCard(species, count, selectable) {
    const selected = app.selected === species.id;
    // The birds a flock of this species would fly home now, as the server says.
    const ready = Boolean(app.handFlocks && app.handFlocks[species.id] > 0);
    const button = card(species.id, {
      tag: selectable ? "button" : "div",
      className: `hand-card${selected ? " selected" : ""}${ready ? " ready" : ""}`,
      attrs: {
        type: selectable ? "button" : null,
        "aria-pressed": selectable ? String(selected) : null,
        "data-focus": `hand:${species.id}`,
        "data-species": species.id,
      },
    });
    button.append(el("span", { className: "count", text: `×${count}` }));
    button.append(el("span", { className: "flock", text: `flock ${species.small_flock} / ${species.big_flock}` }));
    button.append(srOnly(ready ? ", enough to fly home" : ""));
    if (selectable) {
      button.addEventListener("click", () => selectSpecies(selected ? null : species.id));
    }
    return button;
  }

  function selectSpecies(species) {
    app.selected = species;
    const key = focusKey(document.activeElement);
    renderRows();
    renderHand();
    restoreFocus(key);
  }

  function actionLabel(action) {
    const view = app.view;
    if (action.type === "lay") return layLabel(action);
    if (action.type === "draw") return "Draw 2 cards";
    if (action.type === "fly_home") {
      const seen = previewOf(action) || { birds_home: 0, discarded: 0 };
      const held = seen.birds_home + seen.discarded;
      return `Fly ${held} ${speciesName(action.species)} home (keep ${seen.birds_home})`;
    }
    if (action.type === "pass") {
      return { draw: "Do not draw", flock: "Pass: fly no flock home" }[view.phase] || "Pass";
    }
    return JSON.stringify(action);
  }

  function renderActions() {
    const container = $("actions");
    container.replaceChildren();
    const section = $("actions-section");
    section.hidden = app.seat === null || isOver();
    if (section.hidden) return;
    if (!myTurn()) {
      container.append(el("p", { className: "muted", text: "Waiting for the other players…" }));
      return;
    }
    const groups = groupActions(app.legal);
    for (const [title, actions] of groups) {
      const list = el("ul", { className: "action-list" });
      for (const action of actions) list.append(el("li", null, actionButton(action)));
      if (title) {
        container.append(el("h3", { className: `action-group sp-${actions[0].species}`, text: title }));
      }
      container.append(list);
    }
  }

  /** Lays grouped by species (titled), everything else in one untitled group. */
  function groupActions(actions) {
    const groups = [];
    const lays = new Map();
    const others = [];
    for (const action of actions) {
      if (action.type === "lay") {
        if (!lays.has(action.species)) lays.set(action.species, []);
        lays.get(action.species).push(action);
      } else {
        others.push(action);
      }
    }
    for (const [species, list] of lays) {
      groups.push([`Lay ${handCount(species)} ${speciesName(species)}`, list]);
    }
    if (others.length) groups.push([null, others]);
    return groups;
  }

  function actionButton(action) {
    const button = el("button", {
      className: `action action-${action.type}`,
      attrs: {
        type: "button",
        "data-focus": `action:${JSON.stringify(action)}`,
        "data-action": "",
        "data-enabled": "true",
      },
    });
    if (action.type === "lay") {
      const seen = previewOf(action);
      const taken = (seen && seen.captured) || [];
      button.append(
        srOnly(`Lay ${handCount(action.species)} ${speciesName(action.species)} on the `),
        el("span", { className: "where", text: `${action.side} of row ${action.row}` }),
        srOnly(", "),
        el("span", { className: "effect", text: effectText(seen, false) }),
        srOnly(taken.length ? `: ${taken.map(speciesName).join(", ")}` : ""),
      );
      button.title = layLabel(action);
    } else {
      button.textContent = actionLabel(action);
    }
    if (action.type === "lay" && action.species === app.selected) button.classList.add("match");
    button.disabled = app.busy;
    button.addEventListener("click", () => play(action));
    return button;
  }

  // ------------------------------------------------------------------ hints

  /** Ask the server for the expert's best moves at this move (computed from this seat's
   * view and what its history proves); the answer is kept until the next move. */
  async function askHint() {
    if (app.busy || !app.table || !myTurn()) return;
    const generation = app.generation;
    const move = app.move;
    clearError();
    app.hint = { move, loading: true, data: null };
    renderHint();
    try {
      const data = await api("GET", tablePath("/hint"));
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
    button.disabled = app.busy || loading;
    setText(button, loading ? "Thinking…" : "Hint");
    list.replaceChildren();
    box.hidden = current === null;
    if (current === null) return;
    if (loading) {
      setText($("hint-title"), "The expert is thinking…");
      return;
    }
    const data = current.data || {};
    const hints = Array.isArray(data.hints) ? data.hints : [];
    setText(
      $("hint-title"),
      `The expert's best moves (${data.simulations} simulations), with your estimated ` +
        "chance of winning after each. Click one to play it.",
    );
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
      move.disabled = app.busy || !action;
      if (action) move.addEventListener("click", () => play(action));
      list.append(el("li", null, move));
    }
  }

  function renderPlayers() {
    const view = app.view;
    const container = $("players");
    container.replaceChildren();
    const sizes = view.hand_sizes || [];
    for (let seat = 0; seat < sizes.length; seat += 1) container.append(playerPanel(view, seat));
  }

  function playerPanel(view, seat) {
    const collection = (view.collections || [])[seat] || {};
    const known = (view.known_hands || [])[seat] || {};
    const won = winners();
    const classes = ["player"];
    if (seat === app.seat) classes.push("me");
    if (!isOver() && seat === view.current_player) classes.push("current");
    if (won.includes(seat)) classes.push("winner");
    const title = el("h3", { text: capitalize(seatName(seat)) });
    if (seat === app.seat) title.append(el("span", { className: "muted", text: ` (P${seat})` }));
    if (classes.includes("current")) title.append(el("span", { className: "badge", text: "to play" }));
    if (won.includes(seat)) title.append(el("span", { className: "badge win", text: "winner" }));
    const panel = el("article", { className: classes.join(" "), attrs: { "data-seat": seat } }, title);
    let hand = `Hand: ${plural(view.hand_sizes[seat], "card")}`;
    const knownItems = countsList(known);
    if (knownItems.length && seat !== app.seat) {
      hand += ` · known: ${knownItems.map(([s, n]) => `${n} ${s.name}`).join(", ")}`;
    }
    panel.append(el("p", { className: "hand-size", text: hand }));
    panel.append(el("p", { className: "progress", text: `Collection: ${progressText(seat)}` }));
    panel.append(collectionCards(collection));
    return panel;
  }

  /** A seat's progress towards a win, as the server counts it (and /api/meta's win). */
  function progressText(seat) {
    const progress = app.progress[seat] || { species: 0, triples: 0, cards: 0 };
    const win = app.win || { species: "?", triples: "?" };
    return (
      `${progress.species}/${win.species} species · ${progress.triples}/${win.triples} triples · ` +
      plural(progress.cards, "card")
    );
  }

  function collectionCards(collection) {
    const items = countsList(collection);
    const list = el("ul", { className: "collection", attrs: { "aria-label": "Collection" } });
    if (!items.length) list.append(el("li", { className: "muted", text: "No birds yet" }));
    for (const [species, count] of items) {
      const chip = card(species.id, { className: "mini" });
      chip.append(el("span", { className: "count", text: `×${count}` }));
      list.append(el("li", null, chip));
    }
    return list;
  }

  // ------------------------------------------------------------------ the log

  /** Add the sentences the server sent with the events (null: nothing to say). */
  function appendLog(events, narration) {
    const log = $("log");
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 48;
    events.forEach((event, index) => {
      const text = narration[index];
      if (typeof text !== "string" || !text) return;
      const item = el("li", { text, className: `ev-${event.type}` });
      if (typeof event.player === "number" && event.player === app.seat) item.classList.add("mine");
      log.append(item);
    });
    while (log.children.length > MAX_LOG) log.firstElementChild.remove();
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  // ------------------------------------------------------------------ the key

  function renderSpeciesTable() {
    const body = document.querySelector("#species-table tbody");
    const rows = app.species.map((s) => {
      const name = el("th", { attrs: { scope: "row" } }, card(s.id, { className: "mini" }));
      const numbers = [s.copies, s.small_flock, s.big_flock].map((n) => el("td", { text: n }));
      return el("tr", null, name, ...numbers);
    });
    body.replaceChildren(...rows);
  }

  // ------------------------------------------------------------------ start

  function init() {
    document.body.dataset.renders = "0";
    document.body.dataset.busy = "false";
    renderSeatFields();
    $("num-players").addEventListener("change", renderSeatFields);
    $("setup-form").addEventListener("submit", startGame);
    $("error-close").addEventListener("click", clearError);
    $("hint-button").addEventListener("click", askHint);
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
    loadBots();
    // The species are needed to draw a table: open it once /api/meta has answered.
    loadMeta().then(openFromFragment);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
