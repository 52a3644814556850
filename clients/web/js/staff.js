// What the approvers' and admins' screens share: the sub-navigation of their sections, a list read a page at a
// time through the API's cursor, the teams read a page at a time and a choice of one of them, a search that picks
// an employee, a confirmation for what cannot be undone, a file downloaded with the session's token, a short
// message tied to what was just done, and the fields of an accrual plan.
import { h, replace, uid } from "./dom.js";
import { t } from "./i18n.js";
import { get } from "./api.js";
import { announce } from "./shell.js";
import { problemMessage } from "./problems.js";
import { button, empty, field, fullName, term } from "./ui.js";

const requestPages = [
  ["queue", "/requests"],
  ["calendar", "/requests/calendar"],
  ["delegation", "/requests/delegation"],
];

const adminPages = [
  ["employees", "/admin/employees"],
  ["teams", "/admin/teams"],
  ["leaveTypes", "/admin/leave-types"],
  ["company", "/admin/company"],
  ["publicHolidays", "/admin/public-holidays"],
  ["notices", "/admin/notices"],
  ["webhooks", "/admin/webhooks"],
  ["outbox", "/admin/outbox"],
  ["exports", "/admin/exports"],
];

function subnav(label, pages, prefix) {
  const path = location.pathname;
  const current = (href) => path === href || (href !== "/requests" && path.startsWith(`${href}/`));
  return h("nav", { class: "subnav", "aria-label": label },
    h("ul", {}, pages.map(([key, href]) => h("li", {},
      h("a", { href, "aria-current": current(href) ? "page" : null }, t(`${prefix}.${key}`))))));
}

/** The links between the Requests section's screens: the queue, the team calendar, the delegation. */
export function requestsNav() {
  return subnav(t("staff.requestsNav"), requestPages, "requestsNav");
}

/** The links between the Admin section's screens. */
export function adminNav() {
  return subnav(t("staff.adminNav"), adminPages, "adminNav");
}

export const adminSections = adminPages;

/**
 * A list read a page at a time: `load(after)` resolves to {items, nextAfter}; `item(x)` makes its <li>. The
 * first page is read before the list is shown; "Show more" reads the next one and moves the focus to its first
 * entry. Never more than one page is read at a time, and never all of them.
 */
export async function pagedList({ load, item, empty: emptyText, className = "plain" }) {
  const list = h("ul", { class: className });
  const more = h("div", { class: "actions" });
  const box = h("div", { class: "paged" });
  const first = await load(null);
  const fill = (cursor) => {
    replace(more, cursor ? button(t("action.more"), async (event) => {
      event.target.disabled = true;
      try {
        const page = await load(cursor);
        const items = page.items.map(item);
        list.append(...items);
        // A last page may be empty (the one before was full): the focus goes to the last entry then.
        const target = items[0] || (items.length ? null : list.lastElementChild);
        (target?.querySelector("a, button") || target)?.focus();
        fill(page.nextAfter);
      } catch (error) {
        event.target.disabled = false;
        announce(problemMessage(error));
      }
    }) : null);
  };
  list.append(...first.items.map(item));
  fill(first.nextAfter);
  replace(box, first.items.length ? list : empty(emptyText), more);
  box.page = first;
  return box;
}

const TEAM_PAGE = 50;

/**
 * One page of the teams the caller may read, by name (GET /v1/teams?limit=&after=): an admin's are every team, an
 * approver's those they decide for. Resolves to {items, nextAfter}: a page shorter than `limit` is the last, the
 * next one starts after the last team's name. The app never asks for the teams without `limit` (or `member`).
 */
export async function teamsPage(after = null, limit = TEAM_PAGE) {
  const { data } = await get(`/v1/teams?limit=${limit}${after !== null ? `&after=${encodeURIComponent(after)}` : ""}`);
  return { items: data, nextAfter: data.length < limit ? null : data[data.length - 1].name };
}

