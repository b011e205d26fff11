// ESLint for the page's own JavaScript (web/) and the build's Node programs; run in the suite by
// tests/site/test_tree.py. Vendored and bundled files are made by the build into dist/, never linted here.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["dist/", "node_modules/", ".cache/", "build/", "test-results/", "web/examples/"] },
  js.configs.recommended,
  {
    files: ["web/**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker },
    },
    rules: {
      // `const { points: _, ...rest } = x` takes a key out; a rest sibling is what is kept.
      "no-unused-vars": ["error", { varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["web/offline/sw.js"],
    languageOptions: {
      globals: {
        ...globals.serviceworker,
        // esbuild's --define puts the policies in (backprop_playground/steps/service_worker.py).
        CONTENT_SECURITY_POLICY: "readonly",
        NOTEBOOK_CONTENT_SECURITY_POLICY: "readonly",
      },
    },
  },
  {
    files: ["**/*.mjs", "tests/**/*.mjs", "bench/**/*.mjs"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: { ...globals.node } },
  },
];
