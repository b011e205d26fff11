// A short-lived worker that decodes the packed runtime (one zstd file, build step packed.py; the page
// downloaded it, packed-runtime.js) and hands each part back in a buffer of its own, then is ended: the
// decoder's WebAssembly memory (about 60 MB once it has held the output) goes with it instead of staying in
// the Python worker, and no part keeps the others alive. The build (backprop_playground/steps/bundles.py) bundles this file with the decoder.
import { decompress, init } from "@bokuweb/zstd-wasm";

self.onmessage = async ({ data: { packed, decoder, parts } }) => {
  try {
    await init(decoder);
    const bytes = decompress(new Uint8Array(packed));
    const buffers = parts.map(({ offset, size }) => bytes.slice(offset, offset + size).buffer);
    self.postMessage({ buffers, size: bytes.length }, buffers);
  } catch (error) {
    self.postMessage({ error: error && error.message ? error.message : String(error) });
  }
};
