// Brotli at quality 11 for each file given, written beside it as FILE.br (by way of FILE.br.partial).
// Node's zlib has brotli; Python's standard library has not.
// usage: node brotli.mjs FILE...
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

for (const path of process.argv.slice(2)) {
  const data = readFileSync(path);
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
  };
  writeFileSync(`${path}.br.partial`, brotliCompressSync(data, { params }));
  renameSync(`${path}.br.partial`, `${path}.br`);
}
