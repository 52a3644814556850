// The web app's entry point: restores the session through the refresh cookie (a 200 means still logged in),
// picks the language, learns the employee's roles, registers the service worker, and shows the screen the
// address names. Each screen lives in one module under screens/; the approvers' and admins' screens are loaded
// only when opened, so an employee's first screen carries none of them.
import { h, append } from "./dom.js";
import { t, setLanguage, browserLanguage, onLanguageChange } from "./i18n.js";
import { refresh, get, logout, onSessionEnded, onStatus, isLoggedIn, currentEmployee, mayHaveSession } from "./api.js";
import { hasKept, kept } from "./offline.js";
import { route, fallback, match, onNavigate, navigate, refreshScreen } from "./router.js";
import { renderShell, showStatus, main, markSection } from "./shell.js";
import { heading, errorView, button } from "./ui.js";
import { forgetThisBrowser } from "./push.js";
import login from "./screens/login.js";
import home from "./screens/home.js";
import holidays from "./screens/holidays.js";
import newRequest from "./screens/request.js";
import holiday from "./screens/holiday.js";
import notices from "./screens/notices.js";
import notice from "./screens/notice.js";
import people from "./screens/people.js";
import person from "./screens/person.js";
import company from "./screens/company.js";
import profile from "./screens/profile.js";
import settings from "./screens/settings.js";
import { forgotPassword, resetPassword } from "./screens/reset.js";

route("/", home);
route("/holidays", holidays);
route("/holidays/new", newRequest);
route("/holidays/:id", holiday);
route("/notices", notices);
route("/notices/:id", notice);
route("/people", people);
route("/people/:id", person);
route("/company", company);
route("/profile", profile);
route("/settings", settings);
route("/requests", lazy(() => import("./screens/requests.js"), "approver"));
route("/requests/calendar", lazy(() => import("./screens/team-calendar.js"), "approver"));
route("/requests/delegation", lazy(() => import("./screens/delegation.js"), "approver"));
route("/requests/:id", lazy(() => import("./screens/decision.js"), "approver"));
route("/admin", lazy(() => import("./screens/admin.js"), "admin"));
route("/admin/employees", lazy(() => import("./screens/admin-employees.js"), "admin"));
route("/admin/employees/new", lazy(() => import("./screens/admin-employee-new.js"), "admin"));
route("/admin/employees/:id", lazy(() => import("./screens/admin-employee.js"), "admin"));
route("/admin/teams", lazy(() => import("./screens/admin-teams.js"), "admin"));
route("/admin/teams/:id", lazy(() => import("./screens/admin-team.js"), "admin"));
route("/admin/leave-types", lazy(() => import("./screens/admin-leave-types.js"), "admin"));
route("/admin/company", lazy(() => import("./screens/admin-company.js"), "admin"));
route("/admin/public-holidays", lazy(() => import("./screens/admin-public-holidays.js"), "admin"));
route("/admin/notices", lazy(() => import("./screens/admin-notices.js"), "admin"));
route("/admin/webhooks", lazy(() => import("./screens/admin-webhooks.js"), "admin"));
route("/admin/outbox", lazy(() => import("./screens/admin-outbox.js"), "admin"));
route("/admin/outbox/:id", lazy(() => import("./screens/admin-message.js"), "admin"));
route("/admin/exports", lazy(() => import("./screens/admin-exports.js"), "admin"));
route("/forgot-password", forgotPassword);
route("/reset-password", resetPassword);
fallback({
  render(view) {
    append(view, heading(t("notFound.title")), h("p", {}, t("notFound.text")), h("p", {}, h("a", { href: "/" }, t("notFound.home"))));
  },
});

/**
 * A screen loaded when first opened, shown only to a role that may use it (`approver` or `admin`). Hiding it is
 * not the permission: the server refuses the calls of anyone else, and a screen says so when it does.
 */
function lazy(load, role) {
  return {
    async render(view, params, query, context) {
      if (!context.roles[role]) {
        append(view, heading(t("staff.notYoursTitle")), h("p", {}, t(`staff.notYours.${role}`)), h("p", {}, h("a", { href: "/" }, t("notFound.home"))));
        return;
      }
      const screen = (await load()).default;
      await screen.render(view, params, query, context);
    },
  };
}

let me = null;
let roles = {};
let offlineMode = false;
let rendering = 0;

async function doLogout() {
  try {
    await forgetThisBrowser();
  } catch {
    // The subscription goes with the session anyway once the device is unknown.
  }
  await logout();
  me = null;
  roles = {};
  history.replaceState(null, "", "/");
  show({ focus: true });
}

let booted = false;

/** Builds the frame: with the navigation and "Log out" while logged in (or offline with a kept copy). */
function frame(loggedIn = isLoggedIn() || offlineMode) {
  renderShell(loggedIn ? me || currentEmployee() : null, { onLogout: doLogout, loggedIn, roles: offlineMode ? {} : roles });
  document.getElementById("app").dataset.frame = loggedIn ? "in" : "out";
}

