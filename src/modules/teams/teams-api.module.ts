import { Module, OnModuleInit } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { UserFactsRegistry } from '../users/user-facts.registry';
import { UsersModule } from '../users/users.module';
import { TeamDirectoryService } from './team-directory.service';
import { TeamsDemoSeed } from './teams-demo.seed';
import { TeamsController } from './teams.controller';
import { TeamsModule } from './teams.module';
import { TeamsService } from './teams.service';
import { TeamsRepository } from './teams.repository';

/**
 * The /teams endpoints; separate from TeamsModule (membership lookups, which the access policy uses).
 * Tells the users module which teams each user is in, and adds the demo team.
 */
@Module({
  imports: [TeamsModule, UsersModule, MediaModule],
  controllers: [TeamsController],
  providers: [TeamsRepository, TeamDirectoryService, TeamsDemoSeed],
})
export class TeamsApiModule implements OnModuleInit {
  constructor(
    private readonly facts: UserFactsRegistry,
    private readonly teams: TeamsService,
  ) {}

  onModuleInit(): void {
    this.facts.provideTeamIds(
      (userids) => this.teams.teamIdsByUser(userids),
      (userColumn) => `(SELECT GROUP_CONCAT(m.teamid) FROM team_members m WHERE m.userid = ${userColumn})`,
    );
  }
}
