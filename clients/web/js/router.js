// The app's addresses, with the History API: each path names a screen ("/holidays/42" the request 42), so a
// link from an e-mail opens the right one and Back works. Links inside the app are followed without reloading;
// after each move the new screen's heading takes the focus, so a screen reader and the keyboard start there.
const routes = [];
let notFound = null;
let renderCurrent = null;

/** route("/holidays/:id", screen): screen.render(view, params, query) fills `view`. */
export function route(pattern, screen) {
  const names = [];
  const source = pattern.replace(/:(\w+)/g, (_, name) => {
    names.push(name);
    return "([^/]+)";
  });
  routes.push({ regex: new RegExp(`^${source}/?$`), names, screen });
}

export function fallback(screen) {
  notFound = screen;
}

/** Which screen and parameters a path names. */
export function match(path) {
  for (const { regex, names, screen } of routes) {
    const found = regex.exec(path);
    if (found) return { screen, params: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1])])) };
  }
  return { screen: notFound, params: {} };
}

/** The function that shows the current location (set by main.js). */
export function onNavigate(render) {
  renderCurrent = render;
  window.addEventListener("popstate", () => render({ focus: true }));
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest?.("a[href]");
    if (!link || link.target || link.hasAttribute("download") || link.getAttribute("href").startsWith("#")) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || /^\/(v1|ical|assets)\//.test(url.pathname)) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
}

/** Goes to `path`; `replace` keeps the history as it is (a redirect). */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else if (path !== location.pathname + location.search) history.pushState(null, "", path);
  renderCurrent?.({ focus: true });
}

/** Shows the current screen again (after a change of language, a change made, or when the network is back). */
export function refreshScreen({ focus = false } = {}) {
  renderCurrent?.({ focus });
}

export function currentQuery() {
  return new URLSearchParams(location.search);
}
