import { Controller, Module, Post } from '@nestjs/common';
import { Authenticated } from '../../src/common/auth/auth-rule.decorators';
import { AuditService } from '../../src/platform/audit/audit.service';

/** A test-only route whose change is audited: shows what the request context gives an audit row. */
@Controller('test/audit-probe')
class AuditProbeController {
  constructor(private readonly audit: AuditService) {}

  @Post()
  @Authenticated()
  async probe(): Promise<{ ok: true }> {
    await this.audit.record({ action: 'probe.touch', entity: ['probe', 1], after: { touched: true } });
    return { ok: true };
  }
}

@Module({ controllers: [AuditProbeController] })
export class AuditProbeModule {}
