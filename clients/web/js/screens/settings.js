// Settings: the language (PATCH /v1/me {language}, the whole app switches at once), the notification switches
// (PUT /v1/me/settings), this browser's Web Push subscription, the sessions with "log out elsewhere"
// (GET / DELETE /v1/me/sessions), the calendar feeds with their address to copy (GET / POST / DELETE
// /v1/me/calendar-feeds) and the password (PUT /v1/me/password).
import { h, replace, append } from "../dom.js";
import { t, setLanguage, language } from "../i18n.js";
import { api, get } from "../api.js";
import { formatInstant } from "../format.js";
import { announce } from "../shell.js";
import { problemMessage } from "../problems.js";
import { heading, section, field, formErrors, button, empty } from "../ui.js";
import { pushSupported, currentSubscription, subscribeThisBrowser, forgetThisBrowser } from "../push.js";

export default {
  async render(view, params, query, context) {
    const [{ data: settings }, { data: sessions }, { data: feeds }] = await Promise.all([
      get("/v1/me/settings"), get("/v1/me/sessions"), get("/v1/me/calendar-feeds"),
    ]);
    append(view, 
      heading(t("settings.title")),
      languageSection(context),
      await notificationSection(settings),
      sessionSection(sessions.items),
      feedSection(feeds),
      passwordSection(),
      h("p", {}, h("a", { href: "/profile" }, t("settings.profile"))));
  },
};

function languageSection(context) {
  const choice = field({
    label: t("settings.language"), name: "language",
    options: [{ value: "en", label: "English" }, { value: "es", label: "Español" }].map((o) => ({ ...o, selected: o.value === language() })),
  });
  for (const option of choice.control.options) option.lang = option.value;
  choice.control.setAttribute("lang", language());
  choice.control.addEventListener("change", async () => {
    const lang = choice.control.value;
    choice.setError(null);
    try {
      const { data } = await api("PATCH", "/v1/me", { body: { language: lang } });
      context.setMe(data);
      setLanguage(data.language);
    } catch (error) {
      choice.setError(problemMessage(error));
    }
  });
  return section(t("settings.languageTitle"), choice);
}

async function notificationSection(settings) {
  const box = h("div", {});
  const push = field({ label: t("settings.push"), name: "notifications", type: "checkbox", checked: settings.notifications, hint: t("settings.pushHint") });
  const mail = field({ label: t("settings.email"), name: "emailNotifications", type: "checkbox", checked: settings.emailNotifications });
  for (const [wrapper, key] of [[push, "notifications"], [mail, "emailNotifications"]]) {
    wrapper.control.addEventListener("change", async () => {
      wrapper.setError(null);
      try {
        const { data } = await api("PUT", "/v1/me/settings", { body: { [key]: wrapper.control.checked } });
        settings = data;
        announce(t("settings.savedSwitch"));
        await fillBrowser();
      } catch (error) {
        wrapper.control.checked = !wrapper.control.checked;
        wrapper.setError(problemMessage(error));
      }
    });
  }
  const browser = h("div", { class: "browser-push" });
  const fillBrowser = async () => {
    if (!pushSupported()) return replace(browser, h("p", {}, t("settings.pushUnsupported")));
    const subscription = await currentSubscription().catch(() => null);
    const mine = subscription && settings.devices.find((d) => d.platform === "web" && d.endpoint === subscription.endpoint);
    const message = h("p", { role: "status", class: "muted" });
    const action = mine
      ? button(t("settings.browserOff"), async () => {
        action.disabled = true;
        try {
          await forgetThisBrowser(settings.devices);
          settings = (await get("/v1/me/settings")).data;
          await fillBrowser();
          announce(t("settings.browserIsOff"));
          browser.querySelector("button")?.focus();
        } catch (error) {
          action.disabled = false;
          message.textContent = problemMessage(error);
        }
      })
      : button(t("settings.browserOn"), async () => {
        action.disabled = true;
        try {
          await subscribeThisBrowser();
          settings = (await get("/v1/me/settings")).data;
          push.control.checked = settings.notifications;
          await fillBrowser();
          announce(t("settings.browserIsOn"));
          browser.querySelector("button")?.focus();
        } catch (error) {
          action.disabled = false;
          message.textContent = error.message === "denied" ? t("settings.pushDenied")
            : error.status === 404 ? t("settings.pushUnavailable") : problemMessage(error);
        }
      }, { disabled: !settings.notifications });
    replace(browser,
      h("p", {}, mine ? t("settings.browserRegistered") : t("settings.browserNotRegistered")),
      settings.notifications ? null : h("p", { class: "muted" }, t("settings.pushOffFirst")),
      h("div", { class: "actions" }, action), message,
      h("h3", {}, t("settings.devices")),
      settings.devices.length
        ? h("ul", { class: "plain devices" }, settings.devices.map((d) => h("li", {},
          `${t(`platform.${d.platform}`)} · ${t("settings.deviceSince", { when: formatInstant(d.createdAt) })}`,
          subscription && d.endpoint === subscription.endpoint ? h("span", { class: "tag" }, t("settings.thisBrowser")) : null)))
        : empty(t("settings.noDevices")));
  };
  await fillBrowser();
  replace(box, push, mail, h("h3", {}, t("settings.browser")), browser);
  return section(t("settings.notifications"), box);
}

