import { describe, expect, it } from 'vitest'
import { BlobSink, exportName, writableSink } from '../../src/ui/export/exportSinks'
import type { WritableFile } from '../../src/ui/export/exportSinks'

async function bytesOf(blob: Blob): Promise<number[]> {
  return Array.from(new Uint8Array(await blob.arrayBuffer()))
}

describe('BlobSink', () => {
  it('appends writes and patches bytes already written, in any part', async () => {
    const sink = new BlobSink('rad')
    sink.write(new Uint8Array([1, 2, 3, 4]))
    sink.write(new Uint8Array([5, 6]))
    sink.patch(1, new Uint8Array([9, 9]))
    sink.patch(4, new Uint8Array([7]))
    expect(await bytesOf(sink.blob('application/octet-stream'))).toEqual([1, 9, 9, 4, 7, 6])
  })

  it('refuses past its cap, naming the command line', () => {
    const sink = new BlobSink('rad', 5)
    sink.write(new Uint8Array(5))
    expect(() => {
      sink.write(new Uint8Array(1))
    }).toThrow(/larger than 5 bytes.*node bin\/rad\.mjs subset/)
    expect(() => {
      new BlobSink('tsv', 0).write(new Uint8Array(1))
    }).toThrow(/node bin\/rad\.mjs view/)
  })
})

describe('writableSink', () => {
  it('writes in order, patches by position and goes back to the end', async () => {
    let file = new Uint8Array(0)
    let cursor = 0
    const put = (data: Uint8Array, at: number): void => {
      const grown = new Uint8Array(Math.max(file.length, at + data.length))
      grown.set(file)
      grown.set(data, at)
      file = grown
      cursor = at + data.length
    }
    const target: WritableFile = {
      write: (d) => {
        if (d instanceof Uint8Array) put(d, cursor)
        else if (d.type === 'write') put(d.data, d.position)
        else cursor = d.position
        return Promise.resolve()
      },
      close: () => Promise.resolve(),
      abort: () => Promise.resolve(),
    }
    const sink = writableSink(target)
    await sink.write(new Uint8Array([1, 2, 3]))
    await sink.patch(0, new Uint8Array([8]))
    await sink.write(new Uint8Array([4]))
    expect(Array.from(file)).toEqual([8, 2, 3, 4])
  })
})

describe('exportName', () => {
  it('names the export after the file', () => {
    expect(exportName('map.rad', 'rad')).toBe('map.subset.rad')
    expect(exportName('map.rad.sz', 'tsv')).toBe('map.subset.tsv')
    expect(exportName('x', 'jsonl')).toBe('x.subset.jsonl')
  })
})
