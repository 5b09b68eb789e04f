import { useCallback, useEffect, useState } from 'react'
import { handleFor } from './fileHandles'
import { persistStore } from './persistStore'
import type { RecentFile } from './persistStore'

export interface RecentFiles {
  list: RecentFile[]
  /** Cached indexes kept, for the clear control. */
  usage: { count: number; bytes: number } | undefined
  /** A file was opened and its fingerprint is known: it goes to the top of the list. */
  remember: (file: File, fp: string) => void
  forget: (id: string) => void
  clearIndexes: () => void
}

/** The start page's "Recent files" and the index cache's usage, from the persist store. */
export function useRecentFiles(): RecentFiles {
  const [list, setList] = useState<RecentFile[]>([])
  const [usage, setUsage] = useState<RecentFiles['usage']>(undefined)

  const refresh = useCallback(
    () =>
      persistStore()
        .then(async (store) => (store ? Promise.all([store.recentFiles(), store.indexUsage()]) : undefined))
        .then((got) => {
          if (!got) return
          setList(got[0])
          setUsage(got[1])
        }),
    [],
  )

  useEffect(() => {
    void refresh()
  }, [refresh])

  const remember = useCallback(
    (file: File, fp: string) => {
      void (async () => {
        const [store, handle] = await Promise.all([persistStore(), handleFor(file)])
        await store?.addRecent({ id: fp, name: file.name, size: file.size, ...(handle ? { handle } : {}) })
        await refresh()
      })()
    },
    [refresh],
  )

  const forget = useCallback(
    (id: string) => {
      void persistStore().then(async (store) => {
        await store?.removeRecent(id)
        await refresh()
      })
    },
    [refresh],
  )

  const clearIndexes = useCallback(() => {
    void persistStore().then(async (store) => {
      await store?.clearIndexes()
      await refresh()
    })
  }, [refresh])

  return { list, usage, remember, forget, clearIndexes }
}
