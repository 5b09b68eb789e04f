import { useId } from 'react'
import type { ChangeEvent, SubmitEvent } from 'react'
import type { Semantics } from '../../rad/prelude/semantics'
import type { FilterDraft } from './filterDraft'

/** Makes a field's change handler: the draft with that field set. */
type FieldSetter = (key: keyof FilterDraft) => (ev: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void

interface Props {
  draft: FilterDraft
  setDraft: (draft: FilterDraft) => void
  semantics: Semantics
  /** What is wrong with the fields, shown beside them. */
  problem: string | undefined
  onSubmit: () => void
}

/** The filter bar's fields: only those the file has (barcode, UMI, orientation, mapping type). Enter runs it. */
export function FilterForm({ draft, setDraft, semantics, problem, onSubmit }: Props) {
  const problemId = useId()
  const set: FieldSetter = (key) => (ev) => {
    const target = ev.currentTarget
    const value = target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value
    setDraft({ ...draft, [key]: value })
  }
  const submit = (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault()
    onSubmit()
  }
  const described = problem ? problemId : undefined
  return (
    <form className="filter-bar" noValidate onSubmit={submit}>
      <SequenceFields draft={draft} semantics={semantics} set={set} described={described} />
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
  )
}

interface SequenceProps {
  draft: FilterDraft
  semantics: Semantics
  set: FieldSetter
  described: string | undefined
}

/** The barcode (exact or within one mismatch) and UMI fields. */
function SequenceFields({ draft, semantics, set, described }: SequenceProps) {
  const hasBarcode = semantics.barcodes.length > 0
  return (
    <>
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
    </>
  )
}