function sessionLabel(s) {
  if (s.deviceName) return s.deviceName;
  const agent = s.userAgent || "";
  const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox" : /Chrom(e|ium)\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : null;
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS" : /Mac OS X/.test(agent) ? "macOS" : /Windows/.test(agent) ? "Windows" : /Linux/.test(agent) ? "Linux" : null;
  return browser || system ? [browser, system].filter(Boolean).join(" · ") : t("settings.unknownDevice");
}

function sessionSection(items) {
  const list = h("ul", { class: "sessions" });
  const message = h("p", { role: "status", class: "muted" });
  const fill = (sessions) => replace(list, sessions.map((s) => h("li", {},
    h("div", {},
      h("strong", {}, sessionLabel(s)), s.current ? h("span", { class: "tag" }, t("settings.thisSession")) : null,
      h("p", { class: "muted" }, t("settings.sessionUsed", { when: formatInstant(s.lastUsedAt), since: formatInstant(s.createdAt) }))),
    s.current ? null : button(t("settings.endSession"), async () => {
      try {
        await api("DELETE", `/v1/me/sessions/${s.id}`);
        const { data } = await get("/v1/me/sessions");
        fill(data.items);
        message.textContent = t("settings.sessionEnded");
        elsewhere.focus();
      } catch (error) {
        message.textContent = problemMessage(error);
      }
    }, { "aria-label": t("settings.endSessionNamed", { name: sessionLabel(s), when: formatInstant(s.lastUsedAt) }) }))));
  fill(items);
  const elsewhere = button(t("settings.logoutElsewhere"), async () => {
    try {
      await api("DELETE", "/v1/me/sessions");
      const { data } = await get("/v1/me/sessions");
      fill(data.items);
      message.textContent = t("settings.loggedOutElsewhere");
    } catch (error) {
      message.textContent = problemMessage(error);
    }
  });
  return section(t("settings.sessions"), list, h("div", { class: "actions" }, elsewhere), message);
}

function feedSection(feeds) {
  const list = h("ul", { class: "plain feeds" });
  const fresh = h("div", { class: "new-feed" });
  const message = h("p", { role: "status", class: "muted" });
  const reload = async () => fill((await get("/v1/me/calendar-feeds")).data);
  const fill = (items) => replace(list, items.length ? items.map((f) => h("li", {},
    h("span", {}, `${t(`feed.${f.kind}`)} · ${t("settings.feedSince", { when: formatInstant(f.createdAt) })}`),
    button(t("settings.revoke"), async () => {
      try {
        await api("DELETE", `/v1/me/calendar-feeds/${f.id}`);
        await reload();
        message.textContent = t("settings.revoked");
        fresh.replaceChildren();
        create.focus();
      } catch (error) {
        message.textContent = problemMessage(error);
      }
    }, { "aria-label": t("settings.revokeNamed", { kind: t(`feed.${f.kind}`), when: formatInstant(f.createdAt) }) }))) : h("li", {}, empty(t("settings.noFeeds"))));
  fill(feeds);
  const kind = field({ label: t("settings.feedKind"), name: "feedKind", options: [{ value: "personal", label: t("feed.personal") }, { value: "company", label: t("feed.company") }] });
  const create = button(t("settings.newFeed"), async () => {
    create.disabled = true;
    try {
      const { data } = await api("POST", "/v1/me/calendar-feeds", { body: { kind: kind.control.value }, retryNetwork: false });
      const address = data.url || new URL(data.path, location.origin).href;
      const output = field({ label: t("settings.feedAddress"), name: "feedAddress", value: address, readOnly: true, hint: t("settings.feedOnce") });
      const copied = h("p", { role: "status", class: "muted" });
      const copy = button(t("settings.copy"), async () => {
        try {
          await navigator.clipboard.writeText(address);
          copied.textContent = t("settings.copied");
        } catch {
          output.control.select();
          copied.textContent = t("settings.copyByHand");
        }
      }, { kind: "primary" });
      replace(fresh, output, h("div", { class: "actions" }, copy), copied);
      await reload();
      output.control.focus();
      output.control.select();
    } catch (error) {
      message.textContent = problemMessage(error);
    } finally {
      create.disabled = false;
    }
  });
  return section(t("settings.feeds"), h("p", { class: "muted" }, t("settings.feedsLead")), list, kind, h("div", { class: "actions" }, create), fresh, message);
}

function passwordSection() {
  const current = field({ label: t("settings.currentPassword"), name: "currentPassword", type: "password", autocomplete: "current-password" });
  const next = field({ label: t("settings.newPassword"), name: "newPassword", type: "password", autocomplete: "new-password", hint: t("password.rules"), minlength: 10 });
  const again = field({ label: t("settings.repeatPassword"), name: "repeatPassword", type: "password", autocomplete: "new-password" });
  const errors = formErrors({ currentPassword: current, newPassword: next, repeatPassword: again }, "password");
  const submit = button(t("settings.changePassword"), null, { kind: "primary", type: "submit" });
  const form = h("form", {
    class: "form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      errors.clear();
      errors.alert.className = "form-alert";
      if (next.control.value !== again.control.value) {
        again.setError(t("password.mismatch"));
        again.control.focus();
        return;
      }
      submit.disabled = true;
      try {
        await api("PUT", "/v1/me/password", { body: { currentPassword: current.control.value, newPassword: next.control.value }, retryBusy: false });
        for (const w of [current, next, again]) w.control.value = "";
        errors.alert.className = "form-alert success";
        errors.message(t("settings.passwordChanged"));
      } catch (error) {
        errors.show(error);
      } finally {
        submit.disabled = false;
      }
    },
  }, errors.alert, current, next, again, submit);
  return section(t("settings.password"), form);
}
