#!/usr/bin/env python3
"""The push services for the delivery tests and for trying push by hand: APNs, FCM (its OAuth token endpoint and
its HTTP v1 send) and a Web Push service, over HTTP/2 with TLS (hypercorn) on 127.0.0.1:PORT.

Each checks what the real service checks and writes one JSON line per request to --log (the service, the key the
behaviour is looked up by, the HTTP version, the headers, what was verified, the status answered):

  POST /3/device/TOKEN        APNs. The provider token (authorization: bearer) must be an ES256 JWT with the kid
                              --apns-key-id, iss --apns-team-id, an iat within the hour, signed by --apns-key (the
                              .p8 file, whose public half checks it); apns-topic --apns-topic, apns-push-type alert,
                              apns-id a UUID. A bad token is 403 InvalidProviderToken.
  POST /token                 FCM's OAuth token endpoint: grant_type jwt-bearer and an RS256 assertion signed by the
                              --fcm-account file's key, with its client_email as iss, the messaging scope, aud the
                              URL of this endpoint (--fcm-token-uri) and exp at most an hour after iat. Answers an
                              access token that lives --fcm-expires-in seconds.
  POST /v1/projects/P/messages:send
                              FCM send: Authorization: Bearer an access token this endpoint issued and not expired,
                              P the account's project_id (another project: 404 NOT_FOUND, not about the token), a
                              message with a token and a notification.
  POST /push/ID               Web Push: Authorization: vapid t=JWT, k=KEY with KEY the public half of
                              --vapid-key and JWT an ES256 JWT signed by it with aud this origin, exp within 24
                              hours, sub --vapid-subject; Content-Encoding aes128gcm, a TTL; the body is decrypted
                              (RFC 8291) with the subscription's key and secret (--subscription ID=KEYFILE:AUTH).

Behaviours, by device token, FCM registration token or subscription id (--route KEY=BEHAVIOUR; others are ok):
  ok, gone (APNs 410 Unregistered, FCM 404 UNREGISTERED, Web Push 410), not-found (Web Push 404), bad-token (APNs
  400 BadDeviceToken, FCM 400 INVALID_ARGUMENT on message.token), throttle-then-ok (429 with Retry-After: 1 first),
  unavailable-then-ok (503 with Retry-After: 1 first), expired-token-once (APNs 403 ExpiredProviderToken, FCM 401,
  to the first request), hang (never answers).

Stops on SIGTERM or SIGINT.
"""

import argparse
import asyncio
import base64
import json
import re
import secrets
import signal
import sys
import threading
import time
from urllib.parse import parse_qs

import http_ece
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from hypercorn.asyncio import serve
from hypercorn.config import Config

from stand_in import JSONLines, routes

FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def private_key(path):
    with open(path, "rb") as file:
        return serialization.load_pem_private_key(file.read(), password=None)


def raw_public(key):
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


class State:
    def __init__(self, options):
        self.options = options
        self.routes = routes(options.route)
        self.log = JSONLines(options.log).append
        self.seen = {}
        self.lock = threading.Lock()
        self.apns_key = private_key(options.apns_key).public_key() if options.apns_key else None
        self.account = None
        if options.fcm_account:
            with open(options.fcm_account) as file:
                self.account = json.load(file)
            self.fcm_key = serialization.load_pem_private_key(self.account["private_key"].encode(), password=None).public_key()
        self.access_tokens = {}
        self.vapid_public = raw_public(private_key(options.vapid_key)) if options.vapid_key else None
        self.subscriptions = {}
        for item in options.subscription:
            name, _, rest = item.partition("=")
            key_file, _, auth = rest.rpartition(":")
            self.subscriptions[name] = (private_key(key_file), unb64url(auth))

    def behaviour(self, key):
        """The behaviour for `key` and how many requests it had before this one."""
        with self.lock:
            seen = self.seen.get(key, 0)
            self.seen[key] = seen + 1
        return self.routes.get(key, "ok"), seen


def verify_es256(token, key, **claims):
    """The token's header and claims, and an error ("" when valid)."""
    try:
        header = jwt.get_unverified_header(token)
        body = jwt.decode(token, key=key, algorithms=["ES256"], options={"verify_aud": False, "verify_exp": False})
    except Exception as error:  # noqa: BLE001 - any refusal is the answer
        return {}, {}, f"{type(error).__name__}: {error}"
    for name, expected in claims.items():
        if body.get(name) != expected:
            return header, body, f"claim {name} is {body.get(name)!r}, not {expected!r}"
    return header, body, ""


async def read_body(receive):
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            return body


async def answer(send, status, body=None, headers=()):
    data = json.dumps(body).encode() if body is not None else b""
    head = [(b"content-type", b"application/json")] + [(k.encode(), v.encode()) for k, v in headers]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": data})


def first_or_retry(behaviour, seen, status):
    """throttle-then-ok and unavailable-then-ok: (status, Retry-After header) for the first request, else None."""
    if behaviour == "throttle-then-ok" and seen == 0:
        return 429
    if behaviour == "unavailable-then-ok" and seen == 0:
        return 503
    return status


