// The login screen: one form for local accounts and the company directory (LDAP) alike; the server decides.
// Its errors are shown in the user's language next to the field they name.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { login } from "../api.js";
import { heading, field, formErrors, button } from "../ui.js";

export default {
  render(view, params, query, context) {
    const username = field({ label: t("login.username"), name: "username", autocomplete: "username", required: true, autocapitalize: "none", spellcheck: "false" });
    const password = field({ label: t("login.password"), name: "password", type: "password", autocomplete: "current-password", required: true });
    const errors = formErrors({ username, password }, "login");
    const submit = button(t("login.submit"), null, { kind: "primary", type: "submit" });
    const form = h("form", {
      class: "form narrow",
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        if (!username.control.value.trim()) return username.setError(t("login.required.username")) || username.control.focus();
        if (!password.control.value) return password.setError(t("login.required.password")) || password.control.focus();
        submit.disabled = true;
        try {
          await login(username.control.value.trim(), password.control.value);
          await context.afterLogin();
        } catch (error) {
          errors.show(error);
          if (!error.problem?.field) password.control.focus();
        } finally {
          submit.disabled = false;
        }
      },
    }, errors.alert, username, password, submit);
    append(view, 
      heading(t("login.title")),
      h("p", { class: "session-ended notice-box", role: "status", hidden: true }, t("login.sessionEnded")),
      h("p", { class: "lead" }, t("login.lead")),
      form,
      h("p", {}, h("a", { href: "/forgot-password" }, t("login.forgot"))));
  },
};
