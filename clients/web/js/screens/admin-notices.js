// Admin: the company notice board (GET /v1/notices?includeExpired=true, a page at a time), with notices past
// their last day too: post one (POST /v1/notices), pin or unpin it, set or remove its last day (PATCH), delete
// it (DELETE, asked first). Personal notices are the employees' own and are not listed here.
import { h, append, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { formatDate, formatInstant, localToday } from "../format.js";
import { refreshScreen } from "../router.js";
import { heading, section, field, formErrors, button } from "../ui.js";
import { adminNav, confirmButton, keepOutcome, once, outcome, pagedList } from "../staff.js";
import { companyToday } from "./home.js";

function noticeItem(notice, today) {
  const item = h("li", { class: "notice" });
  const titleId = `admin-notice-${notice.id}`;
  const result = outcome(`notice-${notice.id}`);
  const patch = async (body, text) => {
    try {
      await api("PATCH", `/v1/notices/${notice.id}`, { body });
      keepOutcome(`notice-${notice.id}`, text);
      refreshScreen();
    } catch (error) {
      result.fail(error, "notice");
    }
  };
  const expired = notice.expiresOn && notice.expiresOn < today;
  const until = field({ label: t("adminNotices.lastDay"), name: `notice-${notice.id}-until`, type: "date", value: notice.expiresOn || "", min: today });
  const untilForm = h("form", {
    class: "form search", novalidate: true,
    onsubmit: (event) => {
      event.preventDefault();
      const value = until.control.value || null;
      patch({ expiresOn: value }, value ? t("adminNotices.expirySet", { date: formatDate(value) }) : t("adminNotices.expiryRemoved"));
    },
  }, until, button(t("adminNotices.setLastDay"), null, { type: "submit", id: `notice-${notice.id}-until-save`, "aria-describedby": titleId }));
  replace(item,
    h("h3", { id: titleId }, notice.title),
    h("p", { class: "muted" }, [
      notice.pinned ? t("notices.pinned") : null,
      t("notices.author", { who: notice.author }),
      formatInstant(notice.createdAt),
      notice.expiresOn ? (expired ? t("adminNotices.expiredOn", { date: formatDate(notice.expiresOn) }) : t("adminNotices.shownUntil", { date: formatDate(notice.expiresOn) })) : t("adminNotices.noExpiry"),
    ].filter(Boolean).join(" · ")),
    h("p", { class: "notice-body" }, notice.body),
    result.line,
    h("div", { class: "actions" },
      button(notice.pinned ? t("adminNotices.unpin") : t("adminNotices.pin"), once(() => patch({ pinned: !notice.pinned }, notice.pinned ? t("adminNotices.unpinned") : t("adminNotices.pinnedNow"))), { id: `notice-${notice.id}-pin`, "aria-describedby": titleId }),
      confirmButton(t("adminNotices.delete"), {
        question: t("adminNotices.deleteQuestion", { title: notice.title }),
        yes: t("adminNotices.deleteYes"),
        act: async () => {
          await api("DELETE", `/v1/notices/${notice.id}`);
          keepOutcome("notices", t("adminNotices.deleted", { title: notice.title }));
          refreshScreen();
        },
        attributes: { "aria-describedby": titleId },
      })),
    untilForm);
  return item;
}

export default {
  async render(view) {
    const today = companyToday || localToday();
    const title = field({ label: t("adminNotices.noticeTitle"), name: "title", required: true, maxlength: 200 });
    const body = field({ label: t("adminNotices.body"), name: "body", multiline: true, required: true, maxlength: 10000 });
    const pinned = field({ label: t("adminNotices.pinIt"), name: "pinned", type: "checkbox" });
    const expiresOn = field({ label: t("adminNotices.lastDay"), name: "expiresOn", type: "date", min: today, hint: t("adminNotices.lastDayHint") });
    const errors = formErrors({ title, body, pinned, expiresOn }, "notice");
    const form = h("form", {
      class: "form", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        for (const wrapper of [title, body]) {
          if (!wrapper.control.value.trim()) {
            wrapper.setError(t("adminNotices.required"));
            wrapper.control.focus();
            return;
          }
        }
        try {
          const { data } = await api("POST", "/v1/notices", {
            body: { title: title.control.value.trim(), body: body.control.value.trim(), pinned: pinned.control.checked, expiresOn: expiresOn.control.value || null },
          });
          keepOutcome("notices", t("adminNotices.posted", { title: data.title }));
          refreshScreen();
        } catch (error) {
          if (error.status !== 401) errors.show(error);
        }
      },
    }, errors.alert, title, body, pinned, expiresOn, h("div", { class: "actions" }, button(t("adminNotices.post"), null, { kind: "primary", type: "submit", id: "notice-post" })));
    const listed = outcome("notices");
    const list = await pagedList({
      load: async (after) => {
        const { data } = await get(`/v1/notices?includeExpired=true&limit=20${after ? `&after=${encodeURIComponent(after)}` : ""}`);
        return { ...data, items: data.items.filter((n) => n.kind === "company") };
      },
      item: (notice) => noticeItem(notice, today),
      empty: t("notices.none"),
      className: "notices",
    });
    append(view,
      heading(t("adminNotices.title")),
      adminNav(),
      section(t("adminNotices.new"), form),
      listed.line,
      section(t("adminNotices.board"), list));
  },
};
