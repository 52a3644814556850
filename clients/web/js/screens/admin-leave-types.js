// Admin: the leave types (GET /v1/leave-types): whether each draws on the allowance, needs approval, is private
// (colleagues see only "away"), its yearly cap, and how many requests use it (the server's count, GET
// /v1/holidays?leaveType=&limit=1), which says beforehand what retiring or deleting it will do: a type in use
// keeps its requests and can only be retired. New types (POST), changes (PATCH), retiring and deleting.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { formatDays } from "../format.js";
import { refreshScreen } from "../router.js";
import { heading, section, field, formErrors, button, leaveTypeName } from "../ui.js";
import { adminNav, confirmButton, keepOutcome, once, outcome } from "../staff.js";

/** The holiday type: it always draws on the allowance and can be neither retired nor deleted. */
const HOLIDAY = 1;

function typeFields(type, prefix) {
  return {
    name: field({ label: t("adminTypes.name"), name: `${prefix}-name`, value: type?.name || "", required: true, maxlength: 60 }),
    drawsOnAllowance: field({ label: t("adminTypes.draws"), name: `${prefix}-draws`, type: "checkbox", checked: type ? type.drawsOnAllowance : false }),
    needsApproval: field({ label: t("adminTypes.approval"), name: `${prefix}-approval`, type: "checkbox", checked: type ? type.needsApproval : true }),
    private: field({ label: t("adminTypes.private"), name: `${prefix}-private`, type: "checkbox", checked: type ? type.private : false, hint: t("adminTypes.privateHint") }),
    yearlyCap: field({ label: t("adminTypes.cap"), name: `${prefix}-cap`, type: "number", min: 0.5, max: 366, step: 0.5, value: type?.yearlyCap ?? "", hint: t("adminTypes.capHint") }),
  };
}

function bodyOf(fields) {
  const cap = fields.yearlyCap.control.value;
  return {
    name: fields.name.control.value.trim(),
    drawsOnAllowance: fields.drawsOnAllowance.control.checked,
    needsApproval: fields.needsApproval.control.checked,
    private: fields.private.control.checked,
    yearlyCap: cap === "" ? null : Number(cap),
  };
}

function typeCard(type, used) {
  const result = outcome(`type-${type.id}`);
  const fields = typeFields(type, `type-${type.id}`);
  // Whether a type draws on the allowance is fixed once a request uses it (and always for the holiday type).
  if (type.id === HOLIDAY || used) fields.drawsOnAllowance.control.disabled = true;
  const errors = formErrors(fields, "leaveType");
  const form = h("form", {
    class: "form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      errors.clear();
      const next = bodyOf(fields);
      const body = {};
      for (const [key, value] of Object.entries(next)) if (value !== type[key]) body[key] = value;
      if (!Object.keys(body).length) return result.ok(t("profile.nothing"));
      try {
        await api("PATCH", `/v1/leave-types/${type.id}`, { body });
        keepOutcome(`type-${type.id}`, t("adminTypes.saved", { name: next.name }));
        refreshScreen();
      } catch (error) {
        if (error.status !== 401) errors.show(error);
      }
    },
  }, errors.alert, Object.values(fields),
  used ? h("p", { class: "muted" }, t("adminTypes.drawsFixed")) : null,
  h("div", { class: "actions" }, button(t("adminTypes.save"), null, { kind: "primary", type: "submit", id: `type-${type.id}-save` })));

  const retire = type.id === HOLIDAY ? null : button(type.retired ? t("adminTypes.unretire") : t("adminTypes.retire"), once(async () => {
    try {
      await api("PATCH", `/v1/leave-types/${type.id}`, { body: { retired: !type.retired } });
      keepOutcome(`type-${type.id}`, type.retired ? t("adminTypes.unretired", { name: leaveTypeName(type.name) }) : t("adminTypes.retired", { name: leaveTypeName(type.name) }));
      refreshScreen();
    } catch (error) {
      result.fail(error, "leaveType");
    }
  }), { id: `type-${type.id}-retire` });
  const remove = type.id === HOLIDAY || used ? null : confirmButton(t("adminTypes.delete"), {
    question: t("adminTypes.deleteQuestion", { name: leaveTypeName(type.name) }),
    yes: t("adminTypes.deleteYes"),
    act: async () => {
      await api("DELETE", `/v1/leave-types/${type.id}`);
      keepOutcome("types", t("adminTypes.deleted", { name: leaveTypeName(type.name) }));
      refreshScreen();
    },
  });
  const facts = [
    type.drawsOnAllowance ? t("adminTypes.drawsYes") : t("adminTypes.drawsNo"),
    type.needsApproval ? t("adminTypes.approvalYes") : t("adminTypes.approvalNo"),
    type.private ? t("adminTypes.privateYes") : null,
    type.yearlyCap !== null ? t("adminTypes.capOf", { days: formatDays(type.yearlyCap) }) : null,
    type.retired ? t("adminTypes.isRetired") : null,
  ].filter(Boolean).join(" · ");
  const usage = type.id === HOLIDAY
    ? t("adminTypes.holidayFixed", { count: used })
    : used ? t("adminTypes.inUse", { count: used }) : t("adminTypes.unused");
  return section(leaveTypeName(type.name),
    h("p", {}, facts),
    h("p", { class: "muted" }, usage),
    result.line,
    h("div", { class: "actions" }, retire, remove),
    h("details", {}, h("summary", {}, t("adminTypes.change", { name: leaveTypeName(type.name) })), form));
}

export default {
  async render(view) {
    const { data: types } = await get("/v1/leave-types");
    const counts = await Promise.all(types.map((type) => get(`/v1/holidays?leaveType=${type.id}&limit=1`).then((r) => r.data.total)));
    const fields = typeFields(null, "new-type");
    const errors = formErrors(fields, "leaveType");
    const listed = outcome("types");
    const form = h("form", {
      class: "form narrow", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        const body = bodyOf(fields);
        if (!body.name) {
          fields.name.setError(t("adminTypes.nameRequired"));
          fields.name.control.focus();
          return;
        }
        if (body.yearlyCap === null) delete body.yearlyCap;
        try {
          const { data } = await api("POST", "/v1/leave-types", { body });
          keepOutcome("types", t("adminTypes.created", { name: data.name }));
          refreshScreen();
        } catch (error) {
          if (error.status !== 401) errors.show(error);
        }
      },
    }, errors.alert, Object.values(fields), h("div", { class: "actions" }, button(t("adminTypes.create"), null, { kind: "primary", type: "submit", id: "type-create" })));
    append(view,
      heading(t("adminTypes.title")),
      adminNav(),
      h("p", { class: "lead" }, t("adminTypes.lead")),
      listed.line,
      h("div", { class: "cards" }, types.map((type, i) => typeCard(type, counts[i]))),
      section(t("adminTypes.new"), form));
  },
};
