// A cell in its own open shadow root (`data-testid="cell"`), one of a page's EnvCells (cell/env-cells.js): what article
// cells (embed.js) and notebook.html's code cells are made of. Hosts add their own tools around it.
import { Cell } from "../cell/cell.js";
import { buildCellView, shadowHost } from "../cell/cell-view.js";

export function hostedCell({ session, envCells, code, env, name, theme = "auto", collapsed = false, readOnly = false, locked = false, request, onChange, onAdvance,
  quiz = null, points = null, onPointsChange = null }) {
  const { host, root } = shadowHost("cell");
  const parts = buildCellView(root, { name, theme, collapsed });
  const cell = new Cell({ session, parts, code, env, readOnly, locked, request, onChange, onAdvance, quiz, points, onPointsChange,
    onRunRequest: (target) => envCells.run(target) });
  envCells.add(cell);
  host.cell = cell;
  return { host, cell, parts };
}
