// Fenced code blocks as Markdown renderers write them, for `embed.js?lang=NAME`:
//   <pre><code class="language-NAME">            Python-Markdown, MkDocs, highlight.js, Hugo and Chroma
//   <div class="language-NAME highlighter-rouge">  Jekyll and Rouge (also pymdownx, Docusaurus)
//   <pre class="sourceCode NAME">                 Pandoc and Quarto
// Each block is found once, as the outermost wrapper that holds nothing but the block.
import { LINE_NUMBERS, codeOf } from "../dom/code-text.js";

const WRAPPER = /(^|\s)(highlight|highlighter-rouge|sourceCode|codehilite|language-[\w-]+|codeBlockContainer)(\s|$)/;

/** [{ element, code }] for each block of language `lang` under `root`, in document order. */
export function codeBlocks(root, lang) {
  const name = CSS.escape(lang);
  const selector = [
    `pre > code.language-${name}`, `pre.language-${name}`, `div.language-${name} pre`,
    `pre.sourceCode.${name}`, `pre > code.sourceCode.${name}`,
  ].join(", ");
  const blocks = [];
  const seen = new Set();
  for (const match of root.querySelectorAll(selector)) {
    let pre = match.closest("pre");
    if (pre.closest(LINE_NUMBERS)) continue;
    // Rouge's line numbers put the code's own <pre> in a table inside the block's <pre>.
    while (pre.parentElement?.closest("pre")) pre = pre.parentElement.closest("pre");
    if (seen.has(pre)) continue;
    seen.add(pre);
    blocks.push({ element: outermost(pre), code: codeOf(pre) });
  }
  return blocks;
}

/** The pre, or the highlighter's wrappers around it when they hold nothing else. */
function outermost(pre) {
  let element = pre;
  while (element.parentElement && element.parentElement.children.length === 1 && WRAPPER.test(element.parentElement.className)) {
    element = element.parentElement;
  }
  return element;
}
