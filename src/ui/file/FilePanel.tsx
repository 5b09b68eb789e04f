import { useMemo } from 'react'
import { assessCompatibility } from '../../rad/prelude/compatibility'
import type { Semantics } from '../../rad/prelude/semantics'
import type { Codec } from '../../rad/types'
import type { OpenedFile, SessionState } from '../../session'
import { CompatibilityPanel, producerText } from './CompatibilityPanel'
import { FileTagValues } from './FileTagValues'
import { fmtBytes, fmtCount } from '../format'
import { RefList } from './RefList'
import { TagSchema } from './TagSchema'

interface Props {
  state: SessionState
  opened: OpenedFile
  semantics: Semantics
}

function versionText(version: [number, number], extLen: number): string {
  if (version[0] === 0) return 'legacy (no RAD_FILE signature)'
  return `${String(version[0])}.${String(version[1])}${extLen > 0 ? ` (${fmtCount(extLen)}-byte extension block)` : ''}`
}

function conventionText(c: SessionState['convention']): string {
  if (c === undefined) return '—'
  return c === 'header-inclusive' ? 'includes the 8-byte chunk header (standard)' : 'payload only (older C++ writer)'
}

function chunksText(state: SessionState, stored: number): string {
  const sofar = state.phase === 'done' || state.phase === 'error' ? '' : ' so far'
  return `${stored === 0 ? '0 (unknown)' : fmtCount(stored)} stored · ${fmtCount(state.chunks)} found${sofar}`
}

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="kv">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  )
}

/** The prelude in plain words: file, format, references, tag schemas, file-tag values, warnings. */
export function FilePanel({ state, opened, semantics }: Props) {
  const { prelude } = opened
  // Once the scan is over, the header's warnings are items of the integrity panel, with the rest.
  const warnings = [...(state.summary ? [] : prelude.warnings), ...semantics.warnings, ...state.notices]
  const sequences = [...semantics.barcodes, ...(semantics.umi ? [semantics.umi] : [])]
  const compat = useMemo(() => assessCompatibility(prelude, opened.container), [prelude, opened.container])
  return (
    <div className="file-panel" data-testid="file-panel">
      <section className="panel-section">
        <h2 className="file-name" data-testid="file-name" title={state.fileName}>
          {state.fileName}
        </h2>
        <dl className="kvs">
          <Row label="Size" value={`${fmtBytes(opened.fileSize)} (${fmtCount(opened.fileSize)} bytes)`} />
          {opened.container === 'snappy-framed' && (
            <Row label="Container" value={`Snappy-framed stream, ${fmtBytes(opened.sourceSize)} unwrapped`} />
          )}
          <Row label="Version" testId="file-version" value={versionText(prelude.version, prelude.extLen)} />
          <Row label="Paired" testId="file-paired" value={prelude.paired ? 'yes (paired-end)' : 'no'} />
          <Row
            label="Assay"
            value={`${semantics.assay}${semantics.knownRadType ? ` (${semantics.knownRadType})` : ''}`}
          />
          <Row
            label="Producer"
            testId="file-producer"
            value={producerText(compat.producer.name, compat.producer.certainty)}
          />
          <Row label="num_chunks" testId="file-num-chunks" value={chunksText(state, prelude.numChunks)} />
          <Row label="Codec" testId="file-codec" value={codecLabel(prelude.codec)} />
          <Row label="nbytes" testId="file-convention" value={conventionText(state.convention)} />
          {sequences.map((f) => (
            <Row
              key={`${f.name}-${String(f.tag)}`}
              label={f === semantics.umi ? `UMI (${f.name})` : `Barcode (${f.name})`}
              value={f.len > 0 ? `${String(f.len)} nt — ${f.lenSource}` : f.lenSource}
            />
          ))}
        </dl>
      </section>
      {warnings.length > 0 && (
        <section className="panel-section warnings" data-testid="file-warnings">
          <h3>Warnings</h3>
          <ul>
            {warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </section>
      )}
      <CompatibilityPanel report={compat} />
      <RefList names={prelude.refNames} count={prelude.refCount} />
      <TagSchema prelude={prelude} semantics={semantics} />
      <FileTagValues prelude={prelude} />
    </div>
  )
}

function codecLabel(codec: Codec): string {
  if (codec === 'none') return 'none (uncompressed)'
  if (codec === 'unknown') return 'unknown (a newer codec: records cannot be decoded here)'
  return codec
}
