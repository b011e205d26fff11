// Cleans Graphviz's SVG, parsed as XML, in place: it keeps only the SVG elements and attributes that Graphviz
// writes for a drawing. Graphviz copies some attributes into the SVG unescaped (fontname: a quote ends the
// attribute and starts new markup) or as links (URL, href, image), so a learner's program can put any markup
// in it: no links stay (even "#code=..." would open other code), no images, foreignObject, style or animation
// elements, no event handlers, no data-* or aria-* attributes (data-testid="run" on a node would pass for the
// page's own button), nothing that loads from outside the drawing. What is inside a dropped element goes with it.
// An allowlist walk of our own rather than DOMPurify: the tree is parsed as XML and adopted as nodes, never
// parsed as HTML again, so none of DOMPurify's guards against the HTML parser's rewrites apply, and its
// per-node hooks cost a 2,000-value graph ~180 ms.

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

const ELEMENTS = new Set([
  "svg", "g", "title", "text", "a", "polygon", "polyline", "path", "ellipse", "circle",
  "defs", "linearGradient", "radialGradient", "stop",
]);
const ATTRIBUTES = new Set([
  "width", "height", "viewBox", "preserveAspectRatio", "id", "class",
  "transform", "points", "d", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy",
  "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity", "opacity",
  "font-family", "font-size", "font-weight", "font-style", "text-anchor", "text-decoration", "baseline-shift",
  "gradientUnits", "offset", "style",
]);
// by namespace, the local names kept: xlink:title (a tooltip), xml:space, xmlns and xmlns:xlink
const NAMESPACED = new Map([
  [XLINK_NS, new Set(["title"])],
  [XML_NS, new Set(["space"])],
  [XMLNS_NS, new Set(["xmlns", "xlink"])],
]);
// Presentation attributes and styles are read as CSS: a url() not to the drawing's own gradients, CSS's other ways
// to load an image, and any backslash (an escape could spell either) would let a drawing fetch from elsewhere.
const LOADS = /url\(\s*(?!['"]?#)|image-set\(|image\(|src\(|cross-fade\(|element\(|\\/i;
// What Graphviz writes in a gradient stop's style: its colour and opacity, nothing else.
const STOP_STYLE = /^\s*(?:stop-(?:color|opacity)\s*:\s*[#\w\s.,%()+-]*;?\s*)*$/i;
const FORM = document.createElement("form");

/** Removes from `svg` (an <svg> element of an XML document) every node and attribute a drawing does not need. */
export function cleanGraphSvg(svg) {
  cleanAttributes(svg);
  cleanChildren(svg);
}

function cleanChildren(parent) {
  let child = parent.firstChild;
  while (child) {
    const next = child.nextSibling;
    if (child.nodeType === Node.TEXT_NODE) {
      // kept as it is: a text node is never markup
    } else if (child.nodeType === Node.ELEMENT_NODE && child.namespaceURI === SVG_NS && ELEMENTS.has(child.localName)) {
      cleanAttributes(child);
      cleanChildren(child);
    } else {
      child.remove(); // comments, CDATA, processing instructions, and every other element with its content
    }
    child = next;
  }
}

function cleanAttributes(element) {
  const attributes = element.attributes;
  for (let i = attributes.length - 1; i >= 0; i--) {
    const attribute = attributes[i];
    if (!kept(element, attribute)) element.removeAttributeNode(attribute);
  }
}

function kept(element, { namespaceURI, localName, value }) {
  const allowed = namespaceURI === null ? ATTRIBUTES.has(localName) : NAMESPACED.get(namespaceURI)?.has(localName);
  if (!allowed || LOADS.test(value)) return false;
  // Graphviz writes style only on gradient stops (stop-color, stop-opacity).
  if (localName === "style") return element.localName === "stop" && STOP_STYLE.test(value);
  // an id that names a property of the document or of a form would shadow it in scripts (DOM clobbering)
  if (localName === "id") return !(value in document) && !(value in FORM);
  return true;
}
