"""A browser's side of Web Push for the portal's tests, with implementations that are not the
portal's: http_ece (RFC 8291/8188) decrypts, PyJWT and cryptography verify the VAPID token
(RFC 8292).

  webpush.py keys   -> {"p256dh", "auth", "private"}: a browser's subscription keys
  webpush.py open   <- {"private", "auth", "body", "authorization", "endpoint"} on stdin
                    -> {"payload", "claims", "k", "rs", "keyidLen"}; exits non-zero when the
                       message does not decrypt or the token does not verify.
"""

import base64
import json
import os
import struct
import sys
from urllib.parse import urlsplit

import http_ece
import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def keys() -> dict:
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return {
        "p256dh": b64u(public),
        "auth": b64u(os.urandom(16)),
        "private": format(private.private_numbers().private_value, "x"),
    }


def open_message(msg: dict) -> dict:
    private = ec.derive_private_key(int(msg["private"], 16), ec.SECP256R1())
    body = base64.b64decode(msg["body"])
    rs, = struct.unpack("!L", body[16:20])
    plain = http_ece.decrypt(
        body,
        private_key=private,
        auth_secret=unb64u(msg["auth"]),
        version="aes128gcm",
    )
    scheme, _, params = msg["authorization"].partition(" ")
    assert scheme == "vapid", scheme
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64u(fields["k"]))
    parts = urlsplit(msg["endpoint"])
    claims = jwt.decode(
        fields["t"],
        key=public,
        algorithms=["ES256"],
        audience=f"{parts.scheme}://{parts.netloc}",
        options={"require": ["exp", "aud"]},
    )
    return {
        "payload": json.loads(plain),
        "claims": claims,
        "k": fields["k"],
        "rs": rs,
        "keyidLen": body[20],
    }


if __name__ == "__main__":
    if sys.argv[1:] == ["keys"]:
        print(json.dumps(keys()))
    elif sys.argv[1:] == ["open"]:
        print(json.dumps(open_message(json.load(sys.stdin))))
    else:
        sys.exit(__doc__)
