import { TransactionService } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { notFound } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { nowSeconds } from '../../database/columns';
import { PolicyService } from '../access/policy.service';
import { teamUrl } from '../teams/team-directory.service';
import { TeamsService } from '../teams/teams.service';
import type { UserLightDto } from '../users/dto/user-response.dto';
import { UsersService } from '../users/users.service';
import type { GuideTeamDto, GuideTeamsDto } from './dto/guide-response.dto';
import { GuideEditorService } from './guide-editor.service';
import { accessFacts } from './guide-access-facts';
import { GuideReaderService } from './guide-reader.service';
import { GuideGrantsRepository } from './guide-grants.repository';

/** The users and teams granted read and edit access to a guide (`/guides/{guideid}/users`, `/teams`). */
@Injectable()
export class GuideAccessService {
  constructor(
    private readonly grants: GuideGrantsRepository,
    private readonly reader: GuideReaderService,
    private readonly editor: GuideEditorService,
    private readonly policy: PolicyService,
    private readonly userDirectory: UsersService,
    private readonly teams: TeamsService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private async editable(guideid: number, caller: AuthenticatedUser) {
    const row = await this.reader.assertReadable(caller, guideid);
    await this.editor.assertCanEdit(caller, accessFacts(row));
    return row;
  }

  async users(guideid: number, caller: AuthenticatedUser): Promise<UserLightDto[]> {
    await this.reader.assertReadable(caller, guideid);
    return this.userList(guideid);
  }

  private async userList(guideid: number): Promise<UserLightDto[]> {
    const ids = await this.grants.grantedUserIds(guideid);
    const users = await this.userDirectory.lightUsers(ids);
    return ids.map((id) => users.get(id)).filter((u): u is UserLightDto => u !== undefined);
  }

  /** Grants or revokes, with an audit row when something changed. */
  private async changeGrant(
    change: 'grant' | 'revoke',
    kind: 'user' | 'team',
    guideid: number,
    id: number,
  ): Promise<void> {
    await this.transactions.run(async () => {
      const changed =
        change === 'grant'
          ? await this.grants.grant(kind, guideid, id, nowSeconds())
          : await this.grants.revoke(kind, guideid, id);
      if (changed) {
        await this.audit.record({
          action: `guide.${change}_${kind}`,
          entity: ['guide', guideid],
          after: { [`${kind}id`]: id },
        });
      }
    });
  }

  async grantUser(guideid: number, userid: number, caller: AuthenticatedUser): Promise<UserLightDto[]> {
    await this.editable(guideid, caller);
    await this.userDirectory.findEntity(userid);
    await this.changeGrant('grant', 'user', guideid, userid);
    return this.userList(guideid);
  }

  async revokeUser(guideid: number, userid: number, caller: AuthenticatedUser): Promise<UserLightDto[]> {
    await this.editable(guideid, caller);
    await this.changeGrant('revoke', 'user', guideid, userid);
    return this.userList(guideid);
  }

  async teamsOf(guideid: number, caller: AuthenticatedUser): Promise<GuideTeamsDto> {
    const row = await this.reader.assertReadable(caller, guideid);
    const facts = accessFacts(row);
    const canEdit = await this.policy.canEditGuide(caller, facts);
    return {
      guideTeams: await this.teamList(guideid),
      canIViewGuide: true,
      canIEditGuide: canEdit,
      canIChangeGuidePrivacy: canEdit,
    };
  }

  private async teamList(guideid: number): Promise<GuideTeamDto[]> {
    const ids = await this.grants.grantedTeamIds(guideid);
    const teams = await Promise.all(ids.map((id) => this.teams.findTeam(id)));
    return teams
      .filter((team) => team !== null)
      .map((team) => ({
        teamid: team.teamid,
        name: team.name,
        owner: team.ownerUserid,
        url: teamUrl(this.config.publicUrl, team),
        image: null,
      }));
  }

  async grantTeam(guideid: number, teamid: number, caller: AuthenticatedUser): Promise<GuideTeamDto[]> {
    await this.editable(guideid, caller);
    if (!(await this.teams.findTeam(teamid))) throw notFound('Team');
    await this.changeGrant('grant', 'team', guideid, teamid);
    return this.teamList(guideid);
  }

  async revokeTeam(guideid: number, teamid: number, caller: AuthenticatedUser): Promise<GuideTeamsDto> {
    await this.editable(guideid, caller);
    await this.changeGrant('revoke', 'team', guideid, teamid);
    return this.teamsOf(guideid, caller);
  }
}
