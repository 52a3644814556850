// Admin: the holiday calendars (GET /v1/holiday-calendars, with how many employees belong to each) and the
// public holidays of a year in one of them (GET /v1/public-holidays?year=&calendar=): add and remove days, add,
// rename and delete calendars. A calendar is deleted only once nobody belongs to it, and the first never: the
// screen says so before anything is tried. Requests already made keep the days they were counted with.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { formatDay, localToday } from "../format.js";
import { refreshScreen, navigate } from "../router.js";
import { heading, section, field, formErrors, button, empty } from "../ui.js";
import { adminNav, confirmButton, keepOutcome, once, outcome } from "../staff.js";
import { companyToday } from "./home.js";

/** The first calendar: new employees belong to it, and it cannot be deleted. */
const FIRST = 1;

export default {
  async render(view, params, query) {
    const { data: calendars } = await get("/v1/holiday-calendars");
    const asked = Number(query.get("calendar"));
    const calendar = calendars.find((c) => c.id === asked) || calendars[0];
    const askedYear = Number(query.get("year"));
    const year = Number.isInteger(askedYear) && askedYear >= 1970 && askedYear <= 9999 ? askedYear : Number((companyToday || localToday()).slice(0, 4));
    const { data: days } = await get(`/v1/public-holidays?year=${year}&calendar=${calendar.id}`);
    const here = (c, y) => `/admin/public-holidays?calendar=${c}&year=${y}`;

    const listResult = outcome("calendars");
    const newName = field({ label: t("adminCalendars.newName"), name: "calendarName", required: true, maxlength: 60 });
    const newErrors = formErrors({ name: newName }, "calendar");
    const newForm = h("form", {
      class: "form search", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        newErrors.clear();
        if (!newName.control.value.trim()) {
          newName.setError(t("adminCalendars.nameRequired"));
          newName.control.focus();
          return;
        }
        try {
          const { data } = await api("POST", "/v1/holiday-calendars", { body: { name: newName.control.value.trim() } });
          keepOutcome("calendar", t("adminCalendars.created", { name: data.name }));
          navigate(here(data.id, year));
        } catch (error) {
          if (error.status !== 401) newErrors.show(error);
        }
      },
    }, newErrors.alert, newName, button(t("adminCalendars.create"), null, { kind: "primary", type: "submit" }));

    const calendarList = section(t("adminCalendars.calendars"),
      h("ul", { class: "plain" }, calendars.map((c) => h("li", {},
        h("a", { href: here(c.id, year), "aria-current": c.id === calendar.id ? "true" : null }, c.name),
        h("span", { class: "muted" }, ` · ${t("adminCalendars.employees", { count: c.employees })}`)))),
      listResult.line,
      h("h3", {}, t("adminCalendars.new")), newForm);

    const result = outcome("calendar");
    const rename = field({ label: t("adminCalendars.rename"), name: "renameCalendar", value: calendar.name, required: true, maxlength: 60 });
    const renameErrors = formErrors({ name: rename }, "calendar");
    const renameForm = h("form", {
      class: "form search", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        renameErrors.clear();
        try {
          const { data } = await api("PATCH", `/v1/holiday-calendars/${calendar.id}`, { body: { name: rename.control.value.trim() } });
          keepOutcome("calendar", t("adminCalendars.renamed", { name: data.name }));
          refreshScreen();
        } catch (error) {
          if (error.status !== 401) renameErrors.show(error);
        }
      },
    }, renameErrors.alert, rename, button(t("adminCalendars.renameButton"), null, { type: "submit", id: "calendar-rename" }));
    const deletion = calendar.id === FIRST
      ? h("p", { class: "muted" }, t("adminCalendars.firstStays"))
      : calendar.employees > 0
        ? h("p", { class: "muted" }, t("adminCalendars.inUse", { count: calendar.employees }))
        : confirmButton(t("adminCalendars.delete"), {
          question: t("adminCalendars.deleteQuestion", { name: calendar.name }),
          yes: t("adminCalendars.deleteYes"),
          act: async () => {
            await api("DELETE", `/v1/holiday-calendars/${calendar.id}`);
            keepOutcome("calendars", t("adminCalendars.deleted", { name: calendar.name }));
            navigate(here(FIRST, year));
          },
        });

    const date = field({ label: t("adminCalendars.date"), name: "holidayDate", type: "date", min: `${year}-01-01`, max: `${year}-12-31`, required: true });
    const name = field({ label: t("adminCalendars.dayName"), name: "holidayName", required: true, maxlength: 100 });
    const dayErrors = formErrors({ date, name }, "publicHoliday");
    const dayForm = h("form", {
      class: "form", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        dayErrors.clear();
        if (!date.control.value) {
          date.setError(t("request.required"));
          date.control.focus();
          return;
        }
        if (!name.control.value.trim()) {
          name.setError(t("adminCalendars.dayNameRequired"));
          name.control.focus();
          return;
        }
        try {
          const { data } = await api("POST", "/v1/public-holidays", { body: { date: date.control.value, name: name.control.value.trim(), calendarId: calendar.id } });
          keepOutcome("days", t("adminCalendars.dayAdded", { name: data.name, date: formatDay(data.date) }));
          refreshScreen();
        } catch (error) {
          if (error.status !== 401) dayErrors.show(error);
        }
      },
    }, dayErrors.alert, h("div", { class: "row" }, date, name), h("p", { class: "muted" }, t("adminCalendars.keepsDays")),
    h("div", { class: "actions" }, button(t("adminCalendars.addDay"), null, { kind: "primary", type: "submit", id: "holiday-add" })));
    const daysResult = outcome("days");
    const dayList = days.length
      ? h("ul", { class: "plain picks" }, days.map((d) => h("li", {},
        h("span", {}, `${formatDay(d.date)} · ${d.name}`),
        button(t("adminCalendars.removeDay"), once(async () => {
          try {
            await api("DELETE", `/v1/public-holidays/${d.date}?calendar=${calendar.id}`);
            keepOutcome("days", t("adminCalendars.dayRemoved", { name: d.name, date: formatDay(d.date) }));
            refreshScreen();
          } catch (error) {
            daysResult.fail(error, "publicHoliday");
          }
        }), { "aria-label": `${t("adminCalendars.removeDay")}: ${d.name}, ${formatDay(d.date)}` }))))
      : empty(t("company.noPublicHolidays"));

    append(view,
      heading(t("adminCalendars.title")),
      adminNav(),
      h("div", { class: "cards two" },
        calendarList,
        section(t("adminCalendars.calendarTitle", { name: calendar.name }),
          result.line, renameForm, deletion,
          h("nav", { class: "years", "aria-label": t("holidays.years") },
            h("a", { href: here(calendar.id, year - 1) }, h("span", { "aria-hidden": "true" }, "←"), h("span", { class: "visually-hidden" }, t("holidays.previousYear")), String(year - 1)),
            h("a", { href: here(calendar.id, year + 1) }, h("span", { class: "visually-hidden" }, t("holidays.nextYear")), String(year + 1), h("span", { "aria-hidden": "true" }, "→"))),
          h("h3", {}, t("adminCalendars.daysOf", { year })),
          dayList, daysResult.line,
          h("h3", {}, t("adminCalendars.newDay")), dayForm)));
  },
};
