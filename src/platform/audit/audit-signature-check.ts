import type { SignatureEntity } from '../signatures/entities/signature.entity';
import type { SignaturesRepository } from '../signatures/signatures.repository';
import type { BreakList } from './audit-breaks';
import type { AuditRepository } from './audit.repository';

const BATCH = 500;

/**
 * What a signature's `signature.create` audit row records (the manifestation: printed name, meaning, date,
 * and what was signed): the keyed chain covers it there, so the signatures table must still say the same.
 */
const RECORDED: [column: keyof SignatureEntity, field: string][] = [
  ['printedName', 'printed_name'],
  ['meaning', 'meaning'],
  ['signedAt', 'signed_at'],
  ['userid', 'userid'],
  ['note', 'note'],
  ['subjectType', 'subject_type'],
  ['subjectId', 'subject_id'],
  ['recordHash', 'record_hash'],
  ['authMethod', 'auth_method'],
];

/**
 * Compares every signature with its audit row; `created` (signatureid → auditid of the `signature.create`
 * rows the chain scan saw) names the rows whose signature is gone. Answers how many signatures it read.
 */
export async function checkSignatures(
  audit: AuditRepository,
  signatures: SignaturesRepository,
  created: Map<string, number>,
  breaks: BreakList,
): Promise<number> {
  const unmatched = new Map(created);
  let count = 0;
  for (let afterId = 0; ;) {
    const batch = await signatures.batch(afterId, BATCH);
    if (!batch.length) break;
    const records = await audit.signatureCreations(batch.map((s) => String(s.signatureid)));
    for (const signature of batch) {
      count += 1;
      const id = String(signature.signatureid);
      unmatched.delete(id);
      const record = records.get(id);
      const at = { entityType: 'signature', entityId: id, auditid: record?.auditid ?? null };
      if (!record) {
        breaks.add('signature_unaudited', at, 'no signature.create audit row records this signature');
        continue;
      }
      const after = (record.after ?? {}) as Record<string, unknown>;
      const differing = RECORDED.filter(([column, field]) => after[field] !== signature[column]).map(([, f]) => f);
      if (differing.length)
        breaks.add('signature_changed', at, `${differing.join(', ')} differ from its signature.create audit row`);
    }
    afterId = batch[batch.length - 1].signatureid;
  }
  for (const [id, auditid] of unmatched)
    breaks.add(
      'signature_missing',
      { entityType: 'signature', entityId: id, auditid },
      'its signature.create audit row names a signature that is gone',
    );
  return count;
}
