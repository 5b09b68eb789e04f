/**
 * `rad stats A.rad B.rad … --multiqc DIR` (docs/stats.md, "MultiQC"): MultiQC custom-content
 * files (rad/report/multiqc.ts), found by `multiqc DIR` (any `*_mqc.*` file).
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { encodeUtf8 } from '../rad/runtime'
import { barcodeRankJson, generalStatsTsv } from '../rad/report/multiqc'
import type { MultiqcSample } from '../rad/report/multiqc'
import { refuseOutputOverInput, writeOutput } from './safeOutput'

/** Writes the two files into DIR (made when missing), each whole or not at all; never over an input. */
export async function writeMultiqc(
  dir: string,
  samples: readonly MultiqcSample[],
  inputs: readonly string[],
): Promise<string[]> {
  mkdirSync(dir, { recursive: true })
  const files: [string, string][] = [
    [join(dir, 'rad_stats_mqc.tsv'), generalStatsTsv(samples)],
    [join(dir, 'rad_barcode_rank_mqc.json'), barcodeRankJson(samples)],
  ]
  for (const [path] of files) refuseOutputOverInput(path, inputs)
  for (const [path, text] of files) {
    await writeOutput(path, async (sink) => {
      await sink.write(encodeUtf8(text))
    })
  }
  return files.map(([path]) => path)
}
