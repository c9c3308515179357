/* Small helpers for the page: making elements (text always with textContent), the
 * browser's storage, and the alert area for errors. */

/** The element of the page with this id. */
export function $(id) {
  return document.getElementById(id);
}

/** Make an element; `text` is set with textContent, `attrs` with setAttribute. */
export function el(tag, options, ...children) {
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

const SVG_NS = "http://www.w3.org/2000/svg";

export function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  return node;
}

/** Text only screen readers read (a part of a button's name, for example). */
export function srOnly(text) {
  return el("span", { className: "visually-hidden", text });
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function range(start, stop) {
  const values = [];
  for (let i = start; i < stop; i += 1) values.push(i);
  return values;
}

export function sleep(ms) {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

const STORE = "cuckoo-rules:";

export function stored(key, fallback) {
  try {
    const value = window.localStorage.getItem(STORE + key);
    return value === null ? fallback : value;
  } catch (error) {
    return fallback; // storage may be disabled (private mode)
  }
}

export function store(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(STORE + key);
    else window.localStorage.setItem(STORE + key, value);
  } catch (error) {
    // Not remembered: it still holds until the page is closed.
  }
}

/** Show a message in the alert area; `kind` "live" marks one that a good answer clears. */
export function showError(message, kind) {
  $("error-text").textContent = message;
  $("error").dataset.kind = kind || "other";
  $("error").hidden = false;
}

export function clearError(kind) {
  if (kind && $("error").dataset.kind !== kind) return;
  $("error").hidden = true;
  $("error-text").textContent = "";
}
