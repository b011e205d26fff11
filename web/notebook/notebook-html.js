// What DOMPurify keeps of a notebook's HTML (saved outputs, Markdown cells and hints): no <style> (in a shadow
// root it could restyle the whole cell, :host included) and no popovers (the top layer is above every box);
// inline styles stay, for SVG from matplotlib, held in by `contain: paint`. A module of its own: an article's
// Markdown hints need these settings without the saved outputs' module.
export const NOTEBOOK_HTML = { FORBID_TAGS: ["style", "form"], FORBID_ATTR: ["popover", "popovertarget", "popovertargetaction", "commandfor", "command", "autofocus"] };
