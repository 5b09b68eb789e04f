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
 * What is used of a sync access handle (WebWorker's lib has the type; the DOM lib, with which the
 * page's typecheck also reads the worker modules, has not).
 */
interface SyncAccessHandle {
  read(buffer: Uint8Array, options: { at: number }): number
  write(buffer: Uint8Array, options: { at: number }): number
  close(): void
}

type SyncFile = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle> }

export class OpfsSpill implements SpillStore {
  private readonly handle: SyncAccessHandle
  private readonly folder: FileSystemDirectoryHandle
  private readonly name: string
  size = 0

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
      for (let done = 0; done < part.length;) {
        const n = this.handle.write(part.subarray(done), { at: this.size + done })
        if (n <= 0) throw new Error('the browser refused to write the statistics spill file (no room left?)')
        done += n
      }
      this.size += part.length
    }
    return at
  }

  read(offset: number, length: number, into: Uint8Array): void {
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
