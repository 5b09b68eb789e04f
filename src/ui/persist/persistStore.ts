/**
 * The one module that touches the browser's storage (docs/architecture.md §7): IndexedDB holds the
 * indexes of files seen before, keyed by fingerprint (the cached reopen, ADR 0007), and the
 * recent files (with their File System Access handles where the browser can keep them). Nothing
 * else in the app calls indexedDB.
 */
import { evictions } from './lru'
import type { CachedEntry } from './lru'

const DB_NAME = 'rad-viewer'
const DB_VERSION = 1
const INDEXES = 'indexes'
const RECENT = 'recent'

/**
 * Default cap on cached indexes: an index is 24 bytes a chunk (docs/format.md §5; indexStore.ts),
 * so a 100 GB file of ~1 MB chunks needs ~2.4 MB and 64 MiB keeps a couple of dozen of them.
 */
export const DEFAULT_CAP_BYTES = 64 << 20
/** Recent files listed on the start page. */
export const MAX_RECENT = 8

interface IndexRecord extends CachedEntry {
  bytes: Uint8Array
  name: string
}

/** A file opened before: a local file (with a handle where the browser keeps one) or a URL. */
export interface RecentFile {
  /** The fingerprint key for a local file, the URL for a remote one. */
  id: string
  name: string
  size: number
  openedAt: number
  /** Chromium's File System Access handle: reopens with one click after the permission prompt. */
  handle?: FileSystemFileHandle
  /** Set for files opened by URL (branch http): they reopen directly. */
  url?: string
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => {
      resolve(req.result)
    }
    req.onerror = () => {
      reject(req.error ?? new Error('IndexedDB request failed'))
    }
  })
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => {
      resolve()
    }
    tx.onerror = tx.onabort = () => {
      reject(tx.error ?? new Error('IndexedDB transaction failed'))
    }
  })
}

function openDb(factory: IDBFactory): Promise<IDBDatabase> {
  const req = factory.open(DB_NAME, DB_VERSION)
  req.onupgradeneeded = () => {
    const db = req.result
    if (!db.objectStoreNames.contains(INDEXES)) db.createObjectStore(INDEXES, { keyPath: 'key' })
    if (!db.objectStoreNames.contains(RECENT)) db.createObjectStore(RECENT, { keyPath: 'id' })
  }
  return done(req)
}

export interface StoreOptions {
  capBytes?: number
  /** The clock (tests pass their own). */
  now?: () => number
}

export class PersistStore {
  private readonly db: IDBDatabase
  private readonly capBytes: number
  private readonly now: () => number

  private constructor(db: IDBDatabase, capBytes: number, now: () => number) {
    this.db = db
    this.capBytes = capBytes
    this.now = now
  }

  /** Opens the database; undefined where the browser has no IndexedDB (or refuses it, e.g. some private modes). */
  static async open(factory: IDBFactory | undefined = globalThis.indexedDB, opts: StoreOptions = {}) {
    if (!factory) return undefined
    try {
      const db = await openDb(factory)
      return new PersistStore(db, opts.capBytes ?? DEFAULT_CAP_BYTES, opts.now ?? Date.now)
    } catch {
      return undefined
    }
  }

  /** A cached index (the bytes of a `.rdx` sidecar, docs/sidecar.md), marked as just used. */
  async getIndex(key: string): Promise<Uint8Array | undefined> {
    const tx = this.db.transaction(INDEXES, 'readwrite')
    const store = tx.objectStore(INDEXES)
    const hit = (await done(store.get(key))) as IndexRecord | undefined
    if (hit) store.put({ ...hit, usedAt: this.now() })
    await committed(tx)
    return hit?.bytes
  }

  /** Keeps an index, then evicts the least recently used ones beyond the cap. */
  async putIndex(key: string, bytes: Uint8Array, name: string): Promise<void> {
    const tx = this.db.transaction(INDEXES, 'readwrite')
    const store = tx.objectStore(INDEXES)
    const record: IndexRecord = { key, bytes, name, nbytes: bytes.byteLength, usedAt: this.now() }
    store.put(record)
    const all = (await done(store.getAll())) as IndexRecord[]
    for (const gone of evictions(all, this.capBytes)) store.delete(gone)
    await committed(tx)
  }

  /** Drops one index (it failed to decode or verify: the file is scanned again). */
  async deleteIndex(key: string): Promise<void> {
    const tx = this.db.transaction(INDEXES, 'readwrite')
    tx.objectStore(INDEXES).delete(key)
    await committed(tx)
  }

  /** How many indexes are kept and their bytes, for the "clear cached indexes" control. */
  async indexUsage(): Promise<{ count: number; bytes: number }> {
    const tx = this.db.transaction(INDEXES, 'readonly')
    const all = (await done(tx.objectStore(INDEXES).getAll())) as IndexRecord[]
    return { count: all.length, bytes: all.reduce((sum, r) => sum + r.nbytes, 0) }
  }

  async clearIndexes(): Promise<void> {
    const tx = this.db.transaction(INDEXES, 'readwrite')
    tx.objectStore(INDEXES).clear()
    await committed(tx)
  }

  /** Adds (or moves to the top) a recent file; the list keeps MAX_RECENT. */
  async addRecent(file: Omit<RecentFile, 'openedAt'>): Promise<void> {
    const tx = this.db.transaction(RECENT, 'readwrite')
    const store = tx.objectStore(RECENT)
    const old = (await done(store.get(file.id))) as RecentFile | undefined
    // A later open without a handle (the file chooser) keeps the handle an earlier drop gave.
    const handle = file.handle ?? old?.handle
    store.put({ ...file, ...(handle ? { handle } : {}), openedAt: this.now() })
    const all = newestFirst((await done(store.getAll())) as RecentFile[])
    for (const gone of all.slice(MAX_RECENT)) store.delete(gone.id)
    await committed(tx)
  }

  async recentFiles(): Promise<RecentFile[]> {
    const tx = this.db.transaction(RECENT, 'readonly')
    return newestFirst((await done(tx.objectStore(RECENT).getAll())) as RecentFile[])
  }

  async removeRecent(id: string): Promise<void> {
    const tx = this.db.transaction(RECENT, 'readwrite')
    tx.objectStore(RECENT).delete(id)
    await committed(tx)
  }

  close(): void {
    this.db.close()
  }
}

function newestFirst(list: RecentFile[]): RecentFile[] {
  return list.sort((a, b) => b.openedAt - a.openedAt)
}

let shared: Promise<PersistStore | undefined> | undefined

/** The page's one store, opened on first use. */
export function persistStore(): Promise<PersistStore | undefined> {
  shared ??= PersistStore.open()
  return shared
}
