import { memo } from 'react'
import type { Semantics } from '../../rad/prelude/semantics'
import type { IndexStore } from '../../session'
import { FilterForm } from './FilterForm'
import { FilterResults } from './FilterResults'
import { FilterStatus } from './FilterStatus'
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

/**
 * The filter bar (README "Command line", filters; src/rad/filter/recordFilter.ts): barcode, UMI, reference, alignment counts,
 * orientation and mapping type, combined with AND. Enter in any field runs it;
 * matches stream into a virtualized list of record numbers.
 */
export const FilterPanel = memo(function FilterPanel({ id, control, semantics, index, onRecord }: Props) {
  const { draft, setDraft, run, problem } = control
  const state = useFilterState(run)
  return (
    <section id={id} className="filter-panel" aria-label="Filter records" data-testid="filter-panel">
      <FilterForm draft={draft} setDraft={setDraft} semantics={semantics} problem={problem} onSubmit={control.start} />
      {run && state && <FilterStatus state={state} onCancel={control.cancel} />}
      {run && state && <FilterResults run={run} kept={state.kept} index={index} onRecord={onRecord} />}
    </section>
  )
})
