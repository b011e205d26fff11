"""dist/ as one build writes it: a file is rewritten only when its bytes changed (an unchanged file keeps
its modification time, and so its .br and .gz), and what the build did not make is deleted at its end."""

from pathlib import Path

from ..paths import ROOT
from .tools import fail


class Output:
    def __init__(self, dist):
        self.dist = Path(dist)
        self.written = set()

    def put(self, target, data):
        """`data` as the file `target`; returns whether it changed. Written beside it, then renamed."""
        self.written.add(target)
        if target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = Path(f"{target}.partial")
        partial.write_bytes(data)
        partial.replace(target)
        return True

    def copy(self, source, target):
        if not source.exists():
            fail(f"missing {source}")
        if self.put(target, source.read_bytes()):
            print(f"  {shown(source)} -> {shown(target)}")
        return target

    def delete_unmade(self, keep=(), keep_under=()):
        """Deletes the files this build did not make (a source deleted or renamed since), with their .br and
        .gz, except `keep` (made after this runs) and what is under a folder of `keep_under` (made by another
        command); then the folders left empty."""
        for path in sorted(self.dist.rglob('*'), reverse=True):
            base = path.with_suffix('') if path.suffix in ('.br', '.gz') else path
            kept = base in keep or any(base.is_relative_to(folder) for folder in keep_under)
            if path.is_file() and base not in self.written and not kept:
                path.unlink()
                print(f"  deleted {shown(path)}")
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()


def shown(path):
    """A path as the build prints it: relative to the checkout where it is inside it."""
    path = Path(path)
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
