// The page's reading of each marker line in the JSON list on stdin (web/formats/exercise-markers.js, as
// hosts and lessons call it: the line starts a block), written to stdout as JSON in the table's terms.
// usage: node tests/formats/read_markers.mjs < lines.json
import { readFileSync } from "node:fs";
import { marker } from "../../web/formats/exercise-markers.js";

const lines = JSON.parse(readFileSync(0, "utf8"));
const read = lines.map((line) => {
  const found = marker(`${line}\nprint(1)`);
  if (!found) return { kind: null };
  return {
    kind: found.kind,
    id: found.id ?? null,
    tries: found.tries === undefined ? null : String(found.tries),
    quiz: found.quiz?.field ?? null,
    labels: found.quiz?.labels ?? null,
  };
});
process.stdout.write(JSON.stringify(read));
