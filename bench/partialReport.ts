/**
 * What one partial report of the page's pass costs (statsWorker.ts: statsSnapshot on worker 1,
 * sumSoFar and reportOf on worker 0), in Node: two accumulators owning half the buckets each take
 * the first MIB MiB of FILE as the page's workers do, then the report's steps are timed and the
 * bytes each step's result holds are summed (issue 35: the 20 GB run's peak is in these reports).
 *
 *   node --expose-gc --import tsx bench/partialReport.ts FILE [MIB]
 */
import { closeSync, openSync, readSync, fstatSync } from 'node:fs'
import { countBatches } from './fileBatches'
import { parsePrelude } from '../src/rad/prelude/prelude'
import { inferSemantics } from '../src/rad/prelude/semantics'
import { createStatsAccumulator, reportState, statsJson, statsTransferables, barcodeRuns } from '../src/rad/stats'
import { rankCurveOf, umiRankCurveOf } from '../src/rad/stats/section'
import type { StatsState } from '../src/rad/stats'

const BATCH = 16 << 20
const mib = (n: number): string => (n / 2 ** 20).toFixed(1)
const heldBytes = (s: StatsState): number => statsTransferables(s).reduce((sum, b) => sum + b.byteLength, 0)

function main(path: string, limit: number): void {
  const fd = openSync(path, 'r')
  const size = Math.min(fstatSync(fd).size, limit)
  const head = new Uint8Array(4 << 20)
  readSync(fd, head, 0, head.length, 0)
  const prelude = parsePrelude(head, fstatSync(fd).size)
  const sem = inferSemantics(prelude)
  const accs = [0, 1].map((index) => createStatsAccumulator(prelude, sem, { bucketOwners: { count: 2, index } }))
  countBatches(
    fd,
    size,
    prelude,
    BATCH,
    (batch) => accs[batch % 2]!,
    (_batch, acc) => {
      acc.takeForeignRows().forEach((rows, w) => {
        if (rows) accs[w]!.addForeignRows(rows)
      })
    },
  )
  closeSync(fd)
  const step = <T>(name: string, f: () => T, bytes: (t: T) => number): T => {
    const t0 = performance.now()
    const out = f()
    process.stdout.write(
      `${name.padEnd(34)} ${(performance.now() - t0).toFixed(0).padStart(5)} ms  ${mib(bytes(out)).padStart(6)} MiB\n`,
    )
    return out
  }
  for (let run = 0; run < 2; run++) {
    process.stdout.write(`-- report ${String(run)}\n`)
    const snap = step('worker 1: snapshot', () => reportState(accs[1]!.exportState('partial')), heldBytes)
    const own = step("worker 0: its own 'partial'", () => accs[0]!.exportState('partial'), heldBytes)
    const sum = step(
      'worker 0: sum (merge both)',
      () => {
        const s = createStatsAccumulator(prelude, sem)
        s.merge(own)
        s.merge(snap)
        return s
      },
      () => 0,
    )
    const state = step("worker 0: sum's 'figures'", () => sum.exportState('figures'), heldBytes)
    const json = step(
      'worker 0: statsJson',
      () => statsJson(state, prelude, sem),
      () => 0,
    )
    const desc = step(
      'worker 0: barcodeRuns',
      () => barcodeRuns(state),
      () => 0,
    )
    step(
      'worker 0: curves',
      () => [rankCurveOf(desc, json), umiRankCurveOf(state, json)],
      () => 0,
    )
    process.stdout.write(`barcodes ${String(json.barcodes?.distinct)}, pairs ${String(json.umis?.distinct_pairs)}\n`)
  }
}

main(process.argv[2] ?? '', Number(process.argv[3] ?? 1024) * 2 ** 20)
