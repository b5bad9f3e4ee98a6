/** Public profile URL in the iFixit form: {base}/User/{userid}/{Display+Name}. */
export function userUrl(publicUrl: string, userid: number, username: string): string {
  return `${publicUrl}/User/${userid}/${encodeURIComponent(username).replace(/%20/g, '+')}`;
}
