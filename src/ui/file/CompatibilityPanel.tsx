import { memo } from 'react'
import type { CompatibilityReport, ConsumerVerdict, Verdict } from '../../rad/prelude/compatibility'
import { CONSUMER_SOURCES } from '../../rad/consumers'
import type { Certainty } from '../../rad/prelude/producer'

interface Props {
  report: CompatibilityReport
}

const VERDICT_LABELS: Record<Verdict, string> = {
  reads: 'reads it',
  fails: 'stops',
  unknown: 'unknown',
  'not-applicable': 'not its input',
}

const CERTAINTY_LABELS: Record<Certainty, string> = {
  strong: 'likely',
  weak: 'possible',
  none: 'no match',
}

/** "salmon (possible)", as the file panel and this panel show the guess. */
export function producerText(name: string, certainty: Certainty): string {
  return name === 'unknown' ? 'unknown' : `${name} (${CERTAINTY_LABELS[certainty]})`
}

function ConsumerRow({ c }: { c: ConsumerVerdict }) {
  const notes = [...c.reasons, ...c.unknowns]
  const sources = c.sources.map((key) => CONSUMER_SOURCES[key] ?? key).join('; ')
  return (
    <li
      className={`compat-row ${c.verdict}`}
      data-testid="compat-row"
      data-tool={c.tool}
      data-versions={c.versions}
      data-verdict={c.verdict}
    >
      <div className="compat-head">
        <span className="compat-tool">
          {c.tool} <span className="mono">{c.versions}</span>
        </span>
        <span className="compat-verdict">{VERDICT_LABELS[c.verdict]}</span>
      </div>
      {notes.length > 0 && (
        <ul className="compat-notes">
          {notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
      <p className="compat-sources" title={`libradicl: ${c.libradicl}`}>
        Sources: {sources}
      </p>
    </li>
  )
}

/** Who probably wrote the file, and which consumer versions read it (data from src/rad/compatibility). */
export const CompatibilityPanel = memo(function CompatibilityPanel({ report }: Props) {
  const { producer } = report
  return (
    <section className="panel-section compat" data-testid="compat-panel">
      <h3>Will the next tool read it?</h3>
      <p className="compat-producer" data-testid="compat-producer" data-producer={producer.name}>
        Written by <strong>{producerText(producer.name, producer.certainty)}</strong>
      </p>
      <ul className="compat-evidence">
        {producer.evidence.map((e, i) => (
          <li key={i}>{e}</li>
        ))}
        {producer.alsoPossible.length > 0 && <li>Also possible: {producer.alsoPossible.join('; ')}</li>}
      </ul>
      <ul className="compat-list">
        {report.consumers.map((c) => (
          <ConsumerRow key={`${c.tool} ${c.versions}`} c={c} />
        ))}
      </ul>
    </section>
  )
})
