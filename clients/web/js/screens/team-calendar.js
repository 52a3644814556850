// The team calendar: a month's grid of who is away (GET /v1/absences?from=&to=&team=), one row per employee, a
// page of employees at a time. Approved absences are marked away, pending ones as asked for (the server shows
// those only to admins and to their owner); a private leave type is only "away", as the server sends it. Public
// holidays come from each employee's holiday calendar. The team is chosen from the teams read a page at a time
// (GET /v1/teams?limit=): an admin's are every team, or everyone in the company a page at a time; an approver's
// are the teams they decide for, the first one by default. The month and the team are kept in the address.
import { h, append, replace } from "../dom.js";
import { t, language } from "../i18n.js";
import { get } from "../api.js";
import { formatDate, formatDateRange, localToday } from "../format.js";
import { navigate } from "../router.js";
import { announce } from "../shell.js";
import { problemMessage } from "../problems.js";
import { heading, button, empty, fullName, leaveTypeName } from "../ui.js";
import { requestsNav, teamChoice } from "../staff.js";
import { companyToday } from "./home.js";

const PAGE = 50;
const absenceStatuses = ["confirmed", "tentative"];

/** The calendar dates of the month "YYYY-MM", in order. */
function daysOf(month) {
  const [y, m] = month.split("-").map(Number);
  const count = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, "0")}`);
}

function shiftMonth(month, by) {
  const [y, m] = month.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1 + by, 1));
  return date.toISOString().slice(0, 7);
}

function monthName(month) {
  const [y, m] = month.split("-").map(Number);
  return new Intl.DateTimeFormat(language(), { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, 1)));
}

function weekday(iso) {
  return new Intl.DateTimeFormat(language(), { weekday: "narrow", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`));
}

/** What a day of an absence is: the whole day, or half of it (its first day from noon, its last until noon). */
function partOf(absence, day) {
  if (day < absence.startDate || day > absence.endDate) return null;
  if (day === absence.startDate && absence.startHalf === "afternoon") return "half";
  if (day === absence.endDate && absence.endHalf === "morning") return "half";
  return "whole";
}

function employeeRow(row, days, holidays, workingWeek) {
  const publicDays = new Map((holidays.get(row.holidayCalendarId) || []).map((p) => [p.date, p.name]));
  const cells = days.map((day) => {
    const weekdayIso = ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const off = !workingWeek.includes(weekdayIso);
    for (const absence of row.absences) {
      const part = partOf(absence, day);
      if (!part) continue;
      const what = absence.leaveType ? leaveTypeName(absence.leaveType) : t("absence.away");
      // A status this app does not know yet is marked as asked for, and named as the server sends it.
      const known = absenceStatuses.includes(absence.status);
      const status = known ? absence.status : "tentative";
      const text = known ? t(`calendar.cell.${status}.${part}`, { what }) : `${what}: ${absence.status}`;
      return h("td", { class: ["day", `away-${status}`, part === "half" ? "away-half" : null, off ? "off" : null] },
        h("span", { "aria-hidden": "true" }, t(`calendar.mark.${status}.${part}`)), h("span", { class: "visually-hidden" }, text));
    }
    if (publicDays.has(day)) {
      return h("td", { class: "day public-holiday" }, h("span", { "aria-hidden": "true" }, t("calendar.mark.public")),
        h("span", { class: "visually-hidden" }, t("calendar.cell.public", { name: publicDays.get(day) })));
    }
    return h("td", { class: off ? "day off" : "day" });
  });
  const summary = row.absences.length
    ? row.absences.map((a) => `${formatDateRange(a.startDate, a.endDate)} ${a.leaveType ? leaveTypeName(a.leaveType) : t("absence.away")}`).join("; ")
    : t("calendar.notAway");
  return h("tr", {}, h("th", { scope: "row" }, h("span", {}, fullName(row.employee)), h("span", { class: "visually-hidden" }, `: ${summary}`)), cells);
}

