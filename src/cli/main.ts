import { loadWasmCodecs } from '../io/codecWasm'
import { RadError } from '../rad/errors'
import { NodeFileSource } from './nodeFileSource'
import { runDump, runInfo, runValidate, runView } from './commands'
import type { PrintRange } from './commands'
import { runSalvage } from './salvageCommand'
import { runCat } from './catCommand'
import { runCompare } from './compareCommand'
import { extractFilterFlags } from './filterFlags'
import type { RecordFilter } from '../rad/filter/recordFilter'
import { runIndex } from './indexCommand'
import { BrokenPipe, Output, reportLine } from './output'
import { runStats } from './stats'
import { mapInfoPath, readMapInfo } from './mapInfoFile'
import { runStudyStats } from './studyStats'
import type { StatsFormat } from './stats'
import { takeCellFlags } from './cellStats'
import type { CellArgs } from './cellStats'
import { runServe } from './serve'
import { runSubset, takeSubsetFlags } from './subset'
import { runParquetExport, runStudyExport } from './exportCommand'
import type { SubsetArgs } from './subset'
import { exportFormatOf } from './subset'
import { RefusedOutput, STANDARD_OUTPUT, refuseOutputOverInput } from './safeOutput'
import { USAGE, WRITES_OUT, commandUsage } from './usage'
import { sidecarPath } from './indexCommand'
import { SpillFailed } from './spillFile'

interface Args {
  command: string
  file: string
  output: string | undefined
  chunk: number | undefined
  header: boolean
  statsFormat: StatsFormat
  filter: RecordFilter | undefined
  subset: SubsetArgs
  cells: CellArgs | undefined
  /** `export A.rad B.rad … --out DIR`, `cat A.rad B.rad … OUT`, `compare A.rad B.rad`: every input. */
  files: string[]
  /** `index --no-stats`: the sidecar without its statistics section. */
  noStats: boolean
  /** `stats` and `index --tmp DIR`: the folder of the spill file (spillFile.ts). */
  tmp: string | undefined
  /** `stats --map-info FILE`: the mapper's run statistics (mapInfoFile.ts). */
  mapInfo: string | undefined
  /** `stats … --multiqc DIR`: MultiQC's custom-content files (multiqcFiles.ts). */
  multiqc: string | undefined
}

/** What is wrong with export's own flags, if anything. */
function exportFlagProblem(command: string, subset: SubsetArgs, output: string | undefined): string | undefined {
  if (command !== 'export') {
    if (subset.format) return `--format applies to export, not ${command}`
    if (subset.outDir !== undefined || subset.perRecord || subset.sample !== undefined) {
      return `--out, --sample and --per apply to export, not ${command}`
    }
    return undefined
  }
  const format = subset.format ?? (subset.outDir !== undefined ? 'parquet' : exportFormatOf(output ?? ''))
  if (subset.outDir !== undefined && format !== 'parquet') {
    return '--out DIR writes Parquet: drop --format or give parquet'
  }
  if (subset.perRecord && format !== 'parquet') return '--per applies to Parquet exports'
  if (subset.sample !== undefined && subset.outDir === undefined) return '--sample names the one input of --out DIR'
  return undefined
}

