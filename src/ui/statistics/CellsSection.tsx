import { useId } from 'react'
import { cellsTsv } from '../../rad/cells'
import type { Semantics } from '../../rad/prelude/semantics'
import { cellsNotApplicable } from '../../session'
import type { CellsReply } from '../../session'
import { CellsPanel } from './CellsPanel'
import { MitoPattern } from './MitoPattern'
import { fmtCount } from '../format'
import { saveFile } from '../saveFile'
import type { CellsHandle } from './useCellsRun'

interface Props {
  cells: CellsHandle
  semantics: Semantics | undefined
  statsDone: boolean
  fileName: string
  onPickBarcode: (seq: string) => void
}

const KIND_NAMES = { t2g: 'transcript-to-gene map', 'gene-names': 'gene names', 'permit-list': 'permit list' }

/** Cell and gene figures (docs/cells.md), once annotation files were given: the pass's progress, then the panel. */
export function CellsSection({ cells, semantics, statsDone, fileName, onPickBarcode }: Props) {
  const why = semantics && cellsNotApplicable(semantics)
  // A bulk, scATAC or multi-barcode file: said plainly, only to someone who gave annotation files.
  if (why !== undefined) {
    return cells.files.length > 0 ? (
      <p className="cells-note" data-testid="cells-not-applicable">
        No cell or gene figures: {why}.
      </p>
    ) : null
  }
  const { state } = cells
  if (cells.files.length === 0) return null
  return (
    <section className="cells-section" aria-labelledby="cells-title" data-testid="cells-section">
      <div className="stats-head">
        <h3 id="cells-title">Cells and genes</h3>
        {state?.phase === 'done' && state.reply && <SaveCellsTsv reply={state.reply} fileName={fileName} />}
      </div>
      <CellsStatus cells={cells} statsDone={statsDone} />
      <MitoPattern value={cells.mito} onApply={cells.setMito} />
      {state?.phase === 'done' && state.reply && (
        <>
          <TakenFor reply={state.reply} />
          <KeptNote from={state.reply.from} />
          <CellsPanel view={state.reply} source={state.reply.from} onPick={onPickBarcode} />
        </>
      )}
    </section>
  )
}

/** The annotations control, in the statistics panel's head: several files at once, any names. */
export function AnnotationsInput({ onFiles }: { onFiles: (files: File[]) => void }) {
  const id = useId()
  return (
    <span className="annotations-input">
      <label
        htmlFor={id}
        className="btn btn-small"
        title="The run’s transcript-to-gene map (t2g.tsv), and optionally gene names and the barcode permit list: UMIs, genes and mito fraction per cell. They can also be dropped with the RAD file."
      >
        Add t2g…
      </label>
      <input
        id={id}
        type="file"
        multiple
        className="visually-hidden"
        data-testid="annotations-input"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])]
          e.currentTarget.value = ''
          if (files.length > 0) onFiles(files)
        }}
      />
    </span>
  )
}

function CellsStatus({ cells, statsDone }: { cells: CellsHandle; statsDone: boolean }) {
  const { state, startError } = cells
  if (startError) return <Alert text={`Could not start the cells pass: ${startError}`} />
  if (!state) return <p className="cells-note">{statsDone ? 'Starting…' : 'Waiting for the statistics…'}</p>
  if (state.phase === 'error' && state.error) return <Alert text={state.error.message} />
  if (state.phase === 'cancelled') {
    return (
      <p className="cells-note" data-testid="cells-cancelled">
        Cancelled. Add the files again (Add t2g…) to count the cells.
      </p>
    )
  }
  if (state.phase !== 'running') return null
  const pct = state.total ? Math.floor((100 * state.visited) / state.total) : 0
  return (
    <p className="cells-note" role="status" data-testid="cells-progress">
      Counting the cells’ UMIs and genes in {state.fileNames.join(', ')}: {pct}% of {fmtCount(state.total ?? 0)} chunks{' '}
      <button type="button" className="btn btn-small" data-testid="cells-cancel" onClick={cells.cancel}>
        Cancel
      </button>
    </p>
  )
}

function Alert({ text }: { text: string }) {
  return (
    <p className="notice notice-error" role="alert" data-testid="cells-error">
      {text}
    </p>
  )
}

/** What each given file was taken for, by its content. */
function TakenFor({ reply }: { reply: CellsReply }) {
  return (
    <p className="cells-note" data-testid="cells-files">
      {reply.files.map((f, i) => (
        <span key={f.name}>
          {i > 0 && ' · '}
          {f.name}: {f.kind ? KIND_NAMES[f.kind] : 'not used (none of the three)'}{' '}
          <span className="muted">({f.why})</span>
        </span>
      ))}
    </p>
  )
}

/** Figures not counted here: kept by this browser's cache or by `rad index` for the same files and cut-off. */
function KeptNote({ from }: { from: CellsReply['from'] }) {
  if (from === 'pass') return null
  const where =
    from === 'cache'
      ? 'kept in this browser from an earlier count'
      : 'counted by rad index and stored in the sidecar index (.rdx)'
  return (
    <p className="cells-note" data-testid="cells-kept">
      Cells {where} of the same annotation files at the same cut-off; not counted again.
    </p>
  )
}

function SaveCellsTsv({ reply, fileName }: { reply: CellsReply; fileName: string }) {
  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid="cells-save-tsv"
      title="One row per cell: barcode, reads, UMIs, genes, mito fraction (rad stats --cells-tsv)"
      onClick={() => {
        const name = `${fileName.replace(/\.rad$/i, '') || 'file'}.cells.tsv`
        saveFile(new File([cellsTsv(reply.rows)], name, { type: 'text/tab-separated-values' }))
      }}
    >
      Save cells TSV
    </button>
  )
}