export default {
  async render(view, params, query, context) {
    const today = companyToday || localToday();
    const asked = query.get("month");
    const month = /^\d{4}-(0[1-9]|1[0-2])$/.test(asked || "") ? asked : today.slice(0, 7);
    const days = daysOf(month);
    // The teams a page at a time: an admin's are every team (and "Everyone"), an approver's those they decide for.
    const admin = Boolean(context.roles.admin);
    const [{ data: company }, choice] = await Promise.all([
      get("/v1/company"),
      teamChoice({
        label: t("calendar.team"), name: "team", admin,
        chosen: query.has("team") ? query.get("team") : null,
        anyLabel: admin ? t("calendar.everyone") : null,
      }).catch((error) => {
        // An approver the server no longer counts as one (a delegation just ended) has no teams to show.
        if (error.status === 403 && !admin) return null;
        throw error;
      }),
    ]);
    const team = choice?.team || null;
    const chooser = choice ? h("form", {
      class: "form search", "aria-label": t("calendar.chooseTeam"),
      onsubmit: (event) => {
        event.preventDefault();
        navigate(`/requests/calendar?month=${month}&team=${encodeURIComponent(choice.control.value)}`);
      },
    }, choice, button(t("calendar.show"), null, { kind: "primary", type: "submit" })) : null;
    if (!admin && !team) {
      append(view, heading(t("calendar.title")), requestsNav(), empty(t("calendar.noTeams")));
      return;
    }

    const holidays = new Map();
    const load = async (after) => {
      const { data } = await get(`/v1/absences?from=${days[0]}&to=${days[days.length - 1]}&limit=${PAGE}${team ? `&team=${team.id}` : ""}${after ? `&after=${after}` : ""}`);
      for (const c of data.holidayCalendars) holidays.set(c.id, c.publicHolidays);
      return data;
    };
    const first = await load(null);

    const captionId = "calendar-caption";
    const caption = team ? t("calendar.captionTeam", { team: team.name, month: monthName(month) }) : t("calendar.captionEveryone", { month: monthName(month) });
    const body = h("tbody", {}, first.items.map((row) => employeeRow(row, days, holidays, company.workingWeek)));
    const table = h("table", { class: "month-grid" },
      h("caption", { id: captionId }, caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("calendar.employee")),
        days.map((day) => h("th", { scope: "col", abbr: formatDate(day, "full") }, h("span", { class: "weekday" }, weekday(day)), h("span", {}, String(Number(day.slice(8)))))))),
      body);
    const more = h("div", { class: "actions" });
    const fillMore = (cursor) => replace(more, cursor ? button(t("calendar.morePeople"), async (event) => {
      event.target.disabled = true;
      try {
        const page = await load(cursor);
        const rows = page.items.map((row) => employeeRow(row, days, holidays, company.workingWeek));
        body.append(...rows);
        rows[0]?.querySelector("th")?.setAttribute("tabindex", "-1");
        rows[0]?.querySelector("th")?.focus();
        announce(t("calendar.moreShown", { count: rows.length }));
        fillMore(page.nextAfter);
      } catch (error) {
        event.target.disabled = false;
        announce(problemMessage(error));
      }
    }) : null);
    fillMore(first.nextAfter);

    const teamQuery = `&team=${team ? team.id : ""}`;

    append(view,
      heading(t("calendar.title")),
      requestsNav(),
      chooser,
      team ? null : h("p", { class: "muted" }, t("calendar.everyoneLead")),
      h("nav", { class: "years", "aria-label": t("calendar.months") },
        h("a", { href: `/requests/calendar?month=${shiftMonth(month, -1)}${teamQuery}` },
          h("span", { "aria-hidden": "true" }, "←"), h("span", { class: "visually-hidden" }, t("calendar.previous")), monthName(shiftMonth(month, -1))),
        h("a", { href: `/requests/calendar?month=${shiftMonth(month, 1)}${teamQuery}` },
          h("span", { class: "visually-hidden" }, t("calendar.next")), monthName(shiftMonth(month, 1)), h("span", { "aria-hidden": "true" }, "→"))),
      h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": captionId }, table),
      first.items.length ? null : empty(t("calendar.nobody")),
      more,
      h("ul", { class: "legend", "aria-label": t("calendar.legend") },
        h("li", {}, h("span", { class: "swatch away-confirmed", "aria-hidden": "true" }, t("calendar.mark.confirmed.whole")), t("calendar.legend.confirmed")),
        h("li", {}, h("span", { class: "swatch away-tentative", "aria-hidden": "true" }, t("calendar.mark.tentative.whole")), t("calendar.legend.tentative")),
        h("li", {}, h("span", { class: "swatch away-confirmed away-half", "aria-hidden": "true" }, t("calendar.mark.confirmed.half")), t("calendar.legend.half")),
        h("li", {}, h("span", { class: "swatch public-holiday", "aria-hidden": "true" }, t("calendar.mark.public")), t("calendar.legend.public")),
        h("li", {}, h("span", { class: "swatch off", "aria-hidden": "true" }), t("calendar.legend.off"))));
  },
};
