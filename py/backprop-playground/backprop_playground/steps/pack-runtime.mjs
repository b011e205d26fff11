// The packed runtime: files in one zstd stream at level 22 (packed.py says why), each padded to a multiple
// of 16 bytes.
// usage: node pack-runtime.mjs TARGET PART...
import { readFileSync, writeFileSync } from "node:fs";
import { compress, init } from "@bokuweb/zstd-wasm";

const [target, ...parts] = process.argv.slice(2);
await init();
const padded = parts.map((path) => readFileSync(path)).flatMap((data) => [data, Buffer.alloc((16 - (data.length % 16)) % 16)]);
writeFileSync(target, compress(Buffer.concat(padded), 22));