def apns(state, headers, path, body):
    options = state.options
    token = path.removeprefix("/3/device/")
    bearer = headers.get("authorization", "").removeprefix("bearer ")
    header, claims, error = verify_es256(bearer, state.apns_key, iss=options.apns_team_id)
    if not error and (header.get("alg") != "ES256" or header.get("kid") != options.apns_key_id):
        error = f"header {header!r}"
    if not error and abs(time.time() - claims.get("iat", 0)) > 3600:
        error = "iat is not within the hour"
    checks = {
        "jwt": error or "valid", "topic": headers.get("apns-topic") == options.apns_topic,
        "pushType": headers.get("apns-push-type") == "alert", "apnsId": bool(UUID.match(headers.get("apns-id", ""))),
    }
    behaviour, seen = state.behaviour(token)
    record = {"service": "apns", "key": token, "jwt": bearer, "claims": claims, "checks": checks}
    if error:
        return record, 403, {"reason": "InvalidProviderToken"}, []
    if not all(v for k, v in checks.items() if k != "jwt"):
        return record, 400, {"reason": "BadRequest"}, []
    if behaviour == "gone":
        return record, 410, {"reason": "Unregistered", "timestamp": int(time.time() * 1000)}, []
    if behaviour == "bad-token":
        return record, 400, {"reason": "BadDeviceToken"}, []
    if behaviour == "expired-token-once" and seen == 0:
        return record, 403, {"reason": "ExpiredProviderToken"}, []
    status = first_or_retry(behaviour, seen, 200)
    if status != 200:
        return record, status, {"reason": "TooManyRequests" if status == 429 else "ServiceUnavailable"}, [("retry-after", "1")]
    return record, 200, None, [("apns-id", headers.get("apns-id", ""))]


def fcm_token(state, headers, body):
    options = state.options
    form = {key: values[0] for key, values in parse_qs(body.decode()).items()}
    record = {"service": "fcm-token", "key": "token", "form": form}
    error = ""
    if form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer":
        error = "grant_type"
    else:
        try:
            assertion_header = jwt.get_unverified_header(form.get("assertion", ""))
            claims = jwt.decode(
                form.get("assertion", ""), key=state.fcm_key, algorithms=["RS256"], audience=options.fcm_token_uri,
                issuer=state.account["client_email"])
            record["claims"] = claims
            if assertion_header.get("alg") != "RS256":
                error = "alg"
            elif claims.get("scope") != FCM_SCOPE:
                error = "scope"
            elif not 0 < claims["exp"] - claims["iat"] <= 3600:
                error = "exp"
        except Exception as refusal:  # noqa: BLE001
            error = f"{type(refusal).__name__}: {refusal}"
    record["checks"] = {"assertion": error or "valid"}
    if error:
        return record, 400, {"error": "invalid_grant", "error_description": error}, []
    access = "ya29." + secrets.token_urlsafe(24)
    with state.lock:
        state.access_tokens[access] = time.time() + options.fcm_expires_in
    record["issued"] = access
    return record, 200, {"access_token": access, "expires_in": options.fcm_expires_in, "token_type": "Bearer"}, []


def fcm_error(code, status, error_code=None, field=None):
    details = []
    if error_code:
        details.append({"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": error_code})
    if field:
        details.append({"@type": "type.googleapis.com/google.rpc.BadRequest",
                        "fieldViolations": [{"field": field, "description": "Invalid registration token"}]})
    return {"error": {"code": code, "message": status.lower(), "status": status, "details": details}}


