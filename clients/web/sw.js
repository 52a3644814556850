// The service worker. It keeps the app's own files, so that the app opens offline (its last main screen and
// year view are kept by the app itself, in the "sg-data" cache), shows the Web Push messages the server sends
// ({title, body, requestId, event}) and, when one is clicked, opens the screen it is about.
const assets = "{{assets}}";
const shell = "sg-shell";
// With --web-root the files change without a new address: ask the network first for them.
const development = assets.endsWith("/dev");

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(caches.open(shell).then((cache) => cache.add("/")).catch(() => {}));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(shell);
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname;
      if (path.startsWith("/assets/") && !path.startsWith(`${assets}/`)) await cache.delete(request);
    }
    await self.clients.claim();
  })());
});

async function networkFirst(request, key = request) {
  const cache = await caches.open(shell);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const copy = await cache.match(key);
    if (copy) return copy;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(shell);
  const copy = await cache.match(request);
  if (copy) return copy;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (/^\/(v1|ical)\//.test(url.pathname)) return;
  if (request.mode === "navigate") {
    // Every screen is the same page: one copy serves them all offline.
    event.respondWith(networkFirst(request, "/"));
  } else if (url.pathname.startsWith(`${assets}/`)) {
    event.respondWith(development ? networkFirst(request) : cacheFirst(request));
  } else if (url.pathname === "/manifest.webmanifest") {
    event.respondWith(networkFirst(request));
  }
});

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  const title = message.title || "SGEmployee";
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body || "",
    icon: `${assets}/icons/icon-192.png`,
    tag: message.requestId ? `request-${message.requestId}` : undefined,
    data: { requestId: message.requestId ?? null, event: message.event ?? null },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const id = event.notification.data?.requestId;
  const target = id ? `/holidays/${encodeURIComponent(id)}` : "/";
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (new URL(client.url).origin === self.location.origin && "navigate" in client) {
        await client.focus();
        return client.navigate(target);
      }
    }
    return self.clients.openWindow(target);
  })());
});
