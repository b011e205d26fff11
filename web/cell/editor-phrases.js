// CodeMirror's own words (its EditorState.phrases, by their English keys) and the editor's name, in the page's
// language: editor.js is bundled apart from the page's modules, so the cell hands them to it.
import { t } from "../i18n/messages.js";

export const editorLabel = () => t("Python code");

export function editorPhrases() {
  return {
    "Fold line": t("Fold line"),
    "Unfold line": t("Unfold line"),
    "Folded lines": t("Folded lines"),
    "Unfolded lines": t("Unfolded lines"),
    "folded code": t("folded code"),
    "unfold": t("unfold"),
    "to": t("to"),
    "Find": t("Find"),
    "Replace": t("Replace"),
    "next": t("next"),
    "previous": t("previous"),
    "all": t("all"),
    "match case": t("match case"),
    "regexp": t("regexp"),
    "by word": t("by word"),
    "replace": t("replace"),
    "replace all": t("replace all"),
    "close": t("close"),
    "current match": t("current match"),
    "on line": t("on line"),
    "replaced match on line $": t("replaced match on line $"),
    "replaced $ matches": t("replaced $ matches"),
    "Go to line": t("Go to line"),
    "go": t("go"),
    "Control character": t("Control character"),
    "Completions": t("Completions"),
    "Selection deleted": t("Selection deleted"),
  };
}
