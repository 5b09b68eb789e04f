import { useId, useRef, useState, useSyncExternalStore } from 'react'
import type { ExportFormat, RadSession } from '../../session'
import { FormatFieldset, RecordsFieldset } from './ExportChoices'
import { ExportStatus } from './ExportStatus'
import { defaultPick } from './exportChoice'
import type { ExportContext, KneeCut, PickKind } from './exportChoice'
import { BLOB_CAP_BYTES, canStreamToFile, capText, cliCommand } from './exportSinks'
import { useExportRun } from './useExportRun'
import './export.css'

interface Props {
  session: RadSession
  fileName: string
  context: Omit<ExportContext, 'statsDone' | 'hasBarcodes' | 'cut'>
  /** The knee plot's current cut-off (statistics panel). */
  cut: KneeCut | undefined
}

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

interface FormProps extends Props {
  titleId: string
  onClose: () => void
}

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
  const exp = useExportRun(session, fileName, ctx)
  const streamed = canStreamToFile()

  return (
    <form
      className="export-form"
      onSubmit={(e) => {
        e.preventDefault()
        void exp.start({ kind, format, from, to })
      }}
    >
      <h2 id={titleId}>Export records</h2>
      <RecordsFieldset
        id={id}
        ctx={ctx}
        kind={kind}
        setKind={setKind}
        from={from}
        setFrom={setFrom}
        to={to}
        setTo={setTo}
        chunks={context.chunks}
        cut={cut}
        disabled={exp.running}
      />
      <FormatFieldset id={id} format={format} setFormat={setFormat} disabled={exp.running} />
      <p className="export-note muted">
        {streamed
          ? 'You choose where to save; the file is written as the records are read, so any size works.'
          : `This browser cannot write a file as it goes: the export is collected in memory, up to ${capText(BLOB_CAP_BYTES)}, then downloaded. Larger: ${cliCommand(format)}.`}
      </p>
      {exp.problem && (
        <p className="export-problem" role="alert" data-testid="export-error">
          {exp.problem}
        </p>
      )}
      {exp.state && <ExportStatus state={exp.state} saved={exp.saved} savedTo={exp.savedTo} format={format} />}
      <div className="export-actions">
        {/* Keyed apart: one reused <button> turned from Cancel into a submit during Cancel's own click,
            and the browser then submitted the form, starting the export again (issue 40 §4). */}
        {exp.running ? (
          <button key="cancel" type="button" className="btn btn-small" data-testid="export-cancel" onClick={exp.cancel}>
            Cancel
          </button>
        ) : (
          <button key="start" type="submit" className="btn btn-small btn-primary" data-testid="export-start">
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
