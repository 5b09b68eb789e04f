/**
 * HTTP requests for the `rad serve` tests. `rawRequest` writes the request line byte for byte
 * over a socket, so a path reaches the server exactly as an attacker would send it (fetch and
 * `http.request` normalise or refuse `..`, `\` and the like).
 */
import { connect } from 'node:net'

export interface RawResponse {
  status: number
  headers: Map<string, string>
  body: Buffer
}

/** Parses a whole HTTP/1.1 response (the server closes the connection after it). */
function parse(bytes: Buffer): RawResponse {
  const split = bytes.indexOf('\r\n\r\n')
  const head = bytes.subarray(0, split < 0 ? bytes.length : split).toString('latin1')
  const [statusLine = '', ...lines] = head.split('\r\n')
  const headers = new Map<string, string>()
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: split < 0 ? Buffer.alloc(0) : bytes.subarray(split + 4),
  }
}

export function rawRequest(
  port: number,
  target: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', reject)
    socket.on('end', () => {
      resolve(parse(Buffer.concat(chunks)))
    })
    const all = { Host: `127.0.0.1:${port}`, ...headers, Connection: 'close' }
    const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`)
    socket.write(Buffer.from(`${method} ${target} HTTP/1.1\r\n${lines.join('')}\r\n`, 'latin1'))
  })
}
