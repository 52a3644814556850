// Passwords without a session: "forgot password" asks for a link by e-mail (POST /v1/auth/password-reset,
// which answers the same whoever is named), and the page the e-mail's link opens (/reset-password?token=…)
// sets a new one (POST /v1/auth/password-reset/confirm). The token is taken out of the address at once.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { anonymous } from "../api.js";
import { problemMessage } from "../problems.js";
import { heading, field, formErrors, button } from "../ui.js";

function directoryNote(error) {
  const url = error.problem?.passwordUrl;
  return url && /^https?:\/\//.test(url) ? h("p", {}, h("a", { href: url, rel: "noopener noreferrer" }, t("reset.directoryLink"))) : null;
}

export const forgotPassword = {
  public: true,
  render(view) {
    const login = field({ label: t("reset.login"), name: "login", autocomplete: "username", required: true, autocapitalize: "none" });
    const errors = formErrors({ login }, "reset");
    const done = h("div", { role: "status" });
    const submit = button(t("reset.send"), null, { kind: "primary", type: "submit" });
    const form = h("form", {
      class: "form narrow", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        done.replaceChildren();
        if (!login.control.value.trim()) {
          login.setError(t("reset.required"));
          login.control.focus();
          return;
        }
        submit.disabled = true;
        try {
          await anonymous("POST", "/v1/auth/password-reset", { login: login.control.value.trim() });
          done.replaceChildren(h("p", { class: "notice-box success" }, t("reset.sentText")));
        } catch (error) {
          errors.show(error);
          const note = directoryNote(error);
          if (note) done.replaceChildren(note);
        } finally {
          submit.disabled = false;
        }
      },
    }, errors.alert, login, submit);
    append(view, heading(t("reset.forgotTitle")), h("p", { class: "lead" }, t("reset.forgotLead")), form, done,
      h("p", {}, h("a", { href: "/" }, t("reset.backToLogin"))));
  },
};

let token = null;

export const resetPassword = {
  public: true,
  render(view, params, query) {
    if (query.get("token")) {
      token = query.get("token");
      history.replaceState(null, "", "/reset-password");
    }
    append(view, heading(t("reset.title")));
    if (!token) {
      append(view, h("p", {}, t("reset.noToken")), h("p", {}, h("a", { href: "/forgot-password" }, t("reset.askAgain"))));
      return;
    }
    const password = field({ label: t("settings.newPassword"), name: "newPassword", type: "password", autocomplete: "new-password", hint: t("password.rules") });
    const again = field({ label: t("settings.repeatPassword"), name: "repeatPassword", type: "password", autocomplete: "new-password" });
    const errors = formErrors({ newPassword: password, repeatPassword: again }, "reset");
    const result = h("div", { role: "status" });
    const submit = button(t("reset.set"), null, { kind: "primary", type: "submit" });
    const form = h("form", {
      class: "form narrow", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        result.replaceChildren();
        if (password.control.value !== again.control.value) {
          again.setError(t("password.mismatch"));
          again.control.focus();
          return;
        }
        submit.disabled = true;
        try {
          await anonymous("POST", "/v1/auth/password-reset/confirm", { token, newPassword: password.control.value });
          token = null;
          form.hidden = true;
          result.replaceChildren(h("p", { class: "notice-box success" }, t("reset.done")), h("p", {}, h("a", { href: "/" }, t("reset.backToLogin"))));
          result.querySelector("a").focus();
        } catch (error) {
          submit.disabled = false;
          if (error.problem?.field === "token") {
            errors.message(problemMessage(error, "reset"));
            result.replaceChildren(h("p", {}, h("a", { href: "/forgot-password" }, t("reset.askAgain"))));
          } else {
            errors.show(error);
            const note = directoryNote(error);
            if (note) result.replaceChildren(note);
          }
        }
      },
    }, errors.alert, password, again, submit);
    append(view, h("p", { class: "lead" }, t("reset.lead")), form, result);
  },
};
