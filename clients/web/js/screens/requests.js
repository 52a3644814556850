// The approvers' queue (GET /v1/holidays): the requests the caller decides, by default those pending, a page at
// a time through the server's cursor (`nextAfter`), filtered by status, team (the teams read a page at a time:
// every team for an admin, their own for an approver), leave type, year and employee, the filters kept in the
// address. Each request can be approved, rejected with a reason or reverted from its row, as the server's
// `allowedActions` allow, or opened on its own decision screen. An admin's queue of pending requests also says how
// many approved by a manager wait for the second stage.
import { h, append, replace } from "../dom.js";
import { t } from "../i18n.js";
import { get } from "../api.js";
import { formatDays, formatInstant, formatList, localToday } from "../format.js";
import { navigate } from "../router.js";
import { announce } from "../shell.js";
import { heading, field, button, statusBadge, statusName, requestDates, leaveTypeName, fullName } from "../ui.js";
import { requestsNav, pagedList, employeePicker, teamChoice } from "../staff.js";
import { companyToday } from "./home.js";
import { decisionControls } from "./decision.js";

const statuses = ["pending", "approved-by-manager", "approved", "rejected", "cancelled"];
const PAGE = 20;

/** One request of the queue, with its moves; a move made replaces it with the request as it is now. */
function queueItem(request) {
  const item = h("li", { class: "queue-item" });
  const fill = (current, moved) => {
    const titleId = `queue-request-${current.id}`;
    replace(item,
      h("h3", { id: titleId }, h("a", { href: `/requests/${current.id}` }, `${fullName(current.employee)}: ${requestDates(current)}`)),
      h("p", { class: "request-meta" }, `${leaveTypeName(current.leaveTypeName)} · ${formatDays(current.workingDays)} · ${t("queue.requestedOn", { when: formatInstant(current.createdAt) })}`, statusBadge(current.status)),
      current.comment ? h("p", { class: "note" }, current.comment) : null,
      current.approvers.length ? h("p", { class: "muted" }, t("queue.waitingFor", { who: formatList(current.approvers.map(fullName)) })) : null,
      decisionControls(current, {
        describedBy: titleId,
        onMoved: (next) => {
          fill(next, true);
          announce(t(`decide.moved.${next.status}`, { who: fullName(next.employee) }));
        },
      }));
    if (moved) item.querySelector("h3 a").focus();
  };
  fill(request, false);
  return item;
}

function queuePath(filters, after, limit = PAGE) {
  const parts = [`limit=${limit}`];
  for (const [key, value] of Object.entries(filters)) if (value) parts.push(`${key}=${encodeURIComponent(value)}`);
  if (after) parts.push(`after=${after}`);
  return `/v1/holidays?${parts.join("&")}`;
}

