// Thin Comlink entry of the cells worker (one per pass; the page terminates it to cancel): the work is runCellsJob().
import { expose } from 'comlink'
import './comlinkErrors'
import { loadWasmCodecs } from '../io/codecWasm'
import { radStreamOf } from '../io/readPrelude'
import { openByteSource } from '../io/sourceSpec'
import { runCellsJob } from './cellsJob'
import type { CellsWorkerApi } from './protocol'

const api: CellsWorkerApi = {
  async run(spec, job, onProgress) {
    await loadWasmCodecs()
    const source = await radStreamOf(await openByteSource(spec), job.container, job.frames)
    return runCellsJob(job, source, onProgress)
  },
}

expose(api)
