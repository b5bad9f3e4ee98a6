import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/http/api-errors';
import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import { JobRunner, type JobContext } from '../../platform/jobs/job-runner';
import type { TrainingImportDto } from './dto/training-response.dto';
import type { ImportStatus, TrainingImportEntity } from './entities/training-import.entity';
import { importTransition, type ImportAction } from './import.state-machine';
import { TrainingImportFailed } from './training-module.events';
import { toImportDto } from './training-module.mapper';
import { TrainingModulesRepository } from './training-modules.repository';
import { TrainingStorage } from './training-storage';
import type { AppConfig } from '../../config/app-config';
import { Inject } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';

/** Thrown into a running import's streams when it is cancelled (or has moved on) meanwhile. */
export class ImportStopped extends Error {
  constructor() {
    super('The import was cancelled');
    this.name = 'ImportStopped';
  }
}

export type ProgressValues = { percent: number; bytesDone: number; bytesTotal?: number | null };

/**
 * An import's state as this instance changes it: every move is a conditional update with its audit row and
 * marks the import alive for this instance; failing deletes the partial files. Also what this instance holds:
 * uploads it receives and imports whose job it runs.
 */
@Injectable()
export class TrainingImportMoves {
  readonly storage: TrainingStorage;
  /** This instance, as imports record who works on them. */
  readonly instance: string;
  /** Uploads being received by this instance, so that a cancel stops them at once. */
  readonly receiving = new Map<number, AbortController>();
  /** Imports whose job runs in this instance. */
  readonly working = new Set<number>();

  constructor(
    private readonly repository: TrainingModulesRepository,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    jobs: JobRunner,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.storage = new TrainingStorage(config.training.dir);
    this.instance = jobs.instanceId;
  }

  async require(importid: number): Promise<TrainingImportEntity> {
    const row = await this.repository.findImport(importid);
    if (!row) throw notFound('Import');
    return row;
  }

  async one(importid: number): Promise<TrainingImportDto> {
    return toImportDto(await this.require(importid));
  }

  /** A move of the state machine with its audit row; false when the import was not in `row.status` any more. */
  async move(
    row: TrainingImportEntity,
    action: ImportAction,
    values: Partial<TrainingImportEntity>,
    auditAction: string,
  ): Promise<boolean> {
    const next = importTransition(row.status, action);
    if (!next.ok) return false;
    return this.transactions.run(async () => {
      const moved = await this.repository.moveImport(row.importid, row.status, {
        ...values,
        status: next.to,
        heartbeatDate: this.clock.nowSeconds(),
        ownerInstance: this.instance,
      });
      if (!moved) return false;
      const after = await this.require(row.importid);
      await this.audit.record({
        action: auditAction,
        entity: ['training_import', row.importid],
        before: { status: row.status },
        after: toImportDto(after),
      });
      return true;
    });
  }

  /** Fails an import (audit row, `import_failed` event) and deletes its partial files. */
  async fail(row: TrainingImportEntity, code: string, message: string): Promise<boolean> {
    const moved = await this.transactions.run(async (tx) => {
      const ok = await this.move(
        row,
        'fail',
        {
          errorCode: code,
          errorMessage: message.slice(0, 1000),
          finishedDate: this.clock.nowSeconds(),
          runningSlot: null,
        },
        'training_import.fail',
      );
      if (ok) tx.publish(TrainingImportFailed(await this.one(row.importid)));
      return ok;
    });
    await this.storage.removePartial(row.moduleid, row.importid);
    return moved;
  }

  /** Writes progress while the import is still in `status`; otherwise stops the work (cancelled meanwhile). */
  async progressOrStop(
    importid: number,
    status: ImportStatus,
    values: ProgressValues,
    controller: AbortController,
    job?: JobContext,
  ): Promise<void> {
    if (controller.signal.aborted) return;
    const ok = await this.repository.progress(importid, status, {
      ...values,
      heartbeatDate: this.clock.nowSeconds(),
      ownerInstance: this.instance,
    });
    if (!ok) controller.abort(new ImportStopped());
    else await job?.heartbeat();
  }
}
