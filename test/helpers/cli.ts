/** Runs the real CLI (`node bin/rad.mjs …`) as a child process. */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'bin', 'rad.mjs')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export function runCli(args: string[], timeoutMs = 30_000, env?: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 << 20, encoding: 'utf8', env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`could not run the CLI: ${error.message}`))
          return
        }
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr })
      },
    )
  })
}

/** A temporary folder for files the CLI reads; `cleanup` removes it. */
export function tempDir(): {
  path: (name: string) => string
  write: (name: string, bytes: Uint8Array) => string
  cleanup: () => void
} {
  const dir = mkdtempSync(join(tmpdir(), 'rad-cli-'))
  return {
    path: (name) => join(dir, name),
    write: (name, bytes) => {
      const file = join(dir, name)
      writeFileSync(file, bytes)
      return file
    },
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
