// The team directory (GET /v1/employees?q=): search by name, surname, e-mail, position or username, with case
// and accents ignored ("nunez" finds Núñez), a page at a time (`nextAfter`). The search is kept in the address.
import { h, replace, append } from "../dom.js";
import { t } from "../i18n.js";
import { get } from "../api.js";
import { announce } from "../shell.js";
import { problemMessage } from "../problems.js";
import { heading, field, button, fullName, photo, empty } from "../ui.js";

function personItem(person) {
  return h("li", {},
    photo(person),
    h("div", {},
      h("a", { href: `/people/${person.id}` }, fullName(person)),
      h("p", { class: "muted" }, [person.position, person.isActive ? null : t("people.inactive")].filter(Boolean).join(" · ") || person.email)));
}

export default {
  async render(view, params, query) {
    const search = field({ label: t("people.search"), name: "q", type: "search", value: query.get("q") || "", maxlength: 100, autocomplete: "off" });
    const results = h("div", { class: "results" });
    const count = h("p", { class: "muted", role: "status" });
    let asked = 0;

    const load = async (q, after = null, list = null) => {
      const mine = ++asked;
      const path = `/v1/employees?limit=20${q ? `&q=${encodeURIComponent(q)}` : ""}${after ? `&after=${after}` : ""}`;
      const { data } = await get(path);
      if (mine !== asked) return;
      const items = data.items.map(personItem);
      if (!list) {
        count.textContent = t("people.count", { count: data.total });
        list = h("ul", { class: "people-list" });
        replace(results, data.items.length ? list : empty(t("people.none")));
      }
      list.append(...items);
      if (after) items[0]?.querySelector("a")?.focus();
      results.querySelector(".more")?.remove();
      if (data.nextAfter) {
        results.append(h("div", { class: "actions more" }, button(t("action.more"), (event) => {
          event.target.disabled = true;
          load(q, data.nextAfter, list).catch((error) => announce(problemMessage(error)));
        })));
      }
    };

    let timer = null;
    const run = () => {
      const q = search.control.value.trim();
      history.replaceState(null, "", q ? `/people?q=${encodeURIComponent(q)}` : "/people");
      load(q).catch((error) => replace(results, h("p", { role: "alert" }, problemMessage(error))));
    };
    search.control.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(run, 300);
    });
    const form = h("form", {
      class: "form search", role: "search",
      onsubmit: (event) => {
        event.preventDefault();
        clearTimeout(timer);
        run();
      },
    }, search, button(t("people.searchButton"), null, { kind: "primary", type: "submit" }));
    await load((query.get("q") || "").trim());
    append(view, heading(t("people.title")), form, count, results);
  },
};
