"""`adjudicator kiosk`'s supervision: the kiosk run as a child, restarted, its terminal put back."""
