// A wheel's files, read with no Python: a wheel is a zip archive (PEP 427) whose entries are stored or deflated.
// The Python worker writes them into Pyodide's file system while Python starts (python-worker.js), which
// Pyodide's unpackArchive does only once Python is up, in Python, at about 15 ms a wheel.

const END = 0x06054b50; // end of central directory
const CENTRAL = 0x02014b50; // a central directory header
const LOCAL = 0x04034b50; // a local file header
const STORED = 0;
const DEFLATED = 8;

/**
 * The files of the wheel `bytes` (a Uint8Array): [{path, bytes}], each path relative and free of `..`, in the
 * archive's order (folders left out). Throws on anything else: a zip64 archive, another compression, an
 * absolute or escaping path.
 */
export async function wheelFiles(bytes) {
  return Promise.all(entries(bytes).map(async ({ path, method, data, size, crc }) => {
    const unpacked = method === STORED ? data : await inflated(data);
    if (unpacked.length !== size || crc32(unpacked) !== crc) throw new Error(`${path}: not the bytes the archive lists`);
    return { path, bytes: unpacked };
  }));
}

function entries(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== END) end--;
  if (end < 0) throw new Error("not a zip archive");
  const count = view.getUint16(end + 10, true);
  const names = new TextDecoder("utf-8", { fatal: true });
  const found = [];
  for (let at = view.getUint32(end + 16, true), i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== CENTRAL) throw new Error("a broken central directory");
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const path = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (path.endsWith("/")) continue;
    if (method !== STORED && method !== DEFLATED) throw new Error(`${path}: compression ${method}`);
    if (compressed === 0xffffffff || size === 0xffffffff || local === 0xffffffff) throw new Error(`${path}: zip64`);
    if (path.startsWith("/") || path.split("/").some((part) => part === ".." || part === "")) throw new Error(`${path}: not a relative path`);
    if (view.getUint32(local, true) !== LOCAL) throw new Error(`${path}: a broken local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    found.push({ path, method, size, crc, data: bytes.subarray(start, start + compressed) });
  }
  return found;
}

async function inflated(data) {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
