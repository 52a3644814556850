// One request (GET /v1/holidays/{id}): its days and status, the days counted per year, the balance of each
// year it draws on, who decides it, and its whole history; cancel (POST /v1/holidays/{id}/cancel) when the
// server allows it, sent with the version read (If-Match) and an Idempotency-Key.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get, newKey } from "../api.js";
import { formatDays } from "../format.js";
import { refreshScreen } from "../router.js";
import { announce } from "../shell.js";
import { problemMessage } from "../problems.js";
import { heading, section, button, requestDates, leaveTypeName, requestSummary, requestHistory } from "../ui.js";

export default {
  async render(view, params) {
    const { data: request, etag } = await get(`/v1/holidays/${encodeURIComponent(params.id)}`);
    const details = requestSummary(request);

    const balances = request.balances.length
      ? section(t("holiday.balances"), h("ul", { class: "plain" }, request.balances.map((b) => h("li", {},
        t("holiday.balanceLine", { year: b.year, remaining: formatDays(b.remaining), pending: formatDays(b.pending), approved: formatDays(b.approved) })))))
      : null;

    const history = requestHistory(request);

    const message = h("div", { role: "alert", class: "form-alert", hidden: true });
    const actions = h("div", { class: "actions" });
    if (request.allowedActions.includes("cancel")) {
      const keep = () => {
        confirmBox.hidden = true;
        cancel.hidden = false;
        cancel.focus();
      };
      const confirmBox = h("div", { class: "confirm", hidden: true, onkeydown: (event) => event.key === "Escape" && keep() },
        h("p", { id: "cancel-question" }, t("holiday.cancelQuestion")),
        h("div", { class: "actions" },
          button(t("holiday.cancelYes"), async (event) => {
            event.target.disabled = true;
            try {
              await api("POST", `/v1/holidays/${request.id}/cancel`, { headers: { "If-Match": etag, "Idempotency-Key": newKey() } });
              announce(t("holiday.cancelled"));
              refreshScreen({ focus: true });
            } catch (error) {
              event.target.disabled = false;
              message.textContent = problemMessage(error, "cancel");
              message.hidden = false;
              if (error.status === 412 || error.status === 409) setTimeout(refreshScreen, 2500);
            }
          }, { kind: "danger" }),
          button(t("holiday.cancelNo"), keep)));
      const cancel = button(t("holiday.cancel"), () => {
        confirmBox.hidden = false;
        cancel.hidden = true;
        confirmBox.querySelector("button").focus();
      }, { kind: "danger" });
      actions.append(cancel, confirmBox);
    }

    append(view, 
      heading(t("holiday.title", { type: leaveTypeName(request.leaveTypeName), dates: requestDates(request) })),
      message,
      section(t("holiday.details"), details, actions),
      balances,
      history,
      h("p", {}, h("a", { href: `/holidays?year=${request.startDate.slice(0, 4)}` }, t("holiday.back"))));
  },
};
