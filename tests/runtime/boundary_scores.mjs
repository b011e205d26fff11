// The page's scores of each boundary event in the JSON list on stdin (web/output/boundary-scores.js, as the chart
// calls it for an event that carries its model and no scores), written to stdout as a JSON list (null: refused).
// usage: node tests/runtime/boundary_scores.mjs < events.json
import { readFileSync } from "node:fs";
import { gridScores } from "../../web/output/boundary-scores.js";

const events = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(events.map(({ grid, model }) => gridScores(model, grid.x, grid.y))));
