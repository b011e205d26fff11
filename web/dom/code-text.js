// The code of a block as the author typed it: what <pre data-playground>, a checks <script> and a fenced
// block from a Markdown host hold. Highlighting spans are flattened, entities resolved by the parser, <br> is
// a newline, a renderer's line numbers are left out; the newline after the opening tag and trailing space too.
// Line numbers that highlighters put beside the code: Chroma's (ln, lnt), Pygments' (linenos), Rouge's gutter.
export const LINE_NUMBERS = ".ln, .lnt, .linenos, .lineno, .rouge-gutter, .gutter";

export function codeOf(block) {
  const copy = block.cloneNode(true);
  for (const numbers of copy.querySelectorAll(LINE_NUMBERS)) numbers.remove();
  for (const br of copy.querySelectorAll("br")) br.replaceWith("\n");
  return copy.textContent.replace(/^\n/, "").replace(/\s+$/, "");
}
