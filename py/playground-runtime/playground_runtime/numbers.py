"""How the runtime writes a number: for the page's JSON (json_number, plain, finite) and for a learner to read
(shown). A learner's number may be any object: nothing here calls a method of a learner's class but where
it says so."""

import math

from .words import _


def json_number(x, strict=False):
    """x as JSON can hold it: an int (below 2**53, else as a float), a finite float, or None (nan, infinities,
    and whatever float() refuses). `strict`: text is a TypeError, and what float() raises is raised."""
    if strict and isinstance(x, (str, bytes)):
        raise TypeError(f"{x!r} is text, not a number")
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int) and abs(x) < 2**53:
        return x
    try:
        x = float(x)
    except Exception:  # TypeError, ValueError, OverflowError, or a learner's object with an odd __float__
        if strict:
            raise
        return None
    return x if math.isfinite(x) else None


def plain(x):
    """x as a float when it is a plain number (no method of a learner's class is called), else None."""
    return float(x) if type(x) in (int, float, bool) else None


def finite(x):
    """A float as JSON can hold it: itself if finite, else None (as is None)."""
    return x if x is not None and math.isfinite(x) else None


def shown(x):
    """A number as a learner would write it: 2.0, -0.5, 0.333333 (not 5.999999999 from differences); a Value
    by its data; anything else by its repr, cut to 60 characters."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        if hasattr(x, 'data'):
            return _("a {kind} with data {data}").format(kind=type(x).__name__, data=shown(x.data))
        text = repr(x)
        return text if len(text) <= 60 else text[:57] + '...'
    if isinstance(x, int):
        return str(x)
    if math.isnan(x) or math.isinf(x):
        return repr(x)
    return repr(round(x, 6) + 0.0)  # + 0.0 turns -0.0 into 0.0
