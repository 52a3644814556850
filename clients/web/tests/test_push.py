"""Web Push end to end, without a push service: the browser's subscribe() is replaced by one that answers a
subscription to a local endpoint with keys made here; the app registers it with the server (POST
/v1/me/devices), the DevTools protocol delivers a message to the service worker as a push service would, and
the service worker shows it as a notification."""
import base64
import json
import secrets

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import expect

from conftest import BASE_URL
from pages import LoginPage, SettingsPage


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


FAKE_PUSH = """
(() => {
  const subscription = {
    endpoint: %(endpoint)s, expirationTime: null, options: { userVisibleOnly: true },
    getKey() { return null; },
    toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh: %(p256dh)s, auth: %(auth)s } }; },
    unsubscribe() { subscribed = false; return Promise.resolve(true); },
  };
  let subscribed = false;
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__sgApplicationServerKey = btoa(String.fromCharCode(...key)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    subscribed = true;
    return Promise.resolve(subscription);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(subscribed ? subscription : null); };
})();
"""

NOTIFICATIONS = """() => navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((list) => list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })))"""


def test_a_push_message_is_shown_by_the_service_worker(new_context, api):
    status, key = api.call("GET", "/v1/push/vapid-public-key", api.login("grace"))
    assert status == 200, "web-check starts the server with a VAPID key: Web Push must be on"

    browser_key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    endpoint = f"https://127.0.0.1:9/push/web-check-{secrets.token_hex(8)}"
    context = new_context(permissions=["notifications"], service_workers="allow")
    context.add_init_script(FAKE_PUSH % {"endpoint": json.dumps(endpoint), "p256dh": json.dumps(b64url(browser_key)),
                                         "auth": json.dumps(b64url(secrets.token_bytes(16)))})
    page = context.new_page()
    LoginPage(page).open().log_in("grace")
    settings = SettingsPage(page).open()
    settings.browser_push_on.click()
    expect(page.get_by_text("This browser shows your notifications.")).to_be_visible()
    expect(settings.devices).to_contain_text("Web browser")
    expect(settings.devices).to_contain_text("This browser")
    assert page.evaluate("window.__sgApplicationServerKey") == key["publicKey"]
    token = api.login("grace")
    devices = api.get("/v1/me/settings", token)["devices"]
    assert [d for d in devices if d["platform"] == "web" and d["endpoint"] == endpoint], devices

    # What a push service would hand the browser: the server's payload for a decided request.
    cdp = context.new_cdp_session(page)
    registrations, versions = [], []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.on("ServiceWorker.workerVersionUpdated", lambda event: versions.extend(event["versions"]))
    cdp.send("ServiceWorker.enable")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    # A push reaches only an activated worker: wait for the registration's version to be one, not just for the
    # registration (`ready` can resolve while the worker is still activating).
    for _ in range(100):
        mine = [r for r in registrations if r["scopeURL"] == BASE_URL + "/" and not r["isDeleted"]]
        activated = mine and [v for v in versions if v["registrationId"] == mine[0]["registrationId"] and v["status"] == "activated"]
        if activated:
            break
        page.wait_for_timeout(100)
    assert mine and activated, (registrations, versions)
    payload = {"title": "Holiday approved", "body": "Your holiday 12 Jan to 13 Jan is approved.", "requestId": 42, "event": "holiday.approved"}
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": BASE_URL, "registrationId": mine[0]["registrationId"], "data": json.dumps(payload)})
    shown = []
    for _ in range(100):
        shown = page.evaluate(NOTIFICATIONS)
        if shown:
            break
        page.wait_for_timeout(100)
    assert shown == [{"title": "Holiday approved", "body": payload["body"], "tag": "request-42",
                      "data": {"requestId": 42, "event": "holiday.approved"}}], shown

    # Turned off again: the device is gone from the server.
    settings.browser_push_off.click()
    expect(page.get_by_text("This browser does not show your notifications.")).to_be_visible()
    devices = api.get("/v1/me/settings", token)["devices"]
    assert not [d for d in devices if d.get("endpoint") == endpoint], devices
