// Admin: one employee. Their record (GET /v1/employees/{id}/record) and its HR fields, employment dates and own accrual plan (PATCH), the admin role
// granted or revoked, deactivation (which ends their sessions at once; asked first, since their sessions and
// calendar feeds do not come back) and reactivation; their sessions (GET / DELETE .../sessions); a year's
// allowance and balance with the adjustments log and its reasons (PUT .../allowances/{year}, POST
// .../adjustments, GET .../changes); their working weeks (PUT .../working-weeks/{startsOn}); their holiday
// calendar (PUT .../holiday-calendar); and their requests of the year. Each change reads the screen again.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { formatDate, formatDays, formatInstant, formatList, weekdayName, localToday } from "../format.js";
import { refreshScreen } from "../router.js";
import { takeFlash } from "../shell.js";
import { heading, section, field, formErrors, button, fullName, balanceList, statusBadge, requestDates, leaveTypeName, empty, accrualText } from "../ui.js";
import { accrualFields, adminNav, confirmButton, keepOutcome, outcome, weekdayBoxes } from "../staff.js";
import { companyToday } from "./home.js";

export default {
  async render(view, params, query, context) {
    const id = encodeURIComponent(params.id);
    const today = companyToday || localToday();
    const askedYear = Number(query.get("year"));
    const year = Number.isInteger(askedYear) && askedYear >= 1970 && askedYear <= 9999 ? askedYear : Number(today.slice(0, 4));
    const [{ data: person }, { data: sessions }, { data: balance }, { data: changes }, { data: weeks }, { data: calendar }, { data: calendars }, { data: yearView }] = await Promise.all([
      get(`/v1/employees/${id}/record`),
      get(`/v1/employees/${id}/sessions`),
      get(`/v1/employees/${id}/balance?year=${year}`),
      get(`/v1/employees/${id}/allowances/${year}/changes`),
      get(`/v1/employees/${id}/working-weeks`),
      get(`/v1/employees/${id}/holiday-calendar`),
      get("/v1/holiday-calendars"),
      get(`/v1/employees/${id}/holidays?year=${year}`),
    ]);
    const flash = takeFlash();
    const self = context.me?.id === person.id;

    append(view,
      heading(t("adminEmployee.title", { name: fullName(person) })),
      adminNav(),
      flash,
      h("p", { class: "muted" }, [person.username, person.isActive ? t("adminEmployee.activeNow") : t("adminEmployee.inactiveNow"), person.isAdmin ? t("adminEmployee.adminNow") : null].filter(Boolean).join(" · ")),
      h("div", { class: "cards two" },
        detailsSection(person),
        accessSection(person, sessions.items, self)),
      allowanceSection(person, year, balance, changes),
      h("div", { class: "cards two" },
        employmentSection(person),
        weeksSection(person, weeks, today),
        calendarSection(person, calendar, calendars)),
      requestsSection(person, year, yearView),
      h("p", {}, h("a", { href: "/admin/employees" }, t("adminEmployee.backToList"))));
  },
};

function detailsSection(person) {
  const name = field({ label: t("field.name"), name: "name", value: person.name, required: true, maxlength: 100 });
  const surname = field({ label: t("field.surname"), name: "surname", value: person.surname, required: true, maxlength: 100 });
  const email = field({ label: t("field.email"), name: "email", type: "email", value: person.email, maxlength: 254 });
  const position = field({ label: t("field.position"), name: "position", value: person.position || "", maxlength: 100 });
  const phone = field({ label: t("field.phone"), name: "phone", type: "tel", value: person.phone || "", maxlength: 30 });
  const fields = { name, surname, email, position, phone };
  const form = recordForm(person, fields, {
    key: "details", context: "employee", saved: t("adminEmployee.saved"), clearable: ["position", "phone"],
    before: h("p", { class: "muted" }, t("adminEmployee.username", { username: person.username })),
    button: button(t("adminEmployee.save"), null, { kind: "primary", type: "submit", id: "employee-save" }),
  });
  return section(t("adminEmployee.details"), form);
}

