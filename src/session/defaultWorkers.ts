/** The workers a session starts by default (tests pass others: SessionOptions.workers). */

/** navigator.hardwareConcurrency, where there is a navigator. */
export function cores(): number | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency
}

export function createDecodeWorker(): Worker {
  return new Worker(new URL('../workers/decode.worker.ts', import.meta.url), { type: 'module', name: 'rad-decode' })
}
