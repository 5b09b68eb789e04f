/**
 * The files named on the command line, each under its own random token path:
 * `/f/<token>/<name>`. The token (128 random bits) is the only key; the name is there for the
 * reader and must match exactly. The path on disk always comes from this table, never from the
 * request. `<name>.rdx` under the same token is the file's sidecar index (docs/sidecar.md), served
 * when `FILE.rdx` exists beside the file at the time of the request.
 */
import { randomBytes } from 'node:crypto'
import { basename, resolve } from 'node:path'

export interface ServedFile {
  /** Absolute path on disk. */
  path: string
  /** The URL path it is served under, percent-encoded: `/f/<token>/<name>`. */
  urlPath: string
}

const SIDECAR = '.rdx'

function newToken(): string {
  return randomBytes(16).toString('base64url')
}

export function serveFiles(paths: readonly string[]): ServedFile[] {
  return paths.map((p) => {
    const path = resolve(p)
    return { path, urlPath: `/f/${newToken()}/${encodeURIComponent(basename(path))}` }
  })
}

/** The query value of the viewer link: the URL path, encoded for a query, its slashes kept readable. */
export function viewerQuery(file: ServedFile): string {
  return `?url=${encodeURIComponent(file.urlPath).replace(/%2F/g, '/')}`
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** The file on disk a request path names (`/f/<token>/<name>` or its `.rdx`), or undefined. */
export function lookUpFile(files: readonly ServedFile[], requestPath: string): string | undefined {
  const parts = requestPath.split('/')
  if (parts.length !== 4 || parts[0] !== '' || parts[1] !== 'f') return undefined
  const prefix = `/f/${parts[2] ?? ''}/`
  const file = files.find((f) => f.urlPath.startsWith(prefix))
  if (!file) return undefined
  const name = decoded(parts[3] ?? '')
  const own = basename(file.path)
  if (name === own) return file.path
  if (name === own + SIDECAR) return file.path + SIDECAR
  return undefined
}
