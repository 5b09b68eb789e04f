import { useCallback, useEffect, useMemo, useState } from 'react'
import type { StatsJson } from '../../rad/stats/statsTypes'
import type { StatsCutoffs, StatsView } from '../../session'
import { pointAtRank } from '../../rad/stats/logDownsample'
import type { KneeCut } from '../export/exportChoice'
import { CutoffControls } from './CutoffControls'
import { KneePlot } from './KneePlot'
import type { RankBy } from './KneePlot'
import { RankByToggle } from './RankByToggle'
import { kneeMarks } from './kneeLabels'
import type { AskedCutoffs } from './kneeLabels'

export interface KneeFigureProps {
  curve: NonNullable<StatsView['report']>['curve'] & object
  json: StatsJson
  view: StatsView
  /** Hears the cut-off as it moves (StatsPanelProps.onCutoff). */
  onCutoff?: ((cut: KneeCut) => void) | undefined
  /** alevin-fry's --expect-cells / --force-cells, asked of the finished pass. */
  onAskCutoffs: (expectCells: number | undefined, forceCells: number | undefined) => Promise<StatsCutoffs>
}

/** The barcode rank (knee) plot, by reads or by UMIs, with its cut-off controls. */
export function KneeFigure(props: KneeFigureProps) {
  const { curve, json } = props
  const kneeRank = json.cutoffs?.knee?.cells ?? json.knee ?? undefined
  // The rank the user chose; until then the cut-off follows the knee as the partial reports come in.
  const [chosen, setChosen] = useState<number | undefined>(undefined)
  const cutoff = pointAtRank(curve, chosen ?? kneeRank ?? 1)
  const [asked, setAsked] = useState<AskedCutoffs | undefined>(undefined)
  const choose = useCallback(
    (point: number) => {
      setChosen(curve.rank[point])
    },
    [curve],
  )
  const marks = useMemo(() => kneeMarks(kneeRank, asked), [kneeRank, asked])
  const cells = curve.rank[cutoff] ?? 0
  const reads = curve.cumulative[cutoff] ?? 0
  const minCount = curve.count[cutoff] ?? 0
  const { onCutoff } = props
  const umiCurve = props.view.report?.umiCurve
  const [rankBy, setRankBy] = useState<RankBy>('reads')
  const by: RankBy = umiCurve ? rankBy : 'reads'
  const readsShare = curve.total > 0 ? reads / curve.total : 0
  useEffect(() => {
    onCutoff?.({ cells, minCount, readsShare })
  }, [onCutoff, cells, minCount, readsShare])
  return (
    <figure
      className="stats-figure stats-knee"
      data-testid="knee-figure"
      data-by={by}
      data-top={String(((by === 'umis' && umiCurve) || curve).count[0] ?? 0)}
    >
      <figcaption className="knee-caption">
        <span>Barcode rank (knee) plot: {by === 'umis' ? 'distinct UMIs' : 'reads'} per barcode by rank, log–log</span>
        {umiCurve && <RankByToggle by={by} onBy={setRankBy} />}
      </figcaption>
      <KneePlot
        curve={curve}
        umiCurve={by === 'umis' ? umiCurve : undefined}
        cutoff={cutoff}
        onCutoff={choose}
        marks={marks}
      />
      <CutoffControls
        points={curve.rank.length}
        cutoff={cutoff}
        onCutoff={choose}
        cells={cells}
        readsShare={readsShare}
        done={props.view.phase === 'done'}
        onAsk={(e, f) =>
          props.onAskCutoffs(e, f).then((c) => {
            // Only the cut-offs given are drawn.
            setAsked({ expect: e === undefined ? undefined : c.expect, force: f === undefined ? undefined : c.force })
          })
        }
      />
    </figure>
  )
}
