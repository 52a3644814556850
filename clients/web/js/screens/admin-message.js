// Admin: one outbox message (GET /v1/outbox/messages/{id}): where it goes, what it says (not for a
// password-reset e-mail or a push, whose contents no admin may read), its tries and the last error; a dead one
// can be retried.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { get } from "../api.js";
import { formatInstant } from "../format.js";
import { heading, section } from "../ui.js";
import { adminNav, outcome } from "../staff.js";
import { messageFacts, retryButton } from "./admin-outbox.js";

export default {
  async render(view, params) {
    const { data: m } = await get(`/v1/outbox/messages/${encodeURIComponent(params.id)}`);
    const result = outcome("message");
    const row = (label, value) => (value === null || value === undefined || value === "" ? null : [h("dt", {}, label), h("dd", {}, value)]);
    append(view,
      h("h1", { tabindex: "-1", class: "screen-heading", id: `outbox-${m.id}` }, m.subject || t("outbox.noSubject", { id: m.id })),
      adminNav(),
      result.line,
      section(t("outbox.message"),
        h("p", { class: "muted" }, messageFacts(m)),
        h("dl", { class: "summary" },
          row(t("outbox.recipient"), m.recipient),
          row(t("outbox.address"), m.to),
          row(t("outbox.created"), formatInstant(m.createdAt)),
          row(t("outbox.next"), m.status === "pending" ? formatInstant(m.nextAttemptAt) : null),
          row(t("outbox.giveUp"), m.status === "pending" ? formatInstant(m.giveUpAt) : null),
          row(t("outbox.sent"), m.sentAt ? formatInstant(m.sentAt) : null),
          row(t("outbox.error"), m.lastError)),
        m.status === "dead" ? retryButton(m, "message", result) : null),
      section(t("outbox.body"), m.body === null ? h("p", { class: "muted" }, t("outbox.bodyHidden")) : h("p", { class: "pre-line message-body" }, m.body)),
      h("p", {}, h("a", { href: "/admin/outbox" }, t("outbox.back"))));
  },
};
