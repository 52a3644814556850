// Admin: the outbox (GET /v1/outbox/messages), the e-mails, webhook calls and push messages the server
// delivers, a page at a time through its cursor, by status with the server's counts: what waits and when it is
// tried next, what was sent, what died and why (the receiving server's words). A dead message goes back to
// pending with a new day of tries (POST /v1/outbox/messages/{id}/retry), or every dead one at once
// (POST /v1/outbox/retry-dead). A status or channel this app does not know is shown as the server names it.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { formatInstant } from "../format.js";
import { refreshScreen } from "../router.js";
import { heading, section, button, term } from "../ui.js";
import { adminNav, keepOutcome, once, outcome, pagedList } from "../staff.js";

const statuses = ["pending", "sent", "dead"];
const PAGE = 50;

/** What a message is, in one line, and when it was (or will be) handled. */
export function messageFacts(m) {
  return [
    term("outbox.status", m.status),
    term("outbox.channel", m.channel),
    m.event,
    t("outbox.attempts", { count: m.attempts }),
    m.status === "sent" && m.sentAt ? t("outbox.sentAt", { when: formatInstant(m.sentAt) }) : null,
    m.status === "pending" ? t("outbox.nextAt", { when: formatInstant(m.nextAttemptAt) }) : null,
  ].filter(Boolean).join(" · ");
}

/** The retry of one dead message; `key` names the outcome line that says it was done. */
export function retryButton(m, key, result) {
  return button(t("outbox.retry"), once(async () => {
    try {
      await api("POST", `/v1/outbox/messages/${m.id}/retry`);
      keepOutcome(key, t("outbox.retried", { id: m.id }));
      refreshScreen();
    } catch (error) {
      result.fail(error, "outbox");
    }
  }), { id: `outbox-${m.id}-retry`, "aria-describedby": `outbox-${m.id}` });
}

export default {
  async render(view, params, query) {
    const status = statuses.includes(query.get("status")) ? query.get("status") : "";
    const result = outcome("outbox");
    const path = (after) => `/v1/outbox/messages?limit=${PAGE}${status ? `&status=${status}` : ""}${after ? `&after=${after}` : ""}`;
    const list = await pagedList({
      load: async (after) => (await get(path(after))).data,
      item: (m) => h("li", { class: "outbox-item" },
        h("h3", { id: `outbox-${m.id}` }, h("a", { href: `/admin/outbox/${m.id}` }, m.subject || t("outbox.noSubject", { id: m.id }))),
        h("p", { class: "muted" }, messageFacts(m)),
        h("p", {}, t("outbox.to", { to: m.recipient ? `${m.recipient} <${m.to}>` : m.to })),
        m.lastError ? h("p", { class: m.status === "dead" ? "field-error" : "muted" }, t("outbox.lastError", { error: m.lastError })) : null,
        m.status === "dead" ? retryButton(m, "outbox", result) : null),
      empty: t(`outbox.none${status ? `.${status}` : ""}`),
      className: "plain outbox",
    });
    const counts = list.page.counts;
    const tabs = h("nav", { class: "subnav tabs", "aria-label": t("outbox.byStatus") },
      h("ul", {}, [["", t("outbox.all")], ...statuses.map((s) => [s, t(`outbox.status.${s}`)])].map(([s, label]) => h("li", {},
        h("a", { href: s ? `/admin/outbox?status=${s}` : "/admin/outbox", "aria-current": s === status ? "page" : null },
          s ? t("outbox.tab", { label, count: counts[s] || 0 }) : label)))));
    const retryAll = (counts.dead || 0) > 0 ? button(t("outbox.retryAll", { count: counts.dead }), once(async () => {
      try {
        const { data } = await api("POST", "/v1/outbox/retry-dead");
        keepOutcome("outbox", t("outbox.retriedAll", { count: data.retried }));
        refreshScreen();
      } catch (error) {
        result.fail(error, "outbox");
      }
    }), { id: "outbox-retry-all" }) : null;
    append(view,
      heading(t("outbox.title")),
      adminNav(),
      h("p", { class: "lead" }, t("outbox.lead")),
      tabs,
      h("p", { class: "muted", role: "status" }, t("outbox.counts", { pending: counts.pending || 0, sent: counts.sent || 0, dead: counts.dead || 0 })),
      retryAll ? h("div", { class: "actions" }, retryAll) : null,
      result.line,
      section(status ? t(`outbox.status.${status}`) : t("outbox.all"), list));
  },
};
