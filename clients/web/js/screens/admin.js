// The Admin section's first screen: what each of its screens is for, and how many outbox messages wait or died
// (the counts are the server's, GET /v1/outbox/messages?limit=1).
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { get } from "../api.js";
import { heading } from "../ui.js";
import { adminNav, adminSections } from "../staff.js";

export default {
  async render(view) {
    const { data: outbox } = await get("/v1/outbox/messages?limit=1");
    append(view,
      heading(t("admin.title")),
      adminNav(),
      h("p", { class: "lead" }, t("admin.lead")),
      h("ul", { class: "plain admin-index" }, adminSections.map(([key, href]) => h("li", {},
        h("a", { href }, t(`adminNav.${key}`)),
        h("p", { class: "muted" }, key === "outbox"
          ? t("admin.about.outboxCounts", { pending: outbox.counts.pending || 0, dead: outbox.counts.dead || 0 })
          : t(`admin.about.${key}`))))));
  },
};
