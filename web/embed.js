// The script embed: `<script type="module" src="https://HOST/embed.js"></script>` turns every
// `<pre data-playground>` of the page into a cell (or an exercise: exercise.js). All cells share one Python (started when the
// reader first points at, focuses or runs a cell); cells of one env share one namespace.
// `embed.js?lang=python` also turns fenced code blocks of that language into cells (code-blocks.js says
// which markup counts), for Markdown sites that cannot add attributes, and blocks marked `# exercise: ID`
// (and its `# checks:`, `# hint:`, `# solution:` blocks) into exercises (exercise-blocks.js); `env`, `theme`
// and `tries` (failed tries before a solution is offered) may be given in the query too, for the whole page,
// and `locale` (hosts/article-language.js: else the article's <html lang>).
// It also sizes this site's embed.html iframes on the page (frame-height.js).
// Its modules come bundled in one file (hosts/article-cells.js says why).
import { startArticle } from "./hosts/article-cells.bundle.js";

// The npm package's copy of the site has no page a browser can open (a CDN sends HTML as text/plain: the build
// step package.py writes `false` here), so cells from it show "Open in playground ↗" and "Open as notebook ↗"
// only where the author named a playground (hosts/playground-pages.js).
const SERVES_PAGES = true;

startArticle(new URL(import.meta.url), SERVES_PAGES);
