import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SignaturesRepository } from '../signatures/signatures.repository';
import { BreakList, type AuditBreak } from './audit-breaks';
import { ChainScanner } from './audit-chain-check';
import { readCheckpoints } from './audit-checkpoint-check';
import { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import { checkSignatures } from './audit-signature-check';
import { AuditRepository } from './audit.repository';

export interface AuditVerification {
  ok: boolean;
  rows: number;
  /** Rows written before the log was keyed (plain SHA-256), checked as such. */
  legacyRows: number;
  chains: number;
  signatures: number;
  checkpoints: number;
  /** Compare with the application log: a removed newest checkpoint shows only there. */
  lastCheckpoint: { seq: number; createdAt: number; signature: string } | null;
  /** Every break found (breaks past MAX_REPORTED_BREAKS are counted only). */
  breakCount: number;
  breaks: AuditBreak[];
}

/**
 * Checks the whole audit log: the checkpoints (signed, in sequence), every chain row by row under the
 * audit key, the chains against their head records and the checkpoints, and every signature against
 * its audit row. Reads a batch at a time; names every break it finds.
 */
@Injectable()
export class AuditVerifier {
  constructor(
    private readonly audit: AuditRepository,
    private readonly checkpoints: AuditCheckpointsRepository,
    private readonly signatures: SignaturesRepository,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'audit'>,
  ) {}

  async verify(): Promise<AuditVerification> {
    const breaks = new BreakList();
    const key = this.config.audit.key;
    const checkpoints = await readCheckpoints(this.checkpoints, key, breaks);
    const scanner = new ChainScanner(this.audit, key, checkpoints, breaks);
    await scanner.scan();
    const signatures = await checkSignatures(this.audit, this.signatures, scanner.signatureRows, breaks);
    return {
      ok: breaks.count === 0,
      rows: scanner.rows,
      legacyRows: scanner.legacyRows,
      chains: scanner.tails.size,
      signatures,
      checkpoints: checkpoints.count,
      lastCheckpoint: checkpoints.last,
      breakCount: breaks.count,
      breaks: breaks.kept,
    };
  }
}
