// The service worker: offline copies and Web Push.
self.addEventListener("install", () => self.skipWaiting());