/**
 * A form of fields of the employee's record: sends what differs from `person` (PATCH, all or nothing; an emptied
 * `clearable` field as null), then reads the screen again with `saved` under it.
 */
function recordForm(person, fields, { key, context, saved, clearable, before = null, button: submit }) {
  const errors = formErrors(fields, context);
  const result = outcome(key);
  return h("form", {
    class: "form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      errors.clear();
      result.clear();
      const body = {};
      for (const [name, wrapper] of Object.entries(fields)) {
        const value = wrapper.control.value.trim();
        if (value !== (person[name] || "")) body[name] = value === "" && clearable.includes(name) ? null : value;
      }
      if (!Object.keys(body).length) return result.ok(t("profile.nothing"));
      try {
        await api("PATCH", `/v1/employees/${person.id}`, { body });
        keepOutcome(key, saved);
        refreshScreen();
      } catch (error) {
        if (error.status !== 401) errors.show(error);
      }
    },
  }, errors.alert, before, Object.values(fields), h("div", { class: "actions" }, submit), result.line);
}

function accessSection(person, sessions, self) {
  const result = outcome("access");
  const change = async (body, text) => {
    await api("PATCH", `/v1/employees/${person.id}`, { body });
    keepOutcome("access", text);
    refreshScreen();
  };
  const fail = (error) => result.fail(error, "employee");
  const role = person.isAdmin
    ? button(t("adminEmployee.revokeAdmin"), () => change({ isAdmin: false }, t("adminEmployee.adminRevoked")).catch(fail), { id: "employee-admin" })
    : button(t("adminEmployee.grantAdmin"), () => change({ isAdmin: true }, t("adminEmployee.adminGranted")).catch(fail), { id: "employee-admin" });
  const activity = person.isActive
    ? confirmButton(t("adminEmployee.deactivate"), {
      question: t("adminEmployee.deactivateQuestion", { name: fullName(person), count: sessions.length }),
      yes: t("adminEmployee.deactivateYes"),
      act: () => change({ isActive: false }, t("adminEmployee.deactivated")),
      attributes: { id: "employee-active" },
    })
    : button(t("adminEmployee.reactivate"), () => change({ isActive: true }, t("adminEmployee.reactivated")).catch(fail), { id: "employee-active" });
  const sessionList = sessions.length
    ? h("ul", { class: "sessions" }, sessions.map((s) => h("li", {},
      h("div", {}, h("strong", {}, s.deviceName || s.userAgent || t("settings.unknownDevice")), s.current ? h("span", { class: "tag" }, t("settings.thisSession")) : null,
        h("p", { class: "muted" }, t("settings.sessionUsed", { when: formatInstant(s.lastUsedAt), since: formatInstant(s.createdAt) }))))))
    : empty(t("adminEmployee.noSessions"));
  const endAll = sessions.some((s) => !s.current) ? confirmButton(t("adminEmployee.endSessions"), {
    question: t("adminEmployee.endSessionsQuestion", { count: sessions.filter((s) => !s.current).length }),
    yes: t("adminEmployee.endSessionsYes"),
    act: async () => {
      await api("DELETE", `/v1/employees/${person.id}/sessions`);
      keepOutcome("access", t("adminEmployee.sessionsEnded"));
      refreshScreen();
    },
    attributes: { id: "employee-sessions" },
  }) : null;
  return section(t("adminEmployee.access"),
    h("p", {}, person.isAdmin ? t("adminEmployee.isAdminText") : t("adminEmployee.notAdminText")),
    self ? h("p", { class: "muted" }, t("adminEmployee.selfNote")) : null,
    h("div", { class: "actions" }, role),
    h("p", {}, person.isActive ? t("adminEmployee.isActiveText") : t("adminEmployee.isInactiveText")),
    h("div", { class: "actions" }, activity),
    h("h3", {}, t("adminEmployee.sessions")),
    sessionList,
    endAll,
    result.line);
}

