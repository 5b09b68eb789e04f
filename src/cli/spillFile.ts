/**
 * Where `rad stats` and `rad index` spill the exact pairs' lists past their memory budget
 * (src/rad/stats/spilledRuns.ts; docs/stats.md, "Exact at any size"): a temporary file in
 * `--tmp DIR` (default the system's, as bustools' `-T`). It is made at the first spill and unlinked
 * as soon as it is open, so it is gone when the process ends, however it ends (SIGINT, SIGKILL, a
 * crash): nothing is left to clean. Synchronous, as the counting threads call it.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SpillStore } from '../rad/stats/spilledRuns'

/** A spill file that could not be made or written (a missing folder, a full disk): the user's to mend. */
export class SpillFailed extends Error {}

/** The folder of spill files: `--tmp DIR`, else the system's. */
export function spillFolder(asked: string | undefined): string {
  return asked ?? tmpdir()
}

export class SpillFile implements SpillStore {
  private readonly folder: string
  private fd: number | undefined
  size = 0

  constructor(folder: string) {
    this.folder = folder
  }

  private file(): number {
    if (this.fd === undefined) {
      const path = join(this.folder, `.rad-spill-${String(process.pid)}-${randomBytes(4).toString('hex')}`)
      try {
        this.fd = openSync(path, 'wx+', 0o600)
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e)
        throw new SpillFailed(`cannot spill the statistics to ${this.folder} (--tmp DIR chooses the folder): ${why}`)
      }
      unlinkSync(path)
    }
    return this.fd
  }

  append(parts: readonly Uint8Array[]): number {
    const fd = this.file()
    const at = this.size
    try {
      for (const part of parts) {
        for (let done = 0; done < part.length;) {
          done += writeSync(fd, part, done, part.length - done, this.size + done)
        }
        this.size += part.length
      }
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e)
      throw new SpillFailed(`cannot spill the statistics to ${this.folder} (--tmp DIR chooses the folder): ${why}`)
    }
    return at
  }

  read(offset: number, length: number, into: Uint8Array): void {
    for (let done = 0; done < length;) {
      const n = readSync(this.file(), into, done, length - done, offset + done)
      if (n === 0) {
        throw new Error(`internal: the spill file ended at ${String(offset + done)} of ${String(offset + length)}`)
      }
      done += n
    }
  }

  /** Closes the file (its space is freed then: it was unlinked at the start). */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }
}
