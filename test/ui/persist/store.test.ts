import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { evictions } from '../../../src/ui/persist/lru'
import { MAX_RECENT, PersistStore } from '../../../src/ui/persist/persistStore'

/** A fresh database and a clock that moves one tick a call. */
async function fresh(capBytes = 100): Promise<PersistStore> {
  let t = 0
  const store = await PersistStore.open(new IDBFactory(), { capBytes, now: () => ++t })
  if (!store) throw new Error('no store')
  return store
}

describe('evictions', () => {
  it('drops the least recently used beyond the cap, and anything larger than the cap', () => {
    const entries = [
      { key: 'old', nbytes: 40, usedAt: 1 },
      { key: 'mid', nbytes: 40, usedAt: 2 },
      { key: 'new', nbytes: 40, usedAt: 3 },
    ]
    expect(evictions(entries, 100)).toEqual(['old'])
    expect(evictions(entries, 120)).toEqual([])
    expect(evictions([{ key: 'huge', nbytes: 101, usedAt: 9 }], 100)).toEqual(['huge'])
  })
})

describe('PersistStore indexes', () => {
  it('keeps indexes by key and returns their bytes', async () => {
    const store = await fresh()
    await store.putIndex('a', Uint8Array.of(1, 2, 3), 'a.rad')
    expect(await store.getIndex('a')).toEqual(Uint8Array.of(1, 2, 3))
    expect(await store.getIndex('b')).toBeUndefined()
    expect(await store.indexUsage()).toEqual({ count: 1, bytes: 3 })
  })

  it('evicts the least recently used past the cap; a read counts as a use', async () => {
    const store = await fresh(100)
    await store.putIndex('a', new Uint8Array(40), 'a')
    await store.putIndex('b', new Uint8Array(40), 'b')
    await store.getIndex('a')
    await store.putIndex('c', new Uint8Array(40), 'c')
    expect(await store.getIndex('b')).toBeUndefined()
    expect(await store.getIndex('a')).toBeDefined()
    expect(await store.getIndex('c')).toBeDefined()
  })

  it('clears every index', async () => {
    const store = await fresh()
    await store.putIndex('a', new Uint8Array(4), 'a')
    await store.clearIndexes()
    expect(await store.indexUsage()).toEqual({ count: 0, bytes: 0 })
  })

  it('is undefined without IndexedDB', async () => {
    expect(await PersistStore.open(undefined)).toBeUndefined()
  })
})

describe('PersistStore recent files', () => {
  it('lists newest first, moves a reopened file to the top, keeps MAX_RECENT', async () => {
    const store = await fresh()
    for (let i = 0; i < MAX_RECENT + 2; i++) {
      await store.addRecent({ id: `f${String(i)}`, name: `${String(i)}.rad`, size: i })
    }
    await store.addRecent({ id: 'f5', name: '5.rad', size: 5 })
    const list = await store.recentFiles()
    expect(list).toHaveLength(MAX_RECENT)
    expect(list.map((f) => f.id).slice(0, 3)).toEqual(['f5', 'f9', 'f8'])
    await store.removeRecent('f5')
    expect((await store.recentFiles())[0]?.id).toBe('f9')
  })

  it('keeps a URL', async () => {
    const store = await fresh()
    await store.addRecent({ id: 'https://x/map.rad', name: 'map.rad', size: 0, url: 'https://x/map.rad' })
    expect((await store.recentFiles())[0]?.url).toBe('https://x/map.rad')
  })
})

describe('PersistStore: dropping one index', () => {
  it('deletes that key only, and the usage follows', async () => {
    const store = await fresh()
    await store.putIndex('a', new Uint8Array(10), 'a')
    await store.putIndex('b', new Uint8Array(20), 'b')
    await store.deleteIndex('a')
    expect(await store.getIndex('a')).toBeUndefined()
    expect(await store.indexUsage()).toEqual({ count: 1, bytes: 20 })
  })

  it('keeps the most recent under the cap as indexes arrive', async () => {
    const store = await fresh(50)
    for (const k of ['a', 'b', 'c', 'd']) await store.putIndex(k, new Uint8Array(20), k)
    expect(await store.indexUsage()).toEqual({ count: 2, bytes: 40 })
    expect(await store.getIndex('c')).toBeDefined()
    expect(await store.getIndex('d')).toBeDefined()
  })
})
