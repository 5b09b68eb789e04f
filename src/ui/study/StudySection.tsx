import { sampleNames } from '../../rad/report/sampleNames'
import { sidecarIndexFor } from '../open/dropPlan'
import type { DropPlan } from '../open/dropPlan'
import { urlSpec } from '../../session'
import { StudyView } from './StudyView'
import { useStudy } from './useStudy'
import type { StudySample } from './useStudy'

interface Props {
  samples: readonly StudySample[]
  /** The sample open in the viewer (its path), if any: the study then shows its Back button only. */
  opened: string | undefined
  onOpen: (sample: StudySample) => void
  onBack: () => void
}

/** A drop's study: its RAD files, named by the study rule, each with the `.rdx` dropped beside it. */
export function samplesOfDrop(plan: DropPlan): StudySample[] {
  const names = sampleNames(plan.study.map((f) => f.path))
  return plan.study.map((f, i) => ({
    sample: names[i]!,
    path: f.path,
    source: { kind: 'file', file: f.file },
    sidecar: sidecarIndexFor(plan, f.path)?.file,
  }))
}

/** A study of URLs (`?study=…&study=…`): named by the study rule on their paths; a sidecar beside each is fetched. */
export function samplesOfUrls(urls: readonly string[]): StudySample[] {
  const names = sampleNames(urls.map((u) => new URL(u, location.href).pathname))
  return urls.map((url, i) => ({
    sample: names[i]!,
    path: url,
    source: urlSpec(url, location.href),
    sidecar: undefined,
  }))
}

/**
 * A drop of several RAD files (docs/study.md): the study view, or, while one sample is open in the
 * viewer, the way back to it. Mounted for the whole drop, so the counting goes on meanwhile.
 */
export function StudySection({ samples, opened, onOpen, onBack }: Props) {
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
        onOpen(samples[i]!)
      }}
    />
  )
}
