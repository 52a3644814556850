// A new request: the leave type (GET /v1/leave-types), the dates, the half days and a comment. Before it is
// sent the server's preview (POST /v1/me/holidays/preview, 400 ms after the last change, once both dates are
// set) shows the working days it would count, the balance after, and who would decide it; the browser counts
// nothing itself. Sent with an Idempotency-Key, so a retry after a lost answer makes no second request.
import { h, replace, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get, newKey } from "../api.js";
import { formatDays, formatList, localToday } from "../format.js";
import { navigate } from "../router.js";
import { setFlash, announce } from "../shell.js";
import { problemMessage } from "../problems.js";
import { heading, field, formErrors, button, leaveTypeName, statusBadge, fullName, statusName } from "../ui.js";
import { companyToday } from "./home.js";

export default {
  async render(view) {
    const { data: types } = await get("/v1/leave-types");
    const today = companyToday || localToday();
    const leaveType = field({
      label: t("request.leaveType"), name: "leaveTypeId",
      options: types.filter((type) => !type.retired).map((type) => ({ value: type.id, label: leaveTypeName(type.name), selected: type.id === 1 })),
    });
    const startDate = field({ label: t("request.startDate"), name: "startDate", type: "date", min: today, required: true });
    const endDate = field({ label: t("request.endDate"), name: "endDate", type: "date", min: today, required: true });
    const startHalf = field({ label: t("request.startHalf"), name: "startHalf", type: "checkbox" });
    const endHalf = field({ label: t("request.endHalf"), name: "endHalf", type: "checkbox" });
    const comment = field({ label: t("request.comment"), name: "comment", multiline: true, maxlength: 1000, hint: t("request.commentHint") });
    const fields = { leaveTypeId: leaveType, startDate, endDate, startHalf, endHalf, comment };
    const errors = formErrors(fields, "request");
    const preview = h("div", { class: "preview", role: "status", "aria-live": "polite" }, h("p", { class: "muted" }, t("request.previewEmpty")));
    const submit = button(t("request.send"), null, { kind: "primary", type: "submit" });

    const body = () => {
      const request = { startDate: startDate.control.value, endDate: endDate.control.value, leaveTypeId: Number(leaveType.control.value) };
      if (startHalf.control.checked) request.startHalf = "afternoon";
      if (endHalf.control.checked) request.endHalf = "morning";
      const text = comment.control.value.trim();
      if (text) request.comment = text;
      return request;
    };

    let timer = null;
    let asked = 0;
    const ask = async () => {
      const mine = ++asked;
      try {
        const { data } = await api("POST", "/v1/me/holidays/preview", { body: body(), retryBusy: false, retryNetwork: false });
        if (mine !== asked) return;
        errors.clear();
        replace(preview, showPreview(data));
      } catch (error) {
        if (mine !== asked || error.status === 401) return;
        errors.show(error, { focus: false });
        replace(preview, h("p", { class: "field-error" }, problemMessage(error, "request")));
      }
    };
    const changed = () => {
      clearTimeout(timer);
      if (!startDate.control.value || !endDate.control.value) {
        replace(preview, h("p", { class: "muted" }, t("request.previewEmpty")));
        return;
      }
      replace(preview, h("p", { class: "muted" }, t("request.previewCounting")));
      timer = setTimeout(ask, 400);
    };
    // A first day chosen with no last day yet (or a later one) makes a one-day request to start from.
    startDate.control.addEventListener("change", () => {
      if (startDate.control.value && (!endDate.control.value || endDate.control.value < startDate.control.value)) endDate.control.value = startDate.control.value;
    });
    for (const wrapper of Object.values(fields)) {
      wrapper.control.addEventListener("change", changed);
      if (wrapper !== comment) wrapper.control.addEventListener("input", changed);
    }

    const key = newKey();
    const form = h("form", {
      class: "form",
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        clearTimeout(timer);
        errors.clear();
        if (!startDate.control.value) return showRequired(startDate);
        if (!endDate.control.value) return showRequired(endDate);
        submit.disabled = true;
        try {
          const { data } = await api("POST", "/v1/me/holidays", { body: body(), headers: { "Idempotency-Key": key } });
          const message = t("request.sent", { days: formatDays(data.workingDays), status: statusName(data.status) });
          setFlash(message);
          announce(message);
          navigate(`/holidays?year=${data.startDate.slice(0, 4)}`);
        } catch (error) {
          if (error.status !== 401) errors.show(error);
          submit.disabled = false;
        }
      },
    },
    errors.alert,
    leaveType,
    h("div", { class: "row" }, startDate, endDate),
    h("fieldset", { class: "halves" }, h("legend", {}, t("request.halves")), startHalf, endHalf),
    comment,
    h("h2", {}, t("request.previewTitle")),
    preview,
    h("div", { class: "actions" }, submit, h("a", { href: "/holidays", class: "button secondary" }, t("request.back"))));

    append(view, heading(t("request.title")), h("p", { class: "lead" }, t("request.lead")), form);
  },
};

function showRequired(wrapper) {
  wrapper.setError(t("request.required"));
  wrapper.control.focus();
}

function showPreview(preview) {
  const years = Object.entries(preview.workingDaysByYear);
  return h("dl", { class: "summary" },
    h("dt", {}, t("request.workingDays")),
    h("dd", { class: "preview-days" }, formatDays(preview.workingDays),
      years.length > 1 ? h("span", { class: "muted" }, ` (${years.map(([year, days]) => `${year}: ${formatDays(days)}`).join(", ")})`) : null),
    preview.balances.length ? [
      h("dt", {}, t("request.balanceAfter")),
      h("dd", {}, preview.balances.map((b) => t("request.remainingIn", { days: formatDays(b.remaining), year: b.year })).join("; ")),
    ] : null,
    h("dt", {}, t("request.willBe")),
    h("dd", {}, statusBadge(preview.status)),
    preview.approvers.length ? [
      h("dt", {}, t("request.decidedBy")),
      h("dd", {}, formatList(preview.approvers.map(fullName))),
    ] : null);
}
