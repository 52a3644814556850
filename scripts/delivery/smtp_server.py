#!/usr/bin/env python3
"""A throwaway SMTP server for the delivery tests and for trying e-mail by hand (aiosmtpd, from .venv/).

Listens on 127.0.0.1:PORT. With --tls-dir it offers STARTTLS and refuses mail without it (or, with --smtps, speaks
TLS from the first byte); the certificate is DIR/cert.pem and DIR/key.pem, made with openssl (self-signed, for
127.0.0.1 and localhost) when missing: give DIR/cert.pem to the client as its CA file. With --user and --password
it requires AUTH PLAIN or LOGIN (only after TLS, when there is TLS).

Every accepted message is written to the --dir folder as NNNNN.eml, exactly as received, and described by one JSON
line of DIR/messages.jsonl: the envelope, whether TLS and AUTH were used, and the headers and text as Python's
e-mail parser decodes them. Every answer to RCPT TO is a line of DIR/events.jsonl.

  --reject ADDRESS      answer RCPT TO:<ADDRESS> with 550 (repeatable)
  --defer ADDRESS[=N]   answer RCPT TO:<ADDRESS> with 451 the first N times (always without =N; repeatable)

Stops on SIGTERM or SIGINT.
"""

import argparse
import asyncio
import email
import email.header
import email.policy
import os
import ssl
import subprocess
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from stand_in import JSONLines, serve_until_signalled


def display_name(raw):
    """The display name of an address header as RFC 2047 reads it: white space between adjacent encoded words is
    dropped (email.policy.default keeps it inside a phrase), a quoted string is unquoted."""
    value = raw.replace("\r\n", "").replace("\n", "").strip()
    if not value.endswith(">") or "<" not in value:
        return ""
    phrase = value[:value.rindex("<")].strip()
    if len(phrase) >= 2 and phrase.startswith('"') and phrase.endswith('"'):
        return phrase[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return str(email.header.make_header(email.header.decode_header(phrase)))


def make_certificate(folder):
    cert = os.path.join(folder, "cert.pem")
    key = os.path.join(folder, "key.pem")
    if not (os.path.exists(cert) and os.path.exists(key)):
        os.makedirs(folder, exist_ok=True)
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
             "-keyout", key, "-out", cert],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


class Recorder:
    def __init__(self, folder, reject, defer):
        self.folder = folder
        self.reject = {address.lower() for address in reject}
        # Address → how many more 451s (None: always).
        self.defer = {}
        for item in defer:
            address, _, count = item.partition("=")
            self.defer[address.lower()] = int(count) if count else None
        self.count = 0
        self.logs = {}
        self.lock = threading.Lock()

    def log(self, name, record):
        with self.lock:
            log = self.logs.setdefault(name, JSONLines(os.path.join(self.folder, name)))
        log.append(record)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        key = address.lower()
        if key in self.reject:
            answer = f"550 5.1.1 <{address}>: Recipient address rejected: user unknown"
        elif key in self.defer and self.defer[key] != 0:
            if self.defer[key] is not None:
                self.defer[key] -= 1
            answer = f"451 4.7.1 <{address}>: Recipient address deferred: try again later"
        else:
            envelope.rcpt_tos.append(address)
            answer = "250 OK"
        self.log("events.jsonl", {"rcpt": address, "answer": answer})
        return answer

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            number = self.count
        raw = envelope.original_content or envelope.content
        name = f"{number:05d}.eml"
        with open(os.path.join(self.folder, name), "wb") as out:
            out.write(raw)
        message = email.message_from_bytes(raw, policy=email.policy.default)
        lines = raw.split(b"\r\n")
        to = message["To"]
        sender = message["From"]
        raw_to = next((value for key, value in message.raw_items() if key.lower() == "to"), "")
        body = message.get_body(preferencelist=("plain",))
        record = {
            "file": name,
            # The client's port: the same for messages sent over one connection.
            "peer": session.peer[1] if session.peer else None,
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            # After STARTTLS, or on a connection that was TLS from the start (--smtps).
            "tls": session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None,
            "auth": session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None,
            "subject": str(message["Subject"]),
            "to": str(to),
            "to_name": display_name(raw_to),
            "to_address": to.addresses[0].addr_spec if to is not None and to.addresses else None,
            "from": str(sender),
            "from_address": sender.addresses[0].addr_spec if sender is not None and sender.addresses else None,
            "message_id": str(message["Message-ID"]) if message["Message-ID"] is not None else None,
            "date": message["Date"].datetime.isoformat() if message["Date"] is not None and message["Date"].datetime else None,
            "headers": [[key, value] for key, value in message.raw_items()],
            "text": body.get_content().replace("\r\n", "\n") if body is not None else None,
            "defects": [type(defect).__name__ for defect in message.defects]
            + [type(defect).__name__ for key in message.keys() for defect in message[key].defects],
            "bare_lf": b"\n" in raw.replace(b"\r\n", b""),
            "longest_line": max((len(line) for line in lines), default=0),
        }
        self.log("messages.jsonl", record)
        return "250 Message accepted for delivery"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True, help="where accepted messages are written")
    parser.add_argument("--tls-dir", help="STARTTLS (or TLS with --smtps) with DIR/cert.pem and DIR/key.pem")
    parser.add_argument("--smtps", action="store_true", help="TLS from the first byte instead of STARTTLS")
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--reject", action="append", default=[])
    parser.add_argument("--defer", action="append", default=[])
    options = parser.parse_args()
    os.makedirs(options.dir, exist_ok=True)

    recorder = Recorder(options.dir, options.reject, options.defer)
    kwargs = {"hostname": "127.0.0.1", "port": options.port, "server_hostname": "sgtest.localhost"}
    context = None
    if options.tls_dir:
        cert, key = make_certificate(options.tls_dir)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        if options.smtps:
            kwargs["ssl_context"] = context
        else:
            kwargs["tls_context"] = context
            kwargs["require_starttls"] = True
    if options.user is not None:
        def authenticate(server, session, envelope, mechanism, auth_data):
            ok = (isinstance(auth_data, LoginPassword) and auth_data.login.decode() == options.user
                  and auth_data.password.decode() == options.password)
            return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)
        kwargs["authenticator"] = authenticate
        kwargs["auth_required"] = True
        # aiosmtpd refuses AUTH before STARTTLS unless told otherwise; with TLS from the first byte, or no TLS at
        # all, there is nothing to wait for.
        kwargs["auth_require_tls"] = context is not None and not options.smtps

    controller = Controller(recorder, **kwargs)
    controller.start()
    serve_until_signalled(options.port, controller.stop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
