import { defineEvent } from '../../platform/events/domain-event';

export interface TeamJoinedPayload {
  teamid: number;
  userid: number;
}

/** Published when a user becomes a member of a team. */
export const TeamJoined = defineEvent<TeamJoinedPayload>('team.joined', (p) => ['team', p.teamid]);
