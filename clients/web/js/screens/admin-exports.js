// Admin: HR's reports of a year as CSV files (GET /v1/reports/holidays.csv and balances.csv, as `sgadmin
// export`): every request with a day in the year, or every employee's balance. The year is chosen here; the
// file is fetched with the session's token and saved by the browser.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { localToday } from "../format.js";
import { heading, section, field, button } from "../ui.js";
import { adminNav, download, once, outcome } from "../staff.js";
import { companyToday } from "./home.js";

export default {
  async render(view, params, query) {
    const thisYear = Number((companyToday || localToday()).slice(0, 4));
    const asked = Number(query.get("year"));
    const chosen = Number.isInteger(asked) && asked >= 1970 && asked <= 9999 ? asked : thisYear;
    const year = field({ label: t("exports.year"), name: "year", type: "number", min: 1970, max: 9999, step: 1, value: String(chosen), required: true });
    const result = outcome();
    const report = (kind) => once(async () => {
      const value = Number(year.control.value);
      year.setError(null);
      if (!Number.isInteger(value) || value < 1970 || value > 9999) {
        year.setError(t("exports.yearInvalid"));
        year.control.focus();
        return;
      }
      try {
        await download(`/v1/reports/${kind}.csv?year=${value}`, `${kind}-${value}.csv`);
        result.ok(t(`exports.done.${kind}`, { year: value }));
      } catch (error) {
        result.fail(error);
      }
    });
    append(view,
      heading(t("exports.title")),
      adminNav(),
      h("p", { class: "lead" }, t("exports.lead")),
      section(t("exports.choose"),
        year,
        h("div", { class: "actions" },
          button(t("exports.holidays"), report("holidays"), { kind: "primary" }),
          button(t("exports.balances"), report("balances"))),
        h("ul", { class: "plain" }, h("li", {}, t("exports.aboutHolidays")), h("li", {}, t("exports.aboutBalances"))),
        result.line));
  },
};
