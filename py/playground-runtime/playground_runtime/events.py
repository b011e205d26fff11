"""The run's output as the page receives it: flat JSON events through `emit(json_text)` (playground_runtime.runner
lists them). Printed text goes line by line, so that it shows while a loop runs; every other event at once."""

import json
import math

from .words import _


class Output:
    """Sends printed text line by line (so it shows while a loop runs), every other event at once."""

    MAX_TEXT = 1_000_000  # characters per run; more would only freeze the page

    def __init__(self, emit):
        self._emit = emit
        self._stream = None
        self._parts = []
        self._sent = 0
        self.wrote_stderr = False  # nbgrader fails a test cell that writes there

    def text(self, stream, text):
        self.wrote_stderr = self.wrote_stderr or (stream == 'stderr' and text != '')
        if self._sent > self.MAX_TEXT:
            return
        if stream != self._stream:
            self.flush()
            self._stream = stream
        self._parts.append(text)
        if '\n' in text:
            self.flush()

    def flush(self):
        if self._parts:
            text = ''.join(self._parts)
            self._parts = []
            self._sent += len(text)
            self._emit(json.dumps({'type': self._stream, 'text': text}))
            if self._sent > self.MAX_TEXT:
                self._emit(
                    json.dumps(
                        {
                            'type': 'notice',
                            'text': _(
                                "Output stopped after {count} characters; the program goes on without showing more."
                            ).format(count=f"{self.MAX_TEXT:,}"),
                        }
                    )
                )

    def event(self, **event):
        self.flush()
        try:
            text = json.dumps(event, allow_nan=False)
        except ValueError:  # a nan or inf got through: JSON has no such numbers
            text = json.dumps(_finite(event))
        self._emit(text)


def _finite(x):
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


class Stream:
    def __init__(self, output, name):
        self._output = output
        self._name = name

    def write(self, text):
        self._output.text(self._name, str(text))
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False
