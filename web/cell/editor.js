// The code editor: CodeMirror 6 with Python, Ctrl/Cmd+Enter to run, and a mark on the failing line.
// The build (backprop_playground/steps/bundles.py) bundles this file with esbuild into editor.bundle.js.
import { EditorView, basicSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { defaultHighlightStyle, HighlightStyle, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import { Decoration, keymap } from "@codemirror/view";

// CodeMirror's colours are made for white: on it, orange and red text fail contrast (WCAG AA), and on a
// dark cell almost every colour does. Each colour is read from a variable that cell.css sets per theme.
const TOKEN_COLORS = {
  "#404740": "meta", "#708": "keyword", "#219": "atom", "#164": "literal", "#a11": "string", "#e40": "special",
  "#00f": "definition", "#30a": "local", "#085": "type", "#167": "class", "#256": "special-name", "#00c": "property",
  "#940": "comment", "#f00": "invalid",
};
const tokenColors = HighlightStyle.define(defaultHighlightStyle.specs.map((spec) =>
  TOKEN_COLORS[spec.color] ? { ...spec, color: `var(--code-${TOKEN_COLORS[spec.color]})` } : spec));
const editorColors = EditorView.theme({
  ".cm-gutters": { backgroundColor: "var(--bg)", color: "var(--muted)", borderColor: "var(--line)" },
  ".cm-activeLine": { backgroundColor: "var(--code-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--code-line-gutter)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--ink)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection":
    { backgroundColor: "var(--code-selection)" },
  ".cm-tooltip, .cm-panels, .cm-textfield": { backgroundColor: "var(--panel)", color: "var(--ink)", borderColor: "var(--line)" },
  ".cm-button": { backgroundImage: "none", backgroundColor: "var(--bg)", color: "var(--ink)", borderColor: "var(--line)" },
});

const setErrorLine = StateEffect.define();

const errorLine = StateField.define({
  create: () => Decoration.none,
  update(marks, transaction) {
    if (transaction.docChanged) return Decoration.none;
    for (const effect of transaction.effects) {
      if (effect.is(setErrorLine)) {
        const { line, message } = effect.value || {};
        if (!line || line > transaction.state.doc.lines) return Decoration.none;
        const from = transaction.state.doc.line(line).from;
        const mark = Decoration.line({ class: "cm-errorLine", attributes: { title: message } });
        return Decoration.set([mark.range(from)]);
      }
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/**
 * `label` names the editor; `phrases` are CodeMirror's words in the page's language (cell/editor-phrases.js);
 * `selection` ({anchor, head}, offsets in `doc`) is where the cursor starts.
 */
export function createEditor({ parent, doc, selection, onRun, onAdvance = onRun, onChange, readOnly = false, editable = true, label = "Python code", phrases = {} }) {
  const runKeys = [
    { key: "Mod-Enter", run: () => (onRun(), true) },
    { key: "Shift-Enter", run: () => (onAdvance(), true) },
  ];
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      selection: selection && selection.head <= doc.length && selection.anchor <= doc.length ? selection : undefined,
      extensions: [
        Prec.highest(keymap.of(runKeys)),
        basicSetup,
        syntaxHighlighting(tokenColors),
        editorColors,
        python(),
        indentUnit.of("    "),
        EditorView.lineWrapping,
        errorLine,
        EditorView.updateListener.of((update) => update.docChanged && onChange(view.state.doc.toString())),
        // The code is focusable already (contenteditable); tabindex says so to checkers such as axe, which
        // otherwise find a scrolling editor with nothing in it to reach by keyboard. No tab stop is added.
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
        EditorState.phrases.of(phrases),
        ...(readOnly ? [EditorState.readOnly.of(true)] : []),
        ...(editable ? [] : [EditorView.editable.of(false)]),
      ],
    }),
  });
  view.dom.dataset.testid = "editor";
  return {
    view,
    getText: () => view.state.doc.toString(),
    setText(text) {
      // One undoable change, so Ctrl+Z brings back what was there before.
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    markError(line, message) {
      const effects = setErrorLine.of({ line, message });
      if (line && line <= view.state.doc.lines) {
        const at = view.state.doc.line(line).from;
        view.dispatch({ effects: [effects, EditorView.scrollIntoView(at, { y: "center" })] });
      } else {
        view.dispatch({ effects });
      }
    },
    // Every run clears the mark: without one, no transaction (each makes every editor on the page measure).
    clearError: () => {
      if (view.state.field(errorLine).size) view.dispatch({ effects: setErrorLine.of(null) });
    },
    focus: () => view.focus(),
  };
}
