// Thin Comlink entry of the index worker: the work is scanFile().
import { expose, transfer, wrap } from 'comlink'
import type { Remote } from 'comlink'
import './comlinkErrors'
import { BlobSource } from '../io/blobSource'
import { RadError } from '../rad/errors'
import type { Prelude } from '../rad/types'
import type { CheckerApi } from './check.worker'
import type { RecordChecker } from './checksBeside'
import type { ScanEvents, ScanRequest, ScanSummary } from './protocol'
import { batchBuffers } from './recordChecks'
import type { CheckResult } from './recordChecks'
import { scanFile } from './scanFile'

interface Job {
  controller: AbortController
  /** performance.now() until which the walk stays paused (holdFor). */
  holdUntil: number
}

const jobs = new Map<number, Job>()

/** The longest pause one holdFor call can ask for: a page that stops asking lets the walk go on soon. */
const MAX_HOLD_MS = 1000

/** A batch without an answer for this long means the checker is gone (one takes milliseconds). */
const CHECK_TIMEOUT_MS = 30_000

function startCheckerWorker(): Worker | undefined {
  try {
    return new Worker(new URL('./check.worker.ts', import.meta.url), { type: 'module', name: 'rad-check' })
  } catch {
    // No nested workers here: the records are checked in this thread instead.
    return undefined
  }
}

/**
 * The record checker of ADR 0002 behind the RecordChecker interface. A
 * checker that crashes, cannot read a message or stops answering fails every
 * pending and later call, so the scan checks the rest itself.
 */
function remoteChecker(prelude: Prelude): RecordChecker | undefined {
  const worker = startCheckerWorker()
  if (!worker) return undefined
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
  api.open(prelude).catch((e: unknown) => {
    fail(e instanceof Error ? e.message : String(e))
  })
  return {
    check(batch) {
      if (failed) return Promise.reject(failed)
      return new Promise<CheckResult>((resolve, reject) => {
        pending.add(reject)
        const timer = setTimeout(() => {
          fail(`no answer for ${String(CHECK_TIMEOUT_MS / 1000)} s`)
        }, CHECK_TIMEOUT_MS)
        api
          .check(transfer(batch, batchBuffers(batch)))
          .then(resolve, reject)
          .finally(() => {
            clearTimeout(timer)
            pending.delete(reject)
          })
      })
    },
    close() {
      worker.terminate()
    },
  }
}

/** IndexApi as the worker sees it: the callbacks are remote, so each call returns a promise. */
const api = {
  async scan(file: Blob, jobId: number, events: Remote<ScanEvents>, options?: ScanRequest): Promise<ScanSummary> {
    const controller = new AbortController()
    const job: Job = { controller, holdUntil: 0 }
    jobs.set(jobId, job)
    try {
      const summary = await scanFile(
        new BlobSource(file),
        {
          opened: (opened) => events.opened(opened),
          first: (index, chunks, convention, buffers) => events.first(transfer(index, buffers), chunks, convention),
          index: (added, convention, buffers) => events.index(transfer(added, buffers), convention),
          progress: (p) => events.progress(p),
        },
        {
          signal: controller.signal,
          checker: options?.checkBeside ? remoteChecker : undefined,
          held: () => Math.max(0, job.holdUntil - performance.now()),
        },
      )
      const head = summary.salvage?.head.buffer
      return head instanceof ArrayBuffer ? transfer(summary, [head]) : summary
    } finally {
      jobs.delete(jobId)
    }
  },
  cancel(jobId: number): void {
    jobs.get(jobId)?.controller.abort()
  },
  holdFor(jobId: number, ms: number): void {
    const job = jobs.get(jobId)
    if (job) job.holdUntil = performance.now() + Math.min(ms, MAX_HOLD_MS)
  },
  ping(): number {
    return jobs.size
  },
}

expose(api)
