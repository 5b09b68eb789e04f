import { memo, useState } from 'react'
import type { IntegrityIssue, IssueKind } from '../../rad/checks/integrity'
import type { RadSession, SessionState } from '../../session'
import { salvagedName } from '../../session'
import { fmtBytes, fmtCount, fmtCounted } from '../format'
import { saveFile } from '../saveFile'

/**
 * What the panel's data-status says: the core's five verdicts, the two states
 * before one exists, 'changed' (the file changed on disk: no verdict) and
 * 'unchecked' (the index came from a sidecar or the cache: its verdict is a
 * claim this page did not check, docs/integrity.md).
 */
export type PanelStatus =
  'checking' | 'clean' | 'notes' | 'warnings' | 'damaged' | 'unreadable' | 'incomplete' | 'changed' | 'unchecked'

const KIND_TITLES: Record<IssueKind, string> = {
  'not-rad': 'Not a RAD file',
  'unsupported-version': 'Unsupported RAD version',
  truncated: 'The file is cut short',
  'num-chunks-unknown': 'Unfinished or streamed file (num_chunks is 0)',
  'num-chunks-too-large': 'Fewer chunks than num_chunks declares',
  'trailing-bytes': 'Trailing bytes after the last chunk',
  concatenated: 'Two RAD files joined together',
  'corrupt-header': 'Damaged header',
  'corrupt-chunk': 'Damaged chunk',
  'decompress-failed': 'A chunk does not decompress',
  'checksum-mismatch': 'Checksum mismatch in the compressed file',
  'declared-length': 'A length its type cannot hold',
  'unknown-codec': 'Unknown chunk compression',
  'ext-less-prefix': 'Early version prefix (no ext_len)',
  'payload-only-nbytes': 'Old-style chunk sizes',
  note: 'Note',
}

const KIND_HINTS: Partial<Record<IssueKind, (issue: IntegrityIssue) => string>> = {
  truncated: () => 'The file was probably copied or written incompletely (a mapper killed mid-run, a full disk).',
  'num-chunks-too-large': () => 'The writer stopped early, or the file was cut exactly between two chunks.',
  'num-chunks-unknown': () =>
    'The writer did not finish, or streamed the file: every chunk up to the end of the file is read.',
  concatenated: (issue) =>
    `Only the first file is shown. To see the second, cut it out and open it on its own${
      issue.offset === undefined ? '' : ` (for example: tail -c +${String(issue.offset + 1)} FILE > second.rad)`
    }.`,
  'unknown-codec': () => 'The file was written by a newer tool, or its header is damaged.',
  'ext-less-prefix': () =>
    'No released tool is known to write this layout: check the records make sense; tools that follow the current layout (alevin-fry, libradicl) will not read this file.',
  'checksum-mismatch': () =>
    'The compressed file was damaged after it was written (a bad copy or disk): the records this frame holds are marked damaged and may show wrong values.',
}

const STATUS_LABELS: Record<PanelStatus, string> = {
  checking: 'Checking…',
  clean: 'Clean',
  notes: 'Readable, with notes',
  warnings: 'Readable, with warnings',
  damaged: 'Damaged',
  unreadable: 'Unreadable',
  incomplete: 'Not fully checked',
  changed: 'Verdict withdrawn',
  unchecked: 'Not checked here',
}

/** A recorded verdict, as the sentence "… records this file as ___" ends. */
const RECORDED: Partial<Record<PanelStatus, string>> = {
  clean: 'clean',
  notes: 'readable, with notes',
  warnings: 'readable, with warnings',
  damaged: 'damaged',
}

export function panelStatus(state: SessionState): PanelStatus {
  // A verdict about bytes that are no longer on disk says nothing (docs/integrity.md): the banner explains.
  if (state.changed) return 'changed'
  // A sidecar's or the cache's verdict is a claim: "Clean" only after this page's own pass (docs/sidecar.md).
  if (state.summary && state.indexSource !== 'scan') return 'unchecked'
  if (state.summary) return state.summary.status
  if (state.phase === 'opening' || state.phase === 'indexing') return 'checking'
  // The index worker failed: what was read is shown, the rest is unknown.
  return 'incomplete'
}

