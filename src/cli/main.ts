import { RadError } from '../rad/errors'
import { NodeFileSource } from './nodeFileSource'
import { runDump, runInfo, runSalvage, runValidate, runView } from './commands'
import { runIndex } from './indexCommand'
import { Output, reportLine } from './output'

const USAGE = `usage: node bin/rad.mjs COMMAND FILE [options]

commands:
  info FILE               one JSON object: header, tag schemas, codec, nbytes convention, totals
  dump FILE [--chunk N]   JSON Lines, one object per record (raw tag values)
  view FILE [-H]          one line per alignment, like \`alevin-fry view\` (-H: reference list first)
  validate FILE           check every chunk (and every .sz frame's checksum)
  index FILE              scan FILE once and write its sidecar index FILE.rdx (docs/sidecar.md)
  salvage IN OUT          write the valid part of IN to OUT: the prelude and every intact chunk, num_chunks corrected

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
}

/** The arguments, 'help', or what is wrong with them. */
function parseArgs(argv: string[]): Args | string {
  const positional: string[] = []
  let chunk: number | undefined
  let header = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--chunk') {
      chunk = Number(argv[++i])
      if (!Number.isSafeInteger(chunk) || chunk < 0) return '--chunk needs a chunk number (0-based)'
    } else if (arg === '-H' || arg === '--header') {
      header = true
    } else if (arg === '-h' || arg === '--help') {
      return 'help'
    } else {
      positional.push(arg)
    }
  }
  const [command, file, output] = positional
  const arity = command === 'salvage' ? 3 : 2
  if (command === undefined || file === undefined || positional.length !== arity) return USAGE
  return { command, file, output, chunk, header }
}

async function run(args: Args, out: Output): Promise<number> {
  const source = await NodeFileSource.open(args.file)
  try {
    switch (args.command) {
      case 'info':
        return await runInfo(source, out)
      case 'dump':
        return await runDump(source, out, args.chunk)
      case 'view':
        return await runView(source, out, args.header)
      case 'validate':
        return await runValidate(source, out)
      case 'index':
        return await runIndex(source, args.file, out)
      case 'salvage':
        return await runSalvage(source, args.output ?? '', out)
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
    return reportLine('error', { offset: e.offset ?? 0, chunk: e.chunk, message: e.message })
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
  const args = parseArgs(argv)
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n`)
    return 1
  }
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
