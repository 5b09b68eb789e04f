import { memo, useId } from 'react'
import type { ChangeEvent, SubmitEvent } from 'react'
import type { Semantics } from '../rad/semantics'
import { MAX_KEPT_MATCHES } from '../session'
import type { FilterState, IndexStore } from '../session'
import { FilterResults } from './FilterResults'
import type { FilterDraft } from './filterDraft'
import { fmtCount, fmtCounted, fmtPercent } from './format'
import { useFilterState } from './useRecordFilter'
import type { RecordFilterControl } from './useRecordFilter'
import './filter.css'

interface Props {
  id: string
  control: RecordFilterControl
  semantics: Semantics
  index: IndexStore
  onRecord: (record: number) => void
}

function statusText(s: FilterState): string {
  const found = fmtCounted(s.matches, 'matching record')
  const listed = s.matches > s.kept ? ` (the first ${fmtCount(MAX_KEPT_MATCHES)} listed)` : ''
  const bad = s.badChunks > 0 ? `; ${fmtCounted(s.badChunks, 'damaged chunk')} skipped` : ''
  switch (s.phase) {
    case 'running':
      return `Filtering… ${fmtPercent(s.bytesDone, s.bytes)} of ${fmtCounted(s.chunks, 'chunk')} · ${found}${bad}`
    case 'done':
      return `${found}${listed}${bad}.`
    case 'cancelled':
      return `Cancelled after ${fmtPercent(s.bytesDone, s.bytes)}: ${found} so far${listed}.`
    case 'error':
      return s.error?.message ?? 'The filter failed.'
  }
}

function FilterStatus({ state, onCancel }: { state: FilterState; onCancel: () => void }) {
  const running = state.phase === 'running'
  const share = state.bytes > 0 ? state.bytesDone / state.bytes : 0
  return (
    <div className={`filter-status filter-${state.phase}`}>
      <span role="status" data-testid="filter-status" data-state={state.phase}>
        {statusText(state)}
      </span>
      <span hidden data-testid="filter-count" data-value={state.matches} />
      {state.collatedFastPath && (
        <span className="muted"> Collated file: each chunk answered from its first record.</span>
      )}
      {running && (
        <>
          <div className="progress filter-progress" aria-hidden="true">
            <div className="progress-fill" style={{ transform: `scaleX(${String(share)})` }} />
          </div>
          <button type="button" className="btn btn-small" data-testid="filter-cancel" onClick={onCancel}>
            Cancel
          </button>
        </>
      )}
    </div>
  )
}

/**
 * The filter bar (README "Command line", filters; src/rad/recordFilter.ts): barcode, UMI, reference, alignment counts,
 * orientation and mapping type, combined with AND. Enter in any field runs it;
 * matches stream into a virtualized list of record numbers.
 */
export const FilterPanel = memo(function FilterPanel({ id, control, semantics, index, onRecord }: Props) {
  const { draft, setDraft, run, problem } = control
  const state = useFilterState(run)
  const problemId = useId()
  const set = (key: keyof FilterDraft) => (ev: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const target = ev.currentTarget
    const value = target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value
    setDraft({ ...draft, [key]: value })
  }
  const submit = (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault()
    control.start()
  }
  const hasBarcode = semantics.barcodes.length > 0
  const described = problem ? problemId : undefined
  return (
    <section id={id} className="filter-panel" aria-label="Filter records" data-testid="filter-panel">
      <form className="filter-bar" noValidate onSubmit={submit}>
        {hasBarcode && (
          <label className="filter-field">
            Barcode
            <input
              className="input mono filter-seq"
              data-testid="filter-barcode"
              value={draft.barcode}
              onChange={set('barcode')}
              placeholder="ACGT…"
              spellCheck={false}
              autoComplete="off"
              aria-describedby={described}
            />
          </label>
        )}
        {hasBarcode && (
          <label className="filter-check">
            <input
              type="checkbox"
              data-testid="filter-hamming"
              checked={draft.nearBarcode}
              onChange={set('nearBarcode')}
            />
            ≤ 1 mismatch
          </label>
        )}
        {semantics.umi && (
          <label className="filter-field">
            UMI
            <input
              className="input mono filter-umi"
              data-testid="filter-umi"
              value={draft.umi}
              onChange={set('umi')}
              placeholder="ACGT…"
              spellCheck={false}
              autoComplete="off"
            />
          </label>
        )}
        <label className="filter-field">
          Reference
          <input
            className="input filter-ref"
            data-testid="filter-ref"
            value={draft.ref}
            onChange={set('ref')}
            placeholder="name or /regex/"
            spellCheck={false}
            autoComplete="off"
            aria-describedby={described}
          />
        </label>
        <label className="filter-field">
          Alignments
          <input
            className="input input-num filter-num"
            data-testid="filter-min-aln"
            value={draft.minAln}
            onChange={set('minAln')}
            inputMode="numeric"
            placeholder="min"
            aria-label="Fewest alignments"
          />
          –
          <input
            className="input input-num filter-num"
            data-testid="filter-max-aln"
            value={draft.maxAln}
            onChange={set('maxAln')}
            inputMode="numeric"
            placeholder="max"
            aria-label="Most alignments"
          />
        </label>
        {semantics.orientation && (
          <label className="filter-field">
            Orientation
            <select
              className="input"
              data-testid="filter-orientation"
              value={draft.orientation}
              onChange={set('orientation')}
            >
              <option value="">any</option>
              <option value="fw">fw</option>
              <option value="rc">rc</option>
            </select>
          </label>
        )}
        {semantics.mappingType && (
          <label className="filter-field">
            Mapping type
            <input
              className="input input-num filter-num"
              data-testid="filter-frag-map-type"
              value={draft.fragMapType}
              onChange={set('fragMapType')}
              inputMode="numeric"
              placeholder="any"
            />
          </label>
        )}
        <button type="submit" className="btn btn-small btn-primary" data-testid="filter-run">
          Filter
        </button>
        {problem && (
          <span id={problemId} className="filter-problem" role="alert">
            {problem}
          </span>
        )}
      </form>
      {run && state && <FilterStatus state={state} onCancel={control.cancel} />}
      {run && state && <FilterResults run={run} kept={state.kept} index={index} onRecord={onRecord} />}
    </section>
  )
})
