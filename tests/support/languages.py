"""What a page shows that did not come from the catalogue under the pseudo-locale en-XA (issue 45): every visible
text, title, aria-label and placeholder, in the page and in its cells' shadow roots, that is not between ⟪ ⟫
(a text between a message's parts set as code counts as inside its message's ⟪ ⟫).
Left out, as the issue says: code (the editor, <code>, <pre>), what a program printed, graph drawings (svg),
Python's exception line (its type and message as Python writes them: the runtime's words after it are tested in
French, test_languages.py), what the page marks translate="no" (equations, file formats' and files' names), and
`authored`, a selector of the author's own words (an article's hints, a notebook's Markdown). A message inside
what is marked translate="no" counts too: it would hide words from the walk and from a browser's translator."""

UNMARKED = """(authored) => {
  const words = /[A-Za-z]{2}/;
  const skip = ["pre", "code", ".cm-editor", "svg", "textarea", ".error-title", "[translate=no]", ...(authored ? [authored] : [])].join(", ");
  const found = [];
  // a text between a message's parts set as code (⟪Checking `x`: it raised⟫): after a ⟪ its parent has not closed
  const opened = (node) => {
    let before = "";
    for (let sibling = node.parentNode.firstChild; sibling !== node; sibling = sibling.nextSibling) before += sibling.textContent;
    return before.lastIndexOf("⟪") > before.lastIndexOf("⟫");
  };
  const roots = [document, ...[...document.querySelectorAll("*")].map((e) => e.shadowRoot).filter(Boolean)];
  for (const root of roots) {
    const walker = document.createTreeWalker(root === document ? document.body : root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      const text = node.data.trim();
      if (!words.test(text) || element.closest(skip) || !element.checkVisibility()) continue;
      // inside an open message: only what follows its ⟫ in this text is left to mark
      if (opened(node) && !words.test(text.includes("⟫") ? text.slice(text.indexOf("⟫") + 1) : "")) continue;
      if (text.includes("⟪") || element.closest("[data-i18n]")?.textContent.includes("⟪")) continue;
      found.push(`${element.localName}.${element.className}: ${text}`);
    }
    // and the other way round: a message inside what the page says is not words to translate
    for (const element of root.querySelectorAll("[translate=no]")) {
      if (element.textContent.includes("⟪")) found.push(`translate=no ${element.localName}.${element.className}: ${element.textContent}`);
    }
    for (const element of root.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
      if (element.closest("svg, .cm-editor, pre") || (authored && element.closest(authored))) continue;
      for (const name of ["title", "aria-label", "placeholder", "alt"]) {
        const value = element.getAttribute(name);
        if (value && words.test(value) && !value.includes("⟪")) found.push(`${element.localName}[${name}]: ${value}`);
      }
    }
  }
  return found;
}"""


def unmarked(page, authored=None):
    return page.evaluate(UNMARKED, authored)
