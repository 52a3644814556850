// A colleague's profile (GET /v1/employees/{id}: public fields only) and their time off in the coming year as
// the rules let the viewer see it (GET /v1/absences?employee=: approved absences; a private leave type only as
// "away"; pending ones only to themselves and admins).
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { get } from "../api.js";
import { addDays, localToday } from "../format.js";
import { heading, section, fullName, photo, empty, requestDates, leaveTypeName } from "../ui.js";
import { companyToday } from "./home.js";

export default {
  async render(view, params, query, context) {
    const id = encodeURIComponent(params.id);
    const from = companyToday || localToday();
    const [{ data: person }, { data: absences }] = await Promise.all([
      get(`/v1/employees/${id}`),
      get(`/v1/absences?employee=${id}&from=${from}&to=${addDays(from, 365)}`),
    ]);
    const row = (label, value) => (value ? [h("dt", {}, label), h("dd", {}, value)] : null);
    const contact = h("dl", { class: "summary" },
      row(t("person.position"), person.position),
      row(t("person.email"), h("a", { href: `mailto:${person.email}` }, person.email)),
      row(t("person.phone"), person.phone ? h("a", { href: `tel:${person.phone.replace(/[^+0-9]/g, "")}` }, person.phone) : null),
      row(t("person.twitter"), person.twitter ? h("a", { href: `https://x.com/${person.twitter}`, rel: "noopener noreferrer", target: "_blank" }, `@${person.twitter}`) : null),
      row(t("person.linkedin"), person.linkedin && /^https?:\/\//.test(person.linkedin) ? h("a", { href: person.linkedin, rel: "noopener noreferrer", target: "_blank" }, person.linkedin) : null),
      person.isActive ? null : row(t("person.status"), t("people.inactive")));
    const list = (absences.items[0]?.absences || []);
    const timeOff = section(t("person.timeOff"),
      list.length
        ? h("ul", { class: "plain" }, list.map((a) => h("li", {},
          `${requestDates(a)} · ${a.leaveType ? leaveTypeName(a.leaveType) : t("absence.away")}`,
          a.status === "tentative" ? h("span", { class: "tag" }, t("status.pending")) : null)))
        : empty(t("person.noTimeOff")),
      context.me?.id === person.id ? h("p", {}, h("a", { href: "/holidays" }, t("person.yourHolidays"))) : null);
    append(view, 
      h("div", { class: "person-head" }, photo(person, "large"), heading(fullName(person))),
      section(t("person.contact"), contact),
      timeOff,
      h("p", {}, h("a", { href: "/people" }, t("person.back"))));
  },
};