def fcm_send(state, headers, path, body):
    access = headers.get("authorization", "").removeprefix("Bearer ")
    with state.lock:
        access_valid = state.access_tokens.get(access, 0) > time.time()
    try:
        message = json.loads(body)["message"]
    except (ValueError, KeyError, TypeError):
        message = {}
    token = message.get("token", "")
    behaviour, seen = state.behaviour(token)
    checks = {
        "access": access_valid, "project": path == f"/v1/projects/{state.account['project_id']}/messages:send",
        "notification": bool(message.get("notification", {}).get("title")),
    }
    record = {"service": "fcm", "key": token, "access": access, "message": message, "checks": checks}
    if not access_valid or (behaviour == "expired-token-once" and seen == 0):
        return record, 401, fcm_error(401, "UNAUTHENTICATED"), []
    if not checks["project"]:
        return record, 404, fcm_error(404, "NOT_FOUND"), []
    if not all(checks.values()) or not token:
        return record, 400, fcm_error(400, "INVALID_ARGUMENT"), []
    if behaviour == "gone":
        return record, 404, fcm_error(404, "NOT_FOUND", "UNREGISTERED"), []
    if behaviour == "bad-token":
        return record, 400, fcm_error(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", "message.token"), []
    status = first_or_retry(behaviour, seen, 200)
    if status != 200:
        return record, status, fcm_error(status, "RESOURCE_EXHAUSTED" if status == 429 else "UNAVAILABLE"), [("retry-after", "1")]
    return record, 200, {"name": f"projects/{state.account['project_id']}/messages/{secrets.randbelow(10**9)}"}, []


def web_push(state, headers, path, body, origin):
    options = state.options
    name = path.removeprefix("/push/")
    authorization = headers.get("authorization", "")
    fields = dict(part.strip().split("=", 1) for part in authorization.removeprefix("vapid ").split(",") if "=" in part)
    error = ""
    claims = {}
    if not authorization.startswith("vapid ") or "t" not in fields or "k" not in fields:
        error = "no vapid t= and k="
    elif unb64url(fields["k"]) != state.vapid_public:
        error = "k is not the server's key"
    else:
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
        _, claims, error = verify_es256(fields["t"], key, aud=origin, sub=options.vapid_subject)
        if not error and not time.time() < claims.get("exp", 0) <= time.time() + 86400:
            error = "exp is not within 24 hours"
    payload, decrypt_error = None, ""
    if name in state.subscriptions:
        key, auth = state.subscriptions[name]
        try:
            payload = http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm").decode()
        except Exception as refusal:  # noqa: BLE001
            decrypt_error = f"{type(refusal).__name__}: {refusal}"
    checks = {
        "vapid": error or "valid", "encoding": headers.get("content-encoding") == "aes128gcm",
        "ttl": headers.get("ttl", "").isdigit(), "decrypted": decrypt_error or ("yes" if payload is not None else "no key"),
    }
    behaviour, seen = state.behaviour(name)
    record = {"service": "webpush", "key": name, "claims": claims, "payload": payload, "checks": checks,
              "urgency": headers.get("urgency"), "topic": headers.get("topic")}
    if error:
        return record, 403, {"reason": error}, []
    if not (checks["encoding"] and checks["ttl"]) or payload is None:
        return record, 400, {"reason": "bad request"}, []
    if behaviour == "gone":
        return record, 410, {"reason": "expired subscription"}, []
    if behaviour == "not-found":
        return record, 404, {"reason": "no such subscription"}, []
    status = first_or_retry(behaviour, seen, 201)
    return record, status, None, [("retry-after", "1")] if status != 201 else [("location", f"{origin}/messages/{seen}")]


def make_app(state, port):
    origin = f"https://127.0.0.1:{port}"

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        body = await read_body(receive)
        path = scope["path"]
        if scope["method"] != "POST":
            await answer(send, 405, {"reason": "MethodNotAllowed"})
            return
        if path.startswith("/3/device/"):
            record, status, reply, extra = apns(state, headers, path, body)
        elif path == "/token":
            record, status, reply, extra = fcm_token(state, headers, body)
        elif path.startswith("/v1/projects/"):
            record, status, reply, extra = fcm_send(state, headers, path, body)
        elif path.startswith("/push/"):
            record, status, reply, extra = web_push(state, headers, path, body, origin)
        else:
            await answer(send, 404, {"reason": "no such path"})
            return
        behaviour = state.routes.get(record["key"], "ok")
        hang = behaviour == "hang"
        record.update({"path": path, "http": scope.get("http_version"), "headers": headers,
                       "status": None if hang else status, "received_at": time.time()})
        if record["service"] == "apns":
            record["body"] = body.decode("utf-8", "replace")
        state.log(record)
        if hang:
            # The client's time-out ends the stream.
            await asyncio.sleep(3600)
            return
        await answer(send, status, reply, extra)

    return app


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--route", action="append", default=[], help="KEY=BEHAVIOUR")
    parser.add_argument("--apns-key", help="the .p8 file whose public half checks the provider tokens")
    parser.add_argument("--apns-key-id")
    parser.add_argument("--apns-team-id")
    parser.add_argument("--apns-topic")
    parser.add_argument("--fcm-account", help="the service account's JSON key file")
    parser.add_argument("--fcm-token-uri", help="the token endpoint's URL as the assertion's aud names it")
    parser.add_argument("--fcm-expires-in", type=int, default=3600)
    parser.add_argument("--vapid-key", help="the server's VAPID private key (PEM)")
    parser.add_argument("--vapid-subject")
    parser.add_argument("--subscription", action="append", default=[], help="ID=KEYFILE:AUTH (base64url)")
    options = parser.parse_args()
    open(options.log, "a").close()
    state = State(options)

    config = Config()
    config.bind = [f"127.0.0.1:{options.port}"]
    config.certfile = options.cert
    config.keyfile = options.key
    config.alpn_protocols = ["h2"]
    config.accesslog = None
    config.errorlog = None
    config.graceful_timeout = 1

    async def run():
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        loop.add_signal_handler(signal.SIGINT, stop.set)
        print(f"listening on 127.0.0.1:{options.port}", flush=True)
        await serve(make_app(state, options.port), config, shutdown_trigger=stop.wait)

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
