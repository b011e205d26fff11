"""`export DIR`: the built site as files in DIR, for any static host (GitHub Pages, Cloudflare Pages, Netlify,
a USB stick); from the installed wheel, with no Node and no checkout. docs/hosting.md says what each host
gets. DIR must be new, empty or an earlier export: the site's files are written over an earlier export's, and
what else is there (an author's `_headers`, say) is left as it is; any other folder is refused, untouched."""

import json
import shutil
from pathlib import Path

MARK = 'build.json'  # every export has it at its top; a folder with it holds an earlier one


def export(site, folder):
    """Copies `site` into `folder`; returns a line that says what was written."""
    site, folder = Path(site), Path(folder)
    if not (site / MARK).is_file():
        raise ValueError(f"{site} holds no built site")
    if folder.resolve().is_relative_to(site.resolve()):
        raise ValueError(f"{folder} is inside the site it would copy ({site})")
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not earlier_export(folder):
        raise ValueError(f"{folder} is not empty and holds no earlier export: choose an empty or new folder")
    shutil.copytree(site, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns('*.partial'))
    files = [path for path in folder.rglob('*') if path.is_file()]
    return f"exported the playground into {folder}/: {len(files)} files, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB"


def earlier_export(folder):
    try:
        return 'wheels' in json.loads((folder / MARK).read_text())
    except (OSError, ValueError):
        return False
