import type { CompatibilityReport } from '../rad/prelude/compatibility'
import { CONSUMER_SOURCES } from '../rad/consumers'

/** The `producer` and `compatibility` keys of `info` (docs/integrity.md), snake_case like the rest. */
export function compatibilityJson(report: CompatibilityReport): Record<string, unknown> {
  const { producer } = report
  return {
    producer: {
      name: producer.name,
      certainty: producer.certainty,
      evidence: producer.evidence,
      also_possible: producer.alsoPossible,
    },
    compatibility: report.consumers.map((c) => ({
      tool: c.tool,
      versions: c.versions,
      libradicl: c.libradicl,
      verdict: c.verdict,
      reasons: c.reasons,
      unknowns: c.unknowns,
      sources: c.sources.map((key) => CONSUMER_SOURCES[key] ?? key),
    })),
  }
}
