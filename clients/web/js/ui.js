// Pieces that several screens share: headings, labelled fields with their error messages, status words,
// balances, photos, loading and error views. Every control gets a visible label and an accessible name;
// a field's error is tied to it with aria-describedby and aria-invalid.
import { h, uid, replace } from "./dom.js";
import { t, has } from "./i18n.js";
import { formatDate, formatDateRange, formatDays, formatInstant, formatList } from "./format.js";
import { problemMessage } from "./problems.js";
import { get } from "./api.js";

/** The screen's heading; the router moves focus to it. */
export function heading(text) {
  return h("h1", { tabindex: "-1", class: "screen-heading" }, text);
}

/**
 * A labelled input: {label, name, type, value, hint, ...attributes} → the wrapper, whose `.control` is the
 * input. `setError(message)` shows the message under it and ties it to the input.
 */
export function field({ label, name, type = "text", hint, options, multiline, ...attributes }) {
  const id = uid(name || "field");
  const hintId = hint ? `${id}-hint` : null;
  const errorId = `${id}-error`;
  let control;
  if (options) {
    control = h("select", { id, name, ...attributes }, options.map((o) => h("option", { value: o.value, selected: o.selected }, o.label)));
  } else if (multiline) {
    control = h("textarea", { id, name, rows: 3, ...attributes });
    if (attributes.value !== undefined) control.value = attributes.value;
  } else {
    control = h("input", { id, name, type, ...attributes });
  }
  const error = h("p", { id: errorId, class: "field-error", hidden: true });
  if (hintId) control.setAttribute("aria-describedby", hintId);
  const wrapper = h("div", { class: type === "checkbox" ? "field field-check" : "field" },
    type === "checkbox" ? [control, h("label", { for: id }, label)] : [h("label", { for: id }, label), control],
    hint ? h("p", { id: hintId, class: "field-hint" }, hint) : null,
    error);
  wrapper.control = control;
  wrapper.setError = (message) => {
    if (message) {
      error.textContent = message;
      error.hidden = false;
      control.setAttribute("aria-invalid", "true");
      control.setAttribute("aria-describedby", [hintId, errorId].filter(Boolean).join(" "));
    } else {
      error.textContent = "";
      error.hidden = true;
      control.removeAttribute("aria-invalid");
      if (hintId) control.setAttribute("aria-describedby", hintId);
      else control.removeAttribute("aria-describedby");
    }
  };
  return wrapper;
}

/**
 * A form's problem handling: `fields` maps the API's field names (a dotted path, or its first part) to field() wrappers. show(error) puts the
 * message next to the field the problem names (and focuses it), else in the form's alert.
 */
export function formErrors(fields, context = "") {
  const alert = h("div", { class: "form-alert", role: "alert", hidden: true });
  return {
    alert,
    clear() {
      alert.hidden = true;
      alert.replaceChildren();
      for (const wrapper of Object.values(fields)) wrapper.setError(null);
    },
    show(error, { focus = true } = {}) {
      this.clear();
      const message = problemMessage(error, context);
      const name = error.problem?.field;
      const wrapper = name && (fields[name] || fields[name.split(".")[0]]);
      if (wrapper) {
        wrapper.setError(message);
        if (focus) wrapper.control.focus();
      } else {
        alert.textContent = message;
        alert.hidden = false;
      }
    },
    message(text) {
      this.clear();
      alert.textContent = text;
      alert.hidden = false;
    },
  };
}

export function button(label, onclick, { kind = "secondary", type = "button", ...attributes } = {}) {
  return h("button", { type, class: `button ${kind}`, onclick, ...attributes }, label);
}

/**
 * The word for `value` of an open enum of the API (`prefix`.`value` in the language files), or the value itself
 * when it is one this app does not know yet (a later server may add some).
 */
export function term(prefix, value) {
  const key = `${prefix}.${value}`;
  return has(key) ? t(key) : String(value);
}

/** A request's status as a word: Pending, Approved by manager, Approved, Rejected, Cancelled. */
export function statusName(status) {
  return term("status", status);
}

export function statusBadge(status) {
  return h("span", { class: `status status-${String(status).replace(/[^a-z-]/g, "")}` }, statusName(status));
}

export function leaveTypeName(name) {
  const key = `leaveType.${name}`;
  const text = t(key);
  return text === key ? name : text;
}

/** A request's days: the dates, and the halves when it starts at noon or ends at noon. */
export function requestDates(request) {
  const parts = [formatDateRange(request.startDate, request.endDate)];
  if (request.startDate === request.endDate && request.startHalf === request.endHalf) parts.push(term("half.only", request.startHalf));
  else {
    if (request.startHalf === "afternoon") parts.push(t("half.startsAfternoon"));
    if (request.endHalf === "morning") parts.push(t("half.endsMorning"));
  }
  return parts.join(" · ");
}

/** The balance explained: allowance, carried over (and when it expires), adjusted, approved, pending, remaining,
 * and under an accrual plan what is earned so far and what may be requested now. */
