"""Smart-device mode: the locked kiosk served to phones and tablets behind a rotating token."""

from adjudicator.net.token import TokenStore, token_path

__all__ = ["TokenStore", "token_path"]
