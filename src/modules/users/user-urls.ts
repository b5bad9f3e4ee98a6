import { wellFormed } from '../../common/validation/input-guards';

/** Public profile URL in the iFixit form: {base}/User/{userid}/{Display+Name}. */
export function userUrl(publicUrl: string, userid: number, username: string): string {
  return `${publicUrl}/User/${userid}/${encodeURIComponent(wellFormed(username)).replace(/%20/g, '+')}`;
}
