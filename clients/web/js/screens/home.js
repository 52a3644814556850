// The main screen, from GET /v1/home in one call: the balance, the next holiday, who is away this week, the
// notice board and the company's news. The last answer is kept for reading offline (marked as not current).
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { get } from "../api.js";
import { formatDate, formatDays, formatDateRange, formatInstant } from "../format.js";
import { navigate } from "../router.js";
import { noticeTitle } from "./notices.js";
import { heading, section, empty, fullName, photo, requestDates, leaveTypeName, staleNote, button } from "../ui.js";

export let companyToday = null;

export default {
  async render(view) {
    const { data, stale, savedAt } = await get("/v1/home", { offline: true });
    companyToday = data.today;
    const { employee, balance, nextHoliday, away, notices, feed } = data;

    const balanceCard = section(t("home.balance", { year: balance.year }),
      h("p", { class: "big-number" }, t("home.remaining", { days: formatDays(balance.remaining) })),
      h("p", { class: "muted" }, t("home.balanceDetail", { allowance: formatDays(balance.allowance), approved: formatDays(balance.approved), pending: formatDays(balance.pending) })),
      balance.accrual ? h("p", {}, t("home.requestable", { days: formatDays(balance.requestable), earned: formatDays(balance.earned ?? 0) })) : null,
      h("p", {}, h("a", { href: "/holidays" }, t("home.seeHolidays"))));

    const nextCard = section(t("home.next"),
      nextHoliday
        ? h("p", {}, h("a", { href: `/holidays/${nextHoliday.requestId}` }, requestDates(nextHoliday)),
          h("span", { class: "muted" }, ` · ${leaveTypeName(nextHoliday.leaveType)} · ${formatDays(nextHoliday.workingDays)}`))
        : empty(t("home.noNext")),
      button(t("holidays.request"), () => navigate("/holidays/new"), { kind: "primary" }));

    const awayCard = section(t("home.away", { range: formatDateRange(away.from, away.to) }),
      away.items.length
        ? h("ul", { class: "people-list" }, away.items.map((row) => h("li", {},
          photo(row.employee),
          h("div", {},
            h("a", { href: `/people/${row.employee.id}` }, fullName(row.employee)),
            h("p", { class: "muted" }, row.absences.map((a) => `${requestDates(a)} · ${a.leaveType ? leaveTypeName(a.leaveType) : t("absence.away")}`).join("; "))))))
        : empty(t("home.nobodyAway")),
      away.more ? h("p", {}, t("home.moreAway")) : null);

    const noticeCard = section(t("home.notices"),
      h("p", { class: "muted" }, t("notices.unread", { count: notices.unread })),
      notices.items.length
        ? h("ul", { class: "link-list" }, notices.items.map((n) => h("li", {},
          h("a", { href: `/notices/${n.id}` }, noticeTitle(n)),
          n.kind === "personal" && n.read === false ? h("span", { class: "tag tag-unread" }, t("notices.unreadMark")) : null,
          n.pinned ? h("span", { class: "tag" }, t("notices.pinned")) : null)))
        : empty(t("notices.none")),
      h("p", {}, h("a", { href: "/notices" }, t("home.allNotices"))));

    const feedCard = section(t("home.news"),
      feed.length
        ? h("ul", { class: "feed" }, feed.map((item) => h("li", {},
          item.link ? h("a", { href: item.link, rel: "noopener noreferrer", target: "_blank" }, item.title) : h("strong", {}, item.title),
          h("p", { class: "muted" }, [item.source, item.published ? formatInstant(item.published) : null].filter(Boolean).join(" · ")),
          item.summary ? h("p", {}, item.summary) : null)))
        : empty(t("home.noNews")));

    append(view, 
      heading(t("home.title", { name: employee.name })),
      stale ? staleNote(savedAt) : null,
      h("p", { class: "muted" }, t("home.today", { date: formatDate(data.today, "full") })),
      h("div", { class: "cards" }, balanceCard, nextCard, awayCard, noticeCard, feedCard));
  },
};
