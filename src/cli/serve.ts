/**
 * `rad serve FILE… [--port N] [--host H] [--dist DIR]`: the cluster-to-laptop path (README "Files on a cluster").
 * Serves the built viewer and the named files on loopback, prints one ready link per file and the
 * `ssh -L` line for a laptop, and runs until Ctrl-C (SIGINT or SIGTERM: exit 0).
 *
 * The viewer must be built (`npm run build`); serve does not build it itself: on a cluster's
 * login node a build is a minute of shared CPU and needs the dev dependencies, and a command that
 * says what to run is more predictable than one that sometimes builds.
 */
import { existsSync, statSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startRadServer } from '../server/radServer'
import type { RunningServer } from '../server/radServer'
import { viewerQuery } from '../server/servedFiles'
import { ViewerNotBuilt } from '../server/viewerFiles'

export const SERVE_USAGE = `usage: node bin/rad.mjs serve FILE… [--port N] [--host 127.0.0.1] [--dist DIR]

Serves the viewer and FILEs over HTTP (loopback only by default) and prints a link per file.
  --port N    port to listen on (default 0: any free port)
  --host H    address to listen on (default 127.0.0.1)
  --dist DIR  the built viewer (default: this checkout's dist/, made by \`npm run build\`)`

interface ServeArgs {
  files: string[]
  port: number
  host: string
  dist: string
}

/** The checkout this code runs from: the folder holding bin/rad.mjs (from src/cli or the CLI bundle). */
function checkoutRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'bin', 'rad.mjs')) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
}

function parseServeArgs(argv: string[]): ServeArgs | string {
  const args: ServeArgs = { files: [], port: 0, host: '127.0.0.1', dist: join(checkoutRoot(), 'dist') }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '-h' || arg === '--help') return 'help'
    if (arg === '--port') {
      args.port = Number(argv[++i])
      if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) return '--port needs a number 0–65535'
    } else if (arg === '--host' || arg === '--dist') {
      const value = argv[++i]
      if (value === undefined || value === '') return `${arg} needs a value`
      if (arg === '--host') args.host = value
      else args.dist = value
    } else if (arg.startsWith('-')) {
      return `unknown option ${arg}\n${SERVE_USAGE}`
    } else {
      args.files.push(arg)
    }
  }
  return args.files.length > 0 ? args : SERVE_USAGE
}

/** What is wrong with the files, in one line each; empty when every one is a readable regular file. */
function fileProblems(files: string[]): string[] {
  return files.flatMap((file) => {
    try {
      return statSync(file).isFile() ? [] : [`cannot serve ${file}: not a regular file`]
    } catch (e) {
      return [`cannot serve ${file}: ${e instanceof Error ? e.message : String(e)}`]
    }
  })
}

/** A listen failure in words: a busy port, a port or address this user cannot take. */
function listenProblem(e: unknown, args: ServeArgs): string | undefined {
  const code = e instanceof Error && 'code' in e ? e.code : undefined
  if (code === 'EADDRINUSE') {
    return `port ${args.port} is already in use on ${args.host}: choose another with --port N, or --port 0 for any free port`
  }
  if (code === 'EACCES') return `not allowed to listen on port ${args.port}: choose one above 1023, or --port 0`
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `cannot listen on ${args.host}: not an address of this machine`
  }
  return undefined
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

function banner(server: RunningServer, files: string[]): string {
  const origin = `http://${urlHost(server.host)}:${server.port}`
  const lines = [`Serving the RAD viewer and ${files.length} file(s) on ${origin} (Ctrl-C stops it).`, '']
  server.files.forEach((file, i) => {
    lines.push(`  ${files[i] ?? ''}`, `  ${origin}/${viewerQuery(file)}`, '')
  })
  const target = server.host === '0.0.0.0' || server.host === '::' ? '127.0.0.1' : urlHost(server.host)
  lines.push(
    'From a laptop, forward the port, then open the link there:',
    `  ssh -L ${server.port}:${target}:${server.port} ${hostname()}`,
    '',
  )
  return lines.join('\n')
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve(signal)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}

async function start(args: ServeArgs): Promise<RunningServer | string> {
  try {
    return await startRadServer(args)
  } catch (e) {
    if (e instanceof ViewerNotBuilt) return e.message
    const problem = listenProblem(e, args)
    if (problem !== undefined) return problem
    return `cannot serve: ${e instanceof Error ? e.message : String(e)}`
  }
}

/** Runs `rad serve` until Ctrl-C; the exit status (0 once stopped, 1 when it could not start). */
export async function runServe(argv: string[]): Promise<number> {
  const args = parseServeArgs(argv)
  if (args === 'help') {
    process.stdout.write(`${SERVE_USAGE}\n`)
    return 0
  }
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n`)
    return 1
  }
  const problems = fileProblems(args.files)
  const server = problems.length > 0 ? problems.join('\n') : await start(args)
  if (typeof server === 'string') {
    process.stderr.write(`${server}\n`)
    return 1
  }
  if (args.host !== '127.0.0.1' && args.host !== 'localhost' && args.host !== '::1') {
    process.stderr.write(
      `warning: listening on ${args.host}: anyone who can reach it and has a link can read the file\n`,
    )
  }
  process.stdout.write(banner(server, args.files))
  const signal = await untilStopped()
  await server.close()
  process.stderr.write(`${signal}: stopped serving\n`)
  return 0
}