function summaryText(state: SessionState, status: PanelStatus): string {
  const s = state.summary
  const counts = `${fmtCounted(state.chunks, 'chunk')}, ${fmtCounted(state.records, 'record')}`
  switch (status) {
    case 'checking':
      return `Every chunk is checked as it is indexed (record layout, reference ids, barcode and UMI widths): ${counts} so far.`
    case 'clean':
      return `Every chunk was checked: ${counts}${s?.alignments !== undefined ? `, ${fmtCounted(s.alignments, 'alignment')}` : ''}. Nothing is wrong.`
    case 'notes':
      return `Every chunk was checked (${counts}); nothing is damaged, but there is something worth knowing.`
    case 'warnings':
      return `Everything is readable (${counts}), but see the warnings below.`
    case 'damaged':
      return `Part of the file cannot be read. Everything valid is shown: ${counts} indexed.`
    case 'unreadable':
      return state.error ? 'The file cannot be opened as RAD: see above.' : 'The file cannot be opened as RAD.'
    case 'changed':
      return 'The file changed on disk after it was opened, so no verdict is given about it: reopen it to check it again.'
    case 'unchecked':
      return recordedText(state)
    case 'incomplete':
      return state.cancelled
        ? `Indexing was cancelled: ${counts} were checked; the rest of the file was not.`
        : state.chunks === 0
          ? 'No chunk could be read (see the error above), so no record was checked.'
          : `Checking stopped before the end of the file (see the error above): ${counts} were checked.`
  }
}

/** Where a known index came from, as the panel names it. */
function originOf(state: SessionState): string {
  return state.indexSource === 'cache' ? 'index cached in this browser' : 'sidecar index (.rdx)'
}

/** The verdict a sidecar or the cache recorded, said as theirs, not this page's. */
function recordedText(state: SessionState): string {
  const recorded = state.summary && RECORDED[state.summary.status]
  const claim = recorded
    ? `The ${originOf(state)} records this file as ${recorded}`
    : `The ${originOf(state)} holds no usable verdict`
  return `${claim}, but its ${fmtCount(state.records)} records were not checked in this page.`
}

/** The offer to check a file opened from a known index: it is scanned again, every record checked. */
function CheckOffer({ state, session }: { state: SessionState; session: RadSession }) {
  const size = state.opened?.fileSize ?? state.fileSize
  return (
    <div className="salvage">
      <button
        type="button"
        className="btn btn-primary"
        data-testid="check-records"
        onClick={() => {
          session.checkRecords()
        }}
      >
        Check every record
      </button>
      <span className="salvage-what">
        Reads the whole file ({fmtBytes(size)}) and checks every chunk, as when it is opened without an index.
      </span>
    </div>
  )
}

interface IssueProps {
  issue: IntegrityIssue
  /** Chunks indexed: a problem at or past this chunk links to the last records before it. */
  chunks: number
  unwrapped: boolean
  onChunk: (chunk: number) => void
}

function IssueItem({ issue, chunks, unwrapped, onChunk }: IssueProps) {
  const { chunk, offset } = issue
  const inFile = issue.containerOffset === undefined ? '' : ` (byte ${fmtCount(issue.containerOffset)} of the file)`
  const byte =
    offset === undefined ? '' : `byte ${fmtCount(offset)}${unwrapped ? ' of the unwrapped stream' : ''}${inFile}`
  const where = [chunk === undefined ? '' : `chunk ${fmtCount(chunk)}`, byte].filter((t) => t !== '').join(' · ')
  const linked = chunk !== undefined && chunks > 0
  const beyond = chunk !== undefined && chunk >= chunks
  const hint = KIND_HINTS[issue.kind]?.(issue)
  return (
    <li
      className={`issue issue-${issue.severity}`}
      data-testid="integrity-issue"
      data-kind={issue.kind}
      data-severity={issue.severity}
      data-chunk={chunk === undefined ? undefined : String(chunk)}
      data-offset={offset === undefined ? undefined : String(offset)}
      data-container-offset={issue.containerOffset === undefined ? undefined : String(issue.containerOffset)}
    >
      <div className="issue-head">
        <span className="issue-kind">{KIND_TITLES[issue.kind]}</span>
        {linked ? (
          <button
            type="button"
            className="link issue-where"
            data-testid="issue-goto"
            title={beyond ? 'Show the last records before this problem' : `Show chunk ${fmtCount(chunk)} in the table`}
            onClick={() => {
              onChunk(chunk)
            }}
          >
            {where}
          </button>
        ) : (
          where !== '' && <span className="issue-where">{where}</span>
        )}
      </div>
      <p className="issue-message">{issue.message}</p>
      {hint && <p className="issue-hint">{hint}</p>}
    </li>
  )
}