/** The team of one employee (GET /v1/teams?member=), or null when they are in none. */
export async function teamOf(employeeId) {
  const { data } = await get(`/v1/teams?member=${encodeURIComponent(employeeId)}`);
  return data[0] || null;
}

/**
 * A choice of one team, read a page at a time (teamsPage): a select of the teams read so far and, while there are
 * more, a button that reads the next page into it (the focus stays on it, or goes to the select after the last).
 * `chosen` is a team id (from the address), `null` for the first team, "" for none; a chosen team beyond the first
 * page is read too: an admin's on its own (GET /v1/teams/{id}), an approver's few teams page by page (bounded).
 * `anyLabel` adds the option "" first (every team, everyone); without it the first team stands for one not found.
 * Resolves to the element, whose `.control` is the select, `.team` the chosen team (null: none, or one the caller
 * may not read) and `.count` the teams listed.
 */
export async function teamChoice({ label, name, chosen = "", anyLabel = null, admin = false }) {
  const listed = [];
  const ids = new Set();
  const take = (items) => items.filter((x) => !ids.has(x.id)).map((x) => {
    ids.add(x.id);
    listed.push(x);
    return x;
  });
  let page = await teamsPage();
  take(page.items);
  const wanted = chosen === null ? (listed[0] ? String(listed[0].id) : "") : String(chosen);
  let team = listed.find((x) => String(x.id) === wanted) || null;
  let ahead = null;
  if (wanted && !team) {
    if (admin) {
      if (/^[1-9][0-9]*$/.test(wanted)) {
        ahead = await get(`/v1/teams/${wanted}`).then((r) => r.data, (error) => {
          if (error.status === 404) return null;
          throw error;
        });
      }
      team = ahead;
    } else {
      for (let pages = 0; page.nextAfter && !team && pages < 10; pages += 1) {
        page = await teamsPage(page.nextAfter);
        team = take(page.items).find((x) => String(x.id) === wanted) || null;
      }
    }
  }
  // Without an option for none, a team that cannot be found gives way to the first one.
  if (!team && anyLabel === null) team = listed[0] || null;
  const option = (x) => h("option", { value: String(x.id), selected: team !== null && x.id === team.id }, x.name);
  const wrapper = field({ label, name, options: anyLabel === null ? [] : [{ value: "", label: anyLabel, selected: !team }] });
  const select = wrapper.control;
  if (ahead) ids.add(ahead.id);
  select.append(...(ahead ? [ahead, ...listed] : listed).map(option));
  const more = h("div", { class: "actions" });
  const fill = (cursor) => replace(more, cursor ? button(t("staff.moreTeams"), async (event) => {
    const trigger = event.currentTarget;
    trigger.disabled = true;
    try {
      page = await teamsPage(cursor);
      const added = take(page.items);
      select.append(...added.map(option));
      box.count = select.options.length - (anyLabel === null ? 0 : 1);
      announce(t("staff.moreTeamsShown", { count: added.length }));
      fill(page.nextAfter);
      if (page.nextAfter) more.querySelector("button").focus();
      else select.focus();
    } catch (error) {
      trigger.disabled = false;
      announce(problemMessage(error));
    }
  }) : null);
  fill(page.nextAfter);
  const box = h("div", { class: "team-choice" }, wrapper, more);
  box.control = select;
  box.team = team;
  box.count = select.options.length - (anyLabel === null ? 0 : 1);
  return box;
}

/**
 * A search of the directory that picks one employee: a search field, its button, and a list of at most 20
 * matches to choose from. `onPick(person)` is called with the chosen one; `active` limits the search to active
 * employees. Returns the element; `.clear()` empties it.
 */
