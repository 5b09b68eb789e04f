/**
 * The offline viewer (issue 13 §4, docs/adr/0008): a Vite plugin that writes `dist/sw.js` after
 * the build, a small hand-written service worker holding the list of the build's files and a
 * version hash of their bytes. The worker's code is `serviceWorkerMain` below, type-checked
 * and linted here, written out with its arguments as the worker's whole script.
 */
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import type { Plugin, ResolvedConfig } from 'vite'

/** The part of a service worker's global scope serviceWorkerMain uses (lib "WebWorker" is not in this project's node config). */
export interface ServiceWorkerScope {
  readonly registration: { readonly scope: string }
  readonly caches: CacheStorage
  readonly clients: { claim(): Promise<void> }
  skipWaiting(): Promise<void>
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void
}
interface ExtendableEventLike {
  waitUntil(work: Promise<unknown>): void
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request
  respondWith(answer: Promise<Response>): void
}

/**
 * The service worker. Only the build's own files (`assets`, relative to the worker's scope,
 * which is the build's base path) are cached, at install, in a cache named after `version`:
 * - the page itself (a navigation to the scope or its index.html, with any `?url=` or hash):
 *   network first, so an update shows at once when online; the cached copy when offline;
 * - every other listed file: cache first (Vite's asset names carry their content hash);
 * - anything else — a file opened by URL, `rad serve`'s token paths and their `.rdx`, another
 *   origin, any non-GET — is not touched (no respondWith): file bytes are never cached.
 * Must stay self-contained: it is written out as source text (Function.prototype.toString).
 */
export function serviceWorkerMain(sw: ServiceWorkerScope, assets: readonly string[], version: string): void {
  const PREFIX = 'rad-viewer-'
  const cacheName = PREFIX + version
  const scope = sw.registration.scope
  const page = new URL('./', scope).href
  const listed = new Set(assets.map((a) => new URL(a, scope).href))
  listed.add(page)
  const isPage = (url: URL) => url.href === page || url.href === new URL('./index.html', scope).href

  sw.addEventListener('install', (event) => {
    const fresh = [...listed].map((u) => new Request(u, { cache: 'reload', credentials: 'same-origin' }))
    event.waitUntil(
      sw.caches
        .open(cacheName)
        .then((cache) => cache.addAll(fresh))
        .then(() => sw.skipWaiting()),
    )
  })

  sw.addEventListener('activate', (event) => {
    const old = sw.caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== cacheName).map((n) => sw.caches.delete(n))),
      )
    event.waitUntil(old.then(() => sw.clients.claim()))
  })

  sw.addEventListener('fetch', (event) => {
    const request = event.request
    if (request.method !== 'GET') return
    const url = new URL(request.url)
    url.hash = ''
    if (request.mode === 'navigate') {
      url.search = ''
      if (!isPage(url)) return
      const cached = () => sw.caches.match(page, { cacheName }).then((hit) => hit ?? Response.error())
      event.respondWith(fetch(request).catch(cached))
      return
    }
    if (url.search !== '' || !listed.has(url.href)) return
    event.respondWith(sw.caches.match(url.href, { cacheName }).then((hit) => hit ?? fetch(request)))
  })
}

/** Every file under `dir`, as paths relative to it with `/` separators. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
}

/** The worker's script for the build in `dist`: its files (but source maps, dot-files and itself) and their hash. */
export function serviceWorkerScript(dist: string): string {
  const assets = filesUnder(dist)
    .filter((f) => f !== 'sw.js' && !f.endsWith('.map') && !f.split('/').some((p) => p.startsWith('.')))
    .sort()
  const hash = createHash('sha256')
  for (const f of assets) hash.update(f).update(readFileSync(join(dist, f)))
  const version = hash.digest('hex').slice(0, 16)
  const args = [JSON.stringify(assets.map((f) => `./${f}`)), JSON.stringify(version)].join(', ')
  return `// RAD Viewer's service worker (scripts/serviceWorker.ts), build ${version}\n'use strict';\n(${serviceWorkerMain.toString()})(self, ${args});\n`
}

/** Writes `sw.js` into the build's folder once everything (public/ included) is there. */
export function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig | undefined
  return {
    name: 'rad-service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved
    },
    closeBundle: {
      order: 'post',
      handler() {
        if (!config || config.build.ssr) return
        const dist = resolve(config.root, config.build.outDir)
        writeFileSync(join(dist, 'sw.js'), serviceWorkerScript(dist))
      },
    },
  }
}
