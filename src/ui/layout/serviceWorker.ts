/**
 * Registers the offline service worker (scripts/serviceWorker.ts, docs/adr/0008) in production
 * builds: `./sw.js` beside the page, so its scope is the build's base path wherever it is
 * hosted. `npm run dev` registers nothing (its modules are not the build's files). A browser
 * that refuses (no service workers, a private window) simply stays online-only.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  const register = () => {
    navigator.serviceWorker.register('./sw.js').catch(() => undefined)
  }
  // After the load: the first visit's precache never competes with the page's own requests.
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
