/**
 * The page's statistics schedule in Node (bench/results.md, ADR 0009's fourth round): `workers`
 * accumulators take 32 MiB batches of a file in turn, as the decode workers do; every `drainEvery`
 * batches the others' states are drained and merged one at a time into worker 0's, which then
 * reports (exportState + statsJson), as statsPass.ts does. Prints CPU and wall seconds, the peak
 * RSS above the start, and the exact figures, to compare with `rad stats`.
 *
 * With `own`, each accumulator owns a range of the exact pairs' buckets (StatsOptions.bucketOwners)
 * and hands the rows of the others over after each batch, as the CLI's threads do; a drain is then
 * skipped (each worker's lists are its own, and the final merge takes them as they are).
 *
 *   node --import tsx bench/pageSchedule.ts FILE [workers] [drainEvery] [own]
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { parsePrelude } from '../src/rad/prelude/prelude'
import { inferSemantics } from '../src/rad/prelude/semantics'
import { createStatsAccumulator, statsJson } from '../src/rad/stats'
import { SpillFile } from '../src/cli/spillFile'
import { tmpdir } from 'node:os'
import { countBatches } from './fileBatches'
import type { StatsAccumulator } from '../src/rad/stats'

const BATCH = 32 << 20

function main(path: string, workers: number, drainEvery: number, own: boolean): void {
  const fd = openSync(path, 'r')
  const size = fstatSync(fd).size
  const head = new Uint8Array(Math.min(size, 4 << 20))
  readSync(fd, head, 0, head.length, 0)
  const prelude = parsePrelude(head, size)
  const sem = inferSemantics(prelude)
  const pendingKeys = Number(process.env.PENDING_KEYS ?? 0) || undefined
  // SPILL_BUDGET=bytes (each accumulator's): spill to a temporary file as the page's workers do (ADR 0015).
  const spillBudget = Number(process.env.SPILL_BUDGET ?? 0)
  const opts = (index: number) => ({
    ...(own ? { bucketOwners: { count: workers, index } } : {}),
    ...(pendingKeys ? { pendingKeys } : {}),
    ...(spillBudget > 0
      ? { spill: { store: new SpillFile(tmpdir()), budget: spillBudget, partialReports: process.env.PARTIAL !== '0' } }
      : {}),
  })
  const accs: StatsAccumulator[] = Array.from({ length: workers }, (_, w) =>
    createStatsAccumulator(prelude, sem, opts(w)),
  )
  const idle = process.memoryUsage().rss
  let peak = idle
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  countBatches(
    fd,
    size,
    prelude,
    BATCH,
    (batch) => accs[batch % workers]!,
    (batch, acc) => {
      if (own) {
        acc.takeForeignRows().forEach((rows, w) => {
          if (rows) accs[w]!.addForeignRows(rows)
        })
      } else if ((batch + 1) % drainEvery === 0) {
        for (let w = 1; w < workers; w++) {
          accs[0]!.merge(accs[w]!.exportState())
          accs[w] = createStatsAccumulator(prelude, sem)
        }
        statsJson(accs[0]!.exportState(), prelude, sem)
      }
      peak = Math.max(peak, process.memoryUsage().rss)
    },
  )
  closeSync(fd)
  // As the page's end (statsPass.ts): the others' figures without their pairs where all count exactly.
  const endStart = performance.now()
  const endCpu0 = process.cpuUsage()
  const what = own && accs.every((a) => a.exactPairs) ? 'figures' : 'whole'
  for (let w = 1; w < workers; w++) accs[0]!.merge(accs[w]!.exportState(what))
  const json = statsJson(accs[0]!.exportState('figures'), prelude, sem)
  peak = Math.max(peak, process.memoryUsage().rss)
  const cpu = process.cpuUsage(cpu0)
  const endCpu = process.cpuUsage(endCpu0)
  const endSeconds = (performance.now() - endStart) / 1000
  const line = [
    own
      ? `${String(workers)} accumulators owning bucket ranges:`
      : `${String(workers)} accumulators, drained every ${String(drainEvery)} batches:`,
    `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s, wall ${((performance.now() - t0) / 1000).toFixed(2)} s (the end's merges ${endSeconds.toFixed(2)} s, CPU ${((endCpu.user + endCpu.system) / 1e6).toFixed(2)} s),`,
    `peak RSS ${((peak - idle) / 2 ** 20).toFixed(0)} MiB above the start;`,
    `barcodes ${String(json.barcodes?.distinct)}, pairs ${String(json.umis?.distinct_pairs)},`,
    `exact ${String(json.exact)}, median UMIs ${String(json.umis?.per_barcode.median)},`,
    `Good–Toulmin ${String(json.umis?.good_toulmin_2x)}`,
  ]
  process.stdout.write(`${line.join(' ')}\n`)
}

main(process.argv[2] ?? '', Number(process.argv[3] ?? 2), Number(process.argv[4] ?? 4), process.argv[5] === 'own')
