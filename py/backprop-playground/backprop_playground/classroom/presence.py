"""Which learners' browsers are here, and what they can do on the room's origin: each joined page says so
every 5 s (web/room/connection.js). Kept in memory for a minute, never stored."""

import json
import threading
import time

from .network import MODES
from .statements import Refused, text

FEATURES = ('secure', 'isolated', 'interrupt', 'offline')
WINDOW_S = 60.0  # a browser counts while it was heard from in the last minute
MAX_BROWSERS = 5000  # learner keys heard from within the window; more are refused (429)


class Presence:
    def __init__(self, mode):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        self.mode = mode
        self.browsers = {}  # learner key -> (when last heard from, what their browser can do)
        self.lock = threading.Lock()

    def seen(self, body):
        """A joined page's presence: its learner key and what its browser can do there. Raises Refused."""
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: [[[[…
            raise Refused(400, "the body is not JSON") from None
        browser = data.get('browser') if isinstance(data, dict) else None
        if not (
            text(data.get('key') if isinstance(data, dict) else None, 100)
            and isinstance(browser, dict)
            and all(isinstance(browser.get(name), bool) for name in FEATURES)
        ):
            raise Refused(400, f"presence needs a `key` and a `browser` with {', '.join(FEATURES)} as true or false")
        now = time.monotonic()
        with self.lock:
            self.forget_before(now - WINDOW_S)
            if data['key'] not in self.browsers and len(self.browsers) >= MAX_BROWSERS:
                raise Refused(429, f"more than {MAX_BROWSERS} browsers in the last minute: wait, then say so again")
            self.browsers[data['key']] = (now, {name: browser[name] for name in FEATURES})

    def forget_before(self, when):
        for key in [key for key, (seen, _) in self.browsers.items() if seen < when]:
            del self.browsers[key]

    def browser(self, key):
        """What the learner's browser could do when last heard from in the window, or None."""
        with self.lock:
            seen, browser = self.browsers.get(key, (None, None))
        return browser if seen is not None and time.monotonic() - seen <= WINDOW_S else None

    def room(self):
        """The room's mode, and how many browsers heard from in the last minute can do what there."""
        now = time.monotonic()
        with self.lock:
            self.forget_before(now - WINDOW_S)
            recent = [browser for _, browser in self.browsers.values()]
        return {
            'mode': self.mode,
            'browsers': {
                'learners': len(recent),
                **{name: sum(browser[name] for browser in recent) for name in FEATURES},
            },
        }
