/**
 * How every CLI command that writes a file writes it (docs/integrity.md,
 * "What the commands write"):
 * - never over one of its inputs: refused before anything is opened for
 *   writing when OUT is an input by path (links resolved) or by device and
 *   inode (hard links);
 * - never half: the bytes go to a temporary file in OUT's folder, flushed to
 *   disk, then renamed over OUT. A run stopped half-way leaves OUT as it was.
 *   Renaming replaces a link at OUT rather than writing through it;
 * - except into a stream: `-` (standard output), a FIFO, a character device or
 *   a socket is written into, never replaced (writeOutput).
 */
import { randomBytes } from 'node:crypto'
import { createWriteStream, fstatSync, lstatSync, realpathSync, statSync, unlinkSync } from 'node:fs'
import { open, rename, unlink } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { Socket, createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import type { Writable } from 'node:stream'
import type { ByteSink } from '../rad/subsetWriter'
import { BrokenPipe } from './output'

/** OUT given as `-`: standard output. */
export const STANDARD_OUTPUT = '-'

/** Bytes a block when a finished temporary copy is streamed into OUT. */
const COPY_BLOCK = 4 << 20

/** A command line the CLI refuses to run; main prints the message and exits 1. */
export class RefusedOutput extends Error {}

/** `path` with every link resolved; for a path that does not exist yet, its folder's. */
function resolvedPath(path: string): string {
  if (path === STANDARD_OUTPUT) return path
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
    const s = path === STANDARD_OUTPUT ? fstatSync(1) : statSync(path)
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
 * True when OUT is written straight into rather than replaced: `-`, a FIFO, a
 * character device (a terminal, /dev/null) or a socket, links followed (so
 * /dev/stdout counts). Renaming a temporary file over such an OUT would turn
 * the pipe or device into a regular file and send its reader nothing.
 */
export function isStreamOutput(path: string): boolean {
  if (path === STANDARD_OUTPUT) return true
  try {
    const s = statSync(path)
    return s.isFIFO() || s.isCharacterDevice() || s.isSocket()
  } catch {
    return false
  }
}

/** How a command wants OUT written. */
export interface WriteOptions {
  /** Reads the complete output back (by its temporary path) before it takes OUT's place. */
  verify?: (temporary: string) => Promise<void>
  /** The writer patches bytes it wrote before (a RAD subset's num_chunks): a stream OUT gets a finished copy. */
  patches?: boolean
}

/** An errno error of OUT's own (not of an input) in one line that names OUT. */
function outputFailure(target: string, e: unknown): Error {
  if (e instanceof BrokenPipe || e instanceof RefusedOutput) return e
  if (e instanceof Error && 'code' in e && e.code === 'EPIPE') return new BrokenPipe()
  if (e instanceof Error && 'code' in e && typeof e.code === 'string') {
    return new RefusedOutput(`cannot write ${target}: ${e.message}`)
  }
  return e instanceof Error ? e : new Error(String(e))
}

/** A regular file written front to back, with positioned rewrites for patches. */
function fileSink(handle: FileHandle, target: string): ByteSink {
  let position = 0
  return {
    async write(bytes) {
      await handle.write(bytes, 0, bytes.length, position).catch((e: unknown) => {
        throw outputFailure(target, e)
      })
      position += bytes.length
    },
    async patch(at, bytes) {
      await handle.write(bytes, 0, bytes.length, at).catch((e: unknown) => {
        throw outputFailure(target, e)
      })
    },
  }
}

/**
 * Writes `write`'s bytes to a new temporary file, flushes it, lets `verify`
 * read it, then hands its path to `place` (rename over OUT, or copy into a
 * stream). The temporary file is gone afterwards, whatever happened.
 */
async function viaTemporaryFile<T>(
  temporary: string,
  target: string,
  write: (sink: ByteSink) => Promise<T>,
  options: WriteOptions,
  place: (temporary: string) => Promise<void>,
): Promise<T> {
  removeOnInterrupt()
  pending.add(temporary)
  try {
    const handle = await open(temporary, 'wx').catch((e: unknown) => {
      throw outputFailure(target, e)
    })
    let result: T
    try {
      result = await write(fileSink(handle, target))
      await handle.sync()
    } finally {
      await handle.close()
    }
    await options.verify?.(temporary)
    await place(temporary)
    return result
  } finally {
    pending.delete(temporary)
    await unlink(temporary).catch(() => undefined)
  }
}

/** The stream behind a stream OUT: standard output, a socket, or the FIFO or device opened for writing. */
async function openStream(target: string): Promise<Writable> {
  if (target === STANDARD_OUTPUT) return process.stdout
  const stream = statSync(target).isSocket() ? createConnection(target) : createWriteStream(target)
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject)
    stream.once(stream instanceof Socket ? 'connect' : 'open', () => {
      stream.off('error', reject)
      resolve()
    })
  }).catch((e: unknown) => {
    throw outputFailure(target, e)
  })
  return stream
}

/** A sink into a stream: each write waits until the stream took it (so the caller may reuse its buffer). */
function streamSink(stream: Writable, target: string): ByteSink {
  // The failed write's callback carries the error; without a listener the same 'error' event would end the process.
  stream.on('error', () => undefined)
  return {
    write: (bytes) =>
      new Promise<void>((resolve, reject) => {
        stream.write(bytes, (e) => {
          if (e) reject(outputFailure(target, e))
          else resolve()
        })
      }),
    patch() {
      throw new Error(`cannot patch ${target}: it is a stream (the writer should have said it patches)`)
    },
  }
}

/** Ends a stream we opened (not standard output, which the process ends). */
async function closeStream(stream: Writable, target: string): Promise<void> {
  if (stream === process.stdout) return
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject)
    stream.end(resolve)
  }).catch((e: unknown) => {
    throw outputFailure(target, e)
  })
}

/** Copies a finished file into a stream sink, a block at a time. */
async function copyInto(path: string, sink: ByteSink): Promise<void> {
  const handle = await open(path, 'r')
  try {
    const block = new Uint8Array(COPY_BLOCK)
    for (;;) {
      const { bytesRead } = await handle.read(block, 0, block.length, null)
      if (bytesRead === 0) return
      await sink.write(block.subarray(0, bytesRead))
    }
  } finally {
    await handle.close()
  }
}

/**
 * Writes a command's output to OUT (docs/integrity.md, "What the commands
 * write"). A regular file or a new path: `write` fills a temporary file beside
 * OUT, flushed to disk, `verify` reads it back, and it is renamed over OUT; if
 * anything throws, the temporary file is removed and OUT is left as it was.
 * A stream OUT (isStreamOutput): the bytes go straight in, or, when the writer
 * patches or the output is verified, a finished temporary copy (in the
 * system's temporary folder) is streamed in. The stream stays what it was.
 */
export async function writeOutput<T>(
  target: string,
  write: (sink: ByteSink) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  if (isFolder(target)) throw new RefusedOutput(`cannot write ${target}: it is a folder`)
  if (!isStreamOutput(target)) {
    return viaTemporaryFile(temporaryPathFor(target), target, write, options, async (temporary) => {
      await rename(temporary, target).catch((e: unknown) => {
        throw outputFailure(target, e)
      })
    })
  }
  const stream = await openStream(target)
  try {
    const sink = streamSink(stream, target)
    if (!options.patches && !options.verify) return await write(sink)
    const temporary = temporaryPathFor(join(tmpdir(), 'rad-output'))
    return await viaTemporaryFile(temporary, target, write, options, (finished) => copyInto(finished, sink))
  } finally {
    await closeStream(stream, target)
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
