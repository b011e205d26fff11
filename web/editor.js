// The code editor: CodeMirror 6 with Python, Ctrl/Cmd+Enter to run, and a mark on the failing line.
// build.py bundles this file with esbuild into editor.bundle.js.
import { EditorView, basicSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { indentUnit } from "@codemirror/language";
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import { Decoration, keymap } from "@codemirror/view";

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

export function createEditor({ parent, doc, onRun, onChange, readOnly = false }) {
  const runKeys = [
    { key: "Mod-Enter", run: () => (onRun(), true) },
    { key: "Shift-Enter", run: () => (onRun(), true) },
  ];
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        Prec.highest(keymap.of(runKeys)),
        basicSetup,
        python(),
        indentUnit.of("    "),
        EditorView.lineWrapping,
        errorLine,
        EditorView.updateListener.of((update) => update.docChanged && onChange(view.state.doc.toString())),
        EditorView.contentAttributes.of({ "aria-label": "Python code" }),
        ...(readOnly ? [EditorState.readOnly.of(true)] : []),
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
    clearError: () => view.dispatch({ effects: setErrorLine.of(null) }),
    focus: () => view.focus(),
  };
}
