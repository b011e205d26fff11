// What every Python of a page starts from: build.json, the wheels' files and, where it serves, the packed runtime.
// The page fetches them once and keeps them, and each new Python worker (the first, the standby, one after a
// Stop or a failure) gets a copy: in a profile whose HTTP cache lives in memory (an incognito window, a guest
// session on a school laptop) the browser kept none of it, and each new worker downloaded 7.5 MB again.
//
// The packed runtime is the runtime's three largest files (the standard library, pyodide.asm.wasm and the
// memory snapshot's pieces) as one zstd file. The snapshot holds the wasm's data segments, so they compress
// together to about 7.5 MB, against 11.8 MB as gzip and 8.4 MB as brotli (docs/classroom.md, "Classroom").
// It serves a browser that was not offered brotli (a classroom's LAN address over plain HTTP: browsers send
// brotli only to secure origins) and any page on another site than the runtime's (an article whose cells
// come from a CDN, which compresses JSON but sends .wasm, .zip and .bin as they are). Where this site sent
// brotli to its own page, or its service worker keeps the files, they come one by one as usual.
import { startModuleWorker } from "./start-worker.js";

// Without a byte of the download for this long, the packed file is given up and the files come one by
// one. A slow download goes on as long as bytes come.
const STALL_MS = 20_000;
// The decoding worker answers in about 0.1 s; one that says nothing for this long is given up too.
const UNPACK_MS = 20_000;

const kept = new Map(); // the site's base URL -> what its Pythons start from

/**
 * What a site's Pythons start from, fetched once per page: `info`, `sitePackages` and `packed` are promises of
 * build.json (with `encoding`, the Content-Encoding it came with), the wheels' files (the text of build.json's
 * sitePackages.files, a JSON object {path in site-packages: text}) and the packed runtime's compressed bytes (an
 * ArrayBuffer, or null where the files come one by one). Where they came one by one, a Python hands over what
 * it downloaded (keep()), and keptFiles() gives each later one a copy. What a Python failed to start from is
 * forgotten (forgetRuntime), as is a fetch that failed, so that a Retry fetches again. `precached`: this site's service worker keeps the files.
 */
export function keptRuntime(base, precached) {
  if (!kept.has(base)) {
    const url = (path) => new URL(path, base).href;
    const info = download(url("build.json")).then(async (response) =>
      ({ ...(await response.json()), encoding: response.headers.get("Content-Encoding") }));
    const sitePackages = info.then(async ({ sitePackages }) => (await download(url(sitePackages.files))).text());
    const packed = info.then((info) => (usesPacked(info, base, precached) ? downloadPacked(url(info.packed.file)) : null));
    const runtime = { info, sitePackages, packed, ...keeper(info, url) };
    kept.set(base, runtime);
    Promise.all([info, sitePackages]).catch(() => kept.get(base) === runtime && kept.delete(base));
  }
  return kept.get(base);
}

/** Forgets what the page fetched for `runtime`'s site (a Python could not start from it). */
export function forgetRuntime(base, runtime) {
  if (runtime && kept.get(base) === runtime) kept.delete(base);
}

/**
 * The large files as a page keeps them once a Python downloaded them (the standard library, the snapshot's pieces),
 * and the interpreter it compiled: a later Python needs no byte of the wasm.
 */
function keeper(info, url) {
  const files = new Map();
  let compiled = null;
  let wanted = null; // absolute URL -> {size, piece: whether it is a piece of the snapshot}
  info.then(({ packed, snapshot }) => {
    const pieces = Array.isArray(snapshot?.files) ? snapshot.files : [];
    wanted = new Map((packed?.parts ?? []).map(({ path, size }) => [url(path), { size, piece: pieces.includes(path) }]));
  }, () => {});
  return {
    /** Keeps [{url, bytes}] from a Python that became ready; the snapshot's pieces only if it restored from them. */
    keep(downloaded, restored) {
      for (const { url: href, bytes } of downloaded) {
        const part = wanted?.get(href);
        if (part && (restored || !part.piece) && !files.has(href) && bytes instanceof ArrayBuffer && bytes.byteLength === part.size) {
          files.set(href, bytes);
        }
      }
    },
    /**
     * Keeps the WebAssembly.Module that a Python which became ready compiled: the first one does, and a later one
     * only where the page's Module did not instantiate, which this one then replaces.
     */
    keepCompiled(module) {
      if (module instanceof WebAssembly.Module) compiled = module;
    },
    /**
     * The compiled interpreter, or null: a Module is code only, which every instance shares and none can
     * change, so a later Python starts without compiling 9 MB of WebAssembly again, nor the code its first runs
     * tier up (the browser shares that between the instances too).
     */
    compiled() {
      return compiled;
    },
    /** A copy of each large file the page has, by URL, or null while it has none. */
    keptFiles() {
      return files.size ? new Map([...files].map(([href, bytes]) => [href, bytes.slice(0)])) : null;
    },
  };
}

