import { AuthTokenEntity } from '../modules/auth/entities/auth-token.entity';
import { TeamMemberEntity } from '../modules/teams/entities/team-member.entity';
import { TeamEntity } from '../modules/teams/entities/team.entity';
import { UserEntity } from '../modules/users/entities/user.entity';

/** Every entity of the service; the data source, migrations check and tests share this list. */
export const ENTITIES = [UserEntity, AuthTokenEntity, TeamEntity, TeamMemberEntity];
