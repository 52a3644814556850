// The frame around every screen: the header (the app's name, the employee, "Log out"), the navigation
// landmark with the six main screens (and "Requests" for those who decide requests, "Admin" for admins), the
// connection banner, the main landmark, and a live region that announces what just happened ("Request sent").
// Rebuilt whole when the language changes.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

const app = document.getElementById("app");
export const main = h("main", { id: "main", tabindex: "-1" });
const banner = h("div", { class: "banner", role: "status", "aria-live": "polite", hidden: true });
const announcer = h("div", { class: "visually-hidden", role: "status", "aria-live": "polite" });

export const sections = [
  ["home", "/"],
  ["holidays", "/holidays"],
  ["notices", "/notices"],
  ["people", "/people"],
  ["company", "/company"],
  ["settings", "/settings"],
];

/** The sections shown by role: the server still decides every call made from them. */
export const staffSections = [
  ["requests", "/requests", "approver"],
  ["admin", "/admin", "admin"],
];

/**
 * Builds the frame: with the navigation and "Log out" when `loggedIn` (also offline, from a kept copy); `who`
 * is the employee, when known, for the link to their profile; `roles` ({approver, admin}) adds their sections.
 */
export function renderShell(who, { onLogout, loggedIn = Boolean(who), roles = {} } = {}) {
  const shown = [...sections, ...staffSections.filter(([, , role]) => roles[role])];
  const header = h("header", { class: "top" },
    h("a", { class: "skip", href: "#main", onclick: (event) => { event.preventDefault(); main.querySelector("h1")?.focus(); } }, t("shell.skip")),
    h("div", { class: "top-row" },
      h("a", { class: "brand", href: "/" }, h("img", { src: "{{assets}}/icons/icon.svg", alt: "", width: 28, height: 28 }), "SGEmployee"),
      loggedIn ? h("div", { class: "who" },
        who ? h("a", { class: "profile-link", href: "/profile" }, `${who.name} ${who.surname}`) : null,
        h("button", { type: "button", class: "button secondary logout", onclick: onLogout }, t("shell.logout"))) : null));
  const nav = loggedIn ? h("nav", { class: "sections", "aria-label": t("shell.nav") },
    h("ul", {}, shown.map(([key, href]) => h("li", {}, h("a", { href, dataset: { section: key } }, t(`nav.${key}`)))))) : null;
  // The main landmark stays in place (and what has the focus in it keeps it): only the frame is replaced.
  if (main.parentNode !== app) replace(app, header, nav, banner, main, announcer);
  else {
    for (const old of app.querySelectorAll(":scope > header, :scope > nav")) old.remove();
    app.insertBefore(header, banner);
    if (nav) app.insertBefore(nav, banner);
  }
  markSection();
}

/** Marks the navigation link of the screen shown (aria-current). */
export function markSection() {
  const path = location.pathname;
  for (const link of app.querySelectorAll("nav.sections a")) {
    const href = link.getAttribute("href");
    const current = href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`);
    if (current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

/** The connection banner: {kind: "ok" | "offline" | "busy", stale?, seconds?, gaveUp?}. */
export function showStatus({ kind, stale, seconds, gaveUp }) {
  if (kind === "ok") {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  const text = kind === "busy" ? t("banner.busy", { seconds }) : stale ? t("banner.offlineStale") : gaveUp ? t("banner.offlineGaveUp") : t("banner.offline");
  banner.textContent = text;
  banner.className = `banner banner-${kind}`;
  banner.hidden = false;
}

/** Says `text` to screen readers (and shows nothing). */
export function announce(text) {
  announcer.textContent = "";
  setTimeout(() => { announcer.textContent = text; }, 50);
}

let flash = null;
/** A message for the next screen to show (e.g. "Request sent" on the year view after the form). */
export function setFlash(text) {
  flash = text;
}
/** The message set for this screen, once, as its status line; null when there is none. */
export function takeFlash() {
  const text = flash;
  flash = null;
  return text ? h("p", { class: "notice-box success", role: "status" }, text) : null;
}
