"""The browser session: the access token in memory only, the refresh token in an HttpOnly cookie. A session
outlives its one-minute access token (the app refreshes through the cookie and carries on), a reload keeps
the user logged in, and "Log out" ends it for good: a reload stays on the login screen."""
import time

from playwright.sync_api import expect

from pages import AppPage, HolidaysPage, HomePage, LoginPage, NoticesPage

STORAGE = """async () => {
  const found = [];
  for (const store of [localStorage, sessionStorage]) for (let i = 0; i < store.length; i += 1) found.push(store.key(i) + "=" + store.getItem(store.key(i)));
  const databases = indexedDB.databases ? (await indexedDB.databases()).map((d) => "indexedDB " + d.name) : [];
  const cached = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) cached.push(name + " " + request.url + " " + await (await cache.match(request)).clone().text());
  }
  return { cookie: document.cookie, found, databases, cached };
}"""


def test_a_session_outlives_its_access_token(new_context, short_token_server):
    context = new_context(base_url=short_token_server)
    page = context.new_page()
    refreshes = []
    tokens = []
    page.on("response", lambda r: r.url.endswith("/v1/auth/refresh") and refreshes.append(r.status))
    page.on("response", lambda r: r.url.endswith("/v1/auth/login") and r.ok and tokens.append(r.json()["token"]))
    home = LoginPage(page).open().log_in("farid")
    holidays = home.go("Holidays", HolidaysPage)

    # The refresh token is a cookie that script cannot read, and nothing secret is stored anywhere.
    cookie = [c for c in context.cookies() if c["name"] == "sg_refresh"]
    assert cookie and cookie[0]["httpOnly"] and cookie[0]["path"] == "/v1/auth" and cookie[0]["sameSite"] == "Strict"
    stored = page.evaluate(STORAGE)
    assert "sg_refresh" not in stored["cookie"]
    everything = " ".join(stored["found"] + stored["databases"] + stored["cached"])
    assert tokens and tokens[0] not in everything, "the access token is kept only in memory"
    assert cookie[0]["value"] not in everything and "sgrt_" not in everything, everything
    assert stored["databases"] == []

    # Past the access token's minute: the next screens load without a login.
    time.sleep(65)
    notices = holidays.go("Notices", NoticesPage)
    expect(notices.heading).to_have_text("Notices")
    home = notices.go("Home", HomePage)
    expect(home.heading).to_have_text("Hello, Farid")
    assert 200 in refreshes, refreshes
    expect(page.get_by_label("Password", exact=True)).to_have_count(0)

    # A reload refreshes on load: still logged in.
    page.reload()
    HomePage(page).wait()

    # Log out: back to the login screen, everything kept is gone, and a reload stays logged out.
    AppPage(page).log_out()
    stored = page.evaluate(STORAGE)
    assert stored["found"] == [] and stored["cached"] == [], stored
    assert not [c for c in context.cookies() if c["name"] == "sg_refresh"]
    page.reload()
    LoginPage(page).wait()
    page.goto("/holidays")
    LoginPage(page).wait()


def test_two_tabs_never_trade_the_same_refresh_token(new_context):
    """Tabs share the cookie: while one tab's refresh is under way (its answer held back here, after the server
    made it), another tab's refresh waits for it instead of sending the token being traded, which the server
    would take for a stolen one and end the session."""
    context = new_context()
    first, second = context.new_page(), context.new_page()
    LoginPage(first).open().log_in("hiro")
    second.goto("/")
    HomePage(second).wait()

    held = []

    def hold(route):
        held.append((route, route.fetch()))

    first.route("**/v1/auth/refresh", hold)
    first.evaluate("location.reload()")
    for _ in range(100):
        if held:
            break
        second.wait_for_timeout(50)
    assert held, "the first tab's refresh was not seen"
    second.evaluate("location.reload()")
    second.wait_for_timeout(1500)
    route, response = held[0]
    route.fulfill(response=response)
    first.unroute("**/v1/auth/refresh")
    HomePage(first).wait()
    HomePage(second).wait()
    for page in (first, second):
        page.reload()
        HomePage(page).wait()
