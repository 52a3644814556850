// The company (GET /v1/company): its details, the working week, the default allowance and the carry-over
// rule, and this year's public holidays of the employee's own holiday calendar (GET /v1/public-holidays).
import { h, append } from "../dom.js";
import { t, language } from "../i18n.js";
import { get } from "../api.js";
import { formatDate, formatDays, formatList, weekdayName } from "../format.js";
import { accrualText, heading, section, empty, term } from "../ui.js";
import { companyToday } from "./home.js";

function monthDay(mmdd) {
  const [month, day] = mmdd.split("-").map(Number);
  return new Intl.DateTimeFormat(language(), { month: "long", day: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(2001, month - 1, day)));
}

export default {
  async render(view) {
    const year = Number((companyToday || new Date().toISOString()).slice(0, 4));
    const [{ data: company }, { data: holidays }] = await Promise.all([get("/v1/company"), get(`/v1/public-holidays?year=${year}`)]);
    const row = (label, value) => (value ? [h("dt", {}, label), h("dd", {}, value)] : null);
    const website = company.website && /^https?:\/\//.test(company.website)
      ? h("a", { href: company.website, rel: "noopener noreferrer", target: "_blank" }, company.website) : null;
    append(view, 
      heading(company.name),
      h("div", { class: "cards two" },
        section(t("company.contact"), h("dl", { class: "summary" },
          row(t("company.address"), company.address ? h("span", { class: "pre-line" }, company.address) : null),
          row(t("company.phone"), company.phone ? h("a", { href: `tel:${company.phone.replace(/[^+0-9]/g, "")}` }, company.phone) : null),
          row(t("company.email"), company.email ? h("a", { href: `mailto:${company.email}` }, company.email) : null),
          row(t("company.website"), website))),
        section(t("company.rules"), h("dl", { class: "summary" },
          row(t("company.workingWeek"), formatList(company.workingWeek.map(weekdayName))),
          row(t("company.allowance"), formatDays(company.defaultAllowance)),
          row(t("company.carryOver"), company.carryOverCap > 0
            ? t("company.carryOverRule", { days: formatDays(company.carryOverCap), date: monthDay(company.carryOverExpiry) })
            : t("company.noCarryOver")),
          row(t("company.proRata"), company.proRata === "off"
            ? t("company.noProRata")
            : t("company.proRataRule", { method: term("proRata.proRata", company.proRata), rounding: term("proRata.proRataRounding", company.proRataRounding) })),
          row(t("company.seniority"), company.seniority.length
            ? t(company.seniorityFrom === "anniversary" ? "company.seniorityFromAnniversary" : "company.seniorityFromYear", {
              tiers: formatList(company.seniority.map((s) => t("company.seniorityTier", { days: formatDays(s.days), years: s.years }))),
            })
            : t("company.noSeniority")),
          row(t("company.accrual"), accrualText(company.accrual)),
          row(t("company.timeZone"), company.timeZone))),
        section(t("company.publicHolidays", { year }),
          holidays.length
            ? h("ul", { class: "plain" }, holidays.map((d) => h("li", {}, h("strong", {}, formatDate(d.date)), ` · ${d.name}`)))
            : empty(t("company.noPublicHolidays")))));
  },
};
