import { mappingTypeName } from '../../rad/text/display'
import type { RecordView } from '../../rad/text/display'
import type { Semantics } from '../../rad/prelude/semantics'
import type { Prelude } from '../../rad/types'

/**
 * Every read-level tag of a record as [name, text], in the file's schema order: barcodes and UMI
 * as nucleotides, the mapping type by name, the rest as recordView prints them. An expanded
 * record's tag row (ReadTagsRow.tsx) shows them, whatever columns the table's width leaves.
 */
export function readTagFields(view: RecordView, prelude: Prelude, sem: Semantics): [string, string][] {
  const other = new Map(view.other)
  return prelude.readTags.map((tag, t): [string, string] => {
    const b = sem.barcodes.findIndex((f) => f.tag === t)
    if (b >= 0) return [tag.name, view.barcodes[b] ?? '']
    if (sem.umi?.tag === t) return [tag.name, view.umi ?? '']
    if (sem.mappingType?.level === 'read' && sem.mappingType.tag === t) {
      const name = mappingTypeName(sem, view.mappingType)
      const raw = String(view.mappingType ?? '')
      return [tag.name, name === raw ? raw : `${name} (${raw})`]
    }
    return [tag.name, other.get(tag.name) ?? '']
  })
}
