/** The committed WebAssembly module is what its AssemblyScript source compiles to (scripts/build-wasm.mjs). */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

describe('the pair counting core', () => {
  it('is built from its source (npm run build:wasm)', () => {
    expect(() => execFileSync('node', ['scripts/build-wasm.mjs', '--check'], { stdio: 'pipe' })).not.toThrow()
  }, 60_000)
})
