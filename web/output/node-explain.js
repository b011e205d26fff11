// "Why is this grad that number?": a value picked in a drawn graph (a click, or Enter on it) opens its
// chain-rule arithmetic beside the graph (`data-testid="node-explain"`), from the numbers the graph's event
// carried (explain-model.js); a neuron's or a layer's box opens to the values it holds. Escape or Close
// closes it and gives the focus back to the value (in the drawing, or in the tree of values that opened it).
import { element } from "../dom/element.js";
import { markNode, nodeById, nodeTitle, toolButton, valueIndex } from "./graph-view.js";
import { explanationOf, summaryOf } from "./explain-text.js";
import { t, tn } from "../i18n/messages.js";

/**
 * The panel of one graph card. `model`: the explain model; `view`: graph-view's controller; `boxes()`:
 * the current grouped view's {members} (or null on the full graph). Returns {pick(id, node, how), refresh(), close()}.
 */
export function explainPanel({ card, view, model, boxes }) {
  const panel = element("section", "node-explain");
  panel.dataset.testid = "node-explain";
  panel.hidden = true;
  const close = toolButton(t("Close"), t("Close the explanation"), () => hide(true));
  close.classList.add("explain-close");
  const body = element("div", "explain-content");
  panel.append(close, body);
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation(); // Escape here closes the panel; it does not stop a run
    hide(true);
  });
  card.querySelector(".graph-view").after(panel);
  let shown = null; // {kind: "value" | "box", id, back?}
  let picked = null; // the drawing's id that opened it, to mark and to focus again
  let returnTo = null; // what else opened it (an item of the tree of values), to focus again instead

  const mark = (id) => markNode(view.svg(), "explained", id);
  view.onShow(() => picked && mark(picked));

  function render(focus) {
    if (!shown) return;
    if (shown.kind === "value") {
      const content = explanationOf(model, shown.index, { go: (j) => showValue(j, true, shown.back) });
      panel.setAttribute("aria-label", t("How {name}'s data and grad are computed", { name: model.names[shown.index] }));
      panel.dataset.state = content.dataset.state;
      const parts = [content];
      if (shown.back) {
        const backTo = t("Back to {name}", { name: shown.back.title });
        const back = toolButton(backTo, backTo, () => showBox(shown.back.id, shown.back.title, true));
        back.prepend(element("span", "", "◀ ")); // the name stays the words alone
        back.firstChild.setAttribute("aria-hidden", "true");
        parts.unshift(back);
      }
      body.replaceChildren(...parts);
    } else {
      panel.setAttribute("aria-label", t("The values of {name}", { name: shown.title }));
      panel.dataset.state = "box";
      body.replaceChildren(boxContent(shown));
    }
    panel.hidden = false;
    if (focus) {
      body.querySelector(".explain-title")?.focus({ preventScroll: true });
      panel.scrollIntoView({ block: "nearest" });
    }
  }

  function boxContent({ title, members }) {
    const box = element("div", "explain-body");
    const heading = element("h3", "explain-title", title);
    heading.tabIndex = -1;
    const list = element("ul", "explain-members");
    list.setAttribute("aria-label", t("The values of {name}", { name: title }));
    for (const i of members) {
      const item = element("li");
      item.append(toolButton(summaryOf(model, i), t("Explain {name}", { name: summaryOf(model, i) }), () => showValue(i, true, { id: shown.id, title })));
      list.append(item);
    }
    box.append(heading, element("p", "explain-values", tn("{count} value, inputs first: pick one to see its arithmetic.", "{count} values, inputs first: pick one to see its arithmetic.", members.length, { count: members.length })), list);
    return box;
  }

  function showValue(index, focus, back = null) {
    shown = { kind: "value", index, back };
    render(focus);
  }

  function showBox(id, title, focus) {
    const members = boxes()?.members?.[id];
    if (!Array.isArray(members)) return;
    shown = { kind: "box", id, title, members: members.filter((i) => Number.isInteger(i) && i >= 0 && i < model.n) };
    render(focus);
  }

  function hide(returnFocus) {
    panel.hidden = true;
    shown = null;
    mark(null);
    const node = returnTo?.isConnected ? returnTo : nodeById(view.svg(), picked);
    picked = returnTo = null;
    if (returnFocus) node?.focus();
  }

  return {
    /** Opens value `id` (`v3`: `node` may be null, as for a value inside a grouped view's box), or box `node`. */
    pick(id, node, { focus = true, back = null } = {}) {
      const index = valueIndex(id);
      if (index === null && !node) return;
      picked = id;
      returnTo = back;
      mark(id);
      if (index !== null) {
        if (index < model.n) showValue(index, focus);
      } else {
        showBox(id, nodeTitle(node), focus);
      }
    },
    refresh: () => render(false),
    close: () => hide(false),
    remove: () => {
      hide(false);
      panel.remove();
    },
    get open() {
      return !panel.hidden;
    },
    get picked() {
      return panel.hidden ? null : picked;
    },
  };
}
