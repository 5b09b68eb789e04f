/**
 * `rad salvage IN OUT` (docs/integrity.md, "Save the valid part"): the
 * prelude and every intact chunk, num_chunks corrected, written through
 * safeOutput.ts and read back before it takes OUT's name: the output
 * validates clean, or the command says why it cannot.
 */
import type { ByteSource } from '../io/byteSource'
import { openRad } from '../io/openRad'
import { planSalvage } from '../io/salvage'
import type { SalvagePlan } from '../io/salvage'
import { RadError, plural } from '../rad/errors'
import type { IntegrityIssue } from '../rad/checks/integrity'
import { checkAll } from './commands'
import { NodeFileSource } from './nodeFileSource'
import { reportLine } from './output'
import type { Output } from './output'
import { writeOutput } from './safeOutput'

const COPY_BLOCK = 16 << 20

/**
 * What `validate` finds in the written file: an error stops the salvage
 * (OUT is left as it was); the warnings, which come from the header salvage
 * copies unchanged, are returned.
 */
async function checkSalvaged(path: string): Promise<IntegrityIssue[]> {
  const file = await NodeFileSource.open(path)
  try {
    const { source, prelude } = await openRad(file)
    const scan = await checkAll(source, prelude)
    const error = scan.issues.find((i) => i.severity === 'error')
    if (error) {
      throw new RadError(
        'BAD_VALUE',
        `salvage cannot make a file that validates (nothing was written): its output would still fail: ${error.message}`,
        error.offset,
        error.chunk,
      )
    }
    return scan.issues.filter((i) => i.severity === 'warning')
  } finally {
    await file.close()
  }
}

async function writePlan(source: ByteSource, plan: SalvagePlan, outPath: string): Promise<IntegrityIssue[]> {
  let warnings: IntegrityIssue[] = []
  await writeOutput(
    outPath,
    async (target) => {
      await target.write(plan.head)
      for (const [start, end] of plan.ranges) {
        for (let at = start; at < end; at += COPY_BLOCK) {
          await target.write(await source.read(at, Math.min(COPY_BLOCK, end - at)))
        }
      }
    },
    {
      verify: async (written) => {
        warnings = await checkSalvaged(written)
      },
    },
  )
  return warnings
}

/** Exit 0 when OUT validates clean; 2 when it keeps warnings of the header (listed, with why). */
export async function runSalvage(file: ByteSource, outPath: string, out: Output): Promise<number> {
  const { source, prelude } = await openRad(file)
  const scan = await checkAll(source, prelude)
  const plan = await planSalvage(source, prelude, scan.index, scan.convention, scan.issues, scan.damagedChunks)
  const warnings = await writePlan(source, plan, outPath)
  const dropped = plan.droppedChunks.length > 0 ? `; dropped damaged chunks ${plan.droppedChunks.join(', ')}` : ''
  const problems = scan.issues.filter((i) => i.severity === 'error').length
  out.write(
    `wrote ${outPath}: ${plural(plan.keptChunks, 'chunk')}, ${plural(plan.keptRecords, 'record')}, ${plural(plan.bytes, 'byte')}` +
      `${dropped} (${plural(problems, 'problem')} in the input)\n`,
  )
  if (warnings.length === 0) return 0
  for (const w of warnings) process.stderr.write(`${reportLine('warning', { ...w, offset: w.offset ?? 0 })}\n`)
  process.stderr.write(
    `note: ${outPath} keeps ${warnings.length === 1 ? 'this warning' : 'these warnings'} of the header, which salvage copies ` +
      `unchanged (it holds the reference names and tag schema): \`rad validate\` exits 2 for it, as for ${file.name}\n`,
  )
  return 2
}
