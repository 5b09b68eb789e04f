/**
 * `rad stats A.rad B.rad … [--json | --tsv] [--multiqc DIR]` (docs/stats.md, "Several files"):
 * each file counted in turn (one pass at a time, so the memory is one file's), named by the study
 * rule (rad/report/sampleNames.ts). A file that fails is named with why, and the others go on.
 */
import { sampleNames } from '../rad/report/sampleNames'
import { rankCurveOf } from '../rad/stats/section'
import { barcodeRuns } from '../rad/stats'
import { plural } from '../rad/errors'
import { NodeFileSource } from './nodeFileSource'
import { mapInfoPath, readMapInfo } from './mapInfoFile'
import { writeMultiqc } from './multiqcFiles'
import type { MultiqcSample } from '../rad/report/multiqc'
import type { Output } from './output'
import { countSample } from './stats'
import type { PassOptions, StatsFormat } from './stats'
import { headline } from './statsText'
import { studyTsv } from '../rad/report/studyTable'
import type { CellArgs } from './cellStats'

export interface StudyOptions {
  format: StatsFormat
  cells: CellArgs | undefined
  pass: PassOptions
  /** `--multiqc DIR`: MultiQC's custom-content files (multiqcFiles.ts). */
  multiqc: string | undefined
}

interface Counted extends MultiqcSample {
  file: string
  exit: number
}

interface Failed {
  sample: string
  file: string
  error: string
}

async function countOne(file: string, sample: string, o: StudyOptions): Promise<Counted> {
  const prefix = `${sample}: `
  const mapInfo = await readMapInfo(mapInfoPath(undefined, file), false)
  const source = await NodeFileSource.open(file)
  try {
    const pass = { ...o.pass, perBarcode: o.cells !== undefined }
    const s = await countSample(source, { cells: o.cells, pass, mapInfo, keepPairs: false, prefix })
    return { sample, file, json: s.json, curve: rankCurveOf(barcodeRuns(s.state), s.json), exit: s.exit }
  } finally {
    await source.close()
  }
}

/** Counts every file; the exit status is the worst file's, 1 when one could not be counted. */
export async function runStudyStats(files: readonly string[], out: Output, o: StudyOptions): Promise<number> {
  const names = sampleNames(files)
  const done: (Counted | Failed)[] = []
  for (const [i, file] of files.entries()) {
    const sample = names[i]!
    try {
      done.push(await countOne(file, sample, o))
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e)
      process.stderr.write(`${sample}: ${file}: ${error}\n`)
      done.push({ sample, file, error })
    }
  }
  const counted = done.filter((c): c is Counted => 'json' in c)
  if (o.format === 'json') {
    const samples = done.map((c) => ('json' in c ? { sample: c.sample, file: c.file, ...c.json } : c))
    out.write(`${JSON.stringify({ samples }, null, 2)}\n`)
  } else if (o.format === 'tsv') out.write(studyTsv(done))
  else {
    for (const c of done) {
      const lines = 'json' in c ? headline(c.json.summary) : [`not counted: ${c.error}`]
      out.write(`${c.sample} (${c.file}): ${lines.join('; ')}\n`)
    }
  }
  if (o.multiqc !== undefined) {
    const written = await writeMultiqc(o.multiqc, counted, files)
    process.stderr.write(`MultiQC: ${written.join(', ')} (run multiqc ${o.multiqc})\n`)
  }
  const failed = done.length - counted.length
  if (failed > 0) process.stderr.write(`${plural(failed, 'file')} of ${String(done.length)} not counted\n`)
  return Math.max(failed > 0 ? 1 : 0, ...counted.map((c) => c.exit))
}
