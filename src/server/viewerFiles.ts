/**
 * The built viewer (`dist/`) as a fixed table of URL paths, made once at start-up. A request is
 * looked up in this table by its exact path: no path from a request ever reaches the file
 * system, so `..`, encoded dots, backslashes or null bytes can only miss (404).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { extname, join } from 'node:path'

export interface ViewerFile {
  /** Absolute path on disk. */
  path: string
  contentType: string
}

/** Content types of what `vite build` emits (and what `public/` may add). */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
}

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream'
}

/** Every file under `dir`, as URL paths (each segment percent-encoded) → files. Dot-files are left out. */
function collect(dir: string, urlPrefix: string, into: Map<string, ViewerFile>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    const url = `${urlPrefix}/${encodeURIComponent(entry.name)}`
    if (entry.isDirectory()) collect(path, url, into)
    else if (entry.isFile()) into.set(url, { path, contentType: contentTypeOf(entry.name) })
  }
}

export interface Viewer {
  files: Map<string, ViewerFile>
  /** The Content-Security-Policy of the build's index.html (its `<meta http-equiv>`), sent as a header too. */
  csp: string
}

/** Thrown when `dist/` holds no build: the message says what to run. */
export class ViewerNotBuilt extends Error {}

const CSP_META = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i

export function loadViewer(dist: string): Viewer {
  const index = join(dist, 'index.html')
  if (!existsSync(index)) {
    throw new ViewerNotBuilt(
      `the viewer is not built (no ${index}): run \`npm run build\` in the viewer's folder first`,
    )
  }
  const files = new Map<string, ViewerFile>()
  collect(dist, '', files)
  files.set('/', { path: index, contentType: contentTypeOf(index) })
  const csp = CSP_META.exec(readFileSync(index, 'utf8'))?.[1]
  // The page's own policy is the one to send; a build without one is not the build this serves.
  if (csp === undefined) {
    throw new ViewerNotBuilt(`${index} has no Content-Security-Policy: rebuild with \`npm run build\``)
  }
  return { files, csp }
}