/** An entry of the allowance's log; a kind this app does not know is named as the server sends it. */
function changeText(c) {
  if (c.kind === "set") return t("adminEmployee.logSet", { days: formatDays(c.days) });
  if (c.kind === "adjust") return t(c.days > 0 ? "adminEmployee.logAdded" : "adminEmployee.logRemoved", { days: formatDays(Math.abs(c.days)) });
  return `${c.kind}: ${formatDays(c.days)}`;
}

function allowanceSection(person, year, balance, changes) {
  const allowance = field({ label: t("adminEmployee.allowanceDays", { year }), name: "allowanceDays", type: "number", min: 0, max: 366, step: 1, value: String(balance.allowance), required: true });
  const setErrors = formErrors({ days: allowance }, "allowance");
  const setForm = h("form", {
    class: "form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      setErrors.clear();
      const days = Number(allowance.control.value);
      if (allowance.control.value === "" || !Number.isInteger(days)) {
        allowance.setError(t("adminEmployee.wholeDays"));
        allowance.control.focus();
        return;
      }
      try {
        await api("PUT", `/v1/employees/${person.id}/allowances/${year}`, { body: { days } });
        keepOutcome("allowance", t("adminEmployee.allowanceSet", { year, days: formatDays(days) }));
        refreshScreen();
      } catch (error) {
        if (error.status !== 401) setErrors.show(error);
      }
    },
  }, setErrors.alert, allowance, h("div", { class: "actions" }, button(t("adminEmployee.setAllowance"), null, { kind: "primary", type: "submit", id: "allowance-set" })));

  const days = field({ label: t("adminEmployee.adjustDays"), name: "adjustDays", type: "number", min: -366, max: 366, step: 0.5, hint: t("adminEmployee.adjustHint"), required: true });
  const reason = field({ label: t("adminEmployee.adjustReason"), name: "adjustReason", multiline: true, maxlength: 1000, required: true });
  const adjustErrors = formErrors({ days, reason }, "adjustment");
  const adjustForm = h("form", {
    class: "form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      adjustErrors.clear();
      const value = Number(days.control.value);
      if (days.control.value === "" || !Number.isFinite(value) || value === 0) {
        days.setError(t("adminEmployee.adjustNeedsDays"));
        days.control.focus();
        return;
      }
      if (!reason.control.value.trim()) {
        reason.setError(t("adminEmployee.adjustNeedsReason"));
        reason.control.focus();
        return;
      }
      try {
        const { data } = await api("POST", `/v1/employees/${person.id}/allowances/${year}/adjustments`, { body: { days: value, reason: reason.control.value.trim() } });
        keepOutcome("allowance", t("adminEmployee.adjusted", { days: formatDays(data.change.days), remaining: formatDays(data.balance.remaining) }));
        refreshScreen();
      } catch (error) {
        if (error.status !== 401) adjustErrors.show(error);
      }
    },
  }, adjustErrors.alert, days, reason, h("div", { class: "actions" }, button(t("adminEmployee.adjust"), null, { kind: "primary", type: "submit", id: "allowance-adjust" })));

  const result = outcome("allowance");
  const log = changes.length
    ? h("table", { class: "log" },
      h("caption", {}, t("adminEmployee.logCaption", { year })),
      h("thead", {}, h("tr", {}, [t("adminEmployee.logWhen"), t("adminEmployee.logChange"), t("adminEmployee.logReason"), t("adminEmployee.logBy")].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, changes.map((c) => h("tr", {},
        h("td", {}, formatInstant(c.at)),
        h("td", {}, changeText(c)),
        h("td", { class: "note" }, c.reason || "—"),
        h("td", {}, c.actor)))))
    : empty(t("adminEmployee.noChanges", { year }));

  return section(t("adminEmployee.allowance", { year }),
    h("nav", { class: "years", "aria-label": t("holidays.years") },
      h("a", { href: `/admin/employees/${person.id}?year=${year - 1}` }, h("span", { "aria-hidden": "true" }, "←"), h("span", { class: "visually-hidden" }, t("holidays.previousYear")), String(year - 1)),
      h("a", { href: `/admin/employees/${person.id}?year=${year + 1}` }, h("span", { class: "visually-hidden" }, t("holidays.nextYear")), String(year + 1), h("span", { "aria-hidden": "true" }, "→"))),
    result.line,
    h("div", { class: "cards" },
      h("div", {}, h("h3", {}, t("adminEmployee.balanceOf", { year })), balanceList(balance)),
      h("div", {}, h("h3", {}, t("adminEmployee.setTitle")), setForm),
      h("div", {}, h("h3", {}, t("adminEmployee.adjustTitle")), adjustForm)),
    h("h3", {}, t("adminEmployee.log")),
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("adminEmployee.logCaption", { year }) }, log));
}

