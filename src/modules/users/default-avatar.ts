import { defaultAvatarUrl } from '../icons/icon-urls';
import type { AvatarImageDto } from './dto/user-response.dto';

const VARIANTS = [
  'mini',
  'thumbnail',
  '140x105',
  '200x150',
  'standard',
  '440x330',
  'medium',
  'large',
  'huge',
  'original',
] as const;

/** The image of users and teams without one of their own. */
export function defaultAvatar(publicUrl: string): AvatarImageDto {
  const url = defaultAvatarUrl(publicUrl);
  return { id: 0, guid: 'defaultavatar000', ...Object.fromEntries(VARIANTS.map((v) => [v, url])) };
}
