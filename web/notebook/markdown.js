// A notebook's Markdown cells as HTML, with markdown-it; bundled by the build (backprop_playground/steps/bundles.py) into markdown.bundle.js,
// which only notebook.html loads. The caller sanitizes the HTML (raw HTML in a cell is allowed here).
import MarkdownIt from "markdown-it";

const markdown = new MarkdownIt({ html: true, linkify: true });

export function renderMarkdown(source) {
  return markdown.render(source);
}
