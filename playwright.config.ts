import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH, E2E_BASE, E2E_PORT } from './e2e/chromium'

/** Browser tests drive Debian's Chromium against the production build (`vite preview`). */

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: E2E_BASE,
    trace: 'retain-on-failure',
    // The offline service worker (docs/adr/0008) is tested in e2e/offline.spec.ts, which allows
    // it; elsewhere a worker left controlling the page would hide requests from page.route.
    serviceWorkers: 'block',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${E2E_PORT} --strictPort`,
    url: E2E_BASE,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
})
