import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { privilegesAtLeast } from '../../common/auth/privileges';
import {
  ApiException,
  InsufficientPrivilegesException,
  ValidationFailedException,
  unprocessable,
  type FieldError,
} from '../../common/http/api-errors';
import { GUIDE_FLAGS } from '../../common/flags/guide-flags';
import { ReleaseDirectory } from '../../platform/documents/release-directory';
import { PolicyService } from '../access/policy.service';
import { MediaService } from '../media/media.service';
import { WikisService } from '../wikis/wikis.service';
import type { GuideFieldsDto, GuideItemInputDto } from './dto/guide-body.dto';
import { generatedTitle, type GuideData, type StoredItem } from './guide-data';
import { GuideReaderService } from './guide-reader.service';

export const IN_PROGRESS_FLAG = 'GUIDE_IN_PROGRESS';

const EMPTY: GuideData = {
  category: '',
  type: '',
  subject: '',
  title: '',
  summary: '',
  introduction: '',
  conclusion: '',
  difficulty: null,
  time_required_min: 0,
  time_required_max: 0,
  imageid: null,
  flags: [],
  prerequisites: [],
  documents: [],
  featured_documentid: null,
  parts: [],
  tools: [],
  public: false,
  steps: [],
};

/** A media check failure (404 unknown, 403 not in the media manager) as the 422 of the field that named it. */
async function asFieldError(field: string, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof ApiException) {
      const body = error.getResponse() as { message?: string };
      throw unprocessable(body.message ?? `${field} is not usable`, field);
    }
    throw error;
  }
}

/** Turns a create or edit body into the guide's new data, applying every rule of the guide body (docs/resources.md). */
@Injectable()
export class GuideFieldsService {
  constructor(
    private readonly wikis: WikisService,
    private readonly media: MediaService,
    private readonly policy: PolicyService,
    private readonly reader: GuideReaderService,
    private readonly releases: ReleaseDirectory,
  ) {}

  async resolve(
    body: GuideFieldsDto & { category?: string; type?: string },
    current: GuideData | undefined,
    context: { guideid?: number; authorid: number; caller: AuthenticatedUser },
  ): Promise<GuideData> {
    const base = current ?? EMPTY;
    const next: GuideData = { ...base };
    const errors: FieldError[] = [];
    if (body.category !== undefined && body.category !== base.category) {
      // Any case names the category; the guide keeps the category's own spelling.
      const stored = (await this.wikis.categoriesExist([body.category])).get(body.category);
      if (stored === undefined) errors.push({ message: `Category ${body.category} does not exist`, field: 'category' });
      next.category = stored ?? body.category;
    }
    if (body.type !== undefined) next.type = body.type;
    if (body.subject !== undefined) next.subject = body.subject.trim();
    if (body.title !== undefined) next.title = body.title;
    else if (!current) next.title = generatedTitle(next.type, next.category, next.subject);
    if (body.summary !== undefined) next.summary = body.summary;
    if (body.introduction !== undefined) next.introduction = body.introduction;
    if (body.conclusion !== undefined) next.conclusion = body.conclusion;
    if (body.difficulty !== undefined) next.difficulty = body.difficulty;
    if (body.time_required_min !== undefined) next.time_required_min = body.time_required_min;
    if (body.time_required_max !== undefined) next.time_required_max = body.time_required_max;
    if (next.time_required_max && next.time_required_min > next.time_required_max) {
      errors.push({ message: 'time_required_max must not be less than time_required_min', field: 'time_required_max' });
    }
    if (body.public !== undefined) next.public = body.public;
    if (body.documents !== undefined) next.documents = body.documents;
    if (body.featured_documentid !== undefined) next.featured_documentid = body.featured_documentid;
    if (new Set(next.documents).size !== next.documents.length) {
      errors.push({ message: 'documents must not repeat a document', field: 'documents' });
    }
    if (next.featured_documentid !== null && !next.documents.includes(next.featured_documentid)) {
      errors.push({ message: 'featured_documentid must be one of documents', field: 'featured_documentid' });
    }
    if (body.prerequisites !== undefined) {
      next.prerequisites = body.prerequisites;
      errors.push(...(await this.prerequisiteErrors(body.prerequisites, base.prerequisites, context)));
    }
    if (body.prerequisite_releases !== undefined) {
      next.prerequisite_releases = body.prerequisite_releases.map(({ guideid, releaseid }) => ({
        guideid,
        releaseid: releaseid ?? null,
      }));
      errors.push(...(await this.pinErrors(next.prerequisite_releases, next.prerequisites)));
    } else if (next.prerequisite_releases) {
      // A guide dropped from prerequisites takes its pin with it.
      next.prerequisite_releases = next.prerequisite_releases.filter((pin) => next.prerequisites.includes(pin.guideid));
    }
    if (body.flags !== undefined) {
      body.flags.forEach((flag, index) => {
        if (!GUIDE_FLAGS.some((f) => f.flagid === flag))
          errors.push({ message: `Unknown flag ${flag}`, field: 'flags', index });
      });
      next.flags = [...new Set(body.flags)];
    }
    for (const field of ['parts', 'tools'] as const) {
      body[field]?.forEach((item, index) => {
        if (item.featured && index > 0) errors.push({ message: 'Only the first item may be featured', field, index });
      });
    }
    if (errors.length) throw new ValidationFailedException(errors);

    if (body.flags !== undefined) this.assertFlagPrivileges(base.flags, next.flags, context.caller);
    if (body.image !== undefined) {
      next.imageid = body.image;
      if (body.image !== null && body.image !== base.imageid) {
        await asFieldError('image', () => this.usableImage(body.image as number, context.authorid, context.caller));
      }
    }
    const added = next.documents.filter((id) => !base.documents.includes(id));
    if (added.length) {
      await asFieldError('documents', () => this.media.assertDocumentsUsableBy(context.caller.userid, added));
    }
    if (body.parts !== undefined) next.parts = await this.items(body.parts, context.caller);
    if (body.tools !== undefined) next.tools = await this.items(body.tools, context.caller);
    return next;
  }