/** The first and last day of employment; an empty date clears it. No request may fall outside them. */
function employmentSection(person) {
  const start = field({ label: t("adminEmployee.employmentStart"), name: "employmentStart", type: "date", value: person.employmentStart || "" });
  const end = field({ label: t("adminEmployee.employmentEnd"), name: "employmentEnd", type: "date", value: person.employmentEnd || "", hint: t("adminEmployee.employmentEndHint") });
  const form = recordForm(person, { employmentStart: start, employmentEnd: end }, {
    key: "employment", context: "employment", saved: t("adminEmployee.employmentSaved"), clearable: ["employmentStart", "employmentEnd"],
    button: button(t("adminEmployee.employmentSave"), null, { kind: "primary", type: "submit", id: "employment-save" }),
  });
  return section(t("adminEmployee.employment"),
    h("p", {}, employmentText(person)),
    form,
    accrualForm(person));
}

/** The employee's own accrual plan, or the company's. */
function accrualForm(person) {
  const accrual = accrualFields(person.accrual, { companysChoice: true });
  const errors = formErrors(accrual.errors, "employment");
  const result = outcome("accrual");
  return h("form", {
    class: "form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      errors.clear();
      const plan = accrual.value();
      if (plan === undefined) return;
      try {
        await api("PATCH", `/v1/employees/${person.id}`, { body: { accrual: plan } });
        keepOutcome("accrual", t("adminEmployee.accrualSaved"));
        refreshScreen();
      } catch (error) {
        if (error.status !== 401) errors.show(error);
      }
    },
  },
  h("h3", {}, t("adminEmployee.accrual")),
  h("p", {}, person.accrual ? t("adminEmployee.ownAccrual", { plan: accrualText(person.accrual) }) : t("adminEmployee.companysAccrual")),
  errors.alert, accrual.element,
  h("div", { class: "actions" }, button(t("adminEmployee.accrualSave"), null, { kind: "primary", type: "submit", id: "accrual-save" })),
  result.line);
}

function employmentText(person) {
  const start = person.employmentStart && formatDate(person.employmentStart);
  const end = person.employmentEnd && formatDate(person.employmentEnd);
  if (start && end) return t("adminEmployee.employedFromTo", { start, end });
  if (start) return t("adminEmployee.employedFrom", { start });
  if (end) return t("adminEmployee.employedUntil", { end });
  return t("adminEmployee.employedNoDates");
}

