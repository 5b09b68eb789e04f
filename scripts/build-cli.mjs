#!/usr/bin/env node
// Bundles the CLI (src/cli/main.ts and the core it uses) into one ES module so
// `node bin/rad.mjs` starts in ~50 ms instead of ~350 ms through tsx. Runs from
// npm's `prepare` (so `npm install` / `npm ci` leave it ready); bin/rad.mjs
// falls back to tsx whenever this bundle is missing or older than src/.
import { build } from 'esbuild'

await build({
  entryPoints: [new URL('../src/cli/main.ts', import.meta.url).pathname],
  outfile: new URL('../node_modules/.cache/rad-cli/main.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
})
