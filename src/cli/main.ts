import { RadError } from '../rad/errors'
import { NodeFileSource } from './nodeFileSource'
import { runDump, runInfo, runSalvage, runValidate, runView } from './commands'
import { Output } from './output'

const USAGE = `usage: node bin/rad.mjs COMMAND FILE [options]

commands:
  info FILE               one JSON object: header, tag schemas, codec, nbytes convention, totals
  dump FILE [--chunk N]   JSON Lines, one object per record (raw tag values)
  view FILE [-H]          one line per alignment, like \`alevin-fry view\` (-H: reference list first)
  validate FILE           check every chunk; exit 0 when the file is sound, 1 otherwise
  salvage IN OUT          write the valid part of IN to OUT: the prelude and every intact chunk, num_chunks corrected

Files may be plain RAD, chunk-compressed (lz4/zstd) or Snappy-framed (.sz).`

interface Args {
  command: string
  file: string
  output: string | undefined
  chunk: number | undefined
  header: boolean
}

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
      return USAGE
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
      case 'salvage':
        return await runSalvage(source, args.output ?? '', out)
      default:
        process.stderr.write(`unknown command "${args.command}"\n${USAGE}\n`)
        return 2
    }
  } finally {
    await source.close()
  }
}

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv)
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n`)
    return 2
  }
  const out = new Output(process.stdout)
  try {
    const code = await run(args, out)
    await out.close()
    return code
  } catch (e) {
    await out.close()
    if (out.brokenPipe) return 0
    if (e instanceof RadError) {
      const chunk = e.chunk !== undefined ? ` (chunk ${String(e.chunk)})` : ''
      process.stderr.write(`error at byte ${String(e.offset ?? 0)}${chunk}: ${e.message}\n`)
      return 1
    }
    if (e instanceof Error && 'code' in e && (e.code === 'ENOENT' || e.code === 'EISDIR' || e.code === 'EACCES')) {
      process.stderr.write(`cannot open ${args.file}: ${e.message}\n`)
      return 2
    }
    throw e
  }
}
