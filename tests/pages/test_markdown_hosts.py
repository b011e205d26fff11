"""Fenced code blocks become cells: `embed.js?lang=NAME` on pages shaped like what Markdown hosts write
(Jekyll and Rouge, Hugo and Chroma, Quarto and Pandoc, MkDocs built for real), served from another origin.
Every non-local request is blocked (conftest.py)."""

import textwrap

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS
from support.pages import article, cells, mkdocs_article, press_run

pytestmark = pytest.mark.usefixtures('site')

# As typed: `<` and `&` must reach Python as themselves, whatever the host escaped or highlighted.
CODE = 'x = [1, 2]\nprint(x[0] < x[1], "a & b")'
PRINTED = 'True a & b\n'
BASH = 'echo hi && ls'

HOSTS = {
    'Jekyll and Rouge': (
        '<div class="language-python highlighter-rouge"><div class="highlight"><pre class="highlight"><code>'
        '<span class="n">x</span> <span class="o">=</span> <span class="p">[</span><span class="mi">1</span>'
        '<span class="p">,</span> <span class="mi">2</span><span class="p">]</span>\n'
        '<span class="k">print</span><span class="p">(</span><span class="n">x</span><span class="p">[</span>'
        '<span class="mi">0</span><span class="p">]</span> <span class="o">&lt;</span> <span class="n">x</span>'
        '<span class="p">[</span><span class="mi">1</span><span class="p">],</span> '
        '<span class="s">"a &amp; b"</span><span class="p">)</span>\n</code></pre></div></div>\n'
        '<div class="language-bash highlighter-rouge"><div class="highlight"><pre class="highlight"><code>'
        'echo hi &amp;&amp; ls\n</code></pre></div></div>'
    ),
    'Hugo and Chroma, with line numbers': (
        '<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-python" data-lang="python">'
        '<span class="line"><span class="ln">1</span><span class="cl"><span class="n">x</span> <span class="o">=</span> '
        '[<span class="mi">1</span>, <span class="mi">2</span>]\n</span></span>'
        '<span class="line"><span class="ln">2</span><span class="cl"><span class="nb">print</span>(x[0] '
        '<span class="o">&lt;</span> x[1], <span class="s2">"a &amp; b"</span>)\n</span></span></code></pre></div>\n'
        '<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-bash" data-lang="bash">'
        '<span class="line"><span class="cl">echo hi &amp;&amp; ls\n</span></span></code></pre></div>'
    ),
    'Quarto and Pandoc': (
        '<div class="sourceCode" id="cb1"><pre class="sourceCode python code-with-copy"><code class="sourceCode python">'
        '<span id="cb1-1"><a href="#cb1-1" aria-hidden="true" tabindex="-1"></a>x <span class="op">=</span> '
        '[<span class="dv">1</span>, <span class="dv">2</span>]</span>\n'
        '<span id="cb1-2"><a href="#cb1-2" aria-hidden="true" tabindex="-1"></a><span class="bu">print</span>'
        '(x[<span class="dv">0</span>] <span class="op">&lt;</span> x[<span class="dv">1</span>], '
        '<span class="st">"a &amp; b"</span>)</span></code></pre></div>\n'
        '<div class="sourceCode" id="cb2"><pre class="sourceCode bash"><code class="sourceCode bash">'
        '<span id="cb2-1"><a href="#cb2-1" aria-hidden="true" tabindex="-1"></a>echo hi &amp;&amp; ls</span>'
        '</code></pre></div>'
    ),
}


def open_article(page, site_url, other_origin, name, body, query='lang=python'):  # noqa: F811
    url = article(
        other_origin,
        name,
        f'<h1>Post</h1>{body}<p>The end.</p><script type="module" src="{site_url}embed.js?{query}"></script>',
    )
    page.goto(url)
    return cells(page)


@pytest.mark.parametrize('body', HOSTS.values(), ids=HOSTS.keys())
def test_python_blocks_of_each_host_become_cells_and_run_as_typed(page, site_url, other_origin, body):  # noqa: F811
    found = open_article(page, site_url, other_origin, 'host.html', body)
    expect(found).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    section = press_run(found.first)
    expect(section.locator('pre.stdout')).to_have_text(PRINTED)
    expect(page.get_by_text(BASH)).to_be_visible()  # the bash block is left as it was


def test_only_blocks_fenced_as_playground_run_with_lang_playground(page, site_url, other_origin):  # noqa: F811
    body = (
        f'<pre><code class="language-python"># shown, not run\nprint("no")</code></pre>'
        f'<pre><code class="language-playground">{CODE.replace("&", "&amp;").replace("<", "&lt;")}</code></pre>'
    )
    found = open_article(page, site_url, other_origin, 'fenced.html', body, query='lang=playground&env=post')
    expect(found).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_text('# shown, not run')).to_be_visible()
    expect(press_run(found.first).locator('pre.stdout')).to_have_text(PRINTED)


def test_a_mkdocs_site_runs_its_python_blocks_and_only_them(page, site_url, other_origin, tmp_path):  # noqa: F811
    page.goto(
        mkdocs_article(
            other_origin,
            'mkdocs-site',
            textwrap.dedent(f'''\
        # Backprop

        ```python
        {CODE.splitlines()[0]}
        {CODE.splitlines()[1]}
        ```

        ```bash
        {BASH}
        ```

        ```python
        from micrograd.engine import Value
        a = Value(2.0) * Value(3.0)
        print(a.data)
        ```
        '''),
            site_url,
            tmp_path,
        )
    )
    found = cells(page)
    expect(found).to_have_count(2, timeout=STARTUP_TIMEOUT_MS)
    expect(press_run(found.nth(0)).locator('pre.stdout')).to_have_text(PRINTED)
    expect(press_run(found.nth(1)).locator('pre.stdout')).to_have_text('6.0\n')
    expect(page.get_by_text(BASH)).to_be_visible()
