/**
 * The import graph of src/ (docs/architecture.md §1): every import points down a floor, never up,
 * and no file reaches itself through its imports. ESLint's no-restricted-imports holds each file;
 * this test holds the whole graph, so a rule written too narrowly (a pattern that missed a
 * subfolder) or a circle across floors is caught by `npm test` itself; and no two files share a name.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '../../src')

/** What each floor may import (itself included). src/main.tsx is the UI's entry. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  rad: ['rad'],
  io: ['io', 'rad'],
  workers: ['workers', 'io', 'rad'],
  session: ['session', 'workers', 'io', 'rad'],
  ui: ['ui', 'session', 'rad'],
  cli: ['cli', 'server', 'io', 'rad'],
  server: ['server', 'io', 'rad'],
}

/** Of src/workers, what the session may import: the contract and the entries. */
const WORKERS_FOR_SESSION = /^workers\/(protocol|comlinkErrors|[A-Za-z]+\.worker)\.ts$/

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'assembly' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** Relative imports (`import type` included: a circle of types is a circle too), resolved to files. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/^\s*(?:import|export)\s+[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) => m[1]!)
  specs.push(...[...text.matchAll(/^\s*import\s+'(\.[^']+)'/gm)].map((m) => m[1]!))
  return specs.flatMap((spec) => {
    const base = resolve(dirname(file), spec.replace(/\?.*$/, ''))
    const hit = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
      (p) => existsSync(p) && statSync(p).isFile(),
    )
    return hit ? [hit] : []
  })
}

function floorOf(file: string): string {
  const rel = relative(SRC, file)
  return rel === 'main.tsx' ? 'ui' : rel.split('/')[0]!
}

const files = sourceFiles(SRC)
const graph = new Map(files.map((f) => [f, importsOf(f)]))

/** Strongly connected components of more than one file (or a file importing itself): Tarjan's. */
function circles(): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w)
      component.push(relative(SRC, w))
      if (w === v) break
    }
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort())
  }
  for (const f of files) if (!index.has(f)) visit(f)
  return found
}

describe('the import graph of src/', () => {
  it('reads every floor', () => {
    expect(files.length).toBeGreaterThan(200)
    for (const f of files) expect(Object.keys(MAY_IMPORT)).toContain(floorOf(f))
  })

  it('has no arrow up: each floor imports only the floors below it', () => {
    const up: string[] = []
    for (const [file, imports] of graph) {
      const from = floorOf(file)
      for (const target of imports) {
        const to = floorOf(target)
        const rel = relative(SRC, target)
        const allowed =
          MAY_IMPORT[from]!.includes(to) && !(from === 'session' && to === 'workers' && !WORKERS_FOR_SESSION.test(rel))
        if (!allowed) up.push(`${relative(SRC, file)} → ${rel}`)
      }
    }
    expect(up).toEqual([])
  })

  it('has no circle', () => {
    expect(circles()).toEqual([])
  })

  it('has no two files of one name (index.ts aside): a file’s name says what it is', () => {
    const byName = new Map<string, string[]>()
    for (const f of files) {
      const name = f.split('/').pop()!
      if (name !== 'index.ts') byName.set(name, [...(byName.get(name) ?? []), relative(SRC, f)])
    }
    expect([...byName.values()].filter((paths) => paths.length > 1)).toEqual([])
  })
})
