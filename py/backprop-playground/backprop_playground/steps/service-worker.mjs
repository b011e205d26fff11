// Writes the service worker's precache manifest into sw.js with workbox-build: every file of the build with
// a revision, plus the SHA-384 integrity that sw.js checks before it serves a cached copy.
// usage: node service-worker.mjs DIST SW_BUNDLE
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { injectManifest } from "workbox-build";

const [dist, sw] = process.argv.slice(2);
const integrity = (entries) => ({
  manifest: entries.map((entry) => ({
    ...entry,
    integrity: "sha384-" + createHash("sha384").update(readFileSync(`${dist}/${entry.url}`)).digest("base64"),
  })),
});
const { count, size, warnings } = await injectManifest({
  swSrc: sw,
  swDest: sw,
  globDirectory: dist,
  globPatterns: ["**/*"],
  // Compressed copies are the server's business; the packed runtime is for pages without a service worker;
  // the documentation site (build.py docs) is read online; no page fetches the wheels (their files come in
  // wheels/site-packages.json).
  globIgnores: ["**/*.gz", "**/*.br", "**/*.zst", "**/*.partial", "sw.js", "docs/**", "wheels/*.whl"],
  maximumFileSizeToCacheInBytes: 64 * 2 ** 20,
  manifestTransforms: [integrity],
});
for (const warning of warnings) console.error(warning);
console.log(`  precache manifest: ${count} files, ${(size / 1e6).toFixed(1)} MB`);