export default {
  async render(view, params, query, context) {
    const filters = {
      status: query.has("status") ? query.get("status") : "pending",
      team: query.get("team") || "",
      leaveType: query.get("leaveType") || "",
      year: query.get("year") || "",
      employee: query.get("employee") || "",
    };
    if (filters.status && !statuses.includes(filters.status)) filters.status = "pending";
    // An admin takes the second stage too: the default queue says how many wait for it, and links to them.
    const secondStage = context.roles.admin && filters.status === "pending";
    const [{ data: types }, teams, chosen, waiting] = await Promise.all([
      get("/v1/leave-types"),
      // The teams a page at a time: every team for an admin, those they decide for an approver.
      teamChoice({ label: t("queue.team"), name: "team", chosen: filters.team, anyLabel: t("queue.anyTeam"), admin: Boolean(context.roles.admin) })
        .catch((error) => {
          if (error.status === 403 && !context.roles.admin) return null;
          throw error;
        }),
      filters.employee ? get(`/v1/employees/${encodeURIComponent(filters.employee)}`).then((r) => r.data).catch(() => null) : Promise.resolve(null),
      secondStage ? get(queuePath({ ...filters, status: "approved-by-manager" }, null, 1)).then((r) => r.data.total) : Promise.resolve(0),
    ]);

    const thisYear = Number((companyToday || localToday()).slice(0, 4));
    const status = field({
      label: t("queue.status"), name: "status",
      options: [{ value: "", label: t("queue.anyStatus") }, ...statuses.map((s) => ({ value: s, label: statusName(s) }))]
        .map((o) => ({ ...o, selected: o.value === filters.status })),
    });
    const team = teams && (teams.count || filters.team) ? teams : null;
    const leaveType = field({
      label: t("queue.leaveType"), name: "leaveType",
      options: [{ value: "", label: t("queue.anyLeaveType") }, ...types.map((x) => ({ value: String(x.id), label: leaveTypeName(x.name) }))]
        .map((o) => ({ ...o, selected: o.value === filters.leaveType })),
    });
    const years = [thisYear - 1, thisYear, thisYear + 1];
    if (filters.year && !years.includes(Number(filters.year))) years.push(Number(filters.year));
    const year = field({
      label: t("queue.year"), name: "year",
      options: [{ value: "", label: t("queue.anyYear") }, ...years.sort().map((y) => ({ value: String(y), label: String(y) }))]
        .map((o) => ({ ...o, selected: o.value === filters.year })),
    });

    let employee = filters.employee;
    const employeeShown = h("div", { class: "chosen" });
    const showEmployee = (person) => {
      employee = person ? String(person.id) : "";
      replace(employeeShown, person
        ? [h("span", {}, t("queue.employeeChosen", { name: fullName(person) })), button(t("queue.everyone"), () => {
          showEmployee(null);
          picker.querySelector("input").focus();
        })]
        : h("span", { class: "muted" }, t("queue.everyoneChosen")));
    };
    const picker = employeePicker({
      label: t("queue.employee"), name: "employee", active: false, actionLabel: t("queue.onlyThisEmployee"),
      onPick: (person) => {
        showEmployee(person);
        picker.clear();
        employeeShown.querySelector("button")?.focus();
      },
    });
    showEmployee(chosen);

    const apply = () => {
      const next = { status: status.control.value, team: team?.control.value || "", leaveType: leaveType.control.value, year: year.control.value, employee };
      const parts = Object.entries(next).filter(([, v]) => v !== "").map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
      if (next.status === "") parts.push("status=");
      navigate(`/requests${parts.length ? `?${parts.join("&")}` : ""}`);
    };
    const form = h("form", {
      class: "form filters", "aria-label": t("queue.filters"),
      onsubmit: (event) => {
        event.preventDefault();
        apply();
      },
    },
    h("div", { class: "filter-row" }, status, team, leaveType, year),
    h("fieldset", { class: "employee-filter" }, h("legend", {}, t("queue.employeeLegend")), employeeShown, picker),
    h("div", { class: "actions" }, button(t("queue.apply"), null, { kind: "primary", type: "submit" })));

    const active = Object.fromEntries(Object.entries(filters).filter(([, v]) => v));
    const list = await pagedList({
      load: async (after) => (await get(queuePath(active, after))).data,
      item: queueItem,
      empty: filters.status === "pending" ? t("queue.nonePending") : t("queue.none"),
      className: "queue",
    });
    const count = h("p", { class: "muted", role: "status" }, t("queue.count", { count: list.page.total }));
    const resultsId = "queue-results";

    append(view,
      heading(t("queue.title")),
      requestsNav(),
      h("details", { class: "filters-box", open: Object.keys(active).some((k) => k !== "status") || null },
        h("summary", {}, t("queue.filters")), form),
      h("section", { class: "results", "aria-labelledby": resultsId },
        h("h2", { id: resultsId }, filters.status ? t(`queue.heading.${filters.status}`) : t("queue.heading.any")),
        count,
        waiting ? h("p", {}, h("a", { href: `/requests?${new URLSearchParams({ ...active, status: "approved-by-manager" })}` }, t("queue.secondStage", { count: waiting }))) : null,
        list));
  },
};