/** The arguments, the usage asked for (`{ help }`), or what is wrong with them. */
function parseArgs(all: string[]): Args | { help: string } | string {
  const twice = flagGivenTwice(all)
  if (twice !== undefined) return `${twice} is given twice: give it once`
  const flags = extractFilterFlags(all)
  if (typeof flags === 'string') return flags
  const { filter, rest: argv } = flags
  const subset = takeSubsetFlags(argv)
  if (typeof subset === 'string') return subset
  const cells = takeCellFlags(argv)
  if (typeof cells === 'string') return cells
  const positional: string[] = []
  let chunk: number | undefined
  let header = false
  let statsFormat: StatsFormat = 'summary'
  let noStats = false
  let tmp: string | undefined
  let mapInfo: string | undefined
  let multiqc: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--chunk') {
      chunk = Number(argv[++i])
      if (!Number.isSafeInteger(chunk) || chunk < 0) return '--chunk needs a chunk number (0-based)'
    } else if (arg === '-H' || arg === '--header') {
      header = true
    } else if (arg === '--json' || arg === '--tsv') {
      statsFormat = arg === '--json' ? 'json' : 'tsv'
    } else if (arg === '--no-stats') {
      noStats = true
    } else if (arg === '--tmp') {
      tmp = argv[++i]
      if (tmp === undefined || tmp === '' || tmp.startsWith('--')) return '--tmp needs a folder'
    } else if (arg === '--map-info') {
      mapInfo = argv[++i]
      if (mapInfo === undefined || mapInfo === '' || mapInfo.startsWith('--')) return '--map-info needs a file'
    } else if (arg === '--multiqc') {
      multiqc = argv[++i]
      if (multiqc === undefined || multiqc === '' || multiqc.startsWith('--')) return '--multiqc needs a folder'
    } else if (arg === '-h' || arg === '--help') {
      return { help: commandUsage(positional[0]) }
    } else if (arg.startsWith('-') && arg !== STANDARD_OUTPUT) {
      const command = positional[0]
      return `unknown flag ${arg}${command ? ` (node bin/rad.mjs ${command} --help lists its flags)` : ''}`
    } else {
      positional.push(arg)
    }
  }
  const [command, file] = positional
  const study = (command === 'export' && subset.outDir !== undefined) || (command === 'stats' && positional.length > 2)
  // cat: two inputs or more, then OUT (the last); compare: exactly two files.
  const joins = command === 'cat'
  const writes = command !== undefined && WRITES_OUT.has(command) && !study
  const arity = joins ? 4 : writes || command === 'compare' ? 3 : 2
  const arityOk = study || joins ? positional.length >= arity : positional.length === arity
  const output = joins ? positional[positional.length - 1] : command === 'compare' ? undefined : positional[2]
  if (command === undefined || file === undefined || !arityOk) return commandUsage(command)
  const selects = command === 'view' || command === 'dump' || command === 'subset' || command === 'export'
  if (filter && !selects) return `filters apply to view, dump, subset and export, not ${command}`
  const { chunks, records } = subset.selection
  if ((chunks || records) && !selects) {
    return `--chunks and --records apply to view, dump, subset and export, not ${command}`
  }
  if (chunk !== undefined && chunks) return '--chunk N and --chunks A-B: give one'
  const exportProblem = exportFlagProblem(command, subset, output)
  if (exportProblem !== undefined) return exportProblem
  if (cells && command !== 'stats' && command !== 'index') {
    return `--t2g and the other cell flags apply to stats and index, not ${command}`
  }
  if (cells && command === 'index' && cells.cellsTsv) return '--cells-tsv applies to stats, not index'
  if (cells && noStats) return '--t2g needs the statistics: drop --no-stats'
  if (noStats && command !== 'index') return `--no-stats applies to index, not ${command}`
  if (tmp !== undefined && command !== 'stats' && command !== 'index') {
    return `--tmp applies to stats and index, not ${command}`
  }
  if (mapInfo !== undefined && command !== 'stats') return `--map-info applies to stats, not ${command}`
  if (multiqc !== undefined && command !== 'stats') return `--multiqc applies to stats, not ${command}`
  if (command === 'compare' && statsFormat === 'tsv') return '--tsv applies to stats, not compare'
  const several = command === 'stats' && positional.length > 2
  if (several && mapInfo !== undefined) return "--map-info is one file's: with several, each is read beside its file"
  if (several && cells?.cellsTsv) return '--cells-tsv takes one file'
  const files = joins ? positional.slice(1, -1) : positional.slice(1)
  const out = study ? undefined : output
  return {
    command,
    file,
    output: out,
    chunk,
    header,
    statsFormat,
    filter,
    subset,
    cells,
    files,
    noStats,
    tmp,
    mapInfo,
    multiqc,
  }
}

/** A flag (`--name` or `--name=value`, `-H`) given twice, which would silently take the last. */
function flagGivenTwice(argv: readonly string[]): string | undefined {
  const seen = new Set<string>()
  for (const arg of argv) {
    if (!arg.startsWith('-') || arg === STANDARD_OUTPUT || /^-\d/.test(arg)) continue
    const name = arg.split('=')[0] ?? arg
    if (seen.has(name)) return name
    seen.add(name)
  }
  return undefined
}

