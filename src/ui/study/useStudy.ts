import { useEffect, useState } from 'react'
import { openRadSource } from '../../session'
import type { RadSession, SourceSpec } from '../../session'
import { summaryOf } from '../../rad/report/summary'
import type { SampleJson } from '../../rad/report/summary'
import type { RankCurve } from '../../rad/stats/logDownsample'
import { browserIndexCache } from '../persist/indexCache'

/** A sample of the study: a RAD file or URL, the name the study rule gave it, and its `.rdx` sidecar when dropped. */
export interface StudySample {
  sample: string
  /** The path inside the drop, or the URL. */
  path: string
  source: SourceSpec
  sidecar: File | undefined
}

export interface StudySampleState {
  phase: 'waiting' | 'counting' | 'done' | 'error'
  /** 0…1 while counting: the index walk, then the statistics pass. */
  progress: number
  json: SampleJson | undefined
  curve: RankCurve | undefined
  error: string | undefined
}

const WAITING: StudySampleState = { phase: 'waiting', progress: 0, json: undefined, curve: undefined, error: undefined }

/** How far a session is: the index walk as the first tenth, the statistics pass the rest. */
function progressOf(session: RadSession): number {
  const s = session.getState()
  const stats = session.stats.getState()
  if (stats.progress && stats.progress.totalBytes > 0) {
    return 0.1 + 0.9 * (stats.progress.bytes / stats.progress.totalBytes)
  }
  const scan = s.progress
  return scan && scan.bytesTotal > 0 ? 0.1 * (scan.bytesScanned / scan.bytesTotal) : 0
}

/**
 * Counts one sample in a session of its own (its sidecar or the cache used when there), until its
 * statistics are done or fail; `onState` hears its progress. The session is disposed at the end.
 */
function countSample(
  sample: StudySample,
  onState: (s: StudySampleState) => void,
): { promise: Promise<void>; stop: () => void } {
  const session = openRadSource(sample.source, {
    indexCache: browserIndexCache,
    ...(sample.sidecar ? { sidecar: sample.sidecar } : {}),
  })
  let settle: () => void = () => undefined
  const promise = new Promise<void>((resolve) => {
    settle = resolve
  })
  const finish = (state: StudySampleState): void => {
    onState(state)
    unsubscribe()
    session.dispose()
    settle()
  }
  const check = (): void => {
    const s = session.getState()
    const stats = session.stats.getState()
    if (stats.phase === 'done' && stats.report) {
      const { json, curve } = stats.report
      finish({
        phase: 'done',
        progress: 1,
        json: { ...json, summary: summaryOf(json) },
        curve,
        error: undefined,
      })
      return
    }
    const failure = stats.error ?? (s.phase === 'error' && s.chunks === 0 ? s.error : undefined)
    if (stats.phase === 'error' || failure) {
      finish({ ...WAITING, phase: 'error', error: failure?.message ?? 'the statistics could not be counted' })
      return
    }
    // A pass that waits to be asked (statsOnOpen.ts) is asked: a study counts every sample.
    if (s.phase === 'done' && stats.phase === 'idle') session.stats.start(session.index)
    onState({ ...WAITING, phase: 'counting', progress: progressOf(session) })
  }
  const subscriptions = [session.subscribe(check), session.stats.subscribe(check)]
  const unsubscribe = (): void => {
    for (const off of subscriptions) off()
  }
  check()
  return {
    promise,
    stop: () => {
      unsubscribe()
      session.dispose()
      settle()
    },
  }
}

/**
 * The study of several RAD files (docs/study.md): each sample counted in turn, one session at a
 * time (the page's memory is one file's), in the order given. The states survive a visit to one
 * sample's view: the hook lives with the drop, not with the open file.
 */
export function useStudy(samples: readonly StudySample[] | undefined): StudySampleState[] {
  const [states, setStates] = useState<{ of: readonly StudySample[] | undefined; list: StudySampleState[] }>({
    of: undefined,
    list: [],
  })
  useEffect(() => {
    if (!samples || samples.length === 0) return
    const setState = (i: number, s: StudySampleState): void => {
      setStates((had) => {
        const list = had.of === samples ? had.list : samples.map(() => WAITING)
        return { of: samples, list: list.map((old, j) => (j === i ? s : old)) }
      })
    }
    let stopped = false
    let current: { stop: () => void } | undefined
    const run = async (): Promise<void> => {
      for (const [i, sample] of samples.entries()) {
        if (stopped) return
        const counting = countSample(sample, (s) => {
          if (!stopped) setState(i, s)
        })
        current = counting
        await counting.promise
      }
    }
    void run()
    return () => {
      stopped = true
      current?.stop()
    }
  }, [samples])
  return states.of === samples ? states.list : (samples ?? []).map(() => WAITING)
}
