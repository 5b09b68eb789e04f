/**
 * Debian's Chromium and the headless flags that work on this machine (no
 * sandbox as root; no background network, which the closed network refuses).
 * Shared by the Playwright config and the benchmark. Never downloaded.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** The port `vite preview` serves the build on for browser tests; E2E_PORT lets parallel checkouts run side by side. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4317)
export const E2E_BASE = `http://127.0.0.1:${E2E_PORT}`
