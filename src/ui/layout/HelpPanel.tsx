import { useEffect, useRef } from 'react'
import {
  ALIGNMENT_FIELDS,
  CHUNK_COLUMNS,
  EXPORT,
  FILTERS,
  KEYS,
  ORIENTATION,
  RECORD_COLUMNS,
  SCHEMA_COLUMNS,
  STATISTICS,
} from '../glossary'

interface Props {
  onClose: () => void
}

function Terms({ terms, mono }: { terms: Record<string, string>; mono?: boolean }) {
  return (
    <dl className="help-terms">
      {Object.entries(terms).map(([term, text]) => (
        <div key={term}>
          <dt className={mono ? 'mono' : undefined}>{term}</dt>
          <dd>{text.replace(new RegExp(`^${term.replace(/[?]/g, '\\?')}: `), '')}</dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * "What am I looking at?": RAD in a few lines, every column and badge explained, the keys, the
 * filters, the statistics and the export (from glossary.ts). Opened, it takes the focus, so the
 * keyboard and a screen reader are where it is; Escape or `?` closes it (useHelpKeys.ts).
 */
export function HelpPanel({ onClose }: Props) {
  const panel = useRef<HTMLElement>(null)
  useEffect(() => {
    panel.current?.focus({ preventScroll: true })
    panel.current?.scrollIntoView({ block: 'nearest' })
  }, [])
  return (
    <section className="help" id="help-panel" data-testid="help" aria-labelledby="help-title" ref={panel} tabIndex={-1}>
      <div className="help-head">
        <h2 id="help-title">What am I looking at?</h2>
        <button
          type="button"
          className="btn btn-small"
          data-testid="help-close"
          aria-keyshortcuts="Escape"
          title="Close (Esc)"
          onClick={onClose}
        >
          Close
        </button>
      </div>
      <p>
        A <strong>RAD file</strong> (Reduced Alignment Data) is what salmon and piscem write when they map sequencing
        reads, and what alevin-fry reads to count cells and genes. It holds a <strong>header</strong> (the reference
        names, such as transcripts), a <strong>tag schema</strong> (which values each read and each alignment carries),
        then the reads themselves in <strong>chunks</strong> of records.
      </p>
      <p>
        Each <strong>record</strong> is one read (or read pair): its cell barcode and UMI, shown as nucleotides, and its{' '}
        <strong>alignments</strong>, the places in the references where it maps. Click a record to list its alignments
        (and its read tags, when the table has no column for some). Byte offsets and record, chunk and reference numbers
        count from 0; positions are 0-based, as the mappers write them. A <span className="placeholder">—</span> marks a
        value the mapper wrote as &quot;not available&quot; (hover it for the reason).
      </p>
      <h3>Keys</h3>
      <Terms terms={KEYS} mono />
      <h3>Orientation badges</h3>
      <Terms terms={ORIENTATION} mono />
      <h3>Record columns</h3>
      <Terms terms={RECORD_COLUMNS} />
      <h3>Alignment fields</h3>
      <Terms terms={ALIGNMENT_FIELDS} mono />
      <h3>Chunk columns</h3>
      <Terms terms={CHUNK_COLUMNS} mono />
      <h3>Tag schema</h3>
      <Terms terms={SCHEMA_COLUMNS} />
      <h3>Filters</h3>
      <Terms terms={FILTERS} />
      <h3>Statistics</h3>
      <Terms terms={STATISTICS} />
      <h3>Export</h3>
      <Terms terms={EXPORT} />
      <p className="hint">Hover a column header, a badge or a value for the same explanations.</p>
    </section>
  )
}
