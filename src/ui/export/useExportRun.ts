import { useEffect, useState, useSyncExternalStore } from 'react'
import { RadError } from '../../rad/errors'
import type { ExportFormat, ExportPick, ExportRun, ExportState, RadSession } from '../../session'
import { chunkRange, unavailable } from './exportChoice'
import type { ExportContext, PickKind } from './exportChoice'
import { BlobSink, canStreamToFile, exportMime, exportName, pickFile, writableSink } from './exportSinks'
import type { WritableFile } from './exportSinks'
import { saveFile } from '../saveFile'

/** What the export dialog's form asks for when Export is pressed. */
export interface ExportRequest {
  kind: PickKind
  format: ExportFormat
  /** The chunk range's fields, as typed. */
  from: string
  to: string
}

export interface ExportRunControl {
  /** Why the export could not start or failed, in words. */
  problem: string | undefined
  /** The run's state; undefined before the first export. */
  state: ExportState | undefined
  running: boolean
  /** The picked file is closed, or the download handed to the browser. */
  saved: boolean
  /** Where the records went, for the summary. */
  savedTo: string
  start: (request: ExportRequest) => Promise<void>
  cancel: () => void
}

const IDLE = (): undefined => undefined
const NO_SUBSCRIPTION = (): (() => void) => () => undefined

/** One export at a time from the dialog: the file picked (or a Blob), the run, its state and its outcome. */
export function useExportRun(session: RadSession, fileName: string, ctx: ExportContext): ExportRunControl {
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [run, setRun] = useState<ExportRun | undefined>(undefined)
  const [savedTo, setSavedTo] = useState('')
  const [saved, setSaved] = useState(false)
  const state = useSyncExternalStore(run?.subscribe ?? NO_SUBSCRIPTION, run?.getState ?? IDLE)
  // The dialog closed (Escape, Close): an export still running stops, nothing half-written is left behind.
  useEffect(() => () => run?.cancel(), [run])

  const start = async ({ kind, format, from, to }: ExportRequest): Promise<void> => {
    setProblem(undefined)
    setSaved(false)
    const why = unavailable(kind, ctx)
    if (why) {
      setProblem(`That choice is not available: ${why}.`)
      return
    }
    let range: { from: number; to: number } | undefined
    if (kind === 'chunks') {
      const r = chunkRange(from, to, ctx.chunks)
      if (typeof r === 'string') {
        setProblem(r)
        return
      }
      range = r
    }
    const name = exportName(fileName, format)
    const streamed = canStreamToFile()
    try {
      // The picker needs the click's user activation: ask first, then gather the selection.
      const file = streamed ? await pickFile(fileName, format) : undefined
      if (streamed && !file) return
      const pick = await pickOf(kind, range, ctx, session)
      const blob = file ? undefined : new BlobSink(format)
      const next = session.passes.startExport(format, pick, file ? writableSink(file) : (blob as BlobSink))
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

  return {
    problem,
    state,
    running: state?.phase === 'running',
    saved,
    savedTo,
    start,
    cancel: () => run?.cancel(),
  }
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
