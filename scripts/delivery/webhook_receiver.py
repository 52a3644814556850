#!/usr/bin/env python3
"""A webhook endpoint for the delivery tests and for trying webhooks by hand (standard library only).

Listens on 127.0.0.1:PORT (HTTP/1.1, connections kept alive), checks every POST's Standard Webhooks signature
(webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body" keyed with the
base64-decoded part of --secret after whsec_), and writes one JSON line per request to --log: the path, the
webhook-id, the timestamp, whether the signature is valid and the timestamp within five minutes, the headers, the
body and the status answered.

Each path answers as --route PATH=BEHAVIOUR says (repeatable; other paths answer 200):
  ok               200
  fail-then-ok     500 to the first request, then 200
  gone             410
  throttle-then-ok 429 with "Retry-After: 1" to the first request, then 200
  throttle-date-then-ok
                   the same with Retry-After as an HTTP date two seconds ahead
  hang             never answers (until the client gives up)
  hang-then-ok     never answers the first request, then 200 (a sender killed mid-send sends again)
  status:CODE      CODE, always

Stops on SIGTERM or SIGINT.
"""

import argparse
import base64
import email.utils
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from stand_in import JSONLines, routes, serve_http_until_signalled


def signing_key(secret):
    if secret.startswith("whsec_"):
        return base64.b64decode(secret[len("whsec_"):])
    return secret.encode()


def signature_valid(key, webhook_id, timestamp, body, header):
    if not (webhook_id and timestamp and header):
        return False
    signed = webhook_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for item in header.split(" "):
        version, _, signature = item.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return True
    return False


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "sg-webhook-receiver"

    def log_message(self, format, *args):
        pass

    def answer(self, status, headers=()):
        body = json.dumps({"status": status}).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        webhook_id = self.headers.get("webhook-id")
        timestamp = self.headers.get("webhook-timestamp")
        valid = signature_valid(state.key, webhook_id, timestamp, body, self.headers.get("webhook-signature"))
        fresh = timestamp is not None and timestamp.isdigit() and abs(time.time() - int(timestamp)) <= 300
        behaviour = state.routes.get(self.path, "ok")
        with state.lock:
            seen = state.seen.get(self.path, 0)
            state.seen[self.path] = seen + 1
        headers = []
        if behaviour == "ok":
            status = 200
        elif behaviour == "fail-then-ok":
            status = 500 if seen == 0 else 200
        elif behaviour == "gone":
            status = 410
        elif behaviour == "throttle-then-ok":
            status = 429 if seen == 0 else 200
            headers = [("Retry-After", "1")] if seen == 0 else []
        elif behaviour == "throttle-date-then-ok":
            status = 429 if seen == 0 else 200
            headers = [("Retry-After", email.utils.formatdate(time.time() + 2, usegmt=True))] if seen == 0 else []
        elif behaviour == "hang":
            status = None
        elif behaviour == "hang-then-ok":
            status = None if seen == 0 else 200
        elif behaviour.startswith("status:"):
            status = int(behaviour.partition(":")[2])
        else:
            status = 500
        state.log({
            "path": self.path, "peer": self.client_address[1], "id": webhook_id, "timestamp": timestamp,
            "signature": self.headers.get("webhook-signature"), "valid": valid, "fresh": fresh,
            "headers": {key.lower(): value for key, value in self.headers.items()},
            "body": body.decode("utf-8", "replace"), "status": status, "received_at": time.time(),
        })
        if status is None:
            # Hang: the client's time-out ends the connection; the thread is a daemon.
            time.sleep(3600)
            return
        self.answer(status, headers)


class State:
    def __init__(self, key, routes, log_path):
        self.key = key
        self.routes = routes
        self.log = JSONLines(log_path).append
        self.seen = {}
        self.lock = threading.Lock()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret", required=True, help="whsec_ and the base64 of the signing key")
    parser.add_argument("--log", required=True, help="JSON lines, one per request")
    parser.add_argument("--route", action="append", default=[], help="PATH=BEHAVIOUR")
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Receiver)
    server.state = State(signing_key(options.secret), routes(options.route), options.log)
    open(options.log, "a").close()
    serve_http_until_signalled(server, options.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
