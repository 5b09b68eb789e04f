/** Cursor (cursor.ts): every typed read keeps "need more bytes" apart from TRUNCATED. */
import { describe, expect, it } from 'vitest'
import { Cursor, NeedMoreBytes } from '../../src/rad/decode/cursor'
import { expectRadError } from '../helpers/read'

const READS: [string, number, (c: Cursor) => unknown][] = [
  ['u8', 1, (c) => c.u8()],
  ['u16', 2, (c) => c.u16()],
  ['u32', 4, (c) => c.u32()],
  ['u64', 8, (c) => c.u64()],
  ['u128', 16, (c) => c.u128()],
  ['i8', 1, (c) => c.i8()],
  ['i16', 2, (c) => c.i16()],
  ['i32', 4, (c) => c.i32()],
  ['i64', 8, (c) => c.i64()],
  ['i128', 16, (c) => c.i128()],
  ['f32', 4, (c) => c.f32()],
  ['f64', 8, (c) => c.f64()],
]

describe('Cursor', () => {
  for (const [name, width, read] of READS) {
    it(`${name}: reads ${String(width)} bytes; one short asks for more, or is TRUNCATED at the end of the file`, () => {
      const bytes = new Uint8Array(width).fill(0xff)
      const whole = new Cursor(bytes, 100, 100 + width)
      read(whole)
      expect(whole.pos).toBe(100 + width)
      const short = bytes.subarray(0, width - 1)
      expect(() => read(new Cursor(short, 100, 100 + width))).toThrow(NeedMoreBytes)
      const cut = new Cursor(short, 100, 100 + width - 1)
      expectRadError(() => read(cut), { code: 'TRUNCATED', offset: 100 })
      expect(cut.pos).toBe(100)
    })
  }

  it('reads signed and 128-bit values little-endian, two’s complement', () => {
    const bytes = new Uint8Array(16).fill(0xff)
    const at = (): Cursor => new Cursor(bytes, 0, 16)
    expect(at().i8()).toBe(-1)
    expect(at().i32()).toBe(-1)
    expect(at().i64()).toBe(-1n)
    expect(at().i128()).toBe(-1n)
    expect(at().u128()).toBe((1n << 128n) - 1n)
    const one = new Uint8Array(16)
    one[8] = 1
    expect(new Cursor(one, 0, 16).u128()).toBe(1n << 64n)
    expect(new Cursor(one, 0, 16).i128()).toBe(1n << 64n)
  })

  it('u64Number refuses a count no real file could hold (VALUE_TOO_LARGE)', () => {
    const max = new Uint8Array(8)
    new DataView(max.buffer).setBigUint64(0, 2n ** 53n - 1n, true)
    expect(new Cursor(max, 0, 8).u64Number('num_chunks')).toBe(2 ** 53 - 1)
    const over = new Uint8Array(8)
    new DataView(over.buffer).setBigUint64(0, 2n ** 53n, true)
    expectRadError(() => new Cursor(over, 0, 8).u64Number('num_chunks'), { code: 'VALUE_TOO_LARGE', offset: 0 })
  })
})
