"""sw.js at the root of dist/ (a service worker's scope is its folder): web/offline/sw.js bundled with Workbox
and the policy, then the precache manifest of everything in dist/ written into it (service-worker.mjs)."""
import json
import tempfile
from pathlib import Path

from ..paths import CACHE, WEB
from ..policy import CONTENT_SECURITY_POLICY, NOTEBOOK_POLICY
from .tools import ESBUILD, node, run

SOURCE = 'offline/sw.js'
SW = 'sw.js'


def bundle_service_worker(out):
    """Run it again after changing a built file: the manifest holds every file's hash."""
    (CACHE / 'bundles').mkdir(parents=True, exist_ok=True)
    # A file of this call's own, which the manifest is written into: a build and a test may bundle at once.
    with tempfile.TemporaryDirectory(dir=CACHE / 'bundles', prefix='sw-') as folder:
        made = Path(folder) / SW
        run(ESBUILD, WEB / SOURCE, '--bundle', '--format=iife', '--minify', '--log-level=warning',
            '--define:process.env.NODE_ENV="production"', f"--define:CONTENT_SECURITY_POLICY={json.dumps(CONTENT_SECURITY_POLICY)}",
            f"--define:NOTEBOOK_CONTENT_SECURITY_POLICY={json.dumps(NOTEBOOK_POLICY)}", f"--outfile={made}")
        node('service-worker.mjs', out.dist, made, label='node: workbox-build injectManifest')
        out.put(out.dist / SW, made.read_bytes())
