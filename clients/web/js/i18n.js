// The UI's languages: every string the app shows comes from t(key, values), looked up in the language file
// (lang/en.js, lang/es.js). The language is the employee's (`language` of GET /v1/me), or before login the
// browser's; setLanguage() switches it and tells the listeners, which render everything again at once.
import en from "./lang/en.js";
import es from "./lang/es.js";

const catalogs = { en, es };
export const languages = Object.keys(catalogs);

let current = "en";
const listeners = new Set();

/** The browser's preferred language among ours, else English. */
export function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (catalogs[base]) return base;
  }
  return "en";
}

export function language() {
  return current;
}

export function setLanguage(lang) {
  const next = catalogs[lang] ? lang : "en";
  document.documentElement.lang = next;
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener(next);
}

export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The text of `key`, with {name} replaced by values.name. A message may also be a function of the values. */
export function t(key, values = {}) {
  let message = catalogs[current][key];
  if (message === undefined) message = en[key];
  if (message === undefined) return key;
  if (typeof message === "function") return message(values, current);
  return message.replace(/\{(\w+)\}/g, (match, name) => (name in values ? String(values[name]) : match));
}

/** Whether the language has a message for `key` (used to fall back to the server's own text). */
export function has(key) {
  return catalogs[current][key] !== undefined || en[key] !== undefined;
}
