// This browser's Web Push subscription: subscribe with the server's VAPID key and register it as a device
// (POST /v1/me/devices {platform: "web", subscription}), or remove it. The service worker (sw.js) shows the
// messages. Logging out removes this browser's device first, so a shared computer hears nothing more.
import { api, get } from "./api.js";

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function registration() {
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("no service worker")), 10000));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

/** This browser's subscription, or null. */
export async function currentSubscription() {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * Asks for permission, subscribes and registers the subscription. Rejects with Error("denied") when the
 * user refuses, or with the API's error (404: the server sends no Web Push).
 */
export async function subscribeThisBrowser() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error("denied");
  const { data } = await get("/v1/push/vapid-public-key");
  const reg = await registration();
  let subscription = await reg.pushManager.getSubscription();
  if (!subscription) subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(data.publicKey) });
  const answer = await api("POST", "/v1/me/devices", { body: { platform: "web", subscription: subscription.toJSON() } });
  return answer.data;
}

/** Unregisters this browser's device (when the server knows it) and drops the subscription. */
export async function forgetThisBrowser(devices = null) {
  const subscription = await currentSubscription().catch(() => null);
  if (!subscription) return;
  const list = devices || (await get("/v1/me/settings", { retryNetwork: false })).data.devices;
  const mine = list.find((device) => device.platform === "web" && device.endpoint === subscription.endpoint);
  if (mine) await api("DELETE", `/v1/me/devices/${encodeURIComponent(mine.token)}`, { retryNetwork: false });
  await subscription.unsubscribe();
}
