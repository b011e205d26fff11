"""sw.js at the root of dist/ (a service worker's scope is its folder): web/offline/sw.js bundled with Workbox
and the policy, then the precache manifest of everything in dist/ written into it (service-worker.mjs)."""

import json
import shutil
import tempfile
from pathlib import Path

from ..paths import ROOT, WEB
from ..policy import CONTENT_SECURITY_POLICY, NOTEBOOK_POLICY
from .made import made
from .tools import HERE, esbuild, node

SOURCE = 'offline/sw.js'
SW = 'sw.js'
PROGRAM = 'service-worker.mjs'
# Besides sw.js and the docs, as PROGRAM's globIgnores (the packed runtime is being written while this runs).
UNLISTED = ('.gz', '.br', '.zst', '.partial')
WHEELS = 'wheels/*.whl'  # no page fetches them: their files come in wheels/site-packages.json


def bundle_service_worker(out):
    """Run it again after changing a built file: the manifest holds every file's hash, so it is made again
    whenever a file of dist/ changed."""
    bundle = esbuild(
        'sw',
        WEB / SOURCE,
        '--format=iife',
        '--minify',
        '--define:process.env.NODE_ENV="production"',
        f"--define:CONTENT_SECURITY_POLICY={json.dumps(CONTENT_SECURITY_POLICY)}",
        f"--define:NOTEBOOK_CONTENT_SECURITY_POLICY={json.dumps(NOTEBOOK_POLICY)}",
    )
    listed = [
        path
        for path in sorted(out.dist.rglob('*'))
        if path.is_file()
        and path.suffix not in UNLISTED
        and path.relative_to(out.dist).parts[0] not in (SW, 'docs')
        and not path.relative_to(out.dist).match(WHEELS)
    ]

    def make(target):
        with tempfile.TemporaryDirectory() as folder:  # Workbox writes a file named as a service worker
            sw = Path(folder) / SW
            sw.write_bytes(bundle)
            node(PROGRAM, out.dist, sw, label='node: workbox-build injectManifest')
            shutil.move(sw, target)
        return []

    given = [
        bundle,
        Path(__file__),
        HERE / PROGRAM,
        ROOT / 'package-lock.json',
        *(part for path in listed for part in (path.relative_to(out.dist).as_posix(), path)),
    ]
    out.put(out.dist / SW, made('sw-manifest', given, make))
