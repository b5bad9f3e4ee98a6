import type { AvatarImageDto } from './dto/user-response.dto';

/**
 * Where avatars come from. The media module provides it (globally, under AVATAR_SOURCE), so the users
 * module does not import media; media depends on users, not the reverse.
 */
export interface AvatarSource {
  imageObjects(ids: number[]): Promise<Map<number, AvatarImageDto>>;
  defaultAvatar(): AvatarImageDto;
  /** 404 for unknown images, 403 for images not in the user's media manager. */
  assertImagesUsableBy(userid: number, ids: number[]): Promise<void>;
  /** Records which images an owner uses, so that the media store keeps them. */
  setUsage(ownerKind: string, ownerId: number, imageIds: number[]): Promise<void>;
}

export const AVATAR_SOURCE = Symbol('AVATAR_SOURCE');
