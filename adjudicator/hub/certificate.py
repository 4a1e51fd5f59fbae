"""The hub's own TLS certificate: made at its first start beside its journal, known by its SHA-256.

No certificate authority and no internet: the hub signs its own certificate (an ECDSA P-256 key),
keeps both beside the hub journal (`hub.db.key.pem`, mode 0600, and `hub.db.cert.pem`) and uses
them again at every start, so the fingerprint stations pinned at `adjudicator join` stays the
hub's. Stations trust exactly that certificate (link/pins.py), as SSH trusts a known host.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import ssl
import sys
from dataclasses import dataclass

from adjudicator.errors import FileAccessError

YEARS = 20  # the certificate's validity: a pinned certificate need not expire for the event


@dataclass(frozen=True)
class Certificate:
    """The files, and the SHA-256 (64 hex digits) of the certificate's DER bytes."""

    cert_path: str
    key_path: str
    fingerprint: str

    def server_context(self) -> ssl.SSLContext:
        """What aiohttp serves with: TLS 1.2 at least, this certificate and key."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        try:
            context.load_cert_chain(self.cert_path, self.key_path)
        except (OSError, ssl.SSLError) as e:
            raise FileAccessError(f"cannot use the hub's certificate {self.cert_path}: "
                                  f"{getattr(e, 'strerror', None) or e}; move it and its key "
                                  "away to make a new one (every station then joins again)"
                                  ) from None
        return context


def paths(journal_path: str) -> tuple[str, str]:
    """(certificate, private key) files kept beside the hub journal at JOURNAL_PATH."""
    return f"{journal_path}.cert.pem", f"{journal_path}.key.pem"


def fingerprint_of(der: bytes) -> str:
    """The SHA-256 of a certificate's DER bytes, as stations pin it (64 lowercase hex)."""
    return hashlib.sha256(der).hexdigest()


def ensure(journal_path: str) -> Certificate:
    """The hub's certificate beside JOURNAL_PATH: the one kept there, or made now (once)."""
    cert_path, key_path = paths(journal_path)
    if not (os.path.exists(cert_path) and os.path.exists(key_path)):
        _make(cert_path, key_path)
    try:
        with open(cert_path, encoding="ascii") as f:
            der = ssl.PEM_cert_to_DER_cert(f.read())
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise FileAccessError(f"cannot read the hub's certificate {cert_path}: "
                              f"{getattr(e, 'strerror', None) or e}") from None
    return Certificate(cert_path, key_path, fingerprint_of(der))


def _make(cert_path: str, key_path: str) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "adjudicator hub")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=365 * YEARS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    try:
        _write(key_path, key_pem, 0o600)  # the key first: a certificate never lacks its key
        _write(cert_path, cert.public_bytes(serialization.Encoding.PEM), 0o644)
    except OSError as e:
        raise FileAccessError(f"cannot keep the hub's certificate beside its journal "
                              f"({e.filename or cert_path}): {e.strerror or e}") from None


def _write(path: str, data: bytes, mode: int) -> None:
    """DATA to PATH atomically, readable by MODE only from its creation (never wider)."""
    temp = f"{path}.{os.getpid()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(temp, flags, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if sys.platform != "win32":
            os.chmod(temp, mode)  # whatever the umask took away or left
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
