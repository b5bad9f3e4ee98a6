import { Injectable } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import { DemoSeedRegistry } from '../../database/seed/demo-seed.registry';
import { DEMO_SIGNOFF_STEP, type DemoSignoffStep } from '../guides/guides-demo.seed';
import { UsersService } from '../users/users.service';
import { WorkLogSignoffsService } from './work-log-signoffs.service';
import { WorkLogStepDataService } from './work-log-step-data.service';
import { WorkLogService } from './work-log.service';

/**
 * Work orders on a new site, on the demo guide whose step asks for a sign-off: entry 1 by the demo User, its
 * checked step recorded and waiting for a supervisor's sign-off (sign-off 1, which the demo Admin may sign),
 * and entry 2 by the demo Admin, started (the Swagger UI examples record its data and request its sign-off).
 */
@Injectable()
export class WorkLogDemoSeed {
  constructor(
    private readonly seeds: DemoSeedRegistry,
    private readonly users: UsersService,
    private readonly workLog: WorkLogService,
    private readonly stepData: WorkLogStepDataService,
    private readonly signoffs: WorkLogSignoffsService,
  ) {}

  @DemoSeed({ name: 'work log', order: 50 })
  async run(): Promise<void> {
    const [adminid, , , userid] = this.seeds.get<number[]>('demo.userids') ?? [];
    const step = this.seeds.get<DemoSignoffStep>(DEMO_SIGNOFF_STEP);
    if (!adminid || !userid || !step) return;
    const [admin, user] = [await this.users.callerOf(adminid), await this.users.callerOf(userid)];

    const entry = await this.workLog.start({ guideid: step.guideid, workorderid: 'WO-1001' }, user);
    const form = entry.forms?.find((f) => f.stepid === step.stepid);
    const values = ['worn', 150, true];
    const fields = Object.fromEntries(
      (form?.fields ?? []).slice(0, values.length).map((field, i) => [String(field.field_revisionid), values[i]]),
    );
    if (Object.keys(fields).length) await this.stepData.record(entry.entryid, { fields, stepid: step.stepid }, user);
    await this.signoffs.request(entry.entryid, step.stepid, user);

    await this.workLog.start({ guideid: step.guideid, workorderid: 'WO-1002' }, admin);
  }
}
