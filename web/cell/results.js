// Checked results leave a cell as one event on the document, for whoever listens (the classroom's outbox):
// {kind: "exercise" | "test", id, state: "passed" | "failed", code, message, score?: {raw, max}}.
export const RESULT_EVENT = "playground-result";

export function reportResult(result) {
  document.dispatchEvent(new CustomEvent(RESULT_EVENT, { detail: result }));
}