function weeksSection(person, weeks, today) {
  const describe = (week) => (week ? formatList(week.map(weekdayName)) : t("adminEmployee.companyWeek"));
  const from = field({ label: t("adminEmployee.weekFrom"), name: "weekFrom", type: "date", min: today, value: today, required: true });
  const company = field({ label: t("adminEmployee.backToCompany"), name: "weekCompany", type: "checkbox" });
  const boxes = weekdayBoxes(t("adminEmployee.weekDays"), weeks.changes.length && weeks.changes[weeks.changes.length - 1].workingWeek || weeks.companyWorkingWeek, weekdayName, "weekday");
  const errors = formErrors({ startsOn: from, workingWeek: company }, "week");
  const result = outcome("weeks");
  company.control.addEventListener("change", () => {
    for (const box of boxes.boxes) box.control.disabled = company.control.checked;
  });
  const form = h("form", {
    class: "form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      errors.clear();
      if (!from.control.value) {
        from.setError(t("delegation.required"));
        from.control.focus();
        return;
      }
      const week = company.control.checked ? null : boxes.value();
      if (week && !week.length) return errors.message(t("adminEmployee.weekNeedsDay"));
      try {
        await api("PUT", `/v1/employees/${person.id}/working-weeks/${from.control.value}`, { body: { workingWeek: week } });
        keepOutcome("weeks", t("adminEmployee.weekSet", { date: formatDate(from.control.value) }));
        refreshScreen();
      } catch (error) {
        if (error.status !== 401) errors.show(error);
      }
    },
  }, errors.alert, from, company, boxes, h("div", { class: "actions" }, button(t("adminEmployee.setWeek"), null, { kind: "primary", type: "submit", id: "week-set" })));
  return section(t("adminEmployee.weeks"),
    h("p", {}, t("adminEmployee.companyWeekIs", { days: describe(weeks.companyWorkingWeek) })),
    weeks.changes.length
      ? h("ul", { class: "plain" }, weeks.changes.map((c) => h("li", {}, t("adminEmployee.weekChange", { date: formatDate(c.startsOn), days: describe(c.workingWeek), who: c.setBy, when: formatInstant(c.setAt) }))))
      : empty(t("adminEmployee.noWeeks")),
    result.line,
    h("h3", {}, t("adminEmployee.newWeek")), form);
}

function calendarSection(person, calendar, calendars) {
  const choice = field({
    label: t("adminEmployee.calendarChoice"), name: "calendarId",
    options: calendars.map((c) => ({ value: String(c.id), label: c.name, selected: c.id === calendar.id })),
  });
  const errors = formErrors({ calendarId: choice }, "calendar");
  const result = outcome("calendar");
  const form = h("form", {
    class: "form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      errors.clear();
      try {
        const { data } = await api("PUT", `/v1/employees/${person.id}/holiday-calendar`, { body: { calendarId: Number(choice.control.value) } });
        keepOutcome("calendar", t("adminEmployee.calendarSet", { name: data.name }));
        refreshScreen();
      } catch (error) {
        if (error.status !== 401) errors.show(error);
      }
    },
  }, errors.alert, choice, h("p", { class: "muted" }, t("adminEmployee.calendarHint")), h("div", { class: "actions" }, button(t("adminEmployee.moveCalendar"), null, { kind: "primary", type: "submit", id: "calendar-set" })));
  return section(t("adminEmployee.calendar"), h("p", {}, t("adminEmployee.calendarNow", { name: calendar.name })), result.line, form);
}

function requestsSection(person, year, yearView) {
  return section(t("adminEmployee.requests", { year }),
    yearView.requests.length
      ? h("ul", { class: "requests" }, yearView.requests.map((r) => h("li", {},
        h("a", { href: `/requests/${r.id}`, class: "request-row" },
          h("span", { class: "request-dates" }, requestDates(r)),
          h("span", { class: "request-meta" }, `${leaveTypeName(r.leaveTypeName)} · ${formatDays(r.workingDays)}`),
          statusBadge(r.status)))))
      : empty(t("holidays.none", { year })),
    h("p", {}, h("a", { href: `/requests?employee=${person.id}&status=&year=${year}` }, t("adminEmployee.inQueue"))));
}
