/**
 * The index worker's handle on the record checker worker (check.worker.ts,
 * ADR 0002), behind the RecordChecker interface that ChecksBeside uses.
 */
import { transfer, wrap } from 'comlink'
import type { Remote } from 'comlink'
import './comlinkErrors'
import { RadError } from '../rad/errors'
import type { StatsReport } from '../rad/stats/section'
import type { Prelude } from '../rad/types'
import type { RecordChecker } from './checksBeside'
import { batchBuffers } from './recordChecks'
import type { CheckResult, CheckerApi } from './recordChecks'

/** A batch without an answer for this long means the checker is gone (one takes milliseconds). */
export const CHECK_TIMEOUT_MS = 30_000

/**
 * Opens `worker` (a started check.worker) for this file's prelude; with `count`, it also counts
 * the statistics of the chunks it checks (walkCount.ts). A checker
 * that crashes, cannot read a message or stops answering for `timeoutMs`
 * fails every pending and later call with WORKER_FAILED, so the scan checks
 * the rest itself; the worker is then terminated.
 */
export function remoteChecker(
  prelude: Prelude,
  worker: Worker,
  timeoutMs = CHECK_TIMEOUT_MS,
  count = false,
): RecordChecker {
  const api: Remote<CheckerApi> = wrap<CheckerApi>(worker)
  const pending = new Set<(e: Error) => void>()
  let failed: Error | undefined
  const fail = (why: string): void => {
    failed ??= new RadError('WORKER_FAILED', `the record checker stopped: ${why}`)
    worker.terminate()
    for (const reject of pending) reject(failed)
    pending.clear()
  }
  worker.addEventListener('error', (ev) => {
    ev.preventDefault()
    fail(ev.message || 'it crashed')
  })
  worker.addEventListener('messageerror', () => {
    fail('a message could not be read')
  })
  api.open(prelude, count).catch((e: unknown) => {
    fail(e instanceof Error ? e.message : String(e))
  })
  /** One call to the checker, failed with the checker when it stops. */
  const call = <T>(ask: () => Promise<T>): Promise<T> => {
    if (failed) return Promise.reject(failed)
    return new Promise<T>((resolve, reject) => {
      pending.add(reject)
      const timer = setTimeout(() => {
        fail(`no answer for ${String(timeoutMs / 1000)} s`)
      }, timeoutMs)
      ask()
        .then(resolve, reject)
        .finally(() => {
          clearTimeout(timer)
          pending.delete(reject)
        })
    })
  }
  return {
    check(batch) {
      return call<CheckResult>(() => api.check(transfer(batch, batchBuffers(batch))))
    },
    counted() {
      return call<StatsReport | undefined>(() => api.counted())
    },
    close() {
      worker.terminate()
    },
  }
}
