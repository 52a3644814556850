#!/usr/bin/env python3
"""News feeds for the company feed tests and for trying them by hand (standard library only).

Listens on 127.0.0.1:PORT (HTTP/1.1) and writes one JSON line per request to --log: the path, the headers and the
status answered. Each path answers as --route PATH=BEHAVIOUR says (repeatable; other paths answer 404):
  file:FILE   200 with FILE's bytes (read at each request) as application/xml, with an ETag (a digest of the bytes)
              and Last-Modified (the file's time); 304 when If-None-Match names that ETag or If-Modified-Since is
              not before that time
  hang        never answers (until the client gives up)
  status:CODE CODE with a short text body
  big:BYTES   200 with an RSS document of about BYTES bytes, sent in pieces
  garbage     200 with bytes that are no XML
  redirect:URL  302 to URL

Stops on SIGTERM or SIGINT.
"""

import argparse
import email.utils
import hashlib
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from stand_in import JSONLines, routes, serve_http_until_signalled


class Feeds(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "sg-feed-server"

    def log_message(self, format, *args):
        pass

    def record(self, status):
        """Logs the request before the first byte of its answer, so a client that has its answer finds it logged."""
        self.server.log({
            "path": self.path, "headers": {key.lower(): value for key, value in self.headers.items()}, "status": status,
            "received_at": time.time(),
        })

    def answer(self, status, body=b"", headers=()):
        self.record(status)
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        self.respond(self.server.routes.get(self.path.split("?")[0]))

    def respond(self, behaviour):
        if behaviour is None:
            self.answer(404, b"no such feed", [("Content-Type", "text/plain")])
            return 404
        kind, _, argument = behaviour.partition(":")
        if kind == "file":
            with open(argument, "rb") as source:
                body = source.read()
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            modified = int(os.stat(argument).st_mtime)
            last_modified = email.utils.formatdate(modified, usegmt=True)
            since = self.headers.get("If-Modified-Since")
            since_time = email.utils.parsedate_to_datetime(since).timestamp() if since else None
            match = self.headers.get("If-None-Match")
            if (match is not None and etag in [item.strip() for item in match.split(",")]) or (
                    match is None and since_time is not None and since_time >= modified):
                self.answer(304, headers=[("ETag", etag), ("Last-Modified", last_modified)])
                return 304
            self.answer(200, body, [("Content-Type", "application/xml"), ("ETag", etag), ("Last-Modified", last_modified)])
            return 200
        if kind == "hang":
            # The client's time-out ends the connection; the thread is a daemon.
            self.record(None)
            time.sleep(3600)
            return None
        if kind == "status":
            code = int(argument)
            self.answer(code, b"status %d" % code, [("Content-Type", "text/plain")])
            return code
        if kind == "big":
            size = int(argument)
            head = b'<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title><description>'
            self.record(200)
            self.send_response(200)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            sent = 0
            try:
                self.wfile.write(head)
                sent = len(head)
                piece = b"x" * 65536
                while sent < size:
                    chunk = piece[:size - sent]
                    self.wfile.write(chunk)
                    sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return 200
        if kind == "redirect":
            self.answer(302, b"moved", [("Location", argument), ("Content-Type", "text/plain")])
            return 302
        if kind == "garbage":
            self.answer(200, b"\x00\x9f<<this is {not} a feed>>\xff" * 64, [("Content-Type", "application/xml")])
            return 200
        self.answer(500, b"unknown behaviour", [("Content-Type", "text/plain")])
        return 500


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log", required=True, help="JSON lines, one per request")
    parser.add_argument("--route", action="append", default=[], help="PATH=BEHAVIOUR")
    options = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", options.port), Feeds)
    server.routes = routes(options.route)
    server.log = JSONLines(options.log).append
    open(options.log, "a").close()
    serve_http_until_signalled(server, options.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
