"""nbgrader test cells: a cell's verdict as `nbgrader autograde` gives it, its hidden tests kept out of sight."""

from .checks import explain, frames
from .names import TEST as TEST_FILENAME
from .words import _


class TestCell:
    """An nbgrader test cell, scored as `nbgrader autograde` scores it (its `determine_grade`): full points
    unless the cell raises or writes to stderr. Its hidden tests run with it, but no message, traceback or
    line number shows their code."""

    def __init__(self, source, hidden):
        self.hidden = set(hidden)
        self.shown = '\n'.join('' if i in self.hidden else line for i, line in enumerate(source.split('\n'), 1))

    def visible_line(self, line):
        """A line of the whole source as a line of what the page shows (None inside hidden tests)."""
        if line is None or line in self.hidden:
            return None
        return line - sum(1 for hidden in self.hidden if hidden < line)

    def verdict(self, error=None, wrote_stderr=False):
        if error is None and wrote_stderr:
            return {
                'status': 'failed',
                'message': _(
                    "This cell wrote to stderr (see below). nbgrader scores a test "
                    "cell that does as failed, even when its asserts pass."
                ),
            }
        if error is None:
            return {'status': 'passed', 'message': _("This cell's tests passed.")}
        lines = [line for name, line in frames(error.__traceback__) if name == TEST_FILENAME]
        if lines and lines[-1] in self.hidden:
            raised = '' if isinstance(error, AssertionError) else f" ({type(error).__name__}: {error})"
            message = _("A hidden test of this cell failed{raised}. Its code is not shown.").format(raised=raised)
            return {'status': 'failed', 'message': message}
        stub = (
            _(" The answer still has nbgrader's `raise NotImplementedError()`: write your code in its place.")
            if isinstance(error, NotImplementedError)
            else ''
        )
        return {'status': 'failed', 'message': explain(error, self.shown, TEST_FILENAME) + stub}

    def redact(self, error):
        """The page's error report of this cell, with hidden tests' lines left out."""
        if error.get('line') in self.hidden:
            error.update(message=_('a hidden test of this cell failed'), traceback='')
        error['line'] = self.visible_line(error.get('line'))
