import type { StatsSummary } from '../../rad/report/summary'
import { fmtCount } from '../format'
import { StatFigure, fmtShare } from './StatFigure'

const share = (x: number | null): string | undefined => (x === null ? undefined : fmtShare(x))
const CUTOFF_NAMES: Record<string, string> = {
  knee: 'knee',
  expect_cells: 'expect cells',
  force_cells: 'force cells',
  chosen: 'cut-off chosen',
}

/**
 * The summary an analyst reads first (docs/stats.md, "The summary"; `summary` in rad stats --json):
 * Cell Ranger's headline figures and the alerts that say what to check. `counting` marks the
 * cell figures while the cells pass runs for the cut-off shown.
 */
export function SummaryPanel({ summary: s, counting }: { summary: StatsSummary; counting: boolean }) {
  const cellNote = counting ? 'counting…' : undefined
  const cutoff = s.cutoff === null ? '' : ` (${CUTOFF_NAMES[s.cutoff] ?? s.cutoff})`
  return (
    <div className="summary-panel" data-testid="summary-panel">
      <dl className="stat-figures summary-figures">
        <StatFigure testId="summary-cells" label={`Cells${cutoff}`} value={s.cells} />
        <StatFigure
          testId="summary-mean-reads-per-cell"
          label="Mean reads per cell"
          value={s.mean_reads_per_cell}
          text={s.mean_reads_per_cell === null ? undefined : fmtCount(Math.round(s.mean_reads_per_cell))}
        />
        <StatFigure
          testId="summary-fraction-reads-in-cells"
          label="Reads in cells"
          value={s.fraction_reads_in_cells}
          text={share(s.fraction_reads_in_cells)}
        />
        <StatFigure
          testId="summary-median-umis-per-cell"
          label="Median UMIs per cell"
          value={s.median_umis_per_cell}
          note={cellNote}
        />
        <StatFigure
          testId="summary-median-genes-per-cell"
          label="Median genes per cell"
          value={s.median_genes_per_cell}
          note={cellNote}
        />
        <StatFigure testId="summary-genes-detected" label="Genes detected" value={s.genes_detected} note={cellNote} />
        <StatFigure
          testId="summary-valid-barcodes"
          label="Valid barcodes"
          value={s.valid_barcodes}
          text={share(s.valid_barcodes)}
        />
        <StatFigure
          testId="summary-sequencing-saturation"
          label="Sequencing saturation"
          value={s.sequencing_saturation}
          text={share(s.sequencing_saturation)}
        />
        <StatFigure
          testId="summary-mapping-rate"
          label="Mapping rate"
          value={s.mapping_rate}
          text={share(s.mapping_rate)}
        />
        {s.expected_ori && (
          <StatFigure
            testId="summary-expected-ori"
            label="Expected orientation (alevin-fry)"
            value={null}
            text={s.expected_ori.suggested}
            note={s.expected_ori.disagreeing > 0 ? `${fmtShare(s.expected_ori.disagreeing)} disagree` : undefined}
            dataValue={s.expected_ori.suggested}
          />
        )}
      </dl>
      {s.alerts.length > 0 && (
        <ul className="summary-alerts" aria-label="Alerts">
          {s.alerts.map((a) => (
            <li key={a.id} className="notice notice-warning" data-testid="summary-alert" data-id={a.id}>
              {a.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
