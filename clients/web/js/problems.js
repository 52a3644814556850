// The server's problems (application/problem+json) in the user's language: the problem's `type`, and its
// `field` when it names one, pick a translated message; the server's own `detail` is shown only when there is
// no translation. A screen may have messages of its own ("login.unauthenticated" for a wrong password). A
// refusal of days not yet earned names the day from which the request would fit (`fitsFrom`).
import { has, t } from "./i18n.js";
import { formatDate } from "./format.js";

/** The message for `error` (an ApiError), looked up from the most to the least specific key. */
export function problemMessage(error, context = "") {
  // Not an answer of the server: a fault of the app itself.
  if (error?.status === undefined) return t("problem.app");
  const type = error.type;
  const field = error.problem?.field;
  const keys = [];
  const fitsFrom = error.problem?.fitsFrom;
  if (fitsFrom) keys.push(...(context ? [`${context}.problem.${type}.fitsFrom`] : []), `problem.${type}.fitsFrom`);
  if (context && field) keys.push(`${context}.problem.${type}.${field}`);
  if (context) keys.push(`${context}.problem.${type}`);
  if (field) keys.push(`problem.${type}.${field}`);
  keys.push(`problem.${type}`);
  const values = { field: field ? t(`field.${field}`) : "", date: fitsFrom ? formatDate(fitsFrom, "long") : "" };
  for (const key of keys) if (has(key)) return t(key, values);
  if (error.problem?.detail) return error.problem.detail;
  return t("problem.unknown", { status: error.status });
}
