// A short-lived worker that downloads the packed runtime (one zstd file, build step packed.py), decodes it
// and hands each part back in a buffer of its own, then is ended: the decoder's WebAssembly memory (about
// 60 MB once it has held the output) goes with it instead of staying in the Python worker, and no part keeps
// the others alive. It says "progress" as the download goes, so that a slow room's Wi-Fi is not taken for a
// stall. build.py bundles this file with the decoder.
import { decompress, init } from "@bokuweb/zstd-wasm";

self.onmessage = async ({ data: { url, decoder, parts } }) => {
  try {
    const [packed] = await Promise.all([download(url), init(decoder)]);
    const bytes = decompress(packed);
    const buffers = parts.map(({ offset, size }) => bytes.slice(offset, offset + size).buffer);
    self.postMessage({ buffers, size: bytes.length }, buffers);
  } catch (error) {
    self.postMessage({ error: error && error.message ? error.message : String(error) });
  }
};

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  const chunks = [];
  let length = 0;
  for (const reader = response.body.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
    self.postMessage({ progress: length });
  }
  const packed = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    packed.set(chunk, offset);
    offset += chunk.length;
  }
  return packed;
}
