#!/usr/bin/python3
"""A push service for the tests, on 127.0.0.1 and a port it picks: it plays what Chrome's or
Firefox's push service does for an application server (RFC 8030), and checks what a user agent
would, with its own implementation (Debian's python3-cryptography), not the server's:

- the Authorization header is a VAPID token (RFC 8292) whose ES256 signature its k= key verifies,
  whose audience is this service's origin and which expires within 24 hours;
- the body (Content-Encoding: aes128gcm) decrypts (RFC 8291) with the subscription's private key
  and auth secret, which the test wrote to KEYS (JSON: {path: {"private", "auth"}}, base64url);
- TTL and Urgency are there.

Each message becomes one JSON file in MESSAGES (written whole, then renamed into place), with
what was checked and the plaintext. A path under /gone/ is answered 410 (a subscription the push
service no longer has), /busy/ 503 the first time; every other path 201.

usage: push_service.py KEYS MESSAGES PORT_FILE
"""
import base64
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hmac_sha256(key, data):
    h = hmac.HMAC(key, hashes.SHA256())
    h.update(data)
    return h.finalize()


def hkdf(salt, ikm, info, length):
    return hmac_sha256(hmac_sha256(salt, ikm), info + b"\x01")[:length]


def decrypt(body, private_key, auth):
    salt, record_size, id_len = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    sender = body[21:21 + id_len]
    ciphertext = body[21 + id_len:]
    if len(ciphertext) > record_size:
        raise ValueError("more than one record")
    receiver = private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    shared = private_key.exchange(
        ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender))
    ikm = hkdf(auth, shared, b"WebPush: info\x00" + receiver + sender, 32)
    key = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    record = AESGCM(key).decrypt(nonce, ciphertext, None).rstrip(b"\x00")
    if not record.endswith(b"\x02"):
        raise ValueError("the last record does not end with its delimiter")
    return record[:-1].decode()


def check_vapid(header, origin):
    if not header.startswith("vapid "):
        return "no vapid scheme"
    fields = dict(part.strip().split("=", 1) for part in header[6:].split(","))
    token, key = fields["t"], unb64(fields["k"])
    head, claims, signature = token.split(".")
    sig = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    try:
        public.verify(
            encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")),
            (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return "bad signature"
    if json.loads(unb64(head)).get("alg") != "ES256":
        return "not ES256"
    c = json.loads(unb64(claims))
    if c.get("aud") != origin:
        return "audience " + str(c.get("aud"))
    if not (time.time() < c.get("exp", 0) <= time.time() + 24 * 3600):
        return "expiry " + str(c.get("exp"))
    if not str(c.get("sub", "")).startswith(("mailto:", "https:")):
        return "subject " + str(c.get("sub"))
    return "ok"


class Service(BaseHTTPRequestHandler):
    busy_seen = set()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        keys = json.load(open(self.server.keys_file))
        origin = "http://127.0.0.1:%d" % self.server.server_address[1]
        record = {
            "path": self.path,
            "vapid": check_vapid(self.headers.get("Authorization", ""), origin),
            "encoding": self.headers.get("Content-Encoding"),
            "ttl": self.headers.get("TTL"),
            "urgency": self.headers.get("Urgency"),
            "topic": self.headers.get("Topic"),
            "vapid_key": self.headers.get("Authorization", "").split("k=")[-1],
        }
        try:
            sub = keys[self.path]
            private_key = ec.derive_private_key(
                int.from_bytes(unb64(sub["private"]), "big"), ec.SECP256R1())
            record["payload"] = json.loads(decrypt(body, private_key, unb64(sub["auth"])))
        except Exception as e:  # noqa: BLE001 - the test reads what went wrong
            record["error"] = repr(e)
        status = 201
        if self.path.startswith("/gone/"):
            status = 410
        elif self.path.startswith("/busy/") and self.path not in Service.busy_seen:
            Service.busy_seen.add(self.path)
            status = 503
        record["status"] = status
        self.server.count += 1
        name = os.path.join(self.server.messages, "%06d.json" % self.server.count)
        with open(name + ".tmp", "w") as f:
            json.dump(record, f)
        os.rename(name + ".tmp", name)
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main(keys_file, messages, port_file):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Service)
    server.keys_file, server.messages, server.count = keys_file, messages, 0
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main(*sys.argv[1:4])
