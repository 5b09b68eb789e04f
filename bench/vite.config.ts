import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/** Builds the benchmark harness page (bench/page) into bench/dist; never part of the app. */
export default defineConfig({
  root: fileURLToPath(new URL('./page', import.meta.url)),
  base: './',
  worker: { format: 'es' },
  build: { outDir: fileURLToPath(new URL('./dist', import.meta.url)), emptyOutDir: true, target: 'es2022' },
  logLevel: 'warn',
})
