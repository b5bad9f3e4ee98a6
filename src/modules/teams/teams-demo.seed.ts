import { Injectable } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import { DemoSeedRegistry } from '../../database/seed/demo-seed.registry';
import { UsersService } from '../users/users.service';
import { TeamDirectoryService } from './team-directory.service';

export const DEMO_TEAM_NAME = 'Shift supervisors';

/**
 * A team on a new site (order 35, before the guides): the demo Moderator (its owner) and the demo Admin. The
 * demo guide's step form names it for sign-offs, so the Admin, who runs the Swagger UI examples, can sign one.
 */
@Injectable()
export class TeamsDemoSeed {
  constructor(
    private readonly seeds: DemoSeedRegistry,
    private readonly directory: TeamDirectoryService,
    private readonly users: UsersService,
  ) {}

  @DemoSeed({ name: 'teams', order: 35 })
  async run(): Promise<void> {
    const [adminid, moderatorid] = this.seeds.get<number[]>('demo.userids') ?? [];
    if (!adminid || !moderatorid) return;
    const admin = await this.users.callerOf(adminid);
    const team = await this.directory.create(
      { name: DEMO_TEAM_NAME, description: 'They sign off the checked steps of work orders.' },
      admin,
    );
    for (const userid of [moderatorid, adminid]) await this.directory.addMember(team.teamid, userid, admin);
  }
}
