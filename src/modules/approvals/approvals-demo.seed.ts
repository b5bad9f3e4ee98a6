import { Injectable } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { DemoSeedRegistry } from '../../database/seed/demo-seed.registry';
import { DocumentRegistry } from '../../platform/documents/document-registry';
import { ReleasesService } from '../releases/releases.service';
import { UsersService } from '../users/users.service';
import { ApprovalAssignmentsService } from './approval-assignments.service';
import { ApprovalProcessesService } from './approval-processes.service';

/** The wiki page the demo puts under document control (a demo ITEM page). */
export const DEMO_CONTROLLED_PAGE = 'Spudger';
/** The page whose release waits for the demo Admin's signature (a demo ITEM page). */
export const DEMO_ADMIN_SIGNED_PAGE = 'Tweezers';

/**
 * Document control on a new site: a two-stage process (the demo Moderator, then the demo Admin) on
 * one wiki page, and a release of it by the demo Author waiting for the demo Moderator's signature;
 * a one-stage process (the demo Admin) on a second page, with a release by the demo Author waiting for
 * the demo Admin (so the Admin, who runs the Swagger UI examples, has a request to sign).
 */
@Injectable()
export class ApprovalsDemoSeed {
  constructor(
    private readonly seeds: DemoSeedRegistry,
    private readonly processes: ApprovalProcessesService,
    private readonly assignments: ApprovalAssignmentsService,
    private readonly releases: ReleasesService,
    private readonly documents: DocumentRegistry,
    private readonly users: UsersService,
  ) {}

  @DemoSeed({ name: 'approvals', order: 60 })
  async run(): Promise<void> {
    const [adminid, moderatorid, authorid] = this.seeds.get<number[]>('demo.userids') ?? [];
    if (!adminid || !moderatorid || !authorid) return;
    const caller = await this.users.callerOf(authorid);
    await this.controlled(DEMO_CONTROLLED_PAGE, 'Demo document control', [moderatorid, adminid], caller);
    await this.controlled(DEMO_ADMIN_SIGNED_PAGE, 'Demo final check', [adminid], caller);
  }

  /** A process of `signers` on the page, and a major release of it by `author` waiting for the first. */
  private async controlled(title: string, name: string, signers: number[], author: AuthenticatedUser): Promise<void> {
    const wikis = this.documents.of('WIKI');
    const found = await wikis.find(await wikis.searchTitles(title, 5));
    const page = [...found.values()].find((doc) => doc.title === title);
    if (!page) return;
    const process = await this.processes.create({ name, stages: signers.map((userid) => ({ userid })) });
    await this.assignments.assignWiki(page.docid, process.approval_processid, 'all');
    await this.releases.create(
      'WIKI',
      page.docid,
      { type: 'major', notes: 'First controlled version: reviewed against the tool catalogue.' },
      author,
    );
  }
}
