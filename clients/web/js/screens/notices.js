// The notice board (GET /v1/notices): company notices and the employee's personal ones (one for each move of
// their requests made by someone else), pinned first, then newest; personal notices are read or unread and
// can be marked either way (POST / DELETE /v1/notices/{id}/read). More pages with `nextAfter`.
import { h, replace, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { formatDateRange, formatInstant } from "../format.js";
import { announce } from "../shell.js";
import { problemMessage } from "../problems.js";
import { heading, empty, button, statusName } from "../ui.js";

/**
 * A notice's title and text in the user's language. A personal notice reports a move of one of the employee's
 * requests, whose facts it carries (`request`): its words are the app's, not the English the server wrote.
 * Company notices are the admins' own words, shown as written.
 */
export function noticeTitle(notice) {
  const move = notice.kind === "personal" && notice.request;
  if (!move) return notice.title;
  const key = move.from === null ? "notice.title.created" : `notice.title.${move.to}`;
  return t(key, { dates: formatDateRange(move.startDate, move.endDate) });
}

export function noticeBody(notice, me = null) {
  const move = notice.kind === "personal" && notice.request;
  if (!move) return notice.body;
  const text = notice.author === me?.username && move.from !== null
    ? t("notice.body.movedByYou", { from: statusName(move.from), to: statusName(move.to) })
    : move.from === null
    ? t("notice.body.created", { who: notice.author, to: statusName(move.to) })
    : t("notice.body.moved", { who: notice.author, from: statusName(move.from), to: statusName(move.to) });
  return move.note ? `${text}\n${t("notice.note", { note: move.note })}` : text;
}

export function readControls(notice, onChange) {
  if (notice.kind !== "personal") return null;
  const state = h("span", { class: notice.read ? "tag" : "tag tag-unread" }, notice.read ? t("notices.readMark") : t("notices.unreadMark"));
  const toggle = button(notice.read ? t("notices.markUnread") : t("notices.markRead"), async () => {
    toggle.disabled = true;
    try {
      const { data } = await api(notice.read ? "DELETE" : "POST", `/v1/notices/${notice.id}/read`);
      announce(data.read ? t("notices.markedRead") : t("notices.markedUnread"));
      onChange(data, toggle);
    } catch (error) {
      toggle.disabled = false;
      announce(problemMessage(error));
    }
  }, { "aria-describedby": `notice-title-${notice.id}` });
  return h("div", { class: "read-state" }, state, toggle);
}

function noticeItem(notice, me) {
  const item = h("li", { class: "notice" });
  const fill = (current, focused) => {
    replace(item,
      h("h2", { id: `notice-title-${current.id}` }, h("a", { href: `/notices/${current.id}` }, noticeTitle(current))),
      h("p", { class: "muted" },
        [current.kind === "company" ? t("notices.company") : t("notices.personal"), current.pinned ? t("notices.pinned") : null, formatInstant(current.createdAt)].filter(Boolean).join(" · ")),
      h("p", { class: "notice-body" }, noticeBody(current, me)),
      current.request ? h("p", {}, h("a", { href: `/holidays/${current.request.id}` }, t("notices.seeRequest"))) : null,
      readControls(current, (next) => fill(next, true)));
    if (focused) item.querySelector(".read-state button")?.focus();
  };
  fill(notice, false);
  return item;
}

export default {
  async render(view, params, query, context) {
    const { data } = await get("/v1/notices?limit=20");
    const item = (notice) => noticeItem(notice, context.me);
    const list = h("ul", { class: "notices" }, data.items.map(item));
    const more = h("div", { class: "actions" });
    const counter = h("p", { class: "muted" }, t("notices.unread", { count: data.unread }));
    const addMore = (cursor) => {
      replace(more, cursor ? button(t("action.more"), async (event) => {
        event.target.disabled = true;
        try {
          const { data: page } = await get(`/v1/notices?limit=20&after=${encodeURIComponent(cursor)}`);
          const items = page.items.map(item);
          list.append(...items);
          items[0]?.querySelector("a")?.focus();
          addMore(page.nextAfter);
        } catch (error) {
          event.target.disabled = false;
          announce(problemMessage(error));
        }
      }) : null);
    };
    addMore(data.nextAfter);
    append(view, heading(t("notices.title")), counter, data.items.length ? list : empty(t("notices.none")), more);
  },
};
