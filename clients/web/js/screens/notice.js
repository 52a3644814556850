// One notice (GET /v1/notices/{id}), as an e-mail's link opens it: a personal notice is marked read when it is
// opened, and links to the request it is about.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { formatInstant } from "../format.js";
import { heading } from "../ui.js";
import { readControls, noticeTitle, noticeBody } from "./notices.js";

export default {
  async render(view, params, query, context) {
    let { data: notice } = await get(`/v1/notices/${encodeURIComponent(params.id)}`);
    if (notice.kind === "personal" && notice.read === false) {
      notice = (await api("POST", `/v1/notices/${notice.id}/read`)).data;
    }
    const controls = h("div", {});
    const fill = (current) => controls.replaceChildren(readControls(current, (next, button) => {
      fill(next);
      controls.querySelector("button")?.focus();
    }) || "");
    fill(notice);
    append(view, 
      heading(noticeTitle(notice)),
      h("p", { class: "muted", id: `notice-title-${notice.id}` },
        [notice.kind === "company" ? t("notices.company") : t("notices.personal"), t("notices.author", { who: notice.author }), formatInstant(notice.createdAt)].join(" · ")),
      h("p", { class: "notice-body" }, noticeBody(notice, context.me)),
      notice.request ? h("p", {}, h("a", { href: `/holidays/${notice.request.id}` }, t("notices.seeRequest"))) : null,
      controls,
      h("p", {}, h("a", { href: "/notices" }, t("notices.back"))));
  },
};
