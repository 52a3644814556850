// The service worker. It keeps the app's own files, so that the app opens offline (its last main screen and
// year view are kept by the app itself, in the "sg-data" cache), shows the Web Push messages the server sends
// ({title, body, requestId, event}) and, when one is clicked, opens the screen it is about.
const assets = "{{assets}}";
const shell = "sg-shell";
// With --web-root the files change without a new address: ask the network first for them.
const development = assets.endsWith("/dev");
// After a logout nothing is kept (the page asks, "forget") until the next page is opened.
let keeping = true;

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

// caches.open() makes the cache: it is opened only to keep something, and read through caches.match().
async function keep(key, response) {
  if (response.ok && keeping) await (await caches.open(shell)).put(key, response.clone());
}

async function networkFirst(request, key = request) {
  try {
    const response = await fetch(request);
    await keep(key, response);
    return response;
  } catch (error) {
    const copy = await caches.match(key, { cacheName: shell });
    if (copy) return copy;
    throw error;
  }
}

async function cacheFirst(request) {
  const copy = await caches.match(request, { cacheName: shell });
  if (copy) return copy;
  const response = await fetch(request);
  await keep(request, response);
  return response;
}

self.addEventListener("message", (event) => {
  if (event.data?.type !== "forget") return;
  keeping = false;
  event.waitUntil(caches.keys().then((names) => Promise.all(names.map((name) => caches.delete(name)))));
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (/^\/(v1|ical)\//.test(url.pathname)) return;
  if (request.mode === "navigate") {
    keeping = true;
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
