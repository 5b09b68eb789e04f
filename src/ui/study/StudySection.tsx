import { useMemo } from 'react'
import { sampleNames } from '../../rad/report/sampleNames'
import { sidecarIndexFor } from '../open/dropPlan'
import type { DropPlan, DroppedFile } from '../open/dropPlan'
import { StudyView } from './StudyView'
import { useStudy } from './useStudy'
import type { StudySample } from './useStudy'

interface Props {
  plan: DropPlan
  /** The sample open in the viewer (its path), if any: the study then shows its Back button only. */
  opened: string | undefined
  onOpen: (file: DroppedFile) => void
  onBack: () => void
}

function samplesOf(plan: DropPlan): StudySample[] {
  const names = sampleNames(plan.study.map((f) => f.path))
  return plan.study.map((f, i) => ({
    sample: names[i]!,
    path: f.path,
    file: f.file,
    sidecar: sidecarIndexFor(plan, f.path)?.file,
  }))
}

/**
 * A drop of several RAD files (docs/study.md): the study view, or, while one sample is open in the
 * viewer, the way back to it. Mounted for the whole drop, so the counting goes on meanwhile.
 */
export function StudySection({ plan, opened, onOpen, onBack }: Props) {
  const samples = useMemo(() => samplesOf(plan), [plan])
  const states = useStudy(samples)
  if (opened !== undefined) {
    return (
      <div className="study-back">
        <button type="button" className="btn btn-small" data-testid="study-back" onClick={onBack}>
          ← Back to the study ({samples.length} samples)
        </button>
      </div>
    )
  }
  return (
    <StudyView
      samples={samples}
      states={states}
      onOpen={(i) => {
        onOpen(plan.study[i]!)
      }}
    />
  )
}
