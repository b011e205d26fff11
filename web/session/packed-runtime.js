// The runtime's three largest files (the standard library, pyodide.asm.wasm and the memory snapshot) as one
// zstd file, for a browser that was not offered brotli: a page on a classroom's LAN address over plain HTTP
// (browsers send brotli only to secure origins), or an article on another site. The snapshot holds the
// wasm's data segments, so the three compress together to about 7.5 MB, against 11.8 MB as gzip and 8.4 MB as
// brotli (docs/classroom.md, "Classroom"). Where the browser took brotli, or the site's service worker keeps the files,
// they come as usual.
import { startModuleWorker } from "./start-worker.js";

// Without a byte of the download or the decoded parts for this long, the packed file is given up and the
// files come one by one. A slow download goes on as long as bytes come.
const STALL_MS = 20_000;

/**
 * The packed files' bytes by absolute URL, or null to fetch them as usual: the browser took brotli for
 * build.json, the build has no packed runtime, or it could not be fetched or decoded.
 * `info` is build.json with `encoding`, the Content-Encoding it came with.
 */
export async function unpackRuntime(url, info) {
  if (!info.packed || info.encoding === "br") return null;
  const { file, decoder, parts, size } = info.packed;
  let worker;
  try {
    worker = startModuleWorker(new URL("./unpack-worker.bundle.js", import.meta.url));
    const buffers = await new Promise((resolve, reject) => {
      let timer;
      const wait = () => {
        clearTimeout(timer);
        timer = setTimeout(() => reject(new Error(`nothing came for ${STALL_MS / 1000} s`)), STALL_MS);
      };
      wait();
      worker.onmessage = ({ data }) => {
        if (data.progress !== undefined) return wait();
        clearTimeout(timer);
        if (data.error) reject(new Error(data.error));
        else if (data.size !== size) reject(new Error(`${data.size} bytes unpacked, ${size} expected`));
        else resolve(data.buffers);
      };
      worker.onerror = (event) => {
        clearTimeout(timer);
        reject(new Error(event.message || "the unpacking worker failed"));
      };
      worker.postMessage({ url: url(file), decoder: url(decoder), parts });
    });
    return new Map(parts.map(({ path }, i) => [url(path), new Uint8Array(buffers[i])]));
  } catch (error) {
    console.warn(`the packed runtime was not used (${error.message}): its files are fetched one by one`);
    return null;
  } finally {
    worker?.terminate();
  }
}

const TYPES = { ".wasm": "application/wasm", ".zip": "application/zip" };

/**
 * Runs `start` (Pyodide's loadPyodide) with fetch answering the packed files' URLs (`urls`) from `unpacked`
 * (a promise of the map above, or of null), and every other URL at once as usual; fetch is itself again once
 * `start` settles. loadPyodide fetches the wasm and the standard library itself, by URL, and has no option
 * for their bytes.
 */
export async function withPackedFiles(urls, unpacked, start) {
  const fetch = globalThis.fetch;
  globalThis.fetch = async (resource, init) => {
    const href = resource instanceof Request ? resource.url : new URL(resource, self.location.href).href;
    const bytes = urls.has(href) ? (await unpacked)?.get(href) : undefined;
    if (!bytes) return fetch(resource, init);
    const type = TYPES[href.slice(href.lastIndexOf("."))] ?? "application/octet-stream";
    return new Response(bytes, { headers: { "Content-Type": type, "Content-Length": String(bytes.length) } });
  };
  try {
    return await start();
  } finally {
    globalThis.fetch = fetch;
  }
}