function usesPacked(info, base, precached) {
  if (precached || !info.packed) return false;
  // This site's own page, sent brotli: the three files come compressed (2.7 + 1.6 + 4.2 MB) and the wasm
  // compiles while it downloads.
  return !(info.encoding === "br" && new URL(base).origin === self.location.origin);
}

/** `href`'s response, or an error that names it and its status. */
export async function download(href) {
  const response = await fetch(href);
  if (!response.ok) throw new Error(`${href}: ${response.status} ${response.statusText}`);
  return response;
}

/** The packed file's bytes, or null (then the files come one by one) if it cannot be had. */
async function downloadPacked(href) {
  const stalled = new AbortController();
  let timer;
  const wait = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stalled.abort(new Error(`nothing came for ${STALL_MS / 1000} s`)), STALL_MS);
  };
  try {
    wait();
    const response = await fetch(href, { signal: stalled.signal });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const chunks = [];
    let length = 0;
    for (const reader = response.body.getReader(); ;) {
      const { done, value } = await reader.read();
      if (done) break;
      wait();
      chunks.push(value);
      length += value.length;
    }
    const bytes = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes.buffer;
  } catch (error) {
    console.warn(`the packed runtime was not used (${error.message}): its files are fetched one by one`);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * In the Python worker: the packed files' bytes by absolute URL, decoded from `packed` (the compressed
 * bytes, which it takes), or null to fetch them as usual.
 */
export async function unpackRuntime(url, info, packed) {
  if (!packed) return null;
  const { decoder, parts, size } = info.packed;
  let worker;
  try {
    worker = startModuleWorker(new URL("../session/unpack-worker.bundle.js", import.meta.url));
    const buffers = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the decoder said nothing for ${UNPACK_MS / 1000} s`)), UNPACK_MS);
      worker.onmessage = ({ data }) => {
        clearTimeout(timer);
        if (data.error) reject(new Error(data.error));
        else if (data.size !== size) reject(new Error(`${data.size} bytes unpacked, ${size} expected`));
        else resolve(data.buffers);
      };
      worker.onerror = (event) => {
        clearTimeout(timer);
        reject(new Error(event.message || "the unpacking worker failed"));
      };
      worker.postMessage({ packed, decoder: url(decoder), parts }, [packed]);
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

/** `bytes` as the server would send the file at `href`: its type by its extension, and its length. */
export function fileResponse(href, bytes) {
  const type = TYPES[href.slice(href.lastIndexOf("."))] ?? "application/octet-stream";
  return new Response(bytes, { headers: { "Content-Type": type, "Content-Length": String(bytes.byteLength) } });
}

/**
 * Runs `start` (Pyodide's loadPyodide) with fetch answering the large files' URLs (`urls`) from `unpacked`
 * (a promise of a map by URL, or of null), and every other URL at once as usual; fetch is itself again once
 * `start` settles. loadPyodide fetches the wasm and the standard library itself, by URL, and has no option
 * for their bytes. Each of `urls` that comes from the network is told to `downloaded(url, response)`, if given,
 * before Pyodide has it: its body is read once, by Pyodide (a second reading of it, a clone, slowed Python's start
 * by ~30 ms).
 */
export async function withPackedFiles(urls, unpacked, downloaded, start) {
  const fetch = globalThis.fetch;
  globalThis.fetch = async (resource, init) => {
    const href = resource instanceof Request ? resource.url : new URL(resource, self.location.href).href;
    const bytes = urls.has(href) ? (await unpacked)?.get(href) : undefined;
    if (!bytes) {
      const response = await fetch(resource, init);
      if (urls.has(href) && response.ok) downloaded?.(href, response);
      return response;
    }
    return fileResponse(href, bytes);
  };
  try {
    return await start();
  } finally {
    globalThis.fetch = fetch;
  }
}

/**
 * Runs `start` (Pyodide's loadPyodide) with its WebAssembly instantiated from `compiled` (a Module the page
 * kept), or compiled as usual and then given to `compiledOne(module)`. loadPyodide has no option for a
 * compiled module: in a browser it calls WebAssembly.instantiateStreaming, which is itself again once `start`
 * settles. With a Module, what loadPyodide fetched is a stand-in (an empty file): if the Module does not
 * instantiate, the wasm is compiled from `fetchWasm()`, a fetch of its bytes.
 */
export async function withCompiledRuntime(compiled, compiledOne, fetchWasm, start) {
  const { instantiateStreaming } = WebAssembly;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if (compiled instanceof WebAssembly.Module) {
      try {
        return { instance: await WebAssembly.instantiate(compiled, imports), module: compiled };
      } catch {
        source = fetchWasm(); // compiled as usual below
      }
    }
    const result = await instantiateStreaming.call(WebAssembly, source, imports);
    compiled = result.module; // a plain boot after a failed restore does not try the failed Module again
    compiledOne(result.module);
    return result;
  };
  try {
    return await start();
  } finally {
    WebAssembly.instantiateStreaming = instantiateStreaming;
  }
}