export function employeePicker({ label, name, onPick, active = true, actionLabel }) {
  const search = field({ label, name, type: "search", maxlength: 100, autocomplete: "off" });
  const results = h("div", { class: "picker-results", role: "status", "aria-live": "polite" });
  const run = async () => {
    const q = search.control.value.trim();
    search.setError(null);
    if (!q) {
      search.setError(t("staff.searchEmpty"));
      search.control.focus();
      return;
    }
    try {
      const { data } = await get(`/v1/employees?limit=20&q=${encodeURIComponent(q)}${active ? "&active=true" : ""}`);
      if (!data.items.length) {
        replace(results, empty(t("people.none")));
        return;
      }
      replace(results, h("ul", { class: "plain picks" }, data.items.map((person) => h("li", {},
        h("span", {}, `${fullName(person)} · ${person.username}`),
        button(actionLabel || t("staff.choose"), () => onPick(person), { "aria-label": `${actionLabel || t("staff.choose")}: ${fullName(person)}` })))),
      data.total > data.items.length ? h("p", { class: "muted" }, t("staff.moreMatches", { count: data.total })) : null);
    } catch (error) {
      replace(results, h("p", { class: "field-error" }, problemMessage(error)));
    }
  };
  search.control.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      run();
    }
  });
  const box = h("div", { class: "picker" }, h("div", { class: "search-row" }, search, button(t("people.searchButton"), run)), results);
  box.clear = () => {
    search.control.value = "";
    results.replaceChildren();
  };
  return box;
}

/**
 * A button whose action cannot be undone: pressed, it shows `question` and asks for a second press on `yes`;
 * "No" or Escape put things back and the focus on the button. `act()` runs on yes; a failure shows its message.
 */
export function confirmButton(label, { question, yes, act, kind = "danger", attributes = {} }) {
  // The trigger takes the focus back once done, so that a screen read again puts it on the same control (its id).
  const id = uid("confirm");
  const message = h("p", { class: "field-error", role: "alert", hidden: true });
  const keep = () => {
    box.hidden = true;
    trigger.hidden = false;
    trigger.focus();
  };
  const yesButton = button(yes, async () => {
    yesButton.disabled = true;
    message.hidden = true;
    try {
      box.hidden = true;
      trigger.hidden = false;
      trigger.focus();
      await act();
    } catch (error) {
      box.hidden = false;
      trigger.hidden = true;
      message.textContent = problemMessage(error);
      message.hidden = false;
      yesButton.focus();
    } finally {
      yesButton.disabled = false;
    }
  }, { kind: "danger", "aria-describedby": id });
  const box = h("div", { class: "confirm", hidden: true, onkeydown: (event) => event.key === "Escape" && keep() },
    h("p", { id }, question),
    h("div", { class: "actions" }, yesButton, button(t("staff.no"), keep)),
    message);
  const trigger = button(label, () => {
    box.hidden = false;
    trigger.hidden = true;
    yesButton.focus();
  }, { kind, ...attributes });
  return h("div", { class: "confirm-wrap" }, trigger, box);
}

/**
 * A click handler that runs `act(event)` one at a time. The button stays enabled (aria-disabled meanwhile), so it
 * keeps the focus, and a screen read again after the change gives it back to the control with the same id.
 */
export function once(act) {
  let running = false;
  return async (event) => {
    const target = event.currentTarget;
    if (running) return;
    running = true;
    target.setAttribute("aria-disabled", "true");
    try {
      await act(event);
    } finally {
      running = false;
      target.removeAttribute("aria-disabled");
    }
  };
}

