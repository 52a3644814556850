// The client of the SGEmployee API (api-spec/openapi.yaml), and the browser's session. The access token lives
// in this module's memory only; the refresh token is the HttpOnly `sg_refresh` cookie, which script never sees.
// One refresh at a time is shared by every caller (a refresh token works once). A 401 refreshes once and
// retries once; a network failure is announced and retried; 429 and 503 wait as Retry-After says.
import { keep, kept, forgetEverything } from "./offline.js";

let token = null;
let tokenExpiry = 0;
let refreshing = null;
let sessionEmployee = null;

const statusListeners = new Set();
const endListeners = new Set();

/** Problems the server answered (application/problem+json), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(status, problem = {}) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
  get type() {
    return this.problem.type ? this.problem.type.replace("urn:sgemployee:problem:", "") : this.status === 0 ? "network" : "unknown";
  }
}

/** Listens to the connection's state: {kind: "ok" | "offline" | "busy", seconds?}. */
export function onStatus(listener) {
  statusListeners.add(listener);
}
function status(kind, extra = {}) {
  for (const listener of statusListeners) listener({ kind, ...extra });
}

/** Called when the session has ended (refresh refused): the app shows the login screen. */
export function onSessionEnded(listener) {
  endListeners.add(listener);
}

export function isLoggedIn() {
  return token !== null;
}

/** The employee of the session (from the login or the last refresh). */
export function currentEmployee() {
  return sessionEmployee;
}

