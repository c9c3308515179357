/* Following the table: its push stream (Server-Sent Events read with fetch, so that the
 * token stays in a header), reopened after a drop; polling when it keeps failing; after
 * the game, asking now and then for a rematch. */

import { $, clearError, setText, showError, sleep } from "./dom.js";
import { app, later } from "./state.js";
import { t } from "./phrases.js";
import { api, authHeaders, explainStatus, tablePath } from "./api.js";
import { receiveDoc, receiveEvents, receiveSnapshot, tableClosed } from "./playback.js";

const STREAM_RETRIES = 3; // failed connections in a row before falling back to polling
const STREAM_RETRY_MS = [300, 1000, 2500];
const STREAM_AGAIN_MS = 30000; // while polling, how often the stream is tried again
export const POLL_MS = 1000;
const WATCH_MS = 2000; // after the game, how often a finished table is asked for a rematch
const WATCH_FOR_MS = 20 * 60 * 1000;

function setLive(live) {
  app.live = live;
  document.body.dataset.live = live;
  const note = $("live-note");
  note.hidden = live !== "polling";
  if (live === "polling") setText(note, t("web.live_off"));
}

/** Read the table's stream, reconnecting after a drop; poll only if it keeps failing. */
export async function connect() {
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
  } else if (message.event === "review" && data && typeof data === "object") {
    document.dispatchEvent(new CustomEvent("cuckoo:review", { detail: data })); // review.js
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