/** Downloads what the API answers at `path` (a CSV report) as the file `filename`, with the session's token. */
export async function download(path, filename) {
  const { data } = await get(path, { as: "blob", retryNetwork: false });
  const url = URL.createObjectURL(data);
  const link = h("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

const pending = new Map();
/**
 * Says `text` in the outcome line named `key` of the next rendering of the screen: a change is made, the screen
 * is read again from the server, and the line beside the control used says what happened.
 */
export function keepOutcome(key, text) {
  pending.set(key, text);
  announce(text);
}

/**
 * A line under a form or an action saying what happened (role=status), or what went wrong (an error); `key`
 * picks up what keepOutcome() kept for it.
 */
export function outcome(key = null) {
  const line = h("p", { class: "outcome", role: "status" });
  if (key && pending.has(key)) {
    line.className = "outcome ok";
    line.textContent = pending.get(key);
    pending.delete(key);
  }
  return {
    line,
    ok(text) {
      line.className = "outcome ok";
      line.textContent = text;
    },
    fail(error, context) {
      line.className = "outcome field-error";
      line.textContent = typeof error === "string" ? error : problemMessage(error, context);
    },
    clear() {
      line.className = "outcome";
      line.textContent = "";
    },
  };
}

/** An ISO weekday's checkboxes (1 = Monday … 7 = Sunday) in a fieldset; `.value()` is the chosen list. */
export function weekdayBoxes(legend, chosen, weekdayName, name) {
  const boxes = [1, 2, 3, 4, 5, 6, 7].map((day) => field({ label: weekdayName(day), name: `${name}-${day}`, type: "checkbox", checked: chosen.includes(day) }));
  const set = h("fieldset", { class: "weekdays" }, h("legend", {}, legend), boxes);
  set.value = () => boxes.map((box, i) => (box.control.checked ? i + 1 : null)).filter(Boolean);
  set.boxes = boxes;
  return set;
}

/**
 * The fields of an accrual plan (period, credited at the start or end, how much may be requested ahead). With
 * `companysChoice`, the period may also be "the company's plan", whose value() is null. `errors` maps the API's
 * fields (`accrual.period`, ...) to them for formErrors.
 */
export function accrualFields(plan, { companysChoice = false } = {}) {
  const own = plan || { period: companysChoice ? "" : "year", credited: "start", advance: "none" };
  const options = (values, current, prefix) => [...(values.includes(current) ? values : [current, ...values])]
    .map((value) => ({ value, label: value === "" ? t("accrual.companysPlan") : term(prefix, value), selected: value === current }));
  const period = field({ label: t("accrual.periodLabel"), name: "accrualPeriod", options: options([...(companysChoice ? [""] : []), "year", "quarter", "month"], own.period, "accrual.periodChoice") });
  const credited = field({ label: t("accrual.creditedLabel"), name: "accrualCredited", options: options(["start", "end"], own.credited, "accrual.creditedChoice") });
  const kind = typeof own.advance === "number" ? "days" : own.advance;
  const advance = field({ label: t("accrual.advanceLabel"), name: "accrualAdvance", options: options(["none", "days", "year"], kind, "accrual.advanceChoice") });
  const days = field({ label: t("accrual.advanceDays"), name: "accrualAdvanceDays", type: "number", min: 1, max: 366, step: 1, value: typeof own.advance === "number" ? String(own.advance) : "" });
  const sync = () => {
    const none = period.control.value === "" || (period.control.value === "year" && credited.control.value === "start");
    credited.control.disabled = period.control.value === "";
    advance.control.disabled = none;
    days.control.disabled = none || advance.control.value !== "days";
  };
  for (const control of [period.control, credited.control, advance.control]) control.addEventListener("change", sync);
  sync();
  return {
    element: h("div", { class: "accrual" }, h("div", { class: "row" }, period, credited), h("div", { class: "row" }, advance, days)),
    errors: { accrual: period, "accrual.period": period, "accrual.credited": credited, "accrual.advance": days },
    /** The plan for the API; null for the company's; undefined (with the error shown) when the days are not a number. */
    value() {
      if (period.control.value === "") return null;
      let ahead = advance.control.disabled ? "none" : advance.control.value;
      if (ahead === "days") {
        ahead = Number(days.control.value);
        if (!Number.isInteger(ahead) || ahead < 1 || ahead > 366) {
          days.setError(t("accrual.advanceDaysInvalid"));
          days.control.focus();
          return undefined;
        }
      }
      return { period: period.control.value, credited: credited.control.value, advance: ahead };
    },
  };
}
