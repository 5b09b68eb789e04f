import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Script } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import { serviceWorkerScript } from '../../scripts/serviceWorker'

/** The precache list and version written into dist/sw.js (docs/adr/0008). */
function fakeBuild(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rad-sw-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  made.push(dir)
  return dir
}
const made: string[] = []
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true })
})

function precacheOf(script: string): { assets: string[]; version: string } {
  const m = /\)\(self, (\[.*\]), "([0-9a-f]+)"\);\n$/.exec(script)
  if (!m) throw new Error(`no precache list in ${script.slice(-200)}`)
  return { assets: JSON.parse(m[1]!) as string[], version: m[2]! }
}

describe('the service worker script', () => {
  const build = {
    'index.html': '<html>',
    'assets/index-abc.js': 'js',
    'assets/index-abc.js.map': '{}',
    'sample.rad': 'RAD',
    'sw.js': 'old worker',
    '.hidden': 'x',
  }

  it('lists the build’s files relative to its base, but itself, source maps and dot-files', () => {
    const { assets } = precacheOf(serviceWorkerScript(fakeBuild(build)))
    expect(assets).toEqual(['./assets/index-abc.js', './index.html', './sample.rad'])
  })

  it('changes version whenever a file’s bytes do, so browsers install the new build', () => {
    const a = precacheOf(serviceWorkerScript(fakeBuild(build))).version
    const same = precacheOf(serviceWorkerScript(fakeBuild(build))).version
    const b = precacheOf(serviceWorkerScript(fakeBuild({ ...build, 'sample.rad': 'RAD2' }))).version
    expect(same).toBe(a)
    expect(b).not.toBe(a)
  })

  it('is a script that parses', () => {
    const script = serviceWorkerScript(fakeBuild(build))
    expect(() => new Script(script)).not.toThrow()
  })
})