export function balanceList(balance) {
  const row = (label, value, extra) => [h("dt", {}, label), h("dd", {}, value, extra ? h("span", { class: "muted" }, ` ${extra}`) : null)];
  return h("dl", { class: "balance" },
    row(t("balance.allowance"), formatDays(balance.allowance), balance.allowanceFormula ? t("balance.proRated", { formula: balance.allowanceFormula }) : null),
    balance.carriedOver || balance.carryOverExpiresOn
      ? row(t("balance.carriedOver"), formatDays(balance.carriedOver),
        balance.carryOverExpiresOn ? t("balance.carryOverUntil", { date: formatDate(balance.carryOverExpiresOn) }) : null)
      : null,
    balance.expiring ? row(t("balance.expiring"), formatDays(balance.expiring)) : null,
    balance.expired ? row(t("balance.expired"), formatDays(balance.expired)) : null,
    row(t("balance.adjusted"), formatDays(balance.adjusted)),
    row(t("balance.approved"), formatDays(balance.approved)),
    row(t("balance.pending"), formatDays(balance.pending)),
    h("div", { class: "balance-total" }, row(t("balance.remaining"), formatDays(balance.remaining))),
    balance.accrual
      ? [row(t("balance.earned"), formatDays(balance.earned ?? 0), accrualText(balance.accrual)),
        h("div", { class: "balance-total" }, row(t("balance.requestable"), formatDays(balance.requestable)))]
      : null);
}

/** An accrual plan in words: "All at once, on the first day of the year" or "Earned monthly, at the start of each
 * month; up to 5 days may be requested ahead". Values this app does not know are shown as the server sent them. */
export function accrualText(plan) {
  if (!plan || (plan.period === "year" && plan.credited === "start")) return t("accrual.yearly");
  const advance = plan.advance === "none" || plan.advance === "year"
    ? t(`accrual.advance.${plan.advance}`)
    : typeof plan.advance === "number" ? t("accrual.advance.days", { days: formatDays(plan.advance) }) : String(plan.advance);
  return t("accrual.rule", { period: term("accrual.period", plan.period), credited: term("accrual.credited", plan.credited), advance });
}

export function fullName(person) {
  return `${person.name} ${person.surname}`;
}

const photos = new Map();
/** An employee's photo: fetched with the bearer token, shown through an object URL (img-src allows blob:). */
export function photo(person, size = "small") {
  const initials = `${person.name?.[0] || ""}${person.surname?.[0] || ""}`;
  const box = h("span", { class: `avatar avatar-${size}`, "aria-hidden": "true" }, initials);
  if (person.photoUrl) {
    const show = (url) => replace(box, h("img", { src: url, alt: "" }));
    if (photos.has(person.photoUrl)) show(photos.get(person.photoUrl));
    else get(person.photoUrl, { as: "blob", retryNetwork: false }).then(({ data }) => {
      const url = URL.createObjectURL(data);
      photos.set(person.photoUrl, url);
      show(url);
    }).catch(() => {});
  }
  return box;
}

/** A screen's error, with a button that tries again. */
export function errorView(error, retry) {
  return h("div", { class: "notice-box error", role: "alert" },
    h("p", {}, problemMessage(error)),
    retry ? button(t("action.retry"), retry) : null);
}

/** The mark of an answer kept from before: shown offline, with when it was read. */
export function staleNote(savedAt) {
  return h("p", { class: "stale", role: "status" }, t("offline.stale", { time: savedAt ? formatInstant(savedAt) : "" }));
}

export function section(title, ...children) {
  const id = uid("section");
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), children);
}

export function empty(text) {
  return h("p", { class: "empty" }, text);
}

/**
 * A request's facts as a description list: status, dates, working days (per year when it spans two), leave
 * type, comment, when it was asked for and decided, who decides. `leading` adds rows before them, given `row`.
 */
export function requestSummary(request, leading = () => null) {
  const row = (label, ...value) => [h("dt", {}, label), h("dd", {}, ...value)];
  const years = Object.entries(request.workingDaysByYear);
  return h("dl", { class: "summary" },
    leading(row),
    row(t("holiday.status"), statusBadge(request.status)),
    row(t("holiday.dates"), requestDates(request)),
    row(t("holiday.workingDays"), formatDays(request.workingDays),
      years.length > 1 ? h("span", { class: "muted" }, ` (${years.map(([year, days]) => `${year}: ${formatDays(days)}`).join(", ")})`) : null),
    row(t("holiday.leaveType"), leaveTypeName(request.leaveTypeName)),
    request.comment ? row(t("holiday.comment"), request.comment) : null,
    row(t("holiday.requestedAt"), formatInstant(request.createdAt)),
    request.decidedBy ? row(t("holiday.decided"), t("holiday.decidedBy", { who: request.decidedBy, when: formatInstant(request.decidedAt) })) : null,
    request.approvers.length ? row(t("holiday.approvers"), formatList(request.approvers.map(fullName))) : null);
}

/** A request's history, oldest move first, with who moved it, when, and their note. */
export function requestHistory(request) {
  return section(t("holiday.history"), h("ol", { class: "history" }, request.history.map((event) => h("li", {},
    h("p", {}, h("strong", {}, event.from ? t("holiday.moved", { from: statusName(event.from), to: statusName(event.to) }) : t("holiday.created", { to: statusName(event.to) }))),
    h("p", { class: "muted" }, t("holiday.by", { who: event.actor, when: formatInstant(event.at) })),
    event.note ? h("p", { class: "note" }, event.note) : null))));
}
