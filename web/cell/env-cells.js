// A page's cells that share envs, like a notebook's cells share a kernel, and the order they run in: Run on
// a cell first runs its env's hidden setup code and the earlier cells of its env that have not run since the
// env started.
import { t, tn } from "../i18n/messages.js";

export class EnvCells {
  constructor(session) {
    this.session = session;
    this.cells = []; // in page order; each cell has .env and .number
    this.setups = new Map(); // env -> setup code
    this.ran = new Set(); // cells and setups whose names are in their env now
    this.lost = new Set(); // cells whose names went with the last restart
    this.chain = Promise.resolve();
    session.onRestart(() => {
      this.lost = new Set([...this.ran].filter((item) => typeof item !== "string"));
      this.ran.clear();
    });
  }

  add(cell) {
    cell.number = this.cells.length + 1;
    this.cells.push(cell);
  }

  addSetup(env, code) {
    this.setups.set(env, [this.setups.get(env), code].filter(Boolean).join("\n"));
  }

  /** Runs `cell` after what it needs, one chain at a time. */
  run(cell) {
    const turn = this.chain.then(() => this.runWithEarlier(cell));
    this.chain = turn.catch(() => {});
    return turn;
  }

  /**
   * Runs `cells` in order, each once, as Jupyter's Run all does: a cell that fails does not stop the
   * ones after it; Stop (or Python restarting, or `cancelled()`) does. Resolves with {failed: [cells], stopped}.
   */
  async runAll(cells, cancelled = () => false) {
    const failed = [];
    for (const cell of cells) {
      if (cancelled()) return { failed, stopped: true };
      const turn = this.chain.then(() => cell.run());
      this.chain = turn.catch(() => {});
      const { status } = await turn;
      if (status === "ok") this.ran.add(cell);
      else failed.push(cell);
      if (!["ok", "error"].includes(status)) return { failed, stopped: true };
    }
    return { failed, stopped: false };
  }

  async runWithEarlier(cell) {
    let stopped = false;
    let current = null;
    cell.hold(() => {
      stopped = true;
      current?.stop();
    });
    const needed = await this.runSetup(cell);
    for (const earlier of this.earlierCells(cell)) {
      if (stopped || !needed) break;
      current = earlier;
      const { status } = await earlier.run({ note: t("run first, because cell {number} needs it", { number: cell.number }) });
      if (status !== "ok") {
        cell.release();
        cell.output.startRun();
        cell.output.message("warning", t("Cell {number} did not finish, so this cell did not run. Fix or run cell {number}, then press Run here again.", { number: earlier.number }));
        return;
      }
      this.ran.add(earlier);
    }
    if (stopped || !needed) {
      cell.release();
      if (stopped) {
        cell.output.startRun();
        cell.output.message("warning", t("Stopped before this cell ran."));
      }
      return;
    }
    const { status } = await cell.run();
    if (status === "ok") this.ran.add(cell);
    if (status === "restarted") this.explainLoss(cell);
  }

  earlierCells(cell) {
    return this.cells.filter((other) => other.env === cell.env && other.number < cell.number && !this.ran.has(other));
  }

  async runSetup(cell) {
    const code = this.setups.get(cell.env);
    if (!code || this.ran.has(`setup:${cell.env}`)) return true;
    try {
      const result = await this.session.run({ code, env: cell.env }, () => {});
      if (result.status === "ok") {
        this.ran.add(`setup:${cell.env}`);
        return true;
      }
      cell.output.startRun(t("setup"));
      cell.output.message("error", t("The page's hidden setup code failed:"));
      if (result.error) cell.output.error(result.error);
    } catch (error) {
      cell.output.startRun(t("setup"));
      cell.output.message("error", error.message);
    }
    return false;
  }

  explainLoss(cell) {
    const lost = this.cells.filter((other) => other.env === cell.env && this.lost.has(other)).map((other) => other.number);
    const which = lost.length
      ? tn("the names that cell {cells} defined are gone", "the names that cells {cells} defined are gone", lost.length, { cells: lost.join(", ") })
      : t("its names are gone");
    cell.output.message("warning", t("Python restarted, so {which}. Press Run again: the cells before this one run first.", { which }));
  }

  /** Empties an env: its cells run afresh, from the first, on the next Run. */
  reset(env) {
    this.session.reset(env);
    for (const item of [...this.ran]) if (item === `setup:${env}` || item.env === env) this.ran.delete(item);
  }
}