function Salvage({ state, session }: { state: SessionState; session: RadSession }) {
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const offer = state.summary?.salvage
  if (state.opened?.container === 'snappy-framed') {
    return (
      <p className="salvage-note" data-testid="salvage-unavailable">
        Saving the valid part is not available for Snappy <code>.sz</code> files in the browser: their chunk positions
        are positions in the decompressed stream, so the valid part cannot be cut out of the file as it is. The command
        line does it: <code>node bin/rad.mjs salvage {state.fileName} out.rad</code>
      </p>
    )
  }
  if (!offer) {
    return (
      <p className="salvage-note" data-testid="salvage-unavailable">
        No intact chunk comes before the problem, so there is nothing to save.
      </p>
    )
  }
  const dropped = offer.droppedChunks
  return (
    <div className="salvage">
      <button
        type="button"
        className="btn btn-primary"
        data-testid="salvage"
        onClick={() => {
          // A changed file fails here with the banner and a note, never with a download that breaks.
          setFailure(undefined)
          session.passes.saveValidPart().then(saveFile, (e: unknown) => {
            setFailure(`Nothing was saved: ${e instanceof Error ? e.message : String(e)}`)
          })
        }}
      >
        Save the valid part
      </button>
      <span className="salvage-what" data-testid="salvage-what">
        {salvagedName(state.fileName)}: the header with num_chunks set to {fmtCount(offer.keptChunks)}, then the{' '}
        {fmtCount(offer.keptChunks)} intact chunks ({fmtCount(offer.keptRecords)} records, {fmtBytes(offer.bytes)})
        {dropped.length > 0 &&
          `; leaves out damaged chunk${dropped.length === 1 ? '' : 's'} ${dropped
            .slice(0, 20)
            .map(fmtCount)
            .join(', ')}${dropped.length > 20 ? ` and ${fmtCount(dropped.length - 20)} more` : ''}`}
        . Made on this computer; nothing is uploaded.
      </span>
      {failure && (
        <p className="salvage-note" role="alert" data-testid="salvage-failed">
          {failure}
        </p>
      )}
    </div>
  )
}

interface Props {
  state: SessionState
  session: RadSession
  onChunk: (chunk: number) => void
}

/**
 * The integrity report (docs/integrity.md): a verdict, then every problem in plain
 * words with its chunk and absolute byte offset. A problem tied to a chunk
 * links to it in the record table; a damaged file offers its valid part as
 * a download.
 */
export const IntegrityPanel = memo(function IntegrityPanel({ state, session, onChunk }: Props) {
  const status = panelStatus(state)
  // Issues found in the old bytes are withdrawn with the verdict.
  const issues = status === 'changed' ? [] : (state.summary?.issues ?? [])
  const unwrapped = state.opened?.container === 'snappy-framed'
  const diagnosedAbove = status === 'unreadable' && state.error !== undefined
  return (
    <section
      className={`integrity integrity-${status}`}
      data-testid="integrity-panel"
      data-status={status}
      aria-label="Integrity"
    >
      <div className="integrity-head">
        <h2>Integrity</h2>
        <span className="integrity-badge" data-testid="integrity-status">
          {STATUS_LABELS[status]}
        </span>
        <span className="integrity-summary">{summaryText(state, status)}</span>
      </div>
      {issues.length > 0 && (
        // A file that is not RAD: the error banner above says it; the list stays for tools, not twice on screen.
        <ol
          className={diagnosedAbove ? 'issues visually-hidden' : 'issues'}
          aria-hidden={diagnosedAbove || undefined}
          data-testid="integrity-issues"
        >
          {issues.map((issue, i) => (
            <IssueItem key={i} issue={issue} chunks={state.chunks} unwrapped={unwrapped} onChunk={onChunk} />
          ))}
        </ol>
      )}
      {status === 'damaged' && <Salvage state={state} session={session} />}
      {status === 'unchecked' && <CheckOffer state={state} session={session} />}
      {status === 'changed' && state.summary?.salvage && (
        <p className="salvage-note" data-testid="salvage-unavailable">
          The valid part cannot be saved: the file it would be cut from changed on disk.
        </p>
      )}
    </section>
  )
})
