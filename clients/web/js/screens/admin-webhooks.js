// Admin: the webhook subscriptions (GET /v1/webhooks), disabled ones with why; a new one (POST /v1/webhooks)
// whose signing secret the answer holds this once, shown to be copied now; removing one (DELETE, asked first;
// its messages already in the outbox stay there). An event or a format this app does not know is shown as the
// server names it.
import { h, append, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { formatInstant, formatList } from "../format.js";
import { refreshScreen } from "../router.js";
import { heading, section, field, formErrors, button, empty, term } from "../ui.js";
import { adminNav, confirmButton, keepOutcome, outcome } from "../staff.js";

const formats = ["standard", "slack"];
const events = ["holiday.requested", "holiday.approved", "holiday.rejected", "holiday.reverted", "holiday.cancelled", "notice.published"];

export default {
  async render(view) {
    const { data } = await get("/v1/webhooks");
    const listed = outcome("webhooks");

    const url = field({ label: t("adminHooks.url"), name: "url", type: "url", required: true, maxlength: 2048, hint: t("adminHooks.urlHint") });
    const boxes = events.map((e) => field({ label: t(`event.${e}`), name: `event-${e}`, type: "checkbox", checked: e.startsWith("holiday.") }));
    const format = field({ label: t("adminHooks.format"), name: "format", options: [{ value: "standard", label: t("adminHooks.standard") }, { value: "slack", label: t("adminHooks.slack") }] });
    const insecure = field({ label: t("adminHooks.insecure"), name: "allowInsecure", type: "checkbox", hint: t("adminHooks.insecureHint") });
    const privateDetails = field({ label: t("adminHooks.private"), name: "privateDetails", type: "checkbox", hint: t("adminHooks.privateHint") });
    const eventSet = h("fieldset", {}, h("legend", {}, t("adminHooks.events")), boxes);
    const errors = formErrors({ url, format, allowInsecure: insecure, privateDetails }, "webhook");
    const secretBox = h("div", { class: "secret" });
    const form = h("form", {
      class: "form", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        const chosen = events.filter((e, i) => boxes[i].control.checked);
        if (!url.control.value.trim()) {
          url.setError(t("adminHooks.urlRequired"));
          url.control.focus();
          return;
        }
        if (!chosen.length) return errors.message(t("adminHooks.eventsRequired"));
        try {
          const { data: hook } = await api("POST", "/v1/webhooks", {
            body: { url: url.control.value.trim(), events: chosen, format: format.control.value, allowInsecure: insecure.control.checked, privateDetails: privateDetails.control.checked },
          });
          const secret = field({ label: t("adminHooks.secret"), name: "secret", value: hook.secret, readOnly: true, hint: t("adminHooks.secretOnce") });
          const copied = h("p", { role: "status", class: "muted" });
          replace(secretBox,
            h("p", { class: "notice-box success", role: "status" }, t("adminHooks.created", { url: hook.url })),
            secret,
            h("div", { class: "actions" }, button(t("settings.copy"), async () => {
              try {
                await navigator.clipboard.writeText(hook.secret);
                copied.textContent = t("settings.copied");
              } catch {
                secret.control.select();
                copied.textContent = t("settings.copyByHand");
              }
            }, { kind: "primary" }), button(t("adminHooks.done"), () => refreshScreen({ focus: true }))),
            copied);
          url.control.value = "";
          secret.control.focus();
          secret.control.select();
        } catch (error) {
          if (error.status !== 401) errors.show(error);
        }
      },
    }, errors.alert, url, eventSet, format, insecure, privateDetails, h("div", { class: "actions" }, button(t("adminHooks.create"), null, { kind: "primary", type: "submit" })));

    const list = data.items.length
      ? h("ul", { class: "plain hooks" }, data.items.map((hook) => {
        const titleId = `hook-${hook.id}`;
        return h("li", {},
          h("h3", { id: titleId }, hook.url),
          h("p", { class: "muted" }, [
            formatList(hook.events.map((e) => term("event", e))),
            formats.includes(hook.format) ? t(`adminHooks.${hook.format}`) : hook.format,
            hook.privateDetails ? t("adminHooks.privateShort") : null,
            t("adminHooks.since", { when: formatInstant(hook.createdAt) }),
          ].filter(Boolean).join(" · ")),
          hook.disabledAt ? h("p", { class: "field-error" }, t("adminHooks.disabled", { when: formatInstant(hook.disabledAt), why: hook.disabledReason || "" })) : null,
          confirmButton(t("adminHooks.delete"), {
            question: t("adminHooks.deleteQuestion", { url: hook.url }),
            yes: t("adminHooks.deleteYes"),
            act: async () => {
              await api("DELETE", `/v1/webhooks/${hook.id}`);
              keepOutcome("webhooks", t("adminHooks.deleted", { url: hook.url }));
              refreshScreen();
            },
            attributes: { "aria-describedby": titleId },
          }));
      }))
      : empty(t("adminHooks.none"));

    append(view,
      heading(t("adminHooks.title")),
      adminNav(),
      h("p", { class: "lead" }, t("adminHooks.lead")),
      section(t("adminHooks.list"), listed.line, list),
      section(t("adminHooks.new"), secretBox, form));
  },
};
