"""The kiosk's own widgets: big letters, the entry line, touch buttons, the runner's boxes."""
