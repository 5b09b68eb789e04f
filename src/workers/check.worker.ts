// Thin Comlink entry of the record checker: the work is makeBatchChecker() (recordChecks.ts).
import { expose } from 'comlink'
import './comlinkErrors'
import type { Prelude } from '../rad/types'
import { makeBatchChecker } from './recordChecks'
import type { CheckBatch, CheckResult } from './recordChecks'

let check: ((batch: CheckBatch) => CheckResult) | undefined

const api = {
  open(prelude: Prelude): void {
    check = makeBatchChecker(prelude)
  },
  check(batch: CheckBatch): CheckResult {
    if (!check) throw new Error('internal: record checker used before open()')
    return check(batch)
  },
}

export type CheckerApi = typeof api

expose(api)
