import { useCallback, useEffect, useRef, useState } from 'react'
import { urlSpec } from '../../session'
import type { SourceSpec } from '../../session'
import { readStudyParam, readUrlParam } from './urlParam'

/** A study of URLs from the address (`?study=…`, docs/study.md), and which of its samples is open (its URL). */
export interface UrlStudy {
  urls: string[]
  opened: string | undefined
}

/** The study of URLs the page shows, if any: started from the address, left when another file opens. */
export function useUrlStudy(openSource: (source: SourceSpec) => void) {
  const [study, setStudy] = useState<UrlStudy | undefined>(undefined)
  /** A sample opened in the viewer, the study kept (its Back returns). */
  const open = useCallback(
    (url: string) => {
      setStudy((s) => s && { ...s, opened: url })
      openSource(urlSpec(url, location.href))
    },
    [openSource],
  )
  /** The address's study, with its `?url=` sample open when it names one. */
  const start = useCallback(
    (urls: string[], opened: string | undefined) => {
      setStudy({ urls, opened: undefined })
      if (opened !== undefined) open(opened)
    },
    [open],
  )
  const back = useCallback(() => {
    setStudy((s) => s && { ...s, opened: undefined })
  }, [])
  const clear = useCallback(() => {
    setStudy(undefined)
  }, [])
  return { study, open, start, back, clear }
}

/**
 * `?url=` and `?study=` in the page address: read once, after the first render (the workers start
 * outside React). A study opens with its `?url=` sample when it names one; a lone `?url=` opens.
 */
export function useAddressOpen(openUrl: (url: string) => void, startStudy: UrlStudyStart): void {
  const seen = useRef(false)
  useEffect(() => {
    if (seen.current) return
    seen.current = true
    const url = readUrlParam(location.search)
    const studyUrls = readStudyParam(location.search)
    if (studyUrls.length === 0 && url === undefined) return
    queueMicrotask(() => {
      if (studyUrls.length > 0) startStudy(studyUrls, url)
      else if (url !== undefined) openUrl(url)
    })
  }, [openUrl, startStudy])
}

type UrlStudyStart = (urls: string[], opened: string | undefined) => void