/** The app's context, handed to every screen. */
const context = {
  get me() {
    return me;
  },
  /** What the employee's role lets them open: {approver, admin} (an admin decides requests too). */
  get roles() {
    return offlineMode ? {} : roles;
  },
  setMe(profile) {
    me = profile;
    frame(true);
  },
  afterLogin: async () => {
    offlineMode = false;
    await loadProfile();
    show({ focus: true });
  },
};

async function loadProfile() {
  const { data } = await get("/v1/me");
  me = data;
  roles = await rolesOf(data);
  setLanguage(data.language);
  // Back online from a kept copy: the frame gains the sections of the roles just learnt.
  if (document.getElementById("app").dataset.frame === "in") frame(true);
}

/**
 * The employee's roles. The profile says who is an admin; whether someone decides requests (a team's approver,
 * or a substitute while a delegation runs) only the queue itself tells: 403 for anyone who decides nobody's.
 */
async function rolesOf(profile) {
  if (profile.isAdmin) return { admin: true, approver: true };
  try {
    await get("/v1/holidays?status=pending&limit=1", { retryNetwork: false });
    return { admin: false, approver: true };
  } catch (error) {
    // 403: nobody's requests; any other failure leaves the section out until the next load.
    if (error.status === 401) throw error;
    return { admin: false, approver: false };
  }
}

/** Shows the screen of the current address; only the latest of several quick moves is shown. */
async function show({ focus }) {
  const mine = ++rendering;
  const { screen, params } = match(location.pathname);
  let shown = screen;
  if (!screen.public && !isLoggedIn() && !offlineMode) shown = login;
  const loggedIn = shown !== login && (isLoggedIn() || offlineMode);
  if (document.getElementById("app").dataset.frame !== (loggedIn ? "in" : "out")) frame(loggedIn);
  markSection();
  const view = h("div", { class: "view" });
  const slow = setTimeout(() => {
    if (mine === rendering) main.replaceChildren(h("p", { class: "loading", role: "status" }, t("loading")));
  }, 250);
  main.setAttribute("aria-busy", "true");
  try {
    await shown.render(view, params, new URLSearchParams(location.search), context);
  } catch (error) {
    if (error.status === 401) return;
    view.replaceChildren(heading(t("error.title")), errorView(error, () => refreshScreen()));
  } finally {
    clearTimeout(slow);
  }
  if (mine !== rendering) return;
  const active = document.activeElement;
  const hadFocus = active && active !== main && main.contains(active);
  const focusName = !focus && hadFocus ? active.getAttribute("name") || active.id : null;
  main.replaceChildren(view);
  main.removeAttribute("aria-busy");
  const title = view.querySelector("h1");
  document.title = title ? `${title.textContent} · SGEmployee` : "SGEmployee";
  const again = focusName && (view.querySelector(`[name="${CSS.escape(focusName)}"]`) || view.querySelector(`#${CSS.escape(focusName)}`));
  if (again) again.focus();
  else if (focus || hadFocus) title?.focus();
}

onStatus(showStatus);
onSessionEnded(() => {
  me = null;
  roles = {};
  show({ focus: true }).then(() => {
    const note = main.querySelector(".session-ended");
    if (note) note.hidden = false;
  });
});
onLanguageChange(() => {
  if (!booted) return;
  frame(document.getElementById("app").dataset.frame === "in");
  refreshScreen();
});
window.addEventListener("online", () => {
  if (offlineMode) start();
  else if (main.querySelector(".stale")) refreshScreen();
});

async function start() {
  try {
    const ok = mayHaveSession() && (await refresh());
    offlineMode = false;
    if (ok) await loadProfile();
  } catch (error) {
    if (error.status !== 0) throw error;
    offlineMode = await hasKept();
    const copy = offlineMode ? await kept("/v1/home") : null;
    if (copy) {
      me = copy.data.employee;
      setLanguage(me.language);
    }
    if (!offlineMode) {
      frame(false);
      main.replaceChildren(h("div", { class: "view" }, heading(t("offline.title")), h("p", {}, t("offline.noCopy")), button(t("action.retry"), () => start())));
      return;
    }
    showStatus({ kind: "offline", stale: true });
  }
  booted = true;
  await show({ focus: false });
}

/**
 * The service worker's address as Trusted Types want it: the page allows no string to become script, and the
 * one policy the Content-Security-Policy names ("sgemployee") turns exactly "/sw.js" into a script URL.
 */
function serviceWorkerURL() {
  if (!window.trustedTypes) return "/sw.js";
  const policy = window.trustedTypes.createPolicy("sgemployee", {
    createScriptURL(url) {
      if (url !== "/sw.js") throw new TypeError(`not a script of this app: ${url}`);
      return url;
    },
  });
  return policy.createScriptURL("/sw.js");
}

if ("serviceWorker" in navigator) {
  try {
    navigator.serviceWorker.register(serviceWorkerURL(), { scope: "/" }).catch(() => {});
  } catch {
    // A server whose policy names no "sgemployee" policy: the app works, without offline use or Web Push.
  }
}
setLanguage(browserLanguage());
onNavigate(show);
start().catch((error) => {
  frame(false);
  main.replaceChildren(h("div", { class: "view" }, heading(t("error.title")), errorView(error, () => location.reload())));
});

export { navigate };
