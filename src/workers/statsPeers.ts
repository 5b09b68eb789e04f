/**
 * The rows a statistics worker hands to the owners of other buckets (bench/results.md, ADR 0009's
 * seventh round), sent over a MessageChannel between the two workers instead of through the page's
 * thread, which then only counts progress (issue 35; ADR 0015). Messages on a port arrive in order,
 * so once a peer's `end` arrives every row it sent before was counted.
 */
type PeerMessage = Uint32Array | 'end'

export class StatsPeers {
  private readonly ports: (MessagePort | undefined)[]
  private readonly ended = new Set<number>()
  private allEnded: (() => void) | undefined
  private failure: Error | undefined

  /** `ports[o]`: the channel to owner o (undefined for this worker itself); `onRows` counts what a peer sends. */
  constructor(ports: (MessagePort | undefined)[], onRows: (rows: Uint32Array) => void) {
    this.ports = ports
    ports.forEach((port, owner) => {
      if (!port) return
      port.onmessage = (e: MessageEvent<PeerMessage>) => {
        if (e.data === 'end') {
          this.ended.add(owner)
          if (this.ended.size === this.peerCount) this.allEnded?.()
          return
        }
        try {
          onRows(e.data)
        } catch (err) {
          this.failure ??= err instanceof Error ? err : new Error('rows another worker sent could not be counted')
        }
      }
    })
  }

  private get peerCount(): number {
    return this.ports.filter(Boolean).length
  }

  /** Sends each owner its rows (transferred: the arrays are the peer's from then on). */
  send(foreign: readonly (Uint32Array | undefined)[]): void {
    foreign.forEach((rows, owner) => {
      const port = this.ports[owner]
      if (rows && port) port.postMessage(rows, [rows.buffer as ArrayBuffer])
    })
  }

  /** Tells every peer this worker sends no more, and resolves once every peer said the same (its rows all counted). */
  async end(): Promise<void> {
    for (const port of this.ports) port?.postMessage('end' satisfies PeerMessage)
    if (this.ended.size < this.peerCount) {
      await new Promise<void>((resolve) => {
        this.allEnded = resolve
      })
    }
    if (this.failure) throw this.failure
  }

  close(): void {
    for (const port of this.ports) port?.close()
  }
}
