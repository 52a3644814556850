// Admin: a new local account (POST /v1/employees): username, name, surname, e-mail, first password, first day of
// employment and whether they are an admin. The server refuses a taken username, and any new account while logins go to the company
// directory (which creates employees itself).
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { navigate } from "../router.js";
import { setFlash } from "../shell.js";
import { heading, field, formErrors, button } from "../ui.js";
import { adminNav } from "../staff.js";

export default {
  async render(view) {
    const username = field({ label: t("field.username"), name: "username", required: true, maxlength: 64, autocomplete: "off", hint: t("adminEmployee.usernameHint") });
    const name = field({ label: t("field.name"), name: "name", required: true, maxlength: 100 });
    const surname = field({ label: t("field.surname"), name: "surname", required: true, maxlength: 100 });
    const email = field({ label: t("field.email"), name: "email", type: "email", required: true, maxlength: 254 });
    const password = field({ label: t("adminEmployee.firstPassword"), name: "password", type: "password", required: true, minlength: 10, autocomplete: "new-password", hint: t("adminEmployee.passwordHint") });
    const start = field({ label: t("adminEmployee.employmentStart"), name: "employmentStart", type: "date", hint: t("adminEmployee.employmentStartHint") });
    const admin = field({ label: t("adminEmployee.isAdmin"), name: "isAdmin", type: "checkbox" });
    const fields = { username, name, surname, email, password, employmentStart: start, isAdmin: admin };
    const errors = formErrors(fields, "employee");
    const submit = button(t("adminEmployee.create"), null, { kind: "primary", type: "submit" });
    const form = h("form", {
      class: "form narrow", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        for (const wrapper of [username, name, surname, email, password]) {
          if (!wrapper.control.value.trim()) {
            wrapper.setError(t("adminEmployee.required"));
            wrapper.control.focus();
            return;
          }
        }
        submit.disabled = true;
        try {
          const { data } = await api("POST", "/v1/employees", {
            body: {
              username: username.control.value.trim(), name: name.control.value.trim(), surname: surname.control.value.trim(),
              email: email.control.value.trim(), password: password.control.value, isAdmin: admin.control.checked,
              employmentStart: start.control.value || null,
            },
            retryBusy: false,
          });
          setFlash(t("adminEmployee.created", { username: data.username }));
          navigate(`/admin/employees/${data.id}`);
        } catch (error) {
          submit.disabled = false;
          if (error.status !== 401) errors.show(error);
        }
      },
    }, errors.alert, username, h("div", { class: "row" }, name, surname), email, password, start, admin, h("div", { class: "actions" }, submit, h("a", { href: "/admin/employees", class: "button secondary" }, t("adminEmployee.backToList"))));
    append(view, heading(t("adminEmployee.newTitle")), adminNav(), form);
  },
};
