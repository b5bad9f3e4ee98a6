import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService } from '../../database/transaction.service';
import { Clock } from '../clock/clock';
import { checkpointSignature } from './audit-hash';
import { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import type { AuditCheckpointEntity, CheckpointHead } from './entities/audit-checkpoint.entity';

/** Heads per checkpoint row: keeps a row, its signing and its page in the Admin's read small. */
export const HEADS_PER_CHECKPOINT = 1000;
/** Checkpoints per run: a backlog (the first run after the upgrade lists every chain) spreads over runs. */
const CHECKPOINTS_PER_RUN = 100;

const byKey = (a: CheckpointHead, b: CheckpointHead): number =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/**
 * Writes the signed checkpoints of the audit chain heads (a scheduled task), each also to the application
 * log, where a database writer cannot take it back.
 */
@Injectable()
export class AuditCheckpoints {
  private readonly logger = new Logger('AuditCheckpoint');

  constructor(
    private readonly checkpoints: AuditCheckpointsRepository,
    private readonly transactions: TransactionService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Checkpoints every head that moved since the last checkpoint; answers how many checkpoints it wrote. */
  async run(): Promise<number> {
    let written = 0;
    while (written < CHECKPOINTS_PER_RUN) {
      const checkpoint = await this.writeOne();
      if (!checkpoint) break;
      written += 1;
      this.logger.log(
        {
          audit_checkpoint: {
            seq: checkpoint.seq,
            created_at: checkpoint.createdAt,
            chains: checkpoint.heads.length,
            legacy_through: checkpoint.legacyThrough,
            prev_signature: checkpoint.prevSignature,
            signature: checkpoint.signature,
          },
        },
        `audit checkpoint ${checkpoint.seq}: ${checkpoint.heads.length} chains, signature ${checkpoint.signature}`,
      );
      if (checkpoint.heads.length < HEADS_PER_CHECKPOINT) break;
    }
    return written;
  }

  /** One checkpoint of up to HEADS_PER_CHECKPOINT due heads; null when none is due or another instance wrote it. */
  private async writeOne(): Promise<AuditCheckpointEntity | null> {
    try {
      return await this.transactions.run(async () => {
        const heads = (await this.checkpoints.dueHeads(HEADS_PER_CHECKPOINT)).sort(byKey);
        if (!heads.length) return null;
        const last = await this.checkpoints.last();
        const content = {
          seq: (last?.seq ?? 0) + 1,
          createdAt: this.clock.now(),
          legacyThrough: last ? last.legacyThrough : await this.checkpoints.lastLegacyAuditid(),
          heads,
          prevSignature: last?.signature ?? null,
        };
        const checkpoint = { ...content, signature: checkpointSignature(this.config.audit.key, content) };
        await this.checkpoints.insert(checkpoint);
        await this.checkpoints.clearDue(heads);
        return checkpoint;
      });
    } catch (error) {
      // Another instance wrote this seq first (the scheduler's lock had expired): its checkpoint stands.
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }
}
