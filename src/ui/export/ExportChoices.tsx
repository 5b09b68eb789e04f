import type { ReactNode } from 'react'
import type { ExportFormat } from '../../session'
import { describeFilter, unavailable } from './exportChoice'
import type { ExportContext, KneeCut, PickKind } from './exportChoice'
import { fmtCount, fmtCounted } from '../format'

const FORMATS: { value: ExportFormat; label: string; note: string }[] = [
  { value: 'rad', label: 'RAD subset', note: 'a valid RAD file: the same header, only these records' },
  { value: 'tsv', label: 'TSV', note: 'one line per alignment, as rad view prints' },
  { value: 'jsonl', label: 'JSON Lines', note: 'one object per record, as rad dump prints' },
  { value: 'parquet', label: 'Parquet', note: 'one row per alignment, for DuckDB, Spark…, as rad export writes' },
]

interface RecordsProps {
  /** The form's id prefix (useId). */
  id: string
  ctx: ExportContext
  kind: PickKind
  setKind: (kind: PickKind) => void
  /** The chunk range's fields, as typed. */
  from: string
  setFrom: (from: string) => void
  to: string
  setTo: (to: string) => void
  chunks: number
  cut: KneeCut | undefined
  disabled: boolean
}

/** The export dialog's first question: which records (the filter's, a chunk range, the cells). */
export function RecordsFieldset({
  id,
  ctx,
  kind,
  setKind,
  from,
  setFrom,
  to,
  setTo,
  chunks,
  cut,
  disabled,
}: RecordsProps) {
  return (
    <fieldset className="export-fieldset" disabled={disabled}>
      <legend>Records</legend>
      <Choice
        name={`${id}-pick`}
        value="filter"
        checked={kind === 'filter'}
        onPick={setKind}
        why={unavailable('filter', ctx)}
      >
        Every record the filter matches{ctx.filter ? `: ${describeFilter(ctx.filter)}` : ''}
      </Choice>
      <Choice
        name={`${id}-pick`}
        value="chunks"
        checked={kind === 'chunks'}
        onPick={setKind}
        why={unavailable('chunks', ctx)}
      >
        Chunks{' '}
        <span className="export-range">
          <label htmlFor={`${id}-from`} className="visually-hidden">
            First chunk
          </label>
          <input
            id={`${id}-from`}
            className="input input-num"
            inputMode="numeric"
            data-testid="export-from"
            value={from}
            onFocus={() => {
              setKind('chunks')
            }}
            onChange={(e) => {
              setFrom(e.currentTarget.value)
            }}
          />
          {' to '}
          <label htmlFor={`${id}-to`} className="visually-hidden">
            Last chunk
          </label>
          <input
            id={`${id}-to`}
            className="input input-num"
            inputMode="numeric"
            data-testid="export-to"
            value={to}
            onFocus={() => {
              setKind('chunks')
            }}
            onChange={(e) => {
              setTo(e.currentTarget.value)
            }}
          />
        </span>{' '}
        <span className="muted">(0 to {fmtCount(Math.max(0, chunks - 1))})</span>
      </Choice>
      <Choice
        name={`${id}-pick`}
        value="cells"
        checked={kind === 'cells'}
        onPick={setKind}
        why={unavailable('cells', ctx)}
      >
        Cells above the knee plot's cut-off
        {cut ? `: ${fmtCounted(cut.cells, 'barcode')} with ≥ ${fmtCounted(cut.minCount, 'record')}` : ''}
      </Choice>
    </fieldset>
  )
}

/** The export dialog's second question: which format. */
export function FormatFieldset({
  id,
  format,
  setFormat,
  disabled,
}: {
  id: string
  format: ExportFormat
  setFormat: (format: ExportFormat) => void
  disabled: boolean
}) {
  return (
    <fieldset className="export-fieldset" disabled={disabled}>
      <legend>Format</legend>
      {FORMATS.map((f) => (
        <Choice key={f.value} name={`${id}-format`} value={f.value} checked={format === f.value} onPick={setFormat}>
          {f.label} <span className="muted">({f.note})</span>
        </Choice>
      ))}
    </fieldset>
  )
}

interface ChoiceProps<T extends string> {
  name: string
  value: T
  checked: boolean
  onPick: (value: T) => void
  /** Why the choice is unavailable (shown, and the radio disabled). */
  why?: string | undefined
  children: ReactNode
}

function Choice<T extends string>({ name, value, checked, onPick, why, children }: ChoiceProps<T>) {
  return (
    <div className="export-choice">
      <label>
        <input
          type="radio"
          name={name}
          value={value}
          checked={checked}
          disabled={why !== undefined}
          data-testid={`export-${name.endsWith('format') ? 'format' : 'pick'}-${value}`}
          onChange={() => {
            onPick(value)
          }}
        />{' '}
        {children}
      </label>
      {why && <span className="export-why muted"> ({why})</span>}
    </div>
  )
}
