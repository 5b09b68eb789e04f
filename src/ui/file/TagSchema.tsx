import { memo } from 'react'
import { roleName } from '../../rad/text/display'
import type { Semantics } from '../../rad/prelude/semantics'
import { describeType } from '../../rad/prelude/tags'
import type { Prelude, TagDesc, TagRole } from '../../rad/types'
import { SCHEMA_COLUMNS } from '../glossary'

interface Props {
  prelude: Prelude
  semantics: Semantics
}

function roleText(role: TagRole): string {
  if (role.kind === 'none') return role.code === 0 ? '—' : `unknown (${String(role.code)})`
  const parts: string[] = []
  if (role.level !== undefined) parts.push(`level ${String(role.level)}`)
  if (role.len !== undefined && role.len > 0) parts.push(`${String(role.len)} nt`)
  return parts.length > 0 ? `${roleName(role.kind)} (${parts.join(', ')})` : roleName(role.kind)
}

/** What the viewer takes each tag to mean (v2 role, or the well-known name of a legacy tag). */
function meanings(sem: Semantics): { read: Map<number, string>; aln: Map<number, string> } {
  const read = new Map<number, string>()
  const aln = new Map<number, string>()
  sem.barcodes.forEach((b) => read.set(b.tag, sem.barcodes.length > 1 ? `barcode ${String(b.level)}` : 'barcode'))
  if (sem.umi) read.set(sem.umi.tag, 'UMI')
  if (sem.mappingType) (sem.mappingType.level === 'read' ? read : aln).set(sem.mappingType.tag, 'mapping type')
  if (sem.orientation) aln.set(sem.orientation.tag, 'orientation')
  if (sem.reference) {
    const t = sem.reference.tag
    aln.set(t, aln.has(t) ? 'orientation + reference id' : 'reference id')
  }
  if (sem.position !== undefined) aln.set(sem.position, 'position')
  if (sem.fragmentLength !== undefined) aln.set(sem.fragmentLength, 'fragment length')
  return { read, aln }
}

function Section({ title, tags, meaning }: { title: string; tags: readonly TagDesc[]; meaning: Map<number, string> }) {
  return (
    <>
      <h4>
        {title} <span className="count">{tags.length}</span>
      </h4>
      {tags.length === 0 ? (
        <p className="hint">none</p>
      ) : (
        <table className="schema">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th title={SCHEMA_COLUMNS.Role}>Role</th>
              <th title={SCHEMA_COLUMNS['Read as']}>Read as</th>
            </tr>
          </thead>
          <tbody>
            {tags.map((tag, i) => (
              <tr key={i}>
                <td className="mono">{tag.name}</td>
                <td className="mono">{describeType(tag.type)}</td>
                <td>{roleText(tag.role)}</td>
                <td>{meaning.get(i) ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}

/** The three tag schemas: name, type, declared role, and how the viewer reads each tag. */
export const TagSchema = memo(function TagSchema({ prelude, semantics }: Props) {
  const m = meanings(semantics)
  return (
    <details className="panel-section" open data-testid="tag-schemas">
      <summary>
        <h3>Tags</h3>
      </summary>
      <Section title="File tags" tags={prelude.fileTags} meaning={new Map()} />
      <Section title="Read tags" tags={prelude.readTags} meaning={m.read} />
      <Section title="Alignment tags" tags={prelude.alnTags} meaning={m.aln} />
    </details>
  )
})
