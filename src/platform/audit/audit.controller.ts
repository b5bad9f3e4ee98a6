import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/auth-rule.decorators';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { AuditQueryDto } from './dto/audit-query.dto';
import { AuditCheckpointDto, AuditCheckpointQueryDto } from './dto/audit-checkpoint.dto';
import { AuditEventDto } from './dto/audit-event.dto';
import { AuditReader } from './audit-reader.service';

@ApiTags('Audit')
@Controller('audit')
export class AuditController {
  constructor(private readonly reader: AuditReader) {}

  @Get()
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'The audit log (Admin)',
    description:
      'Append-only record of security-relevant changes: privilege changes, bans, token revocations, guide delete and ' +
      'restore, wiki delete, access grants, category moves, author changes, and every change of the enterprise ' +
      'modules (releases, approvals, signatures …). Rows of one entity form a hash chain (`prev_hash` → `hash`, ' +
      'keyed with a secret of the service); `npm run audit:verify` recomputes every chain and checks them against ' +
      'the checkpoints. Filters combine with AND.',
  })
  @ApiOkResponse({ type: [AuditEventDto] })
  @ApiErrors(401, 403, 422)
  list(@Query() query: AuditQueryDto): Promise<AuditEventDto[]> {
    return this.reader.list(query);
  }

  @Get('checkpoints')
  @Authenticated('Admin')
  @ApiOperation({
    summary: 'Signed checkpoints of the audit chains (Admin)',
    description:
      'Newest first. Every few minutes (AUDIT_CHECKPOINT_SECONDS) the service writes a checkpoint of the chains ' +
      'that gained rows since the previous one: each chain at its newest row and that row’s hash, signed with the ' +
      'audit key and chained to the previous checkpoint by its signature. Each checkpoint is also written to the ' +
      'application log. `npm run audit:verify` reports a chain that is shorter than checkpointed, differs at the ' +
      'checkpointed row, or is gone, and a checkpoint that was changed or removed.',
  })
  @ApiOkResponse({ type: [AuditCheckpointDto] })
  @ApiErrors(401, 403, 422)
  checkpoints(@Query() query: AuditCheckpointQueryDto): Promise<AuditCheckpointDto[]> {
    return this.reader.checkpointPage(query);
  }
}