/** The records view and dump print: `--chunk N` is `--chunks N-N`. */
function printRange(args: Args): PrintRange {
  const { chunks, records } = args.subset.selection
  return { chunks: args.chunk !== undefined ? [args.chunk, args.chunk] : chunks, records }
}

/** The file a command writes, if it writes one. */
function outputOf(args: Args): string | undefined {
  return args.command === 'index' ? sidecarPath(args.file) : args.output
}

async function run(args: Args, out: Output): Promise<number> {
  const { outDir } = args.subset
  if (args.command === 'export' && outDir !== undefined) {
    return runStudyExport(args.files, outDir, { ...args.subset, filter: args.filter }, out)
  }
  if (args.command === 'stats' && (args.files.length > 1 || args.multiqc !== undefined)) {
    const study = { format: args.statsFormat, cells: args.cells, pass: { tmp: args.tmp }, multiqc: args.multiqc }
    return runStudyStats(args.files, out, study)
  }
  if (args.command === 'compare') return runCompare(args.files, out, args.statsFormat === 'json')
  const output = outputOf(args)
  if (output !== undefined) refuseOutputOverInput(output, args.command === 'cat' ? args.files : [args.file])
  if (args.command === 'cat') return runCat(args.files, output ?? '', out)
  const source = await NodeFileSource.open(args.file)
  try {
    switch (args.command) {
      case 'info':
        return await runInfo(source, out)
      case 'dump':
        return await runDump(source, out, printRange(args), args.filter)
      case 'view':
        return await runView(source, out, args.header, printRange(args), args.filter)
      case 'validate':
        return await runValidate(source, out)
      case 'index':
        return await runIndex(source, args.file, out, !args.noStats, { tmp: args.tmp }, args.cells)
      case 'salvage':
        return await runSalvage(source, args.output ?? '', out)
      case 'stats': {
        const mapInfo = await readMapInfo(mapInfoPath(args.mapInfo, args.file), args.mapInfo !== undefined)
        return await runStats(source, out, args.statsFormat, args.cells, { tmp: args.tmp }, mapInfo)
      }
      case 'subset':
        return await runSubset(source, args.output ?? '', { ...args.subset, filter: args.filter }, out)
      case 'export': {
        const outPath = args.output ?? ''
        const format = args.subset.format ?? exportFormatOf(outPath)
        if (format === 'parquet') {
          return await runParquetExport(source, outPath, { ...args.subset, filter: args.filter }, out)
        }
        return await runSubset(source, outPath, { ...args.subset, filter: args.filter }, out, format)
      }
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
  if (e instanceof RefusedOutput || e instanceof SpillFailed) return e.message
  if (e instanceof RadError) {
    return reportLine('error', { offset: e.offset, chunk: e.chunk, message: e.message })
  }
  if (e instanceof Error && 'code' in e && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) {
    // The system's own error (a missing file, a full disk): its message names the path it failed on.
    return e.message.includes(file) ? `cannot open ${file}: ${e.message}` : `error: ${e.message}`
  }
  // A bug of this reader, or the runtime giving out (memory): say so in one line.
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
  return `internal error (please report it with the file): ${what.split('\n')[0] ?? ''}`
}

/** Runs one command; the exit status is documented in USAGE. Never throws. */
export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'serve') return runServe(argv.slice(1))
  const args = parseArgs(argv)
  if (typeof args === 'object' && 'help' in args) {
    process.stdout.write(`${args.help}\n`)
    return 0
  }
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n`)
    return 1
  }
  await loadWasmCodecs() // zstd in wasm, else fzstd (ADR 0010)
  // With OUT `-` the output owns standard output; the summary goes to standard error.
  const out = new Output(outputOf(args) === STANDARD_OUTPUT ? process.stderr : process.stdout)
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
    if (out.brokenPipe || e instanceof BrokenPipe) return 0
    process.stderr.write(`${failure(e, args.file)}\n`)
    return 1
  }
}
