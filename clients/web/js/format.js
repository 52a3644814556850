// Dates, numbers and day counts for the current language, through Intl. Holidays are calendar dates
// (YYYY-MM-DD), the same day for everyone: they are formatted in UTC so that no time zone moves them a day.
// Nothing here counts working days; the server does.
import { language, t } from "./i18n.js";

function dateOf(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

const cache = new Map();
function formatter(kind, options) {
  const key = `${language()}|${kind}|${JSON.stringify(options)}`;
  if (!cache.has(key)) {
    const make = kind === "number" ? Intl.NumberFormat : kind === "plural" ? Intl.PluralRules : Intl.DateTimeFormat;
    cache.set(key, new make(language(), options));
  }
  return cache.get(key);
}

/** "2 Dec 2026" / "2 dic 2026". */
export function formatDate(iso, style = "medium") {
  if (!iso) return "";
  return formatter("date", { dateStyle: style, timeZone: "UTC" }).format(dateOf(iso));
}

/** "Tue, 2 Dec" with the weekday, for a request's days. */
export function formatDay(iso) {
  return formatter("date", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(dateOf(iso));
}

/** A range of calendar dates, as short as the language allows ("7–10 Jul 2026"). */
export function formatDateRange(start, end) {
  if (!end || start === end) return formatDate(start);
  return formatter("date", { dateStyle: "medium", timeZone: "UTC" }).formatRange(dateOf(start), dateOf(end));
}

/** An instant (UTC ISO 8601) in the browser's time zone. */
export function formatInstant(iso) {
  if (!iso) return "";
  return formatter("date", { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

export function formatNumber(n) {
  return formatter("number", { maximumFractionDigits: 1 }).format(n);
}

/** "2.5 days" / "2,5 días", "1 day" / "1 día". */
export function formatDays(n) {
  const rule = formatter("plural", {}).select(n);
  return t(rule === "one" ? "days.one" : "days.other", { n: formatNumber(n) });
}

/** The name of an ISO weekday (1 = Monday … 7 = Sunday). */
export function weekdayName(iso) {
  // 2024-01-01 was a Monday.
  return formatter("date", { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, iso)));
}

/** A list in the language's way ("a, b and c"). */
export function formatList(items) {
  return new Intl.ListFormat(language(), { style: "long", type: "conjunction" }).format(items);
}

/** Today's calendar date in the browser (the server's `today` is preferred where a screen has it). */
export function localToday() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The calendar date `days` after `iso`: date arithmetic only, for ranges to ask the server about. */
export function addDays(iso, days) {
  const date = dateOf(iso);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
