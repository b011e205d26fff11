// Code in a URL fragment: `#code=` + base64url of the UTF-8 text compressed with the browser's own
// deflate (CompressionStream), and `&points=` the same way for the learner's own data. Nothing is stored on
// a server; the fragment never reaches one.
import { validPoints } from "./points.js";
import { t } from "../i18n/catalogue.js";

const MAX_FRAGMENT = 2_000_000; // characters of base64url
const MAX_CODE = 5_000_000; // bytes of code once decompressed

export class BadLink extends Error {
  constructor(message) {
    super(message);
    this.name = "BadLink";
  }
}

export async function encodeCode(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

export async function decodeCode(encoded) {
  if (encoded.length > MAX_FRAGMENT) {
    throw new BadLink(t("This link is too long to open ({count} characters).", { count: encoded.length.toLocaleString("en") }));
  }
  let bytes;
  try {
    bytes = fromBase64Url(encoded);
  } catch {
    throw new BadLink(t("This link's code is damaged: it has characters a share link never has."));
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_CODE) {
        reader.cancel().catch(() => {});
        throw new BadLink(t("This link holds more than {size} MB of code, too much to open.", { size: MAX_CODE / 1e6 }));
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof BadLink) throw error;
    throw new BadLink(t("This link's code is damaged or cut short: ask for the whole link again."));
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await new Blob(chunks).arrayBuffer());
  } catch {
    throw new BadLink(t("This link's code is damaged: it is not text."));
  }
}

/** A URL fragment's options (`hash` as location.hash gives it, `#code=...&readonly`) as a URLSearchParams; empty when
 * there is none. */
export function fragmentOptions(hash) {
  return new URLSearchParams(hash.replace(/^#/, ""));
}

/**
 * A link to `page` (a URL) that carries `code`, and the learner's own `points` if there are any
 * (`&points=`, the JSON list compressed the same way: links without it open as they always did).
 */
export async function linkWithCode(page, code, points = null) {
  const url = new URL(page);
  url.hash = `code=${await encodeCode(code)}${points?.length ? `&points=${await encodeCode(JSON.stringify(points))}` : ""}`;
  return url.href;
}

/** A link's points ([[x1, x2, label], ...]), or null; a BadLink when they are damaged or not points. */
export async function decodePoints(encoded) {
  if (!encoded) return null;
  const points = validPoints(safeJson(await decodeCode(encoded)));
  if (!points) throw new BadLink(t("This link's points are damaged: they are not x, y, label triples."));
  return points;
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
