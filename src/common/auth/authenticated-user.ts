import type { Privilege } from './privileges';

/** The caller, as the guard puts it on the request. */
export interface AuthenticatedUser {
  userid: number;
  username: string;
  privileges: Privilege[];
  tokenid: number;
}
