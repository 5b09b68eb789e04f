import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
import { serviceWorkerPlugin } from './scripts/serviceWorker'

/**
 * index.html carries a strict Content-Security-Policy (no inline script or
 * style). Vite's dev server injects CSS as inline <style> and React refresh as
 * an inline script, so `npm run dev` relaxes exactly those two; the
 * production build (what users and the browser tests load) keeps the strict policy.
 */
function devCsp(): Plugin {
  return {
    name: 'dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
  }
}

export default defineConfig({
  // Relative asset URLs: the same build works from any base path (a project's GitHub Pages at
  // /NAME/, a folder on a web server) as well as from `/` (vite preview, `rad serve`).
  base: './',
  plugins: [react(), devCsp(), serviceWorkerPlugin()],
  worker: { format: 'es' },
  // The workers' dependencies: Vite's dev server finds them only once a worker starts, after the
  // first page load, then optimizes them and reloads the page, losing a first click.
  optimizeDeps: { include: ['comlink', 'fzstd', 'lz4js', 'snappyjs', '@tanstack/react-virtual'] },
  // No source maps in the production build: they would double what users download for nothing
  // they use; `npm run dev` serves the sources with maps.
  build: { target: 'es2022', sourcemap: false },
  preview: { port: 4317, strictPort: true },
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
