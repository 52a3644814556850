// The employee's own profile (GET / PATCH /v1/me): only the fields the server lists in `editableFields` can be
// changed (the company directory may keep the others), sent with the version read (If-Match). The photo is
// previewed before it is uploaded (PUT /v1/me/photo), and can be removed.
import { h, replace, append } from "../dom.js";
import { t, has } from "../i18n.js";
import { api, get } from "../api.js";
import { announce } from "../shell.js";
import { problemMessage } from "../problems.js";
import { heading, section, field, formErrors, button, photo } from "../ui.js";

const textFields = [
  ["name", "text", "given-name"],
  ["surname", "text", "family-name"],
  ["position", "text", "organization-title"],
  ["birthDate", "date", "bday"],
  ["phone", "tel", "tel"],
  ["twitter", "text", "off"],
  ["linkedin", "url", "url"],
];

export default {
  async render(view, params, query, context) {
    let { data: me, etag } = await get("/v1/me");
    const editable = new Set(me.editableFields);
    const fields = {};
    for (const [name, type, autocomplete] of textFields) {
      fields[name] = field({
        label: t(`field.${name}`), name, type, autocomplete, value: me[name] ?? "",
        disabled: !editable.has(name), hint: editable.has(name) ? (has(`profile.hint.${name}`) ? t(`profile.hint.${name}`) : undefined) : t("profile.directory"),
      });
    }
    const errors = formErrors(fields);
    const save = button(t("profile.save"), null, { kind: "primary", type: "submit" });
    const form = h("form", {
      class: "form", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        const change = {};
        for (const [name] of textFields) {
          if (!editable.has(name)) continue;
          const value = fields[name].control.value.trim();
          if (value !== (me[name] ?? "")) change[name] = value === "" ? null : value;
        }
        if (!Object.keys(change).length) return errors.message(t("profile.nothing"));
        save.disabled = true;
        try {
          const answer = await api("PATCH", "/v1/me", { body: change, headers: etag ? { "If-Match": etag } : {} });
          me = answer.data;
          etag = answer.etag;
          context.setMe(me);
          for (const [name] of textFields) fields[name].control.value = me[name] ?? "";
          announce(t("profile.saved"));
          errors.alert.className = "form-alert success";
          errors.message(t("profile.saved"));
        } catch (error) {
          errors.alert.className = "form-alert";
          errors.show(error, {});
        } finally {
          save.disabled = false;
        }
      },
    }, errors.alert, h("p", { class: "muted" }, t("profile.account", { username: me.username, email: me.email })), Object.values(fields), save);

    append(view, heading(t("profile.title")), photoSection(me, context), section(t("profile.details"), form));
  },
};

function photoSection(me, context) {
  const current = h("div", { class: "photo-current" }, photo(me, "large"));
  const preview = h("div", { class: "photo-preview", hidden: true });
  const message = h("p", { role: "status", class: "muted" });
  const chooser = field({ label: t("profile.choosePhoto"), name: "photo", type: "file", accept: "image/jpeg,image/png", hint: t("profile.photoHint") });
  let chosen = null;
  let previewUrl = null;
  const upload = button(t("profile.upload"), async () => {
    if (!chosen) return;
    upload.disabled = true;
    try {
      await api("PUT", "/v1/me/photo", { blob: chosen, contentType: chosen.type || "image/jpeg" });
      const { data } = await get("/v1/me");
      context.setMe(data);
      replace(current, photo(data, "large"));
      preview.hidden = true;
      chooser.control.value = "";
      chosen = null;
      message.textContent = t("profile.photoSaved");
      remove.hidden = false;
    } catch (error) {
      chooser.setError(problemMessage(error));
    } finally {
      upload.disabled = !chosen;
    }
  }, { kind: "primary", disabled: true });
  const remove = button(t("profile.removePhoto"), async () => {
    try {
      await api("DELETE", "/v1/me/photo");
      const { data } = await get("/v1/me");
      context.setMe(data);
      replace(current, photo(data, "large"));
      message.textContent = t("profile.photoRemoved");
      remove.hidden = true;
    } catch (error) {
      message.textContent = problemMessage(error);
    }
  }, { hidden: !me.photoUrl });
  chooser.control.addEventListener("change", () => {
    chooser.setError(null);
    chosen = chooser.control.files[0] || null;
    if (previewUrl) URL.revokeObjectURL(previewUrl);
    previewUrl = null;
    if (!chosen) {
      preview.hidden = true;
      upload.disabled = true;
      return;
    }
    if (!/^image\/(jpeg|png)$/.test(chosen.type)) chooser.setError(t("problem.unsupported-media-type"));
    else if (chosen.size > 2 * 1024 * 1024) chooser.setError(t("problem.payload-too-large"));
    previewUrl = URL.createObjectURL(chosen);
    replace(preview, h("p", {}, t("profile.preview")), h("img", { src: previewUrl, alt: t("profile.previewAlt"), class: "avatar-large-img" }));
    preview.hidden = false;
    upload.disabled = false;
  });
  return section(t("profile.photo"), h("div", { class: "photo-row" }, current, preview), chooser, h("div", { class: "actions" }, upload, remove), message);
}
