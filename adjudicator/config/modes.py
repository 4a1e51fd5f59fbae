"""The station's three modes, as its config and the kiosk's command line spell them."""

MODES = ("station", "runner", "smart-device")
