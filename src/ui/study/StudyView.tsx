import { useMemo } from 'react'
import { barcodeRankJson, generalStatsTsv } from '../../rad/report/multiqc'
import type { MultiqcSample } from '../../rad/report/multiqc'
import { studyTsv } from '../../rad/report/studyTable'
import type { StudyRow } from '../../rad/report/studyTable'
import { fmtCount } from '../format'
import { saveFile } from '../saveFile'
import { fmtShare } from '../statistics/StatFigure'
import { StudyKneePlot, sampleColour } from './StudyKneePlot'
import type { StudySample, StudySampleState } from './useStudy'
import './study.css'

interface Props {
  samples: readonly StudySample[]
  states: readonly StudySampleState[]
  /** Opens a sample in the viewer (Back returns here). */
  onOpen: (i: number) => void
}

const dash = (v: number | null | undefined, show: (v: number) => string): string =>
  v === null || v === undefined ? '—' : show(v)

/** The study table's rows as `rad stats A B … --tsv` prints them; samples not counted yet are left out. */
function tableRows(samples: readonly StudySample[], states: readonly StudySampleState[]): StudyRow[] {
  return samples.flatMap((s, i): StudyRow[] => {
    const st = states[i]
    if (st?.json) return [{ sample: s.sample, file: s.path, json: st.json }]
    if (st?.error !== undefined) return [{ sample: s.sample, file: s.path, error: st.error }]
    return []
  })
}

/**
 * Several RAD files side by side (docs/study.md): a row per sample with the summary's figures,
 * counted one sample at a time, and their barcode rank curves overlaid.
 */
export function StudyView({ samples, states, onOpen }: Props) {
  const done = states.length === samples.length && states.every((s) => s.phase === 'done' || s.phase === 'error')
  const counted = states.filter((s) => s.phase === 'done').length
  const curves = useMemo(
    () =>
      samples.map((s, i) => ({
        sample: s.sample,
        curve: states[i]?.curve,
        knee: states[i]?.json?.cutoffs?.knee?.cells ?? null,
      })),
    [samples, states],
  )
  const save = (): void => {
    saveFile(new File([studyTsv(tableRows(samples, states))], 'study.tsv', { type: 'text/tab-separated-values' }))
  }
  const saveMultiqc = (): void => {
    const mq: MultiqcSample[] = samples.flatMap((s, i) => {
      const st = states[i]
      return st?.json ? [{ sample: s.sample, json: st.json, curve: st.curve }] : []
    })
    saveFile(new File([generalStatsTsv(mq)], 'rad_stats_mqc.tsv', { type: 'text/tab-separated-values' }))
    saveFile(new File([barcodeRankJson(mq)], 'rad_barcode_rank_mqc.json', { type: 'application/json' }))
  }
  return (
    <section className="study" aria-labelledby="study-title" data-testid="study-view">
      <div className="study-head">
        <h2 id="study-title">Study: {samples.length} samples</h2>
        <span className="muted" role="status">
          {done
            ? `Every sample counted (${String(counted)} of ${String(samples.length)})`
            : `Counting ${String(Math.min(counted + 1, samples.length))} of ${String(samples.length)}…`}
        </span>
        <button type="button" className="btn btn-small" data-testid="study-save-tsv" disabled={!done} onClick={save}>
          Save TSV
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid="study-save-multiqc"
          disabled={!done}
          title="MultiQC custom-content files (rad stats … --multiqc DIR): put them in a folder MultiQC reads"
          onClick={saveMultiqc}
        >
          MultiQC files
        </button>
      </div>
      <div className="study-table-wrap">
        <table className="study-table" data-testid="study-table" data-state={done ? 'done' : 'running'}>
          <thead>
            <tr>
              <th scope="col">Sample</th>
              <th scope="col">Records</th>
              <th scope="col">Barcodes</th>
              <th scope="col">Cells (knee)</th>
              <th scope="col">Mean reads per cell</th>
              <th scope="col">Fraction of reads in cells</th>
              <th scope="col">Saturation</th>
            </tr>
          </thead>
          <tbody>
            {samples.map((s, i) => (
              <SampleRow
                key={s.path}
                sample={s}
                state={states[i]}
                colour={i}
                onOpen={() => {
                  onOpen(i)
                }}
              />
            ))}
          </tbody>
        </table>
      </div>
      <figure className="study-figure">
        <figcaption>Barcode rank curves in the samples’ colours, each knee marked with a ring</figcaption>
        <StudyKneePlot curves={curves} />
      </figure>
    </section>
  )
}

function SampleRow({
  sample,
  state,
  colour,
  onOpen,
}: {
  sample: StudySample
  state: StudySampleState | undefined
  colour: number
  onOpen: () => void
}) {
  const json = state?.json
  const s = json?.summary
  return (
    <tr
      data-testid="study-row"
      data-sample={sample.sample}
      data-state={state?.phase ?? 'waiting'}
      data-records={json ? String(json.records) : ''}
      data-cells={s?.cells === null || s?.cells === undefined ? '' : String(s.cells)}
    >
      <th scope="row">
        <span className="study-swatch" style={{ background: sampleColour(colour) }} aria-hidden="true" />
        <button type="button" className="link-button" onClick={onOpen} title={`Open ${sample.path} in the viewer`}>
          {sample.sample}
        </button>
      </th>
      {state?.phase === 'error' ? (
        <td colSpan={6} className="study-error" role="alert">
          {state.error}
        </td>
      ) : json && s ? (
        <>
          <td>{fmtCount(json.records)}</td>
          <td>{dash(json.barcodes?.distinct, fmtCount)}</td>
          <td>{dash(s.cells, fmtCount)}</td>
          <td>{dash(s.mean_reads_per_cell, (v) => fmtCount(Math.round(v)))}</td>
          <td>{dash(s.fraction_reads_in_cells, fmtShare)}</td>
          <td>{dash(s.sequencing_saturation, fmtShare)}</td>
        </>
      ) : (
        <td colSpan={6} className="muted">
          {state?.phase === 'counting' ? (
            <>
              Counting… <progress max={1} value={state.progress} aria-label={`${sample.sample} counted`} />
            </>
          ) : (
            'Waiting'
          )}
        </td>
      )}
    </tr>
  )
}
