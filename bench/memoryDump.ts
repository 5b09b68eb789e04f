/**
 * Where the renderer's memory goes from the drop to the statistics done (issue 35): Chromium's
 * memory-infra dumps every 400 ms (BENCH_DUMP_MS), traced through CDP in a window with a profile of its own (as
 * bench/appStats.ts), printed per dump for the renderer by allocator: ArrayBuffers
 * (partition_alloc's array_buffer), Blink's buffer partition (where a structured clone's bytes
 * go), malloc, V8's heaps (the page's and the workers'), Blink's GC heap. What these leave out
 * of the private footprint is mostly the workers' WebAssembly memories. Build first as
 * bench/appStats.ts says.
 *
 *   npx tsx bench/memoryDump.ts FILE
 */
import { appReady, dropAndCount, launchProfile, serve, traced } from './browser'

const PORT = Number(process.env.BENCH_PORT ?? 4335)
/** A dump this often (BENCH_DUMP_MS): a long pass wants fewer, the trace is read as one string. */
const DUMP_EVERY_MS = Number(process.env.BENCH_DUMP_MS ?? 400)
const COLUMNS = [
  'partition_alloc/partitions/array_buffer',
  'partition_alloc/partitions/buffer',
  'malloc',
  'v8/main',
  'v8/workers',
  'blink_gc',
]

interface Dump {
  allocators?: Record<string, { attrs?: Record<string, { value: string }> }>
  process_totals?: Record<string, string>
}
interface TraceEvent {
  ph: string
  pid: number
  ts: number
  id?: string
  args?: { dumps?: Dump }
}

const mib = (hex: string | undefined): number => (hex ? parseInt(hex, 16) / 2 ** 20 : 0)

/** Each process's dumps in time order, a dump's events (allocators may come apart from the totals) joined. */
function dumpsByProcess(events: TraceEvent[]): Map<number, { ts: number; dump: Dump }[]> {
  const joined = new Map<string, { pid: number; ts: number; dump: Dump }>()
  for (const e of events) {
    const d = e.args?.dumps
    if (e.ph !== 'v' || !d) continue
    const key = `${String(e.pid)}:${e.id ?? ''}`
    const seen = joined.get(key)
    if (!seen) joined.set(key, { pid: e.pid, ts: e.ts, dump: { ...d } })
    else {
      seen.dump.allocators = { ...seen.dump.allocators, ...d.allocators }
      seen.dump.process_totals ??= d.process_totals
    }
  }
  const out = new Map<number, { ts: number; dump: Dump }[]>()
  for (const { pid, ts, dump } of joined.values()) out.set(pid, [...(out.get(pid) ?? []), { ts, dump }])
  for (const list of out.values()) list.sort((a, b) => a.ts - b.ts)
  return out
}

async function main(file: string): Promise<void> {
  const server = await serve(PORT)
  const context = await launchProfile()
  try {
    const page = await context.newPage()
    await appReady(page, `http://127.0.0.1:${String(PORT)}`)
    await new Promise((r) => setTimeout(r, 1500))
    const config = {
      traceConfig: {
        // The default buffer fills in ~25 s of a pass and the trace stops there.
        recordMode: 'recordAsMuchAsPossible',
        includedCategories: ['disabled-by-default-memory-infra'],
        memoryDumpConfig: {
          triggers: [{ mode: process.env.BENCH_DUMP_MODE ?? 'detailed', periodic_interval_ms: DUMP_EVERY_MS }],
        },
      },
    }
    const dropped = (): Promise<void> => dropAndCount(page, file)
    // Only the dumps' lines are parsed: the category traces more than one string can hold on a long pass.
    const dumpsOnly = (line: string): boolean => line.includes('"ph":"v"')
    const events = await traced<TraceEvent>(await context.newCDPSession(page), config, dropped, dumpsOnly)
    for (const [pid, dumps] of dumpsByProcess(events)) {
      const footprint = dumps.map((d) => mib(d.dump.process_totals?.private_footprint_bytes))
      if (Math.max(...footprint) < 200) continue
      process.stdout.write(
        `\n## process ${String(pid)}: MiB by allocator\n\n| s | footprint | ${COLUMNS.join(' | ')} |\n`,
      )
      process.stdout.write(`|${' ---: |'.repeat(COLUMNS.length + 2)}\n`)
      const t0 = dumps[0]?.ts ?? 0
      dumps.forEach(({ ts, dump }, i) => {
        const cells = COLUMNS.map((c) => mib(dump.allocators?.[c]?.attrs?.size?.value).toFixed(0))
        process.stdout.write(
          `| ${((ts - t0) / 1e6).toFixed(1)} | ${footprint[i]!.toFixed(0)} | ${cells.join(' | ')} |\n`,
        )
      })
    }
  } finally {
    await context.close()
    server.close()
  }
}

await main(process.argv[2] ?? 'bench/data/tenx-1024m.rad')
