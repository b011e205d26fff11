"""The one Content-Security-Policy. The build writes it into every page as a <meta>, the service worker gets
it through esbuild's --define and adds it to documents and workers, and the server sends it as a header
(docs/security.md, "Content-Security-Policy", says why each part is there). Workers need the header: a page's
<meta> does not reach them."""

import html

CONTENT_SECURITY_POLICY = '; '.join(
    [
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",  # Pyodide and viz.js compile WebAssembly
        "worker-src 'self'",
        "connect-src 'self'",
        "img-src 'self' data:",  # the favicon is a data: URL
        "style-src 'self' 'unsafe-inline'",  # CodeMirror and Observable Plot insert <style> elements
        "base-uri 'self'",
        "form-action 'none'",
        "object-src 'none'",
    ]
)
# notebook.html alone may fetch from other hosts (`#url=` opens a notebook from any host that sends CORS
# headers). Its workers keep the policy above: a worker's comes from its own response.
NOTEBOOK_PAGE = 'notebook.html'
NOTEBOOK_POLICY = CONTENT_SECURITY_POLICY.replace("connect-src 'self'", "connect-src *")


def policy_for(path):
    """The Content-Security-Policy of the file at `path` (a URL path or a file name)."""
    name = str(path).split('?')[0].rstrip('/').rsplit('/', 1)[-1]
    return NOTEBOOK_POLICY if name == NOTEBOOK_PAGE else CONTENT_SECURITY_POLICY


def csp_meta(policy):
    return (
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy, quote=False)}">'  # a policy has no "
    )
