/**
 * Where a decode worker's statistics spill the exact pairs' lists past their memory budget
 * (src/rad/stats/spilledRuns.ts; ADR 0015): a file of the Origin Private File System written and
 * read through a sync access handle (dedicated workers only), removed when the pass ends. Files
 * left by a tab that closed mid-pass are removed at the next pass (a file still open elsewhere is
 * locked and stays).
 */
import type { SpillStore } from '../rad/stats/spilledRuns'

const PREFIX = 'rad-spill-'
/**
 * A spill file older than this is a leftover: a pass's other workers create theirs at the same
 * moment, and one not yet open (not yet locked) must not be taken for a leftover and removed.
 */
const LEFTOVER_AGE_MS = 10 * 60_000
/**
 * The file grows by at least this much at a time (truncate), and writes go out in blocks of
 * STAGED_BYTES: Chromium asks the browser process for quota, a synchronous round trip, at every
 * write that lengthens the file, and a spill's 1,024 small writes (4 lists × 256 buckets) took 40 %
 * of a worker's time on a 4 GiB run (bench/profileApp.ts, bench/results.md).
 */
const GROW_BYTES = 64 << 20
const STAGED_BYTES = 4 << 20
const REFUSED = 'the browser refused to write the statistics spill file (no room left?)'

/**
 * What is used of a sync access handle (WebWorker's lib has the type; the DOM lib, with which the
 * page's typecheck also reads the worker modules, has not).
 */
interface SyncAccessHandle {
  read(buffer: Uint8Array, options: { at: number }): number
  write(buffer: Uint8Array, options: { at: number }): number
  truncate(size: number): void
  close(): void
}

type SyncFile = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle> }

export class OpfsSpill implements SpillStore {
  private readonly handle: SyncAccessHandle
  private readonly folder: FileSystemDirectoryHandle
  private readonly name: string
  /** Bytes appended (some may still be staged). */
  size = 0
  /** The file's length (truncate): room written without asking for quota. */
  private capacity = 0
  /** Appended bytes not yet written, from offset `staged.at`. */
  private readonly staged = { bytes: new Uint8Array(STAGED_BYTES), length: 0, at: 0 }

  private constructor(handle: SyncAccessHandle, folder: FileSystemDirectoryHandle, name: string) {
    this.handle = handle
    this.folder = folder
    this.name = name
  }

  /**
   * A new spill file, or undefined where there is no room for `bytes` (the quota less what is
   * used: a private window's OPFS is small and held in memory) or no OPFS at all.
   */
  static async open(bytes: number): Promise<OpfsSpill | undefined> {
    try {
      const storage = navigator.storage
      const { quota = 0, usage = 0 } = await storage.estimate()
      if (quota - usage < bytes) return undefined
      const folder = await storage.getDirectory()
      await removeLeftovers(folder)
      const name = `${PREFIX}${String(Date.now())}-${crypto.randomUUID()}`
      const file = await folder.getFileHandle(name, { create: true })
      return new OpfsSpill(await (file as SyncFile).createSyncAccessHandle(), folder, name)
    } catch {
      return undefined
    }
  }

  append(parts: readonly Uint8Array[]): number {
    const at = this.size
    for (const part of parts) {
      const s = this.staged
      if (s.length + part.length > s.bytes.length) this.writeStaged()
      if (part.length > s.bytes.length) this.write(part, this.size)
      else {
        if (s.length === 0) s.at = this.size
        s.bytes.set(part, s.length)
        s.length += part.length
      }
      this.size += part.length
    }
    return at
  }

  /** Writes what is staged. */
  private writeStaged(): void {
    const s = this.staged
    if (s.length > 0) this.write(s.bytes.subarray(0, s.length), s.at)
    s.length = 0
  }

  /** Writes `bytes` at `at`, the file lengthened first by GROW_BYTES or more. */
  private write(bytes: Uint8Array, at: number): void {
    if (at + bytes.length > this.capacity) {
      this.capacity = Math.max(at + bytes.length, this.capacity + GROW_BYTES)
      try {
        this.handle.truncate(this.capacity)
      } catch {
        throw new Error(REFUSED)
      }
    }
    for (let done = 0; done < bytes.length;) {
      const n = this.handle.write(bytes.subarray(done), { at: at + done })
      if (n <= 0) throw new Error('the browser refused to write the statistics spill file (no room left?)')
      done += n
    }
  }

  read(offset: number, length: number, into: Uint8Array): void {
    this.writeStaged()
    for (let done = 0; done < length;) {
      const n = this.handle.read(into.subarray(done, length), { at: offset + done })
      if (n <= 0) throw new Error(`internal: the spill file ended at ${String(offset + done)}`)
      done += n
    }
  }

  /** Closes and removes the file. */
  async remove(): Promise<void> {
    try {
      this.handle.close()
      await this.folder.removeEntry(this.name)
    } catch {
      // Removed at the next pass (removeLeftovers).
    }
  }
}

/** Removes old spill files no pass holds open (a tab closed mid-pass left them; an open one is locked). */
async function removeLeftovers(folder: FileSystemDirectoryHandle): Promise<void> {
  const old = (name: string): boolean => Number(name.slice(PREFIX.length).split('-')[0]) < Date.now() - LEFTOVER_AGE_MS
  const names: string[] = []
  // keys() is in every browser with OPFS, not yet in TypeScript's lib.
  const listed = folder as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }
  for await (const name of listed.keys()) if (name.startsWith(PREFIX) && old(name)) names.push(name)
  await Promise.all(names.map((name) => folder.removeEntry(name).catch(() => undefined)))
}
