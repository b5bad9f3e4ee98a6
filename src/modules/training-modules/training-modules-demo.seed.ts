import { Injectable } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { DemoSeedRegistry } from '../../database/seed/demo-seed.registry';
import { demoScormPackage } from './demo-package';
import { TrainingImportsService } from './training-imports.service';
import { TrainingModulesService } from './training-modules.service';
import { TrainingPlayerService } from './training-player.service';

export const DEMO_MODULE_TITLE = 'Workshop safety basics';
/** The demo Admin's registration of the demo module (the API document's example commits to it). */
export const DEMO_REGISTRATIONID = '00000000-0000-4000-8000-00000000d001';

/**
 * A new site gets one external training module: a tiny SCORM 1.2 package built here with yazl, imported
 * through the ordinary import path (checked, extracted, hashed) and published, so that the player can be
 * opened at once (GET /external_training_modules/{id}/player).
 */
@Injectable()
export class TrainingModulesDemoSeed {
  constructor(
    private readonly seeds: DemoSeedRegistry,
    private readonly modules: TrainingModulesService,
    private readonly imports: TrainingImportsService,
    private readonly player: TrainingPlayerService,
  ) {}

  @DemoSeed({ name: 'training modules', order: 70 })
  async run(): Promise<void> {
    const [adminid] = this.seeds.get<number[]>('demo.userids') ?? [];
    if (!adminid) return;
    const admin: AuthenticatedUser = { userid: adminid, username: 'Demo Admin', privileges: ['Admin'], tokenid: 0 };
    const module = await this.modules.createDraft(
      { title: DEMO_MODULE_TITLE, description: 'Five minutes on working safely on phones and laptops (SCORM 1.2).' },
      admin,
    );
    await this.importDemoPackage(module.moduleid, admin);
    await this.modules.publish(module.moduleid, undefined, admin);
    await this.player.launch(module.moduleid, undefined, admin, { registrationid: DEMO_REGISTRATIONID });
    // A second edition waits as a draft with its package imported: ready to publish (T6), then roll back.
    await this.modules.createDraft({ title: `${DEMO_MODULE_TITLE} (2nd edition)`, moduleid: module.moduleid }, admin);
    await this.importDemoPackage(module.moduleid, admin);
  }

  private async importDemoPackage(moduleid: number, admin: AuthenticatedUser): Promise<void> {
    const created = await this.imports.create(moduleid, admin);
    const done = await this.imports.importBuffer(created.importid, await demoScormPackage());
    if (done.status !== 'complete') throw new Error(`The demo package did not import: ${done.error?.message}`);
  }
}
