/**
 * How every CLI command that writes a file writes it (docs/integrity.md,
 * "What the commands write"):
 * - never over one of its inputs: refused before anything is opened for
 *   writing when OUT is an input by path (links resolved) or by device and
 *   inode (hard links);
 * - never half: the bytes go to a temporary file in OUT's folder, flushed to
 *   disk, then renamed over OUT. A run stopped half-way leaves OUT as it was.
 *   Renaming replaces a link at OUT rather than writing through it.
 */
import { randomBytes } from 'node:crypto'
import { lstatSync, realpathSync, statSync, unlinkSync } from 'node:fs'
import { open, rename, unlink } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'

/** A command line the CLI refuses to run; main prints the message and exits 1. */
export class RefusedOutput extends Error {}

/** `path` with every link resolved; for a path that does not exist yet, its folder's. */
function resolvedPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    try {
      return join(realpathSync(dirname(resolve(path))), basename(path))
    } catch {
      return resolve(path)
    }
  }
}

/** Device and inode of the file at `path` (links followed), or undefined if there is none. */
function fileIdentity(path: string): string | undefined {
  try {
    const s = statSync(path)
    return `${String(s.dev)}:${String(s.ino)}`
  } catch {
    return undefined
  }
}

/**
 * Throws RefusedOutput when `output` is the same file as one of `inputs`:
 * the same path once links are resolved, or the same device and inode.
 */
export function refuseOutputOverInput(output: string, inputs: readonly string[]): void {
  const outPath = resolvedPath(output)
  const outId = fileIdentity(output)
  for (const input of inputs) {
    const samePath = outPath === resolvedPath(input)
    if (!samePath && (outId === undefined || outId !== fileIdentity(input))) continue
    const how = samePath ? (resolve(output) === resolve(input) ? '' : ' (a link to it)') : ' (a hard link to it)'
    throw new RefusedOutput(`refusing to write ${output}: it is the input ${input}${how}; nothing was written`)
  }
}

/** Temporary files not yet renamed into place, removed if the process is interrupted. */
const pending = new Set<string>()

function removePendingAndExit(signal: NodeJS.Signals): void {
  for (const path of pending) {
    try {
      unlinkSync(path)
    } catch {
      // Already gone.
    }
  }
  process.exit(signal === 'SIGINT' ? 130 : 143)
}

let handlersInstalled = false

function removeOnInterrupt(): void {
  if (handlersInstalled) return
  handlersInstalled = true
  process.once('SIGINT', removePendingAndExit)
  process.once('SIGTERM', removePendingAndExit)
}

/** The temporary name beside `target`: hidden, and named after it and this process. */
export function temporaryPathFor(target: string): string {
  const suffix = `${String(process.pid)}-${randomBytes(4).toString('hex')}`
  return join(dirname(target), `.${basename(target)}.partial-${suffix}`)
}

/**
 * Runs `write` on a new temporary file beside `target`, flushes it to disk,
 * lets `verify` read it back (by its temporary path) and renames it to
 * `target`. If `write` or `verify` throws, the temporary file is removed and
 * `target` is left as it was.
 */
export async function writeFileAtomically<T>(
  target: string,
  write: (handle: FileHandle) => Promise<T>,
  verify?: (temporary: string) => Promise<void>,
): Promise<T> {
  if (isFolder(target)) throw new RefusedOutput(`cannot write ${target}: it is a folder`)
  const temporary = temporaryPathFor(target)
  removeOnInterrupt()
  pending.add(temporary)
  try {
    const handle = await open(temporary, 'wx')
    let result: T
    try {
      result = await write(handle)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await verify?.(temporary)
    await rename(temporary, target)
    return result
  } catch (e) {
    await unlink(temporary).catch(() => undefined)
    throw e
  } finally {
    pending.delete(temporary)
  }
}

/** True when `path` itself (not a link's target) is a folder. */
function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory()
  } catch {
    return false
  }
}
