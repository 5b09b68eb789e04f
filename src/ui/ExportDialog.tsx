import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react'
import { RadError } from '../rad/errors'
import type { ExportFormat, ExportPick, ExportRun, ExportState, RadSession } from '../session'
import { chunkRange, defaultPick, describeFilter, unavailable } from './exportChoice'
import type { ExportContext, KneeCut, PickKind } from './exportChoice'
import {
  BLOB_CAP_BYTES,
  BlobSink,
  canStreamToFile,
  capText,
  cliCommand,
  exportMime,
  exportName,
  pickFile,
  writableSink,
} from './exportSinks'
import type { WritableFile } from './exportSinks'
import { fmtBytes, fmtCount, fmtCounted } from './format'
import { saveFile } from './saveFile'
import './export.css'

interface Props {
  session: RadSession
  fileName: string
  context: Omit<ExportContext, 'statsDone' | 'hasBarcodes' | 'cut'>
  /** The knee plot's current cut-off (statistics panel). */
  cut: KneeCut | undefined
}

const FORMATS: { value: ExportFormat; label: string; note: string }[] = [
  { value: 'rad', label: 'RAD subset', note: 'a valid RAD file: the same header, only these records' },
  { value: 'tsv', label: 'TSV', note: 'one line per alignment, as rad view prints' },
  { value: 'jsonl', label: 'JSON Lines', note: 'one object per record, as rad dump prints' },
  { value: 'parquet', label: 'Parquet', note: 'one row per alignment, for DuckDB, Spark…, as rad export writes' },
]

/** The records bar's Export button and its dialog (docs/subsets.md). */
export function ExportButton(props: Props) {
  const dialog = useRef<HTMLDialogElement>(null)
  const [open, setOpen] = useState(false)
  const titleId = useId()
  return (
    <>
      <button
        type="button"
        className="btn btn-small"
        data-testid="export-button"
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true)
          dialog.current?.showModal()
        }}
      >
        Export…
      </button>
      <dialog
        ref={dialog}
        className="export-dialog"
        data-testid="export-dialog"
        aria-labelledby={titleId}
        onClose={() => {
          setOpen(false)
        }}
      >
        {open && (
          <ExportForm
            {...props}
            titleId={titleId}
            onClose={() => {
              dialog.current?.close()
            }}
          />
        )}
      </dialog>
    </>
  )
}

interface FormProps extends Props {
  titleId: string
  onClose: () => void
}

const IDLE = (): undefined => undefined
const NO_SUBSCRIPTION = (): (() => void) => () => undefined

function ExportForm({ session, fileName, context, cut, titleId, onClose }: FormProps) {
  const id = useId()
  const stats = useSyncExternalStore(session.stats.subscribe, session.stats.getState)
  const ctx: ExportContext = {
    ...context,
    statsDone: stats.phase === 'done',
    hasBarcodes: (stats.report?.json.barcodes?.distinct ?? 0) > 0,
    cut,
  }
  const [kind, setKind] = useState<PickKind>(() => defaultPick(ctx))
  const [format, setFormat] = useState<ExportFormat>('rad')
  const [from, setFrom] = useState('0')
  const [to, setTo] = useState(() => String(Math.max(0, context.chunks - 1)))
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [run, setRun] = useState<ExportRun | undefined>(undefined)
  const [savedTo, setSavedTo] = useState('')
  const [saved, setSaved] = useState(false)
  const state = useSyncExternalStore(run?.subscribe ?? NO_SUBSCRIPTION, run?.getState ?? IDLE)
  const running = state?.phase === 'running'
  const streamed = canStreamToFile()
  // The dialog closed (Escape, Close): an export still running stops, nothing half-written is left behind.
  useEffect(() => () => run?.cancel(), [run])

  const start = async (): Promise<void> => {
    setProblem(undefined)
    setSaved(false)
    const why = unavailable(kind, ctx)
    if (why) {
      setProblem(`That choice is not available: ${why}.`)
      return
    }
    let range: { from: number; to: number } | undefined
    if (kind === 'chunks') {
      const r = chunkRange(from, to, context.chunks)
      if (typeof r === 'string') {
        setProblem(r)
        return
      }
      range = r
    }
    const name = exportName(fileName, format)
    try {
      // The picker needs the click's user activation: ask first, then gather the selection.
      const file = streamed ? await pickFile(fileName, format) : undefined
      if (streamed && !file) return
      const pick = await pickOf(kind, range, ctx, session)
      const blob = file ? undefined : new BlobSink(format)
      const next = session.startExport(format, pick, file ? writableSink(file) : (blob as BlobSink))
      if (!next) {
        await file?.abort()
        setProblem('The file is not open yet: try again in a moment.')
        return
      }
      setRun(next)
      setSavedTo(file ? 'the file you chose' : `${name} (downloaded)`)
      await finishSave(next, file, blob, name, format)
      setSaved(true)
    } catch (e) {
      if (!(e instanceof RadError && e.code === 'CANCELLED')) {
        setProblem(e instanceof Error ? e.message : String(e))
      }
    }
  }

  return (
    <form
      className="export-form"
      onSubmit={(e) => {
        e.preventDefault()
        void start()
      }}
    >
      <h2 id={titleId}>Export records</h2>
      <fieldset className="export-fieldset" disabled={running}>
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
          <span className="muted">(0 to {fmtCount(Math.max(0, context.chunks - 1))})</span>
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
      <fieldset className="export-fieldset" disabled={running}>
        <legend>Format</legend>
        {FORMATS.map((f) => (
          <Choice key={f.value} name={`${id}-format`} value={f.value} checked={format === f.value} onPick={setFormat}>
            {f.label} <span className="muted">({f.note})</span>
          </Choice>
        ))}
      </fieldset>
      <p className="export-note muted">
        {streamed
          ? 'You choose where to save; the file is written as the records are read, so any size works.'
          : `This browser cannot write a file as it goes: the export is collected in memory, up to ${capText(BLOB_CAP_BYTES)}, then downloaded. Larger: ${cliCommand(format)}.`}
      </p>
      {problem && (
        <p className="export-problem" role="alert" data-testid="export-error">
          {problem}
        </p>
      )}
      {state && <ExportStatus state={state} saved={saved} savedTo={savedTo} format={format} />}
      <div className="export-actions">
        {running ? (
          <button type="button" className="btn btn-small" data-testid="export-cancel" onClick={() => run?.cancel()}>
            Cancel
          </button>
        ) : (
          <button type="submit" className="btn btn-small btn-primary" data-testid="export-start">
            Export
          </button>
        )}
        <button type="button" className="btn btn-small" data-testid="export-close" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  )
}

