"""Fixtures of the web app's browser tests: Debian's chromium through Playwright, against a running sgserver.

scripts/web-check.sh starts the server and passes its address in SG_WEB_BASE_URL; a test that needs a server
of its own (a short access token) starts one from SGSERVER (and SG_WEB_ROOT when set). A failed test leaves its
trace and a screenshot under SG_WEB_ARTIFACTS (default .build/web-check).
"""
import ctypes
import datetime
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import sync_playwright

BASE_URL = os.environ.get("SG_WEB_BASE_URL", "http://127.0.0.1:8080")
# A second server with a synthetic company of 10,000 employees (sgbench seed), when web-check.sh started one, and
# the login of one of its admins.
BIG_URL = os.environ.get("SG_WEB_BIG_URL", "")
BIG_ADMIN = os.environ.get("SG_WEB_BIG_ADMIN", "")
BIG_PASSWORD = os.environ.get("SG_WEB_BIG_PASSWORD", "")
ARTIFACTS = Path(os.environ.get("SG_WEB_ARTIFACTS", ".build/web-check"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PASSWORD = "{}-demo-2026"

# Every wait of the tests is bounded: Playwright's default time-outs, and these.
ACTION_TIMEOUT_MS = 10_000


class Api:
    """The API, spoken directly: for setting up what a test needs and for checking what the app did."""

    def __init__(self, base=BASE_URL):
        self.base = base

    def call(self, method, path, token=None, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read().decode()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            return error.code, json.loads(text) if text else None

    def login(self, username, password=None):
        status, body = self.call("POST", "/v1/auth/login", body={"username": username, "password": password or PASSWORD.format(username)})
        assert status == 200, body
        return body["token"]

    def get(self, path, token):
        status, body = self.call("GET", path, token)
        assert status == 200, (path, status, body)
        return body


@pytest.fixture(scope="session")
def api():
    return Api()


def free_week(api, token, weeks_ahead):
    """A Monday at least `weeks_ahead` weeks after the server's today whose week holds no public holiday and
    stays clear of the turn of the year: five working days to request in tests."""
    today = datetime.date.fromisoformat(api.get("/v1/home", token)["today"])
    monday = today + datetime.timedelta(days=7 * weeks_ahead - today.weekday() + 7)
    while True:
        days = [monday + datetime.timedelta(days=i) for i in range(5)]
        holidays = {d["date"] for year in {d.year for d in days} for d in api.get(f"/v1/public-holidays?year={year}", token)}
        turn = any((d.month == 12 and d.day >= 20) or (d.month == 1 and d.day <= 7) for d in days)
        if not turn and not any(d.isoformat() in holidays for d in days):
            return days
        monday += datetime.timedelta(days=7)


def employee_id(api, token, username):
    """The id of the employee with that username (the directory's search finds them)."""
    found = [e for e in api.get(f"/v1/employees?q={username}&limit=50", token)["items"] if e["username"] == username]
    assert found, username
    return found[0]["id"]


def new_request(api, username, weeks_ahead, days=2, comment=None):
    """A pending request of `username` for the first `days` working days of a free week, made through the API."""
    token = api.login(username)
    week = free_week(api, token, weeks_ahead)
    body = {"startDate": week[0].isoformat(), "endDate": week[days - 1].isoformat()}
    if comment:
        body["comment"] = comment
    status, created = api.call("POST", "/v1/me/holidays", token, body)
    assert status == 201, created
    return created


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance):
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
    yield browser
    browser.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


# Listens in every page of a context for CSP violations (reported through a binding, so that none is lost
# when the page goes away) and keeps the page's console errors.
WATCH_SCRIPT = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__sgViolation(JSON.stringify({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample, source: event.sourceFile, line: event.lineNumber }));
});
"""


class Watch:
    def __init__(self):
        self.violations = []
        self.console_errors = []

    def attach(self, page):
        page.on("console", lambda message: message.type == "error" and self.console_errors.append(f"{page.url}: {message.text}"))
        page.on("pageerror", lambda error: self.console_errors.append(f"{page.url}: uncaught {error}"))


@pytest.fixture
def new_context(browser, request):
    """Makes browser contexts (as many as a test needs) that record a trace, kept when the test fails."""
    contexts = []

    def make(**options):
        options.setdefault("viewport", {"width": 1280, "height": 800})
        options.setdefault("locale", "en-US")
        options.setdefault("timezone_id", "UTC")
        options.setdefault("base_url", BASE_URL)
        context = browser.new_context(**options)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(15_000)
        watch = Watch()
        context.watch = watch
        context.expose_binding("__sgViolation", lambda source, text: watch.violations.append(json.loads(text)))
        context.add_init_script(WATCH_SCRIPT)
        context.on("page", watch.attach)
        context.tracing.start(screenshots=True, snapshots=True, sources=False)
        contexts.append(context)
        return context

    yield make
    failed = getattr(request.node, "report_call", None) is not None and request.node.report_call.failed
    folder = ARTIFACTS / re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)
    for index, context in enumerate(contexts):
        try:
            if failed:
                folder.mkdir(parents=True, exist_ok=True)
                for number, page in enumerate(context.pages):
                    page.screenshot(path=str(folder / f"context{index}-page{number}.png"), full_page=True, timeout=5_000)
                context.tracing.stop(path=str(folder / f"trace{index}.zip"))
            else:
                context.tracing.stop()
        finally:
            context.close()


@pytest.fixture
def context(new_context):
    return new_context()


@pytest.fixture
def page(context):
    return context.new_page()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def die_with_parent():
    """The second server ends with the tests, even when they are killed (Linux: PR_SET_PDEATHSIG)."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


@pytest.fixture
def short_token_server():
    """A second sgserver of its own (fresh demo database) whose access tokens last one minute."""
    binary = os.environ.get("SGSERVER")
    assert binary, "SGSERVER names the built sgserver (scripts/web-check.sh sets it)"
    port = free_port()
    folder = tempfile.mkdtemp(prefix="sg-web-short-")
    command = [binary, "--host", "127.0.0.1", "--port", str(port), "--database", f"{folder}/demo.sqlite", "--seed-demo",
               "--log-level", "error", "--writes-per-minute", "100000"]
    if os.environ.get("SG_WEB_ROOT"):
        command += ["--web-root", os.environ["SG_WEB_ROOT"]]
    log = open(f"{folder}/server.log", "w")
    environment = {**os.environ, "SG_ACCESS_TOKEN_MINUTES": "1"}
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment, preexec_fn=die_with_parent)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(base + "/v1/health", timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the second sgserver did not start: " + Path(f"{folder}/server.log").read_text())
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def listen(page, path):
    """Every GET of `path` the page sends, as its query, and the `nextAfter` of each answer, in order."""
    asked, answers = [], []

    def on_request(request):
        url = urlparse(request.url)
        if request.method == "GET" and url.path == path:
            asked.append({k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()})

    def on_response(response):
        url = urlparse(response.url)
        if response.request.method == "GET" and url.path == path and response.ok:
            answers.append(response.json())

    page.on("request", on_request)
    page.on("response", on_response)
    return asked, answers


def save_screenshot(page, name):
    """Keeps a screenshot for the README under SG_WEB_SCREENSHOTS (docs/images), when it is set."""
    folder = os.environ.get("SG_WEB_SCREENSHOTS")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))
