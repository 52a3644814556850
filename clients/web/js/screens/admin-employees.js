// Admin: the employees (GET /v1/employees), searched by name, e-mail, position or username, active, inactive
// or both, a page at a time through the server's cursor, with the counts the server gives; each opens the
// employee's screen. "Add an employee" opens the form for a new local account.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { get } from "../api.js";
import { navigate } from "../router.js";
import { heading, field, button, fullName, photo } from "../ui.js";
import { adminNav, pagedList } from "../staff.js";

const PAGE = 50;

function employeeItem(person) {
  return h("li", {},
    photo(person),
    h("div", {},
      h("a", { href: `/admin/employees/${person.id}` }, fullName(person)),
      h("p", { class: "muted" }, [person.username, person.email, person.position, person.isActive ? null : t("people.inactive")].filter(Boolean).join(" · "))));
}

export default {
  async render(view, params, query) {
    const q = (query.get("q") || "").trim();
    const active = ["true", "false"].includes(query.get("active")) ? query.get("active") : "";
    const search = field({ label: t("adminEmployees.search"), name: "q", type: "search", value: q, maxlength: 100, autocomplete: "off" });
    const which = field({
      label: t("adminEmployees.which"), name: "active",
      options: [["", t("adminEmployees.all")], ["true", t("adminEmployees.active")], ["false", t("adminEmployees.inactive")]]
        .map(([value, label]) => ({ value, label, selected: value === active })),
    });
    const form = h("form", {
      class: "form filters", role: "search",
      onsubmit: (event) => {
        event.preventDefault();
        const parts = [];
        if (search.control.value.trim()) parts.push(`q=${encodeURIComponent(search.control.value.trim())}`);
        if (which.control.value) parts.push(`active=${which.control.value}`);
        navigate(`/admin/employees${parts.length ? `?${parts.join("&")}` : ""}`);
      },
    }, h("div", { class: "filter-row" }, search, which), h("div", { class: "actions" }, button(t("people.searchButton"), null, { kind: "primary", type: "submit" })));

    const path = (after) => `/v1/employees?limit=${PAGE}${q ? `&q=${encodeURIComponent(q)}` : ""}${active ? `&active=${active}` : ""}${after ? `&after=${after}` : ""}`;
    const list = await pagedList({ load: async (after) => (await get(path(after))).data, item: employeeItem, empty: t("people.none"), className: "people-list" });
    const { total, active: activeCount } = list.page;
    append(view,
      heading(t("adminEmployees.title")),
      adminNav(),
      h("div", { class: "actions" }, h("a", { href: "/admin/employees/new", class: "button primary" }, t("adminEmployees.add"))),
      form,
      h("p", { class: "muted", role: "status" }, t("adminEmployees.count", { total, active: activeCount })),
      list);
  },
};
