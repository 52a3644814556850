// The year view: GET /v1/me/holidays?year= — the balance explained (allowance, carried over and when it
// expires, adjusted, approved, pending, remaining) and every request of the year with its status and the days
// the server counted. Other years are a link away. The last answer is kept for reading offline.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { get } from "../api.js";
import { formatDays } from "../format.js";
import { navigate } from "../router.js";
import { takeFlash } from "../shell.js";
import { heading, section, empty, balanceList, statusBadge, requestDates, leaveTypeName, staleNote, button } from "../ui.js";

export default {
  async render(view, params, query) {
    const asked = Number(query.get("year"));
    const year = Number.isInteger(asked) && asked >= 1970 && asked <= 9999 ? asked : null;
    const { data, stale, savedAt } = await get(year ? `/v1/me/holidays?year=${year}` : "/v1/me/holidays", { offline: true });
    const flash = takeFlash();
    const requests = data.requests.length
      ? h("ul", { class: "requests" }, data.requests.map((r) => h("li", {},
        h("a", { href: `/holidays/${r.id}`, class: "request-row" },
          h("span", { class: "request-dates" }, requestDates(r)),
          h("span", { class: "request-meta" }, `${leaveTypeName(r.leaveTypeName)} · ${formatDays(r.workingDays)}`),
          statusBadge(r.status)))))
      : empty(t("holidays.none", { year: data.year }));
    append(view, 
      heading(t("holidays.title", { year: data.year })),
      stale ? staleNote(savedAt) : null,
      flash,
      h("div", { class: "actions" },
        button(t("holidays.request"), () => navigate("/holidays/new"), { kind: "primary" })),
      h("nav", { class: "years", "aria-label": t("holidays.years") },
        h("a", { href: `/holidays?year=${data.year - 1}` },
          h("span", { "aria-hidden": "true" }, "←"), h("span", { class: "visually-hidden" }, t("holidays.previousYear")), String(data.year - 1)),
        h("a", { href: `/holidays?year=${data.year + 1}` },
          h("span", { class: "visually-hidden" }, t("holidays.nextYear")), String(data.year + 1), h("span", { "aria-hidden": "true" }, "→"))),
      h("div", { class: "cards two" },
        section(t("holidays.balance", { year: data.year }), balanceList(data.balance)),
        section(t("holidays.requests"), requests)));
  },
};
