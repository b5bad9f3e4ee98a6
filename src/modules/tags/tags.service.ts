import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { unprocessable } from '../../common/http/api-errors';
import { TagsRepository } from './tags.repository';

/** A kind of document a content module registered (`guide`, `wiki` …); tags itself knows none. */
export type TaggedKind = string;

export const MAX_TAG_LENGTH = 32;

/** Case-insensitive identity of a tag name (see TagEntity.nameKey). */
export function tagKey(name: string): string {
  return createHash('sha256').update(name.toLowerCase(), 'utf8').digest('hex');
}

const byName = (a: string, b: string) =>
  a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Tags of guides and wikis. A tag is created the first time it is added; names are trimmed, at most 32
 * characters, case-preserving (the first spelling is kept) and matched case-insensitively. The guides
 * and wikis modules build their tag routes on this service; access rules are theirs.
 */
@Injectable()
export class TagsService {
  private readonly kinds = new Set<TaggedKind>();

  constructor(private readonly tags: TagsRepository) {}

  /** Content modules register the kinds they tag at start-up (at most 8 characters: the stored `doc_kind`). */
  registerKind(kind: TaggedKind): void {
    if (!/^[a-z]{1,8}$/.test(kind)) throw new Error(`Invalid tagged kind ${kind}`);
    if (this.kinds.has(kind)) throw new Error(`Tagged kind ${kind} is already registered`);
    this.kinds.add(kind);
  }

  private known(kind: TaggedKind): TaggedKind {
    if (!this.kinds.has(kind)) throw new Error(`Unknown tagged kind ${kind}`);
    return kind;
  }

  /** Trims; 422 (field `tag`) when empty, longer than 32 characters, or containing control characters. */
  normalize(tag: string): string {
    const trimmed = typeof tag === 'string' ? tag.trim() : '';
    if (trimmed === '') throw unprocessable('tag must not be empty', 'tag');
    if ([...trimmed].length > MAX_TAG_LENGTH) {
      throw unprocessable(`tag must be at most ${MAX_TAG_LENGTH} characters`, 'tag');
    }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw unprocessable('tag must not contain control characters', 'tag');
    return trimmed;
  }

  /** docid -> tag names sorted alphabetically (case-insensitive); every requested id is a key. One query. */
  async tagsOf(kind: TaggedKind, ids: number[]): Promise<Map<number, string[]>> {
    const result = new Map<number, string[]>(ids.map((id) => [id, []]));
    for (const { docid, name } of await this.tags.namesOf(this.known(kind), [...new Set(ids)]))
      result.get(docid)?.push(name);
    for (const names of result.values()) names.sort(byName);
    return result;
  }

  /** Adds the tag (creating it if new); adding a tag the document already has changes nothing. */
  async add(kind: TaggedKind, id: number, tag: string): Promise<void> {
    const name = this.normalize(tag);
    const tagid = await this.tags.ensureTag(name, tagKey(name));
    await this.tags.link(this.known(kind), id, tagid);
  }

  /** Removes the tag from the document; removing a tag it does not have changes nothing. */
  async remove(kind: TaggedKind, id: number, tag: string): Promise<void> {
    const name = this.normalize(tag);
    const found = await this.tags.findTagId(tagKey(name));
    if (found) await this.tags.unlink(this.known(kind), id, found.tagid);
  }

  /** Removes every tag from the given documents (for modules that purge documents). */
  removeAll(kind: TaggedKind, ids: number[]): Promise<void> {
    return this.tags.unlinkAll(this.known(kind), ids);
  }

  list(offset: number, limit: number, order: 'ASC' | 'DESC'): Promise<string[]> {
    return this.tags.list(offset, limit, order);
  }
}
