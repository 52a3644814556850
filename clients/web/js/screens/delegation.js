// An approver's delegation (GET / PUT / DELETE /v1/me/delegation): a colleague decides for them from one day
// through another, at most 366 days, one delegation at a time; a new one replaces it. Only a team's approver may
// delegate (the server refuses anyone else, a substitute included).
import { h, append, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { formatDate, localToday } from "../format.js";
import { refreshScreen } from "../router.js";
import { announce } from "../shell.js";
import { heading, section, field, formErrors, button, fullName } from "../ui.js";
import { requestsNav, employeePicker, outcome } from "../staff.js";
import { companyToday } from "./home.js";

export default {
  async render(view) {
    let current = null;
    try {
      current = (await get("/v1/me/delegation")).data;
    } catch (error) {
      if (error.status !== 404) throw error;
    }
    const substitute = current ? (await get(`/v1/employees/${current.to}`).catch(() => ({ data: null }))).data : null;
    const today = companyToday || localToday();
    const result = outcome();

    const now = section(t("delegation.current"),
      current
        ? [h("p", { class: "delegation-now" }, t("delegation.running", {
          name: substitute ? fullName(substitute) : `#${current.to}`, from: formatDate(current.from), until: formatDate(current.until),
        })),
        h("div", { class: "actions" }, button(t("delegation.end"), async (event) => {
          event.target.disabled = true;
          try {
            await api("DELETE", "/v1/me/delegation");
            announce(t("delegation.ended"));
            refreshScreen({ focus: true });
          } catch (error) {
            event.target.disabled = false;
            result.fail(error, "delegation");
          }
        }, { kind: "danger" }))]
        : h("p", { class: "muted" }, t("delegation.none")),
      result.line);

    let chosen = substitute;
    const chosenLine = h("p", { class: "chosen" });
    const showChosen = () => replace(chosenLine, chosen ? t("delegation.chosen", { name: fullName(chosen) }) : h("span", { class: "muted" }, t("delegation.nobodyChosen")));
    showChosen();
    const picker = employeePicker({
      label: t("delegation.find"), name: "substitute", actionLabel: t("delegation.pick"),
      onPick: (person) => {
        chosen = person;
        showChosen();
        picker.clear();
        from.control.focus();
      },
    });
    const from = field({ label: t("delegation.from"), name: "from", type: "date", value: current?.from || today, required: true });
    const until = field({ label: t("delegation.until"), name: "until", type: "date", value: current?.until || "", min: today, required: true });
    const errors = formErrors({ from, until }, "delegation");
    const form = h("form", {
      class: "form", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        if (!chosen) return errors.message(t("delegation.chooseFirst"));
        if (!from.control.value) return showRequired(from);
        if (!until.control.value) return showRequired(until);
        try {
          await api("PUT", "/v1/me/delegation", { body: { to: chosen.id, from: from.control.value, until: until.control.value } });
          announce(t("delegation.saved", { name: fullName(chosen) }));
          refreshScreen({ focus: true });
        } catch (error) {
          if (error.status !== 401) errors.show(error);
        }
      },
    }, errors.alert,
    h("fieldset", {}, h("legend", {}, t("delegation.substitute")), chosenLine, picker),
    h("div", { class: "row" }, from, until),
    h("div", { class: "actions" }, button(current ? t("delegation.replace") : t("delegation.save"), null, { kind: "primary", type: "submit" })));

    append(view,
      heading(t("delegation.title")),
      requestsNav(),
      h("p", { class: "lead" }, t("delegation.lead")),
      now,
      section(current ? t("delegation.changeTitle") : t("delegation.newTitle"), form));
  },
};

function showRequired(wrapper) {
  wrapper.setError(t("delegation.required"));
  wrapper.control.focus();
}
