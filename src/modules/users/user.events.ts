import { defineEvent } from '../../platform/events/domain-event';

export interface UserAboutWrittenPayload {
  userid: number;
}

/** Published when a user's about text is set to something non-empty. */
export const UserAboutWritten = defineEvent<UserAboutWrittenPayload>('user.about-written', (p) => ['user', p.userid]);
