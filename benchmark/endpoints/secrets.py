"""Secrets at rest (model endpoint API keys): Fernet tokens under keys derived from the settings.

``FIELD_ENCRYPTION_KEY`` is either a Fernet key (urlsafe base64 of 32 bytes, used as is) or any
other string, from which a key is derived with HKDF-SHA256; empty means "derive from SECRET_KEY".
``FIELD_ENCRYPTION_KEYS_OLD`` lists earlier values, tried in turn when decrypting, so a key can be
rotated: set the new key, list the old one, run ``secrets_rotate`` (or re-save the endpoints).
HKDF does not stretch: a passphrase must already be long and random (``Fernet.generate_key()``).
"""

from __future__ import annotations

import base64
import binascii

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

# Changing this label changes every derived key: existing tokens would no longer decrypt.
_HKDF_INFO = b"lifeplanner field encryption v1"


class SecretDecryptionError(Exception):
    """A stored secret cannot be decrypted with the configured keys."""


def encrypt_secret(text: str) -> str:
    """Encrypt ``text`` under the current key; returns an ASCII Fernet token."""
    return _fernet().encrypt(text.encode("utf-8")).decode("ascii")


def decrypt_secret(token: str) -> str:
    """Decrypt a token made by ``encrypt_secret`` under the current or any old key.

    Raises:
        SecretDecryptionError: no configured key opens the token. The message names the
            settings to check and never contains the token or a key.
    """
    try:
        return _fernet().decrypt(token.encode("ascii")).decode("utf-8")
    except (InvalidToken, UnicodeError, ValueError):
        raise SecretDecryptionError(
            "the stored secret cannot be decrypted with the configured keys (FIELD_ENCRYPTION_KEY, "
            "else SECRET_KEY, then FIELD_ENCRYPTION_KEYS_OLD); if the key was changed, list the previous "
            "value in FIELD_ENCRYPTION_KEYS_OLD, or enter the secret again"
        ) from None


def reencrypt_secret(token: str) -> str:
    """The same secret encrypted under the current key (for key rotation)."""
    try:
        return _fernet().rotate(token.encode("ascii")).decode("ascii")
    except (InvalidToken, UnicodeError, ValueError):
        decrypt_secret(token)  # raises the explained error
        raise


def fernet_key_from(material: str) -> bytes:
    """The Fernet key for a settings value: a Fernet key itself, or HKDF-SHA256 of any other string."""
    try:
        if len(base64.urlsafe_b64decode(material.encode("ascii"))) == 32:
            return material.encode("ascii")
    except (binascii.Error, UnicodeError, ValueError):
        pass
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_HKDF_INFO).derive(material.encode("utf-8"))
    return base64.urlsafe_b64encode(derived)


def _fernet() -> MultiFernet:
    # Built per call (cheap) so that changed settings, in tests or after a reload, take effect.
    current = settings.FIELD_ENCRYPTION_KEY or settings.SECRET_KEY
    old = [value for value in settings.FIELD_ENCRYPTION_KEYS_OLD if value]
    return MultiFernet([Fernet(fernet_key_from(value)) for value in [current, *old]])
