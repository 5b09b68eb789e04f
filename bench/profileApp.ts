/**
 * Where the app's time goes from the drop to the statistics done (issue 35): a Chromium trace
 * with V8's sampling profiler on every thread (the page, the index worker, the decode workers),
 * summed as self time by function, per thread. Build first as bench/appStats.ts says.
 *
 *   npx tsx bench/profileApp.ts FILE [top]
 *   T2G=bench/data/tenx.t2g.tsv npx tsx bench/profileApp.ts FILE [top]   (the cells pass, once the statistics are done)
 */
import { join } from 'node:path'
import { appReady, dropAndCount, launchProfile, serve, traced } from './browser'

const ROOT = join(import.meta.dirname, '..')
const PORT = Number(process.env.BENCH_PORT ?? 4331)

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url?: string; lineNumber: number; columnNumber?: number }
}
interface TraceEvent {
  name: string
  pid: number
  tid: number
  id?: string
  args?: { data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } }
}

/** Self time (ms) by function, per profile (a thread's), from the trace's ProfileChunk events. */
function selfTimes(events: TraceEvent[]): Map<string, Map<string, number>> {
  const nodes = new Map<string, Map<number, string>>()
  const times = new Map<string, Map<string, number>>()
  for (const e of events) {
    if (e.name !== 'ProfileChunk') continue
    const key = `${String(e.pid)}:${e.id ?? String(e.tid)}`
    const names = nodes.get(key) ?? new Map<number, string>()
    nodes.set(key, names)
    for (const n of e.args?.data?.cpuProfile?.nodes ?? []) {
      const file = (n.callFrame.url ?? '').split('/').pop() ?? ''
      const at =
        n.callFrame.lineNumber >= 0 ? `:${String(n.callFrame.lineNumber)}:${String(n.callFrame.columnNumber ?? 0)}` : ''
      names.set(n.id, `${n.callFrame.functionName || '(anonymous)'} ${file}${at}`)
    }
    const samples = e.args?.data?.cpuProfile?.samples ?? []
    const deltas = e.args?.data?.timeDeltas ?? []
    const sums = times.get(key) ?? new Map<string, number>()
    times.set(key, sums)
    samples.forEach((id, i) => {
      const name = names.get(id) ?? String(id)
      sums.set(name, (sums.get(name) ?? 0) + (deltas[i] ?? 0) / 1000)
    })
  }
  return times
}

async function main(file: string, top: number): Promise<void> {
  const server = await serve(PORT)
  // A window with a profile of its own, as a user's (bench/appStats.ts): an incognito context
  // keeps the origin's private file system in memory, and the spill's reads and writes cost more.
  const context = await launchProfile()
  try {
    const page = await context.newPage()
    await appReady(page, `http://127.0.0.1:${String(PORT)}`)
    const cdp = await context.newCDPSession(page)
    let seconds = 0
    const dropped = (): Promise<void> => dropAndCount(page, file)
    // With T2G, the cells pass is traced: from giving the annotations control the t2g to the cells panel.
    const t2g = process.env.T2G
    if (t2g) await dropped()
    const categories = 'disabled-by-default-v8.cpu_profiler,v8'
    const events = await traced<TraceEvent>(cdp, { categories }, async () => {
      const t0 = Date.now()
      if (!t2g) await dropped()
      else {
        await page.setInputFiles('[data-testid="annotations-input"]', t2g)
        await page.waitForSelector('[data-testid="cells-panel"]', { timeout: 1_800_000 })
      }
      seconds = (Date.now() - t0) / 1000
    })
    const times = selfTimes(events)
    process.stdout.write(`${t2g ? 't2g → cells' : 'drop → done'} ${seconds.toFixed(1)} s (under the profiler)\n`)
    for (const [thread, sums] of times) {
      const total = [...sums.values()].reduce((a, b) => a + b, 0)
      if (total < 500) continue
      process.stdout.write(`\n## thread ${thread}: ${(total / 1000).toFixed(1)} s sampled\n`)
      for (const [name, ms] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) {
        process.stdout.write(
          `${(ms / 1000).toFixed(2).padStart(7)} s ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${name}\n`,
        )
      }
    }
  } finally {
    await context.close()
    server.close()
  }
}

await main(process.argv[2] ?? join(ROOT, 'bench', 'data', 'tenx-1024m.rad'), Number(process.argv[3] ?? 15))
