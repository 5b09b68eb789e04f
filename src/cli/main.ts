import { loadWasmCodecs } from '../rad/codecWasm'
import { RadError } from '../rad/errors'
import { NodeFileSource } from './nodeFileSource'
import { runDump, runInfo, runSalvage, runValidate, runView } from './commands'
import { FILTER_USAGE, extractFilterFlags } from './filterFlags'
import type { RecordFilter } from '../rad/recordFilter'
import { runIndex } from './indexCommand'
import { Output, reportLine } from './output'
import { runStats } from './stats'
import type { StatsFormat } from './stats'
import { runServe } from './serve'
import { runSubset, takeSubsetFlags } from './subset'
import type { SubsetArgs } from './subset'

const USAGE = `usage: node bin/rad.mjs COMMAND FILE [options]

commands:
  info FILE               one JSON object: header, tag schemas, codec, nbytes convention, totals
  dump FILE [--chunk N]   JSON Lines, one object per record (raw tag values)
  view FILE [-H]          one line per alignment, like \`alevin-fry view\` (-H: reference list first)
  validate FILE           check every chunk (and every .sz frame's checksum)
  index FILE              scan FILE once and write its sidecar index FILE.rdx (docs/sidecar.md)
  salvage IN OUT          write the valid part of IN to OUT: the prelude and every intact chunk, num_chunks corrected
  stats FILE [--json|--tsv]  whole-file statistics and the knee (docs/stats.md): a summary, the JSON,
                          or a MultiQC-friendly TSV (barcode, reads, distinct UMIs, above-knee flag)
  serve FILE… [--port N]  serve the viewer and FILEs over HTTP, print a link per file (serve --help)
  subset IN OUT [--chunks A-B] [--records A-B] [--keep-chunks] [filters]
                          write the chosen records of IN to OUT as a valid RAD file (ranges 0-based, inclusive)

${FILTER_USAGE}

Files may be plain RAD, chunk-compressed (lz4/zstd) or Snappy-framed (.sz).

exit status (as gzip -t):
  0  the file is clean (notes about a well-formed file, such as an unwrapped .sz stream, keep 0)
  1  errors: the file is damaged or not RAD, cannot be opened, or the command line is wrong
  2  validate and info only: readable, with warnings (the file deviates from what it declares,
     such as trailing bytes after the declared chunks, or a length its tag's type cannot hold)`

interface Args {
  command: string
  file: string
  output: string | undefined
  chunk: number | undefined
  header: boolean
  statsFormat: StatsFormat
  filter: RecordFilter | undefined
  subset: SubsetArgs
}

/** The arguments, 'help', or what is wrong with them. */
function parseArgs(all: string[]): Args | string {
  const flags = extractFilterFlags(all)
  if (typeof flags === 'string') return flags
  const { filter, rest: argv } = flags
  const subset = takeSubsetFlags(argv)
  if (typeof subset === 'string') return subset
  const positional: string[] = []
  let chunk: number | undefined
  let header = false
  let statsFormat: StatsFormat = 'summary'
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--chunk') {
      chunk = Number(argv[++i])
      if (!Number.isSafeInteger(chunk) || chunk < 0) return '--chunk needs a chunk number (0-based)'
    } else if (arg === '-H' || arg === '--header') {
      header = true
    } else if (arg === '--json' || arg === '--tsv') {
      statsFormat = arg === '--json' ? 'json' : 'tsv'
    } else if (arg === '-h' || arg === '--help') {
      return 'help'
    } else {
      positional.push(arg)
    }
  }
  const [command, file, output] = positional
  const arity = command === 'salvage' || command === 'subset' ? 3 : 2
  if (command === undefined || file === undefined || positional.length !== arity) return USAGE
  if (filter && command !== 'view' && command !== 'dump' && command !== 'subset') {
    return `filters apply to view and dump (and subset), not ${command}`
  }
  return { command, file, output, chunk, header, statsFormat, filter, subset }
}

async function run(args: Args, out: Output): Promise<number> {
  const source = await NodeFileSource.open(args.file)
  try {
    switch (args.command) {
      case 'info':
        return await runInfo(source, out)
      case 'dump':
        return await runDump(source, out, args.chunk, args.filter)
      case 'view':
        return await runView(source, out, args.header, args.filter)
      case 'validate':
        return await runValidate(source, out)
      case 'index':
        return await runIndex(source, args.file, out)
      case 'salvage':
        return await runSalvage(source, args.output ?? '', out)
      case 'stats':
        return await runStats(source, out, args.statsFormat)
      case 'subset':
        return await runSubset(source, args.output ?? '', { ...args.subset, filter: args.filter }, out)
      default:
        process.stderr.write(`unknown command "${args.command}"\n${USAGE}\n`)
        return 1
    }
  } finally {
    await source.close()
  }
}

/** One line on stderr for anything that stopped a command; never a stack trace. */
function failure(e: unknown, file: string): string {
  if (e instanceof RadError) {
    return reportLine('error', { offset: e.offset, chunk: e.chunk, message: e.message })
  }
  if (e instanceof Error && 'code' in e && (e.code === 'ENOENT' || e.code === 'EISDIR' || e.code === 'EACCES')) {
    return `cannot open ${file}: ${e.message}`
  }
  // A bug of this reader, or the runtime giving out (memory): say so in one line.
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
  return `internal error (please report it with the file): ${what.split('\n')[0] ?? ''}`
}

/** Runs one command; the exit status is documented in USAGE. Never throws. */
export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'serve') return runServe(argv.slice(1))
  const args = parseArgs(argv)
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n`)
    return 1
  }
  await loadWasmCodecs() // zstd in wasm, else fzstd (ADR 0010)
  const out = new Output(process.stdout)
  try {
    const code = await run(args, out)
    await out.close()
    return code
  } catch (e) {
    try {
      await out.close()
    } catch {
      // stdout itself failed: the reason below is what matters.
    }
    if (out.brokenPipe) return 0
    process.stderr.write(`${failure(e, args.file)}\n`)
    return 1
  }
}