  /** On create, a guide that is not public gets GUIDE_IN_PROGRESS; publishing removes it. */
  applyAutomaticFlags(data: GuideData, wasPublic: boolean | undefined): GuideData {
    if (wasPublic === undefined && !data.public && !data.flags.includes(IN_PROGRESS_FLAG)) {
      return { ...data, flags: [...data.flags, IN_PROGRESS_FLAG] };
    }
    if (wasPublic === false && data.public && data.flags.includes(IN_PROGRESS_FLAG)) {
      return { ...data, flags: data.flags.filter((f) => f !== IN_PROGRESS_FLAG) };
    }
    return data;
  }

  private assertFlagPrivileges(before: string[], after: string[], caller: AuthenticatedUser): void {
    const changed = [...after.filter((f) => !before.includes(f)), ...before.filter((f) => !after.includes(f))];
    for (const flagid of changed) {
      const flag = GUIDE_FLAGS.find((f) => f.flagid === flagid);
      if (flag && !this.policy.has(caller, flag.privilege)) {
        throw new InsufficientPrivilegesException(
          privilegesAtLeast(flag.privilege),
          `Changing the flag ${flagid} requires the ${flag.privilege} privilege`,
        );
      }
    }
  }

  /** The image must be in the author's (or the editing caller's) media manager. */
  private async usableImage(imageid: number, authorid: number, caller: AuthenticatedUser): Promise<void> {
    try {
      await this.media.assertImagesUsableBy(authorid, [imageid]);
    } catch (error) {
      if (authorid === caller.userid) throw error;
      await this.media.assertImagesUsableBy(caller.userid, [imageid]);
    }
  }

  /**
   * `prerequisite_releases`: each names one of the prerequisites, once, and a `released` release of that
   * guide (or null: the newest released one).
   */
  private async pinErrors(
    pins: { guideid: number; releaseid: number | null }[],
    prerequisites: number[],
  ): Promise<FieldError[]> {
    const field = 'prerequisite_releases';
    const releases = await this.releases.find(pins.flatMap((pin) => (pin.releaseid === null ? [] : [pin.releaseid])));
    const errors: FieldError[] = [];
    pins.forEach((pin, index) => {
      const release = pin.releaseid === null ? undefined : releases.get(pin.releaseid);
      if (!prerequisites.includes(pin.guideid))
        errors.push({ message: `Guide ${pin.guideid} is not one of prerequisites`, field, index });
      else if (pins.findIndex((other) => other.guideid === pin.guideid) !== index)
        errors.push({ message: `Guide ${pin.guideid} is pinned twice`, field, index });
      else if (
        pin.releaseid !== null &&
        (!release || release.doctype !== 'GUIDE' || release.docid !== pin.guideid || release.status !== 'released')
      )
        errors.push({
          message: `Release ${pin.releaseid} is not a released release of guide ${pin.guideid}`,
          field,
          index,
        });
    });
    return errors;
  }

  private async prerequisiteErrors(
    ids: number[],
    before: number[],
    context: { guideid?: number; caller: AuthenticatedUser },
  ): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    const readable = await this.reader.readableIds(context.caller, ids);
    ids.forEach((id, index) => {
      if (id === context.guideid)
        errors.push({ message: 'A guide cannot be its own prerequisite', field: 'prerequisites', index });
      else if (ids.indexOf(id) !== index)
        errors.push({ message: `Guide ${id} is listed twice`, field: 'prerequisites', index });
      else if (!readable.has(id) && !before.includes(id)) {
        errors.push({ message: `Guide ${id} does not exist`, field: 'prerequisites', index });
      }
    });
    return errors;
  }

  private async items(items: GuideItemInputDto[], caller: AuthenticatedUser): Promise<StoredItem[]> {
    const pages = await this.wikis.ensureItems(
      items.map((item) => ({ name: item.name, summary: item.summary, url: item.url })),
      caller,
    );
    return items.map((item) => {
      const page = pages.get(item.name);
      if (!page) throw unprocessable(`Invalid item name ${item.name}`, 'name');
      return {
        name: page.title,
        wikiid: page.wikiid,
        type: item.type ?? '',
        quantity: item.quantity ?? 1,
        notes: item.notes ?? '',
        featured: item.featured ?? false,
      };
    });
  }
}
