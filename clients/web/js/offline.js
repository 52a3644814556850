// The last main screen and year view the employee saw, kept in Cache Storage so that they stay readable
// offline (shown as not current, with the time they were read). Nothing else of the API is stored. Logging
// out (or a session that ended) removes every cache and anything else stored by the app.
const dataCache = "sg-data";

export async function keep(path, data) {
  if (!("caches" in self)) return;
  try {
    const cache = await caches.open(dataCache);
    const headers = { "Content-Type": "application/json", "X-Saved-At": new Date().toISOString() };
    await cache.put(path, new Response(JSON.stringify(data), { headers }));
  } catch {
    // A full or unavailable store only costs the offline copy.
  }
}

/** The kept answer of `path`, as {data, savedAt}, or null. */
export async function kept(path) {
  if (!("caches" in self)) return null;
  try {
    if (!(await caches.has(dataCache))) return null;
    const response = await caches.match(path, { cacheName: dataCache });
    if (!response) return null;
    return { data: await response.json(), savedAt: response.headers.get("X-Saved-At") };
  } catch {
    return null;
  }
}

/** Whether any answer is kept (then the app can open offline before it knows the session). */
export async function hasKept() {
  if (!("caches" in self)) return false;
  try {
    if (!(await caches.has(dataCache))) return false;
    return (await (await caches.open(dataCache)).keys()).length > 0;
  } catch {
    return false;
  }
}

/** Removes every cache of this origin (the service worker's copies of the app too) and all storage. */
export async function forgetEverything() {
  try {
    if ("caches" in self) for (const name of await caches.keys()) await caches.delete(name);
  } catch {
    // Nothing more can be done about a store that will not open.
  }
  try {
    localStorage.clear();
    sessionStorage.clear();
  } catch {
    // Storage may be disabled.
  }
  navigator.serviceWorker?.controller?.postMessage({ type: "forget" });
}
