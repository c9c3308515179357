/* Dark mode: the system's choice, unless the header's toggle (remembered) overrides it. */

import { $, store, stored } from "./dom.js";

export const darkScheme = window.matchMedia("(prefers-color-scheme: dark)");

function currentTheme() {
  const chosen = stored("theme", null);
  if (chosen === "dark" || chosen === "light") return chosen;
  return darkScheme.matches ? "dark" : "light";
}

export function applyTheme() {
  const theme = currentTheme();
  document.documentElement.dataset.theme = theme;
  const button = $("theme");
  button.setAttribute("aria-pressed", String(theme === "dark"));
}

export function toggleTheme() {
  store("theme", currentTheme() === "dark" ? "light" : "dark");
  applyTheme();
}
