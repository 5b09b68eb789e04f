import { memo } from 'react'
import type { ReactNode } from 'react'
import { alignmentView, mappingTypeName, refLabel } from '../../rad/text/display'
import { columnNumber } from '../../rad/decode/columns'
import type { Semantics } from '../../rad/prelude/semantics'
import type { ChunkColumns, Column, Prelude } from '../../rad/types'
import { ALIGNMENT_FIELDS, orientationTitle } from '../glossary'
import { CountOrPlaceholder } from './Value'

/** Where a row under an expanded record sits, and what it reads from (this row, ReadTagsRow). */
export interface SubRowPlace {
  record: number
  /** aria-rowindex (tableAria.ts). */
  rowIndex: number
  recordInChunk: number
  cols: ChunkColumns | undefined
  top: number
  height: number
  prelude: Prelude
  semantics: Semantics
}

interface Props extends SubRowPlace {
  alignment: number
  naln: number
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span role="gridcell" className="field">
      <span className="field-label" title={ALIGNMENT_FIELDS[label]}>
        {label}
      </span>{' '}
      {children}
    </span>
  )
}

/**
 * One alignment of an expanded record: reference, orientation, position, fragment length, mapping
 * type, other tags. A treegrid row of level 2 under its record's row; every part is a cell.
 */
export const AlignmentRow = memo(function AlignmentRow(props: Props) {
  const { record, alignment, naln, rowIndex, recordInChunk, cols, top, height, prelude, semantics } = props
  const style = { top, height }
  const rowAria = { role: 'row', 'aria-level': 2, 'aria-rowindex': rowIndex } as const
  if (!cols) {
    return (
      <div {...rowAria} className="row alignment-row pending" data-testid="alignment-row" style={style}>
        <span role="gridcell" className="aln-index">
          ↳ {alignment + 1}/{naln}
        </span>
        <span role="gridcell" className="muted">
          decoding…
        </span>
      </div>
    )
  }
  const mt = semantics.mappingType
  const readType = mt?.level === 'read' ? columnNumber(cols.readColumns[mt.tag] as Column, recordInChunk) : undefined
  const aln = alignmentView(cols, (cols.alnStart[recordInChunk] ?? 0) + alignment, prelude, semantics, readType)
  return (
    <div
      {...rowAria}
      className="row alignment-row"
      data-testid="alignment-row"
      data-record={record}
      data-alignment={alignment}
      style={style}
    >
      <span role="gridcell" className="aln-index">
        ↳ {alignment + 1}/{naln}
      </span>
      {aln.ori !== undefined && (
        <span role="gridcell" className={`ori ori-${aln.ori}`} title={orientationTitle(aln.ori)}>
          {aln.ori}
        </span>
      )}
      <span
        role="gridcell"
        className="ref mono"
        title={aln.refId === undefined ? undefined : `${aln.refName} (reference id ${String(aln.refId)})`}
      >
        {refLabel(aln.refName).short}
      </span>
      {aln.position !== undefined && (
        <Field label="pos">
          <CountOrPlaceholder field="position" value={aln.position} />
        </Field>
      )}
      {aln.fragmentLength !== undefined && (
        <Field label="frag len">
          <CountOrPlaceholder field="fragmentLength" value={aln.fragmentLength} />
        </Field>
      )}
      {mt?.level === 'alignment' && aln.mappingType !== undefined && (
        <Field label="type">{mappingTypeName(semantics, aln.mappingType)}</Field>
      )}
      {aln.other.map(([name, text]) => (
        <Field key={name} label={name}>
          <span className="mono">{text}</span>
        </Field>
      ))}
    </div>
  )
})
