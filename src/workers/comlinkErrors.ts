/**
 * Comlink serializes a thrown Error as {name, message, stack} only, so a
 * RadError would arrive as a plain Error without its code, offset or chunk
 * (docs/architecture.md §4). This module replaces Comlink's 'throw' transfer
 * handler so a RadError is rebuilt as a RadError on the other side. Import it
 * for its side effect in every context that makes or answers Comlink calls.
 */
import { transferHandlers } from 'comlink'
import type { TransferHandler } from 'comlink'
import { RadError, isRadErrorCode } from '../rad/errors'
import type { RadErrorData } from '../rad/errors'

interface Thrown {
  value: unknown
}

type WireError =
  | { kind: 'rad'; data: RadErrorData }
  | { kind: 'error'; name: string; message: string; stack: string | undefined }
  | { kind: 'value'; value: unknown }

function isRadErrorData(value: unknown): value is RadErrorData {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return isRadErrorCode(v.code) && typeof v.message === 'string'
}

/** Turns anything thrown into something structured clone can carry. */
export function serializeThrown(value: unknown): WireError {
  if (value instanceof RadError) return { kind: 'rad', data: value.toData() }
  if (value instanceof Error) return { kind: 'error', name: value.name, message: value.message, stack: value.stack }
  return { kind: 'value', value }
}

/** The inverse of serializeThrown: a RadError stays a RadError. */
export function reviveThrown(wire: WireError): unknown {
  if (wire.kind === 'rad' && isRadErrorData(wire.data)) return RadError.fromData(wire.data)
  if (wire.kind === 'error') {
    const error = new Error(wire.message)
    error.name = wire.name
    if (wire.stack !== undefined) error.stack = wire.stack
    return error
  }
  return wire.kind === 'value' ? wire.value : new Error('unknown error from a worker')
}

const original = transferHandlers.get('throw')

if (original) {
  const handler: TransferHandler<Thrown, WireError> = {
    canHandle: (value: unknown): value is Thrown => original.canHandle(value),
    serialize: ({ value }) => [serializeThrown(value), []],
    deserialize: (wire) => {
      // Comlink rejects the call with whatever this throws.
      throw reviveThrown(wire)
    },
  }
  transferHandlers.set('throw', handler)
}
