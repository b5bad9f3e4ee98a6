import { Injectable } from '@nestjs/common';
import type { AuditCheckpointDto, AuditCheckpointQueryDto } from './dto/audit-checkpoint.dto';
import type { AuditEventDto } from './dto/audit-event.dto';
import type { AuditQueryDto } from './dto/audit-query.dto';
import { toAuditCheckpointDto, toAuditEventDto } from './audit.mapper';
import { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import { AuditRepository } from './audit.repository';

/** Reads of the audit log (the controller's use cases). */
@Injectable()
export class AuditReader {
  constructor(
    private readonly audit: AuditRepository,
    private readonly checkpoints: AuditCheckpointsRepository,
  ) {}

  async list(query: AuditQueryDto): Promise<AuditEventDto[]> {
    const rows = await this.audit.list({
      entityType: query.entity_type,
      entityId: query.entity_id,
      actorUserid: query.actor,
      action: query.action,
      fromMs: query.from === undefined ? undefined : query.from * 1000,
      toMs: query.to === undefined ? undefined : query.to * 1000 + 999,
      order: query.order,
      offset: query.offset,
      limit: query.limit,
    });
    return rows.map(toAuditEventDto);
  }

  async checkpointPage(query: AuditCheckpointQueryDto): Promise<AuditCheckpointDto[]> {
    return (await this.checkpoints.page(query.offset, query.limit)).map(toAuditCheckpointDto);
  }
}
