import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/auth-rule.decorators';
import { ApiErrors } from '../../common/openapi/api-error-responses';
import { AuditQueryDto } from './dto/audit-query.dto';
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
      'modules (releases, approvals, signatures …). Rows of one entity form a hash chain (`prev_hash` → `hash`); ' +
      '`npm run audit:verify` recomputes every chain. Filters combine with AND.',
  })
  @ApiOkResponse({ type: [AuditEventDto] })
  @ApiErrors(401, 403, 422)
  list(@Query() query: AuditQueryDto): Promise<AuditEventDto[]> {
    return this.reader.list(query);
  }
}
