// Reads each archive named on stdin (a JSON list of paths) with web/formats/wheel.js, as the Python worker does,
// and prints [{files: {path: sha256 of its bytes}} or {error}] as JSON.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { wheelFiles } from "../../web/formats/wheel.js";

const paths = JSON.parse(readFileSync(0, "utf8"));
const results = [];
for (const path of paths) {
  try {
    const files = await wheelFiles(new Uint8Array(readFileSync(path)));
    results.push({ files: Object.fromEntries(files.map((file) => [file.path, createHash("sha256").update(file.bytes).digest("hex")])) });
  } catch (error) {
    results.push({ error: error.message });
  }
}
process.stdout.write(JSON.stringify(results));