interface ChoiceProps<T extends string> {
  name: string
  value: T
  checked: boolean
  onPick: (value: T) => void
  /** Why the choice is unavailable (shown, and the radio disabled). */
  why?: string | undefined
  children: React.ReactNode
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

interface StatusProps {
  state: ExportState
  /** The picked file is closed, or the download handed to the browser. */
  saved: boolean
  savedTo: string
  format: ExportFormat
}

function ExportStatus({ state, saved, savedTo, format }: StatusProps) {
  if (state.phase === 'running') {
    const share = state.total ? state.visited / state.total : 0
    return (
      <p className="export-status" role="status" data-testid="export-progress">
        <progress max={1} value={share} aria-label="Export" />{' '}
        {state.total ? `chunk ${fmtCount(state.visited)} of ${fmtCount(state.total)}, ` : ''}
        {fmtBytes(state.bytes)} written
      </p>
    )
  }
  if (state.phase === 'done' && !saved) return <p className="export-status">Saving…</p>
  if (state.phase === 'done' && state.summary) {
    const s = state.summary
    const chunks = format === 'rad' ? ` in ${fmtCounted(s.chunks, 'chunk')}` : ''
    return (
      <p
        className="export-status"
        role="status"
        data-testid="export-summary"
        data-records={String(s.records)}
        data-chunks={String(s.chunks)}
        data-bytes={String(s.bytes)}
      >
        Wrote {fmtCounted(s.records, 'record')}
        {chunks}, {fmtBytes(s.bytes)}, to {savedTo}.
      </p>
    )
  }
  if (state.phase === 'cancelled') {
    return (
      <p className="export-status" role="status">
        Cancelled: nothing was saved.
      </p>
    )
  }
  return null
}

/** The ExportPick of the dialog's choice; the cells' barcodes are asked of the statistics pass. */
async function pickOf(
  kind: PickKind,
  range: { from: number; to: number } | undefined,
  ctx: ExportContext,
  session: RadSession,
): Promise<ExportPick> {
  if (kind === 'chunks' && range) return { kind: 'chunks', ...range }
  if (kind === 'filter' && ctx.filter) return { kind: 'filter', filter: ctx.filter }
  if (kind === 'cells' && ctx.cut) {
    return { kind: 'cells', barcodes: await session.stats.barcodesAtLeast(ctx.cut.minCount) }
  }
  throw new Error('internal: an export choice without its data')
}

/** Once the worker is done: close the picked file, or download the collected Blob; on failure, drop the partial file. */
async function finishSave(
  run: ExportRun,
  file: WritableFile | undefined,
  blob: BlobSink | undefined,
  name: string,
  format: ExportFormat,
): Promise<void> {
  try {
    await run.done
  } catch (e) {
    await file?.abort().catch(() => undefined)
    throw e
  }
  if (file) await file.close()
  else if (blob) saveFile(new File([blob.blob(exportMime(format))], name, { type: exportMime(format) }))
}
