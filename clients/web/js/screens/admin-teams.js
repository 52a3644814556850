// Admin: the teams (GET /v1/teams?limit=) by name, a page at a time ("Show more" reads the next, after the last
// name), with how many members each has, who approves, and whether an admin decides after the approver (two
// stages); a new team (POST /v1/teams), which then gets its members and approvers on its own screen.
import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { navigate } from "../router.js";
import { setFlash, takeFlash } from "../shell.js";
import { heading, section, field, formErrors, button, fullName } from "../ui.js";
import { adminNav, pagedList, teamsPage } from "../staff.js";
import { formatList } from "../format.js";

export default {
  async render(view) {
    const list = await pagedList({
      load: (after) => teamsPage(after),
      item: (team) => h("li", {},
        h("a", { href: `/admin/teams/${team.id}` }, team.name),
        h("p", { class: "muted" }, [
          t("adminTeams.members", { count: team.members.length }),
          team.approvers.length ? t("adminTeams.approvedBy", { who: formatList(team.approvers.map(fullName)) }) : t("adminTeams.noApprover"),
          team.twoStage ? t("adminTeams.twoStageShort") : t("adminTeams.oneStageShort"),
        ].join(" · "))),
      empty: t("adminTeams.none"),
      className: "plain teams",
    });
    const flash = takeFlash();
    const name = field({ label: t("adminTeams.name"), name: "name", required: true, maxlength: 60 });
    const twoStage = field({ label: t("adminTeams.twoStage"), name: "twoStage", type: "checkbox", hint: t("adminTeams.twoStageHint") });
    const errors = formErrors({ name, twoStage }, "team");
    const form = h("form", {
      class: "form narrow", novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        errors.clear();
        if (!name.control.value.trim()) {
          name.setError(t("adminTeams.nameRequired"));
          name.control.focus();
          return;
        }
        try {
          const { data } = await api("POST", "/v1/teams", { body: { name: name.control.value.trim(), twoStage: twoStage.control.checked } });
          setFlash(t("adminTeams.created", { name: data.name }));
          navigate(`/admin/teams/${data.id}`);
        } catch (error) {
          if (error.status !== 401) errors.show(error);
        }
      },
    }, errors.alert, name, twoStage, h("div", { class: "actions" }, button(t("adminTeams.create"), null, { kind: "primary", type: "submit" })));

    append(view,
      heading(t("adminTeams.title")),
      adminNav(),
      flash,
      section(t("adminTeams.list"), list),
      section(t("adminTeams.new"), form));
  },
};
