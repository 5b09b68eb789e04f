// Thin Comlink entry of the index worker: the work is scanFile().
import { expose, transfer } from 'comlink'
import type { Remote } from 'comlink'
import './comlinkErrors'
import type { ScanEvents, ScanSummary } from './protocol'
import { scanFile } from './scanFile'

const jobs = new Map<number, AbortController>()

/** IndexApi as the worker sees it: the callbacks are remote, so each call returns a promise. */
const api = {
  async scan(file: Blob, jobId: number, events: Remote<ScanEvents>): Promise<ScanSummary> {
    const controller = new AbortController()
    jobs.set(jobId, controller)
    try {
      const summary = await scanFile(
        file,
        {
          opened: (opened) => events.opened(opened),
          first: (index, chunks, convention, buffers) => events.first(transfer(index, buffers), chunks, convention),
          index: (added, convention, buffers) => events.index(transfer(added, buffers), convention),
          progress: (p) => events.progress(p),
        },
        controller.signal,
      )
      return summary.salvage ? transfer(summary, [summary.salvage.head.buffer as ArrayBuffer]) : summary
    } finally {
      jobs.delete(jobId)
    }
  },
  cancel(jobId: number): void {
    jobs.get(jobId)?.abort()
  },
  ping(): number {
    return jobs.size
  },
}

expose(api)
