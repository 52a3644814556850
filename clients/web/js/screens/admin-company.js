// Admin: the company's details and settings (GET / PUT /v1/company), all changed in one go or none: name and
// contact details, the working week, the time zone in which "today" is taken, the default allowance, how many
// unused days carry into the next year and until when, how allowances follow employment dates and working weeks
// (pro rata), the extra days for years of service, how the allowance is earned (accrual), and the news feeds the
// main screen shows.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { weekdayName } from "../format.js";
import { refreshScreen } from "../router.js";
import { heading, section, field, formErrors, button, term } from "../ui.js";
import { accrualFields, adminNav, keepOutcome, outcome, weekdayBoxes } from "../staff.js";

export default {
  async render(view) {
    const { data: company } = await get("/v1/company");
    const f = {
      name: field({ label: t("adminCompany.name"), name: "name", value: company.name, required: true, maxlength: 100 }),
      address: field({ label: t("company.address"), name: "address", multiline: true, value: company.address || "", maxlength: 300 }),
      phone: field({ label: t("company.phone"), name: "phone", type: "tel", value: company.phone || "", maxlength: 30 }),
      email: field({ label: t("company.email"), name: "email", type: "email", value: company.email || "", maxlength: 254 }),
      website: field({ label: t("company.website"), name: "website", type: "url", value: company.website || "", maxlength: 300 }),
      timeZone: field({ label: t("company.timeZone"), name: "timeZone", value: company.timeZone, hint: t("adminCompany.timeZoneHint"), autocomplete: "off" }),
      defaultAllowance: field({ label: t("adminCompany.allowance"), name: "defaultAllowance", type: "number", min: 0, max: 366, step: 1, value: String(company.defaultAllowance), required: true }),
      carryOverCap: field({ label: t("adminCompany.carryCap"), name: "carryOverCap", type: "number", min: 0, max: 366, step: 0.5, value: String(company.carryOverCap), hint: t("adminCompany.carryCapHint") }),
      carryOverExpiry: field({ label: t("adminCompany.carryExpiry"), name: "carryOverExpiry", value: company.carryOverExpiry, pattern: "\\d{2}-\\d{2}", hint: t("adminCompany.carryExpiryHint"), autocomplete: "off" }),
      proRata: choice("proRata", company.proRata, ["off", "calendar-days", "whole-months"], t("adminCompany.proRata"), t("adminCompany.proRataHint")),
      proRataRounding: choice("proRataRounding", company.proRataRounding, ["nearest", "down", "up"], t("adminCompany.proRataRounding")),
      seniority: field({ label: t("adminCompany.seniority"), name: "seniority", value: company.seniority.map((s) => `${s.years}:${s.days}`).join(", "), hint: t("adminCompany.seniorityHint"), autocomplete: "off" }),
      seniorityFrom: choice("seniorityFrom", company.seniorityFrom, ["year", "anniversary"], t("adminCompany.seniorityFrom")),
      feeds: field({ label: t("adminCompany.feeds"), name: "feeds", multiline: true, value: company.feeds.join("\n"), hint: t("adminCompany.feedsHint") }),
    };
    const week = weekdayBoxes(t("company.workingWeek"), company.workingWeek, weekdayName, "company-weekday");
    const accrual = accrualFields(company.accrual);
    const errors = formErrors({ ...f, ...accrual.errors }, "company");
    const result = outcome("company");
    const text = (key) => f[key].control.value.trim();
    const form = h("form", {
      class: "form", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        const seniority = tiers(text("seniority"));
        if (!seniority) {
          f.seniority.setError(t("company.problem.validation-failed.seniority"));
          return f.seniority.control.focus();
        }
        const plan = accrual.value();
        if (plan === undefined) return;
        const workingWeek = week.value();
        if (!workingWeek.length) return errors.message(t("adminEmployee.weekNeedsDay"));
        const body = {
          name: text("name"),
          address: text("address") || null,
          phone: text("phone") || null,
          email: text("email") || null,
          website: text("website") || null,
          workingWeek,
          defaultAllowance: Number(text("defaultAllowance")),
          timeZone: text("timeZone") || null,
          carryOverCap: Number(text("carryOverCap")),
          carryOverExpiry: text("carryOverExpiry"),
          proRata: f.proRata.control.value,
          proRataRounding: f.proRataRounding.control.value,
          seniority,
          seniorityFrom: f.seniorityFrom.control.value,
          accrual: plan,
          feeds: text("feeds").split("\n").map((line) => line.trim()).filter(Boolean),
        };
        try {
          await api("PUT", "/v1/company", { body });
          keepOutcome("company", t("adminCompany.saved"));
          refreshScreen();
        } catch (error) {
          if (error.status !== 401) errors.show(error);
        }
      },
    }, errors.alert,
    h("fieldset", {}, h("legend", {}, t("company.contact")), f.name, f.address, h("div", { class: "row" }, f.phone, f.email), f.website),
    h("fieldset", {}, h("legend", {}, t("company.rules")), week, f.timeZone, f.defaultAllowance, h("div", { class: "row" }, f.carryOverCap, f.carryOverExpiry),
      h("div", { class: "row" }, f.proRata, f.proRataRounding),
      h("div", { class: "row" }, f.seniority, f.seniorityFrom)),
    h("fieldset", {}, h("legend", {}, t("adminCompany.accrual")), h("p", { class: "field-hint" }, t("adminCompany.accrualHint")), accrual.element),
    h("fieldset", {}, h("legend", {}, t("adminCompany.news")), f.feeds),
    h("div", { class: "actions" }, button(t("adminCompany.save"), null, { kind: "primary", type: "submit", id: "company-save" })),
    result.line);
    append(view, heading(t("adminCompany.title")), adminNav(), h("p", { class: "lead" }, t("adminCompany.lead")), section(t("adminCompany.settings"), form));
  },
};

/** A select of an open enum's values; a value this app does not know is kept as the server sent it. */
function choice(name, current, values, label, hint) {
  const all = values.includes(current) ? values : [current, ...values];
  return field({ label, name, hint, options: all.map((value) => ({ value, label: term(`proRata.${name}`, value), selected: value === current })) });
}

/** "5:1, 10:2" as [{years: 5, days: 1}, {years: 10, days: 2}]; [] for nothing; null for text of another form. */
function tiers(text) {
  if (!text) return [];
  const items = text.split(",").map((item) => item.trim().match(/^(\d{1,3})\s*:\s*(\d{1,3})$/));
  return items.every(Boolean) ? items.map((m) => ({ years: Number(m[1]), days: Number(m[2]) })) : null;
}
