/**
 * The whole-file passes the page starts on an open file (docs/architecture.md §2): a record
 * filter, an export, the cells, and the valid part of a damaged file. Each starts from the opened
 * file as the session built it once (prelude, index, nbytes convention: WalkableFile) and runs in
 * its own module; this one only hands them what they need.
 */
import type { ExportFormat } from '../../io/exportSelection'
import type { SourceSpec } from '../../io/sourceSpec'
import { DEFAULT_MITO } from '../../rad/cells'
import type { KeptCells } from '../../rad/cells/cellsSection'
import type { RadError } from '../../rad/errors'
import type { RecordFilter } from '../../rad/filter/recordFilter'
import type { ByteSink } from '../../rad/subsetWriter'
import type { NbytesConvention } from '../../rad/types'
import type { CellsReply, ExportPick, OpenedFile } from '../../workers/protocol'
import type { IndexStore } from '../open/indexStore'
import type { DecodePool } from '../rows/decodePool'
import type { SessionState } from '../sessionStore'
import { CellsRun, cellsCut, cellsJobOf } from './cellsRun'
import { ExportRun, exportJobOf } from './exportRun'
import { startFilterRun } from './filterPass'
import type { FilterRun } from './filterPass'
import type { StatsRun } from './statsRun'
import { confirmedValidPart } from './validPart'

/** An open file a pass can walk: its prelude and chunks found so far, and how its nbytes count. */
export interface WalkableFile {
  source: SourceSpec
  opened: OpenedFile
  index: IndexStore
  convention: NbytesConvention
}

export interface PassesOf {
  source: SourceSpec
  /** The file as far as it is opened; undefined before the first chunks or once disposed. */
  walkable: () => WalkableFile | undefined
  opened: () => OpenedFile | undefined
  state: () => SessionState
  pool: DecodePool
  stats: StatsRun
  /** A pass found the file changed: the session switches its view to that state. */
  onFileChanged: (e: RadError) => void
  /** Cells passes kept for this file (the cache's, the sidecar's, this page's): fileScan.ts. */
  keptCells: () => KeptCells[]
  /** Keeps a finished cells pass with the file's index in the page's cache. */
  keepCells: (entry: KeptCells) => void
}

/** A pass's reply as the cache keeps it: its figures under its key, each file's kind by its content key. */
function keptOf(reply: CellsReply): KeptCells {
  const files = reply.files.map((f, i) => ({ fingerprint: reply.fingerprints[i] ?? '', kind: f.kind, why: f.why }))
  return { key: reply.key, json: reply.json, rows: reply.rows, files }
}

export class FilePasses {
  /** The latest cells pass (startCells). */
  private cells: CellsRun | undefined

  private readonly of: PassesOf

  constructor(of: PassesOf) {
    this.of = of
  }

  /** A record filter over every chunk indexed so far (filterPass.ts); undefined before the first chunks. */
  startFilter(filter: RecordFilter): FilterRun | undefined {
    const file = this.of.walkable()
    return file && startFilterRun({ ...file, workers: () => this.of.pool.workers().calls }, filter)
  }

  /** Exports a selection in an export worker, streamed to `sink` (exportRun.ts); undefined before the first chunks. */
  startExport(format: ExportFormat, pick: ExportPick, sink: ByteSink): ExportRun | undefined {
    const file = this.of.walkable()
    return file && new ExportRun(file.source, exportJobOf(file.opened, file.index, file.convention, format, pick), sink)
  }

  /**
   * The cells pass (cellsRun.ts, docs/cells.md) with the annotation files given, over the
   * barcodes with at least `minReads` records (the page's cut-off), else the knee's cells;
   * replaces any earlier one; rejects until the statistics are done. A pass kept for the same
   * files and cut-off (by the cache or the sidecar) is shown instead of a walk; a walked one is
   * kept (keepCells).
   */
  async startCells(files: File[], o: { mito?: string; minReads?: number | undefined } = {}): Promise<CellsRun> {
    const file = this.of.walkable()
    const view = this.of.stats.getState()
    const json = view.report?.json
    if (!file || !json || view.phase !== 'done') throw new Error('cell figures need the statistics first')
    const mito = o.mito ?? DEFAULT_MITO
    const cut = await cellsCut(json, this.of.stats, o.minReads)
    this.cells?.cancel()
    const { source, opened, index, convention } = file
    const job = { ...cellsJobOf(opened, index, convention, cut, files, mito), kept: this.of.keptCells() }
    const run = new CellsRun(source, job, this.of.pool.size)
    this.cells = run
    run.done.then(
      (reply) => {
        if (reply.from === 'pass') this.of.keepCells(keptOf(reply))
      },
      () => undefined,
    )
    return run
  }

  /** The valid part, once a decode worker has confirmed the file unchanged (validPart.ts). */
  saveValidPart(): Promise<File> {
    const { source, opened, state, pool, onFileChanged } = this.of
    return confirmedValidPart({ source, opened: opened(), state, pool, onFileChanged })
  }

  dispose(): void {
    this.cells?.cancel()
  }
}
