import { useCallback, useRef, useState } from 'react'
import { fetchFile, urlSpec } from '../../session'
import type { SourceSpec } from '../../session'
import { readSidecars } from './dropEntries'
import { sidecarIndexFor } from './dropPlan'
import type { DropPlan, DroppedFile, Sidecar } from './dropPlan'
import { showUrlParam } from './urlParam'
import { useAddressOpen, useUrlStudy } from './useUrlStudy'

const SAMPLE_URL = `${import.meta.env.BASE_URL}sample.rad`

/** A folder or several files dropped, the sidecars read from it, and which of its files is open. */
export interface Dropped {
  plan: DropPlan
  sidecars: Sidecar[]
  opened: string | undefined
}

/**
 * Every way the page opens a file: chosen, dropped (a file, or a folder with its sidecars), by URL
 * (the Open URL field, `?url=`), or the sample. `open` starts the session (useRadSession).
 */
export function useOpenRequests(open: (source: SourceSpec, sidecar?: File) => void, close: () => void) {
  const [sampleError, setSampleError] = useState<string | undefined>(undefined)
  const [dropped, setDropped] = useState<Dropped | undefined>(undefined)
  // Counts open requests, so a slow sample download never replaces a file opened meanwhile.
  const requests = useRef(0)
  const openSource = useCallback(
    (source: SourceSpec, sidecar?: File) => {
      requests.current++
      setSampleError(undefined)
      showUrlParam(source.kind === 'url' ? source.url : undefined)
      open(source, sidecar)
    },
    [open],
  )
  const openFile = useCallback(
    (file: File, sidecar?: File) => {
      openSource({ kind: 'file', file }, sidecar)
    },
    [openSource],
  )
  const urlStudy = useUrlStudy(openSource)
  const { clear: leaveUrlStudy, back: backInUrlStudy } = urlStudy
  /** A URL from "Open URL…" or `?url=`: read by HTTP Range from its own server. */
  const openUrl = useCallback(
    (url: string) => {
      setDropped(undefined)
      leaveUrlStudy()
      try {
        openSource(urlSpec(url, location.href))
      } catch (e) {
        setSampleError(`Could not open ${url}: ${e instanceof Error ? e.message : String(e)}`)
      }
    },
    [openSource, leaveUrlStudy],
  )
  useAddressOpen(openUrl, urlStudy.start)
  /** A file from outside a dropped folder: the folder's panel goes. */
  const openOther = useCallback(
    (file: File) => {
      setDropped(undefined)
      leaveUrlStudy()
      openFile(file)
    },
    [openFile, leaveUrlStudy],
  )
  const openDropped = useCallback(
    (plan: DropPlan, file: DroppedFile) => {
      setDropped((d) => d && { ...d, opened: file.path })
      openFile(file.file, sidecarIndexFor(plan, file.path)?.file)
    },
    [openFile],
  )
  const onPlan = useCallback(
    (plan: DropPlan) => {
      leaveUrlStudy()
      setDropped({ plan, sidecars: [], opened: undefined })
      if (plan.open) openDropped(plan, plan.open)
      void readSidecars(plan.sidecarFiles).then((sidecars) => {
        setDropped((d) => (d?.plan === plan ? { ...d, sidecars } : d))
      })
    },
    [openDropped, leaveUrlStudy],
  )

  /** From a study's sample back to the study: the sample's view closes. */
  const backToStudy = useCallback(() => {
    requests.current++
    setDropped((d) => d && { ...d, opened: undefined })
    backInUrlStudy()
    showUrlParam(undefined)
    close()
  }, [close, backInUrlStudy])

  const openSample = useCallback(() => {
    const request = ++requests.current
    setSampleError(undefined)
    setDropped(undefined)
    fetchFile(SAMPLE_URL, 'sample.rad').then(
      (file) => {
        if (request === requests.current) openFile(file)
      },
      (e: unknown) => {
        setSampleError(`Could not load the sample file: ${e instanceof Error ? e.message : String(e)}`)
      },
    )
  }, [openFile])

  return {
    sampleError,
    dropped,
    openSource,
    openFile,
    openUrl,
    openOther,
    openDropped,
    onPlan,
    openSample,
    backToStudy,
    urlStudy: urlStudy.study,
    openUrlSample: urlStudy.open,
  }
}
