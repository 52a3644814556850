// Admin: one team (GET /v1/teams/{id}): its name and whether it decides in two stages (PATCH), its members and
// approvers (PUT / DELETE .../members/{employeeId} and .../approvers/{employeeId}; putting someone in a team
// takes them out of any other), and deleting it, after saying what that does: its members belong to no team and
// their requests go to the admins.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api, get } from "../api.js";
import { navigate, refreshScreen } from "../router.js";
import { setFlash, takeFlash } from "../shell.js";
import { heading, section, field, formErrors, button, fullName, empty } from "../ui.js";
import { adminNav, confirmButton, employeePicker, keepOutcome, once, outcome } from "../staff.js";

export default {
  async render(view, params) {
    const { data: team } = await get(`/v1/teams/${encodeURIComponent(params.id)}`);
    const flash = takeFlash();
    const base = `/v1/teams/${team.id}`;

    const name = field({ label: t("adminTeams.name"), name: "name", value: team.name, required: true, maxlength: 60 });
    const twoStage = field({ label: t("adminTeams.twoStage"), name: "twoStage", type: "checkbox", checked: team.twoStage, hint: t("adminTeams.twoStageHint") });
    const errors = formErrors({ name, twoStage }, "team");
    const saved = outcome("team");
    const form = h("form", {
      class: "form", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        const body = {};
        if (name.control.value.trim() !== team.name) body.name = name.control.value.trim();
        if (twoStage.control.checked !== team.twoStage) body.twoStage = twoStage.control.checked;
        if (!Object.keys(body).length) return saved.ok(t("profile.nothing"));
        try {
          await api("PATCH", base, { body });
          keepOutcome("team", t("adminTeams.saved"));
          refreshScreen();
        } catch (error) {
          if (error.status !== 401) errors.show(error);
        }
      },
    }, errors.alert, name, twoStage, h("div", { class: "actions" }, button(t("adminTeams.save"), null, { kind: "primary", type: "submit", id: "team-save" })), saved.line);

    const people = (kind) => {
      const list = kind === "members" ? team.members : team.approvers;
      const result = outcome(kind);
      const picker = employeePicker({
        label: t(`adminTeams.find.${kind}`), name: `find-${kind}`, actionLabel: t(`adminTeams.add.${kind}`),
        onPick: async (person) => {
          try {
            await api("PUT", `${base}/${kind}/${person.id}`);
            keepOutcome(kind, t(`adminTeams.added.${kind}`, { name: fullName(person) }));
            refreshScreen();
          } catch (error) {
            result.fail(error, "team");
          }
        },
      });
      return section(t(`adminTeams.${kind}Title`),
        list.length
          ? h("ul", { class: "plain picks" }, list.map((person) => h("li", {},
            h("a", { href: `/admin/employees/${person.id}` }, fullName(person)),
            button(t(`adminTeams.remove.${kind}`), once(async () => {
              try {
                await api("DELETE", `${base}/${kind}/${person.id}`);
                keepOutcome(kind, t(`adminTeams.removed.${kind}`, { name: fullName(person) }));
                refreshScreen();
              } catch (error) {
                result.fail(error, "team");
              }
            }), { "aria-label": `${t(`adminTeams.remove.${kind}`)}: ${fullName(person)}` }))))
          : empty(t(`adminTeams.no.${kind}`)),
        result.line,
        kind === "approvers" ? h("p", { class: "muted" }, t("adminTeams.approversHint")) : null,
        picker);
    };

    const remove = confirmButton(t("adminTeams.delete"), {
      question: t("adminTeams.deleteQuestion", { name: team.name, count: team.members.length }),
      yes: t("adminTeams.deleteYes"),
      act: async () => {
        await api("DELETE", base);
        setFlash(t("adminTeams.deleted", { name: team.name }));
        navigate("/admin/teams");
      },
    });

    append(view,
      heading(t("adminTeams.teamTitle", { name: team.name })),
      adminNav(),
      flash,
      h("div", { class: "cards" },
        section(t("adminTeams.settings"), form),
        people("approvers"),
        people("members")),
      section(t("adminTeams.deleteTitle"), remove),
      h("p", {}, h("a", { href: "/admin/teams" }, t("adminTeams.back"))));
  },
};