/** A key for a change that may be sent again (Idempotency-Key). */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms`, or less when the browser says it is back online. */
function waitForNetwork(ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener("online", done);
  });
}

/** fetch, retried while the network fails (bounded), announced through the status listeners. */
async function send(path, init, { retryNetwork = true, fallback = null } = {}) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const response = await fetch(path, { credentials: "same-origin", ...init });
      if (attempt > 0) status("ok");
      return response;
    } catch (error) {
      if (init.signal?.aborted) throw error;
      if (fallback) {
        const copy = await fallback();
        if (copy) {
          status("offline", { stale: true });
          return copy;
        }
      }
      if (!retryNetwork || attempt >= 8) {
        status("offline", { gaveUp: true });
        throw new ApiError(0, {});
      }
      status("offline");
      await waitForNetwork(Math.min(30000, 1000 * 2 ** attempt));
    }
  }
}

async function problemOf(response) {
  try {
    const body = await response.json();
    return typeof body === "object" && body ? body : {};
  } catch {
    return {};
  }
}

// Whether this browser logged in and has not logged out since: not a secret (the session is the HttpOnly
// cookie), only spares the page a refresh that is bound to fail (and its error) when nobody is logged in.
const hintKey = "sg-session";
export function mayHaveSession() {
  try {
    return localStorage.getItem(hintKey) === "1";
  } catch {
    return true;
  }
}
function hint(on) {
  try {
    if (on) localStorage.setItem(hintKey, "1");
    else localStorage.removeItem(hintKey);
  } catch {
    // Without storage the page simply always asks.
  }
}

function adopt(answer, response) {
  hint(true);
  token = answer.token;
  sessionEmployee = answer.employee;
  const serverNow = Date.parse(response.headers.get("Date") || "") || Date.now();
  const lifetime = Date.parse(answer.expiresAt) - serverNow;
  tokenExpiry = Date.now() + Math.max(0, lifetime) - 10000;
}

/** Starts a browser session: the access token comes back, the refresh token goes into the cookie. */
export async function login(username, password) {
  const response = await send("/v1/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password, refreshCookie: true }),
  }, { retryNetwork: false });
  if (!response.ok) throw new ApiError(response.status, await problemOf(response));
  adopt(await response.json(), response);
  return sessionEmployee;
}

/**
 * Gets a new access token with the cookie. true: logged in; false: no session (the login screen). Throws an
 * ApiError with status 0 when the server cannot be reached. Every caller shares the one refresh in flight.
 */
export function refresh() {
  if (!refreshing) {
    refreshing = (async () => {
      // Other tabs of the app share the cookie: one refresh at a time across them too (the Web Locks API), so
      // that a tab never sends the refresh token another tab is trading at the same moment.
      const trade = () => send("/v1/auth/refresh", { method: "POST" }, { retryNetwork: false });
      const response = navigator.locks ? await navigator.locks.request("sg-refresh", trade) : await trade();
      if (response.ok) {
        adopt(await response.json(), response);
        return true;
      }
      if (response.status === 503 || response.status === 429) throw new ApiError(response.status, await problemOf(response));
      token = null;
      hint(false);
      return false;
    })().finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

async function endSession() {
  token = null;
  sessionEmployee = null;
  await forgetEverything();
  for (const listener of endListeners) listener();
}

/** Ends this session on the server (the cookie is cleared there) and forgets everything kept here. */
export async function logout() {
  try {
    if (token) await fetch("/v1/auth/logout", { method: "POST", headers: { Authorization: `Bearer ${token}` }, credentials: "same-origin" });
  } finally {
    token = null;
    sessionEmployee = null;
    await forgetEverything();
  }
}

/**
 * One call of the API. Options: body (JSON), blob + contentType (raw bytes), headers, offline (keep the answer
 * and fall back to the kept one when the network fails), as ("json" | "blob" | "none"), retryNetwork,
 * retryBusy (wait and retry 429 and 503; off for logins and passwords, whose 429 is the user's to hear).
 * Resolves to {data, etag, status, stale, savedAt}; a problem rejects with an ApiError.
 */
export async function api(method, path, options = {}) {
  const { body, blob, contentType, headers = {}, offline = false, as = "json", retryBusy = true } = options;
  const retryNetwork = options.retryNetwork ?? true;
  if (!token || Date.now() > tokenExpiry) {
    const ok = await refresh().catch((error) => {
      if (error.status === 0 && offline) return null;
      throw error;
    });
    if (ok === false) {
      await endSession();
      throw new ApiError(401, {});
    }
  }
  let refreshed = false;
  for (let busy = 0; ; ) {
    const init = { method, headers: { ...headers, Authorization: `Bearer ${token}` } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    } else if (blob) {
      init.headers["Content-Type"] = contentType;
      init.body = blob;
    }
    const fallback = offline ? async () => {
      const copy = await kept(path);
      return copy && { copy };
    } : null;
    const response = await send(path, init, { retryNetwork, fallback });
    if (response.copy) return { data: response.copy.data, stale: true, savedAt: response.copy.savedAt, status: 200, etag: null };
    if (response.status === 401 && !refreshed) {
      refreshed = true;
      if (await refresh()) continue;
      await endSession();
      throw new ApiError(401, await problemOf(response));
    }
    if ((response.status === 429 || response.status === 503) && retryBusy && busy < 3) {
      busy += 1;
      const seconds = Math.min(60, Math.max(1, Number(response.headers.get("Retry-After")) || 5));
      status("busy", { seconds });
      await sleep(seconds * 1000);
      status("ok");
      continue;
    }
    if (!response.ok && response.status !== 304) throw new ApiError(response.status, await problemOf(response));
    let data = null;
    if (response.status !== 204 && response.status !== 304) data = as === "blob" ? await response.blob() : as === "json" ? await response.json() : null;
    if (offline && data !== null) await keep(path, data);
    return { data, etag: response.headers.get("ETag"), status: response.status, stale: false, savedAt: null };
  }
}

/** Calls that need no session: the password-reset link and its request. */
export async function anonymous(method, path, body) {
  const response = await send(path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }, { retryNetwork: false });
  if (!response.ok) throw new ApiError(response.status, await problemOf(response));
  return response.status === 204 ? null : response.json();
}

export const get = (path, options) => api("GET", path, options);
