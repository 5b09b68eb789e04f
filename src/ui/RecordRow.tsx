import { memo } from 'react'
import { alignmentView, mappingTypeName, recordView } from '../rad/display'
import type { Semantics } from '../rad/semantics'
import type { ChunkColumns, Prelude } from '../rad/types'
import { fmtCount } from './format'

interface Props {
  record: number
  chunk: number
  /** Record number inside its chunk. */
  r: number
  cols: ChunkColumns | undefined
  error: Error | undefined
  expanded: boolean
  active: boolean
  top: number
  height: number
  template: string
  prelude: Prelude
  semantics: Semantics
  onClick: (record: number) => void
}

function Preview({
  cols,
  r,
  prelude,
  semantics,
  naln,
  readType,
}: {
  cols: ChunkColumns
  r: number
  prelude: Prelude
  semantics: Semantics
  naln: number
  readType: number | undefined
}) {
  if (naln === 0) return <span className="muted">no alignments</span>
  const first = alignmentView(cols, cols.alnStart[r] ?? 0, prelude, semantics, readType)
  return (
    <span className="preview" title={first.refName}>
      {first.ori !== undefined && <span className={`ori ori-${first.ori}`}>{first.ori}</span>}
      <span className="mono ellipsis">{first.refName}</span>
      {naln > 1 && <span className="more">+{naln - 1}</span>}
    </span>
  )
}

/** One read record: number, chunk, alignment count, barcodes and UMI as nucleotides, other read tags. */
export const RecordRow = memo(function RecordRow(props: Props) {
  const { record, chunk, r, cols, error, expanded, active, top, height, template, prelude, semantics } = props
  const view = cols ? recordView(cols, r, prelude, semantics) : undefined
  const className = `row record-row${active ? ' active' : ''}${expanded ? ' expanded' : ''}${view ? '' : ' pending'}`
  return (
    <div
      role="row"
      aria-rowindex={record + 1}
      aria-expanded={view && view.naln > 0 ? expanded : undefined}
      aria-selected={active}
      data-testid="record-row"
      data-record={record}
      className={className}
      style={{ transform: `translateY(${String(top)}px)`, height, gridTemplateColumns: template }}
      onClick={() => {
        props.onClick(record)
      }}
    >
      <span className="caret" aria-hidden="true">
        {view && view.naln > 0 ? (expanded ? '▾' : '▸') : ''}
      </span>
      <span className="cell num">{fmtCount(record)}</span>
      <span className="cell num muted">{fmtCount(chunk)}</span>
      {view ? (
        <>
          <span className="cell num">{view.naln}</span>
          {view.barcodes.map((b, i) => (
            <span key={i} className="cell seq">
              {b}
            </span>
          ))}
          {view.umi !== undefined && <span className="cell seq">{view.umi}</span>}
          {semantics.mappingType?.level === 'read' && (
            <span className="cell">{mappingTypeName(semantics, view.mappingType)}</span>
          )}
          {view.other.map(([name, text]) => (
            <span key={name} className="cell mono">
              {text}
            </span>
          ))}
          <span className="cell">
            {cols && (
              <Preview
                cols={cols}
                r={r}
                prelude={prelude}
                semantics={semantics}
                naln={view.naln}
                readType={view.mappingType}
              />
            )}
          </span>
        </>
      ) : (
        <span className={`cell span-rest${error ? ' row-error' : ' muted'}`}>
          {error ? `chunk ${fmtCount(chunk)} could not be decoded: ${error.message}` : 'decoding…'}
        </span>
      )}
    </div>
  )
})
