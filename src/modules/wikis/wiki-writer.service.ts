import { ContentVersions } from '../../platform/versions/content-versions';
import { AuditService } from '../../platform/audit/audit.service';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { privilegesAtLeast } from '../../common/auth/privileges';
import {
  InsufficientPrivilegesException,
  notFound,
  unprocessable,
  ValidationFailedException,
  type FieldError,
} from '../../common/http/api-errors';
import { StaleRevisionError } from '../../common/revisions/stale-revision.error';
import { nowSeconds } from '../../database/columns';
import { isUniqueViolation } from '../../database/errors';
import { TransactionService } from '../../database/transaction.service';
import { extractReferences } from '../../wikitext';
import { PolicyService } from '../access/policy.service';
import { MediaService } from '../media/media.service';
import type { CreateWikiDto, WikiFieldsDto } from './dto/wiki-body.dto';
import type { WikiDetailDto } from './dto/wiki-response.dto';
import type { WikiRevisionData, WikiRevisionEntity } from './entities/wiki-revision.entity';
import type { WikiEntity } from './entities/wiki.entity';
import {
  DEFAULT_LANGID,
  MAX_CONTENTS_BYTES,
  NAMESPACE_RULES,
  normalizeTitle,
  titleProblem,
  titleHash,
  TRANSLATABLE_FIELDS,
  type WikiNamespace,
  type WikiWritableField,
} from './wiki-namespaces';
import { WikiReaderService } from './wiki-reader.service';
import { parseRevisionData } from './wiki-version';
import { TeamsService } from '../teams/teams.service';
import { UsersService } from '../users/users.service';
import { WikiChanged } from './wiki.events';
import { WikisRepository } from './wikis.repository';

/** The content of a revision, as compared to decide whether a write changes anything. */
export interface RevisionValues {
  displayTitle: string;
  summary: string;
  contents: string;
  imageid: number | null;
  flags: string;
  data: string;
}

const ALL_FIELDS: WikiWritableField[] = [
  'contents',
  'display_title',
  'description',
  'image',
  'flags',
  'parent',
  'info',
  'suppliers',
  'documents',
  'repairability_score',
  'table_of_contents',
];

const sameValues = (a: RevisionValues, b: RevisionValues) =>
  a.displayTitle === b.displayTitle &&
  a.summary === b.summary &&
  a.contents === b.contents &&
  a.imageid === b.imageid &&
  a.flags === b.flags &&
  a.data === b.data;

const valuesOf = (revision: WikiRevisionEntity): RevisionValues => ({
  displayTitle: revision.displayTitle,
  summary: revision.summary,
  contents: revision.contents,
  imageid: revision.imageid,
  flags: revision.flags,
  data: revision.data,
});

/** Keys in a fixed order so that equal data serializes equally. */
function serializeData(data: WikiRevisionData): string {
  const ordered: WikiRevisionData = {};
  if (data.info !== undefined) ordered.info = data.info.map((e) => ({ name: e.name, value: e.value }));
  if (data.suppliers !== undefined) {
    ordered.suppliers = data.suppliers.map((s) => ({
      'part_#': s['part_#'] ?? '',
      type: s.type ?? '',
      supplier: s.supplier ?? '',
      url: s.url ?? '',
    }));
  }
  if (data.documents !== undefined) ordered.documents = data.documents;
  if (data.repairability_score !== undefined && data.repairability_score !== null) {
    ordered.repairability_score = data.repairability_score;
  }
  if (data.table_of_contents) ordered.table_of_contents = true;
  return JSON.stringify(ordered);
}

export interface NewWiki {
  namespace: WikiNamespace;
  title: string;
  langid: string;
  parentWikiid: number | null;
  values: RevisionValues;
}

/** Creates, edits, deletes and reverts wikis: every content change is a new revision (docs/api-conventions.md). */
@Injectable()
export class WikiWriterService {
  constructor(
    private readonly wikis: WikisRepository,
    private readonly users: UsersService,
    private readonly teams: TeamsService,
    private readonly reader: WikiReaderService,
    private readonly policy: PolicyService,
    private readonly media: MediaService,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly versions: ContentVersions,
  ) {}

  // ---- create ---------------------------------------------------------------------------------------

  async create(dto: CreateWikiDto, caller: AuthenticatedUser): Promise<WikiDetailDto> {
    const namespace = dto.namespace as WikiNamespace;
    this.assertFields(namespace, dto, { create: true, translation: false });
    const title = normalizeTitle(dto.title);
    const problem = titleProblem(title);
    if (problem) throw unprocessable(problem, 'title');
    const displayTitle = await this.subjectTitle(namespace, title, dto.display_title);
    if (!(await this.policy.canEditWiki(caller, { namespace, title })))
      throw this.forbidden('You may not create this wiki');
    await this.assertMedia(dto, caller);
    const values = this.mergeValues(undefined, dto, displayTitle);
    const wiki = await this.transactions.run(async () => {
      let parentWikiid: number | null = null;
      if (dto.parent !== undefined && dto.parent !== null) {
        const parent = await this.wikis.findWiki('CATEGORY', normalizeTitle(dto.parent));
        if (!parent || parent.deleted) throw unprocessable(`No category titled ${dto.parent}`, 'parent');
        await this.wikis.lockWikis([parent.wikiid]);
        parentWikiid = parent.wikiid;
      }
      return this.insertWiki(
        { namespace, title, langid: dto.langid ?? DEFAULT_LANGID, parentWikiid, values },
        caller.userid,
      );
    });
    return this.reader.toDetail((await this.reader.version(wiki, { unpatrolled: true }))!, caller);
  }

  /** Inserts a wiki with its first (patrolled: the creator is the author) revision. 422 on a duplicate title. */
  async insertWiki(input: NewWiki, authorid: number): Promise<WikiEntity> {
    if (await this.wikis.findWiki(input.namespace, input.title)) throw this.duplicate(input);
    const now = nowSeconds();
    let wiki: WikiEntity;
    try {
      wiki = await this.wikis.insertWiki({
        namespace: input.namespace,
        title: input.title,
        titleHash: titleHash(input.title),
        langid: input.langid,
        parentWikiid: input.parentWikiid,
        authorid,
        deleted: false,
        createdDate: now,
        modifiedDate: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw this.duplicate(input);
      throw error;
    }
    const revision = await this.wikis.insertRevision({
      ...input.values,
      wikiid: wiki.wikiid,
      langid: input.langid,
      userid: authorid,
      date: now,
      patrolled: true,
      deleted: false,
    });
    await this.wikis.insertLanguage({
      wikiid: wiki.wikiid,
      langid: input.langid,
      revisionid: revision.revisionid,
      headRevisionid: revision.revisionid,
      sourceRevisionid: null,
    });
    await this.media.setUsage('wiki', wiki.wikiid, this.imagesOf([input.values]));
    await this.changed(wiki, input.langid);
    return wiki;
  }

  /** The wiki to change; 404 when it does not exist, 403 when the caller may not edit it. */
  private async editableWiki(namespace: WikiNamespace, rawTitle: string, caller: AuthenticatedUser) {
    const located = await this.reader.findWiki(namespace, rawTitle);
    if (!(await this.policy.canEditWiki(caller, { namespace, title: located.title }))) {
      throw this.forbidden('You may not edit this wiki');
    }
    return located;
  }
  private duplicate(input: { namespace: string; title: string }) {
    return unprocessable(`A ${input.namespace} wiki titled ${input.title} already exists`, 'title');
  }

  // ---- edit -----------------------------------------------------------------------------------------

  async update(
    namespace: WikiNamespace,
    rawTitle: string,
    dto: WikiFieldsDto,
    options: { langid?: string; revisionid: number },
    caller: AuthenticatedUser,
  ): Promise<WikiDetailDto> {
    const located = await this.editableWiki(namespace, rawTitle, caller);
    const langid = options.langid ?? located.langid;
    this.assertFields(namespace, dto, { create: false, translation: langid !== located.langid });
    const before = await this.reader.version(located, { unpatrolled: true });
    await this.assertMedia(dto, caller, before?.source);
    const current = () => this.reader.conflictBody(namespace, rawTitle, langid, caller);
    await this.transactions.run(async () => {
      const wiki = (await this.wikis.lockedWiki(located.wikiid))!;
      const languages = await this.wikis.languagesOf(wiki.wikiid);
      const master = languages.find((l) => l.langid === wiki.langid)!;
      const target = languages.find((l) => l.langid === langid);
      const heads = await this.wikis.revisions([master.headRevisionid, target?.headRevisionid ?? 0]);
      const masterHead = heads.get(master.headRevisionid)!;
      if (masterHead.deleted) throw notFound('Wiki');
      const base = target ? heads.get(target.headRevisionid)! : masterHead;
      const values = this.mergeValues(base, dto, undefined, target === undefined && langid !== wiki.langid);
      const patrolled = this.patrols(caller, wiki);
      const moderator = this.policy.canModerate(caller);
      if (target && sameValues(valuesOf(base), values)) {
        // Nothing changes: no revision. The revisionid is still checked, and a Moderator+ patrols the head.
        if (!(await this.wikis.moveHead(wiki.wikiid, langid, options.revisionid, options.revisionid, moderator))) {
          throw new StaleRevisionError(current);
        }
        if (moderator && target.revisionid !== target.headRevisionid) {
          await this.wikis.patrolUpTo(wiki.wikiid, langid, target.headRevisionid);
          await this.wikis.updateWiki(wiki.wikiid, { modifiedDate: nowSeconds() });
          await this.changed(wiki, langid);
        }
        return;
      }
      const now = nowSeconds();
      const revision = await this.wikis.insertRevision({
        ...values,
        wikiid: wiki.wikiid,
        langid,
        userid: caller.userid,
        date: now,
        patrolled,
        deleted: false,
      });
      if (target) {
        if (!(await this.wikis.moveHead(wiki.wikiid, langid, options.revisionid, revision.revisionid, patrolled))) {
          throw new StaleRevisionError(current);
        }
      } else {
        // A new translation starts from the source language's newest revision, which revisionid must name.
        if (!(await this.wikis.moveHead(wiki.wikiid, wiki.langid, options.revisionid, options.revisionid, false))) {
          throw new StaleRevisionError(current);
        }
        try {
          await this.wikis.insertLanguage({
            wikiid: wiki.wikiid,
            langid,
            revisionid: patrolled ? revision.revisionid : null,
            headRevisionid: revision.revisionid,
            sourceRevisionid: options.revisionid,
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw new StaleRevisionError(current);
          throw error;
        }
      }
      if (moderator) await this.wikis.patrolUpTo(wiki.wikiid, langid, revision.revisionid);
      if (patrolled) await this.wikis.updateWiki(wiki.wikiid, { modifiedDate: now });
      await this.refreshImageUsage(wiki.wikiid);
      if (patrolled || moderator) await this.changed(wiki, langid);
    });
    return this.reader.current(namespace, rawTitle, { langid, unpatrolled: true }, caller);
  }

  // ---- delete and revert ----------------------------------------------------------------------------

  /** Soft delete: a patrolled revision with empty contents. The source language deletes the whole wiki. */
  async delete(
    namespace: WikiNamespace,
    rawTitle: string,
    options: { langid?: string; revisionid: number },
    caller: AuthenticatedUser,
  ): Promise<void> {
    const located = await this.reader.findWiki(namespace, rawTitle);
    if (!this.policy.canModerate(caller))
      throw this.forbidden('Deleting a wiki requires the Moderator privilege', 'Moderator');
    const current = () => this.reader.conflictBody(namespace, rawTitle, options.langid, caller);
    await this.transactions.run(async () => {
      const wiki = (await this.wikis.lockedWiki(located.wikiid))!;
      const langid = options.langid ?? wiki.langid;
      const languages = await this.wikis.languagesOf(wiki.wikiid);
      const master = languages.find((l) => l.langid === wiki.langid)!;
      const target = languages.find((l) => l.langid === langid);
      const heads = await this.wikis.revisions([master.headRevisionid, target?.headRevisionid ?? 0]);
      if (!target || heads.get(master.headRevisionid)!.deleted || heads.get(target.headRevisionid)!.deleted) {
        throw notFound('Wiki');
      }
      const isMaster = langid === wiki.langid;
      if (isMaster && wiki.namespace === 'CATEGORY') {
        if ((await this.wikis.countLiveChildren(wiki.wikiid)) > 0) {
          throw unprocessable('A category with child categories cannot be deleted; move or delete its children first');
        }
      }
      const now = nowSeconds();
      const head = heads.get(target.headRevisionid)!;
      const revision = await this.wikis.insertRevision({
        wikiid: wiki.wikiid,
        langid,
        userid: caller.userid,
        date: now,
        patrolled: true,
        deleted: true,
        displayTitle: head.displayTitle,
        summary: '',
        contents: '',
        imageid: null,
        flags: '',
        data: '{}',
      });
      if (!(await this.wikis.moveHead(wiki.wikiid, langid, options.revisionid, revision.revisionid, true))) {
        throw new StaleRevisionError(current);
      }
      await this.wikis.patrolUpTo(wiki.wikiid, langid, revision.revisionid);
      await this.wikis.updateWiki(wiki.wikiid, isMaster ? { deleted: true, modifiedDate: now } : { modifiedDate: now });
      await this.changed(wiki, langid);
      await this.audit.record({
        action: 'wiki.delete',
        entity: ['wiki', wiki.wikiid],
        before: { namespace: wiki.namespace, title: wiki.title, langid, revisionid: head.revisionid },
      });
    });
  }

  /** A new revision with the contents of an earlier one; restores deleted wikis. The display title stays. */
  async revert(
    namespace: WikiNamespace,
    rawTitle: string,
    options: { langid?: string; revisionid: number; toRevisionid: number },
    caller: AuthenticatedUser,
  ): Promise<WikiDetailDto> {
    const located = await this.editableWiki(namespace, rawTitle, caller);
    const langid = options.langid ?? located.langid;
    const current = () => this.reader.conflictBody(namespace, rawTitle, langid, caller);
    await this.transactions.run(async () => {
      const wiki = (await this.wikis.lockedWiki(located.wikiid))!;
      const target = (await this.wikis.languagesOf(wiki.wikiid)).find((l) => l.langid === langid);
      if (!target) throw notFound('Wiki');
      const to = await this.wikis.findRevision(wiki.wikiid, langid, options.toRevisionid);
      if (!to || to.deleted || to.revisionid === target.headRevisionid) {
        throw unprocessable(
          'to_revisionid must be an earlier, non-deleted revision of this wiki and language other than the newest',
          'to_revisionid',
        );
      }
      const head = (await this.wikis.revisions([target.headRevisionid])).get(target.headRevisionid)!;
      const patrolled = this.patrols(caller, wiki);
      const now = nowSeconds();
      const revision = await this.wikis.insertRevision({
        ...valuesOf(to),
        displayTitle: head.displayTitle,
        wikiid: wiki.wikiid,
        langid,
        userid: caller.userid,
        date: now,
        patrolled,
        deleted: false,
      });
      if (!(await this.wikis.moveHead(wiki.wikiid, langid, options.revisionid, revision.revisionid, patrolled))) {
        throw new StaleRevisionError(current);
      }
      if (this.policy.canModerate(caller)) await this.wikis.patrolUpTo(wiki.wikiid, langid, revision.revisionid);
      if (patrolled && langid === wiki.langid) {
        const changes: Parameters<WikisRepository['updateWiki']>[1] = { deleted: false, modifiedDate: now };
        if (wiki.parentWikiid !== null) {
          // A category restored under a deleted parent goes to the top level.
          const parent = await this.wikis.findWikiById(wiki.parentWikiid);
          if (!parent || parent.deleted) changes.parentWikiid = null;
        }
        await this.wikis.updateWiki(wiki.wikiid, changes);
      } else if (patrolled) {
        await this.wikis.updateWiki(wiki.wikiid, { modifiedDate: now });
      }
      await this.refreshImageUsage(wiki.wikiid);
      if (patrolled || this.policy.canModerate(caller)) await this.changed(wiki, langid);
    });
    return this.reader.current(namespace, rawTitle, { langid, unpatrolled: true }, caller);
  }

  // ---- helpers --------------------------------------------------------------------------------------

  /** Tells derived copies (the search index) that a wiki's patrolled text may have changed. */
  private async changed(wiki: WikiEntity, langid: string): Promise<void> {
    const tx = this.transactions.current();
    if (!tx) throw new Error('A wiki write runs in a transaction');
    tx.publish(WikiChanged({ wikiid: wiki.wikiid, langid }));
    // Titles, flags, parents and deletion of categories are the tree's: readers' copies of it are stale now.
    if (wiki.namespace === 'CATEGORY') await this.versions.bump('category-tree');
  }

  /** Patrol rule: a revision saved by a Moderator+ or by the wiki's author is patrolled. */
  private patrols(caller: AuthenticatedUser, wiki: WikiEntity): boolean {
    return this.policy.canModerate(caller) || caller.userid === wiki.authorid;
  }

  private forbidden(message: string, privilege: 'Author' | 'Moderator' = 'Author') {
    return new InsufficientPrivilegesException(privilegesAtLeast(privilege), message);
  }

  /** 422 for fields that do not belong to the namespace, or that a translation does not carry. */
  private assertFields(
    namespace: WikiNamespace,
    dto: WikiFieldsDto & { parent?: unknown },
    mode: { create: boolean; translation: boolean },
  ) {
    const writable = NAMESPACE_RULES[namespace].writable;
    const errors: FieldError[] = [];
    const fields = dto as Record<string, unknown>;
    for (const field of ALL_FIELDS) {
      if (fields[field] === undefined) continue;
      if (!writable.includes(field) || (field === 'parent' && !mode.create)) {
        errors.push({ message: `${field} is not a field of ${namespace} wikis`, field });
      } else if (mode.translation && !TRANSLATABLE_FIELDS.includes(field)) {
        errors.push({ message: `${field} can only be changed in the wiki's source language`, field });
      }
    }
    if (typeof dto.contents === 'string' && Buffer.byteLength(dto.contents, 'utf8') > MAX_CONTENTS_BYTES) {
      errors.push({ message: `contents must be at most ${MAX_CONTENTS_BYTES} bytes`, field: 'contents' });
    }
    if (errors.length) throw new ValidationFailedException(errors);
  }

  /** Newly attached images and documents must be usable by the caller; those already on the wiki stay usable. */
  private async assertMedia(
    dto: WikiFieldsDto,
    caller: AuthenticatedUser,
    current?: WikiRevisionEntity,
  ): Promise<void> {
    if (typeof dto.image === 'number' && dto.image !== current?.imageid) {
      await this.media.assertImagesUsableBy(caller.userid, [dto.image]);
    }
    const attached = new Set(parseRevisionData(current?.data ?? '{}').documents ?? []);
    const added = (dto.documents ?? []).map((d) => d.documentid).filter((id) => !attached.has(id));
    if (added.length) await this.media.assertDocumentsUsableBy(caller.userid, added);
  }

  /** USER pages show the user's name and TEAM pages the team's; both must exist (422 otherwise). */
  private async subjectTitle(namespace: WikiNamespace, title: string, requested: string | undefined): Promise<string> {
    if (namespace !== 'USER' && namespace !== 'TEAM') return requested ?? title;
    const id = /^\d{1,10}$/.test(title) ? Number(title) : undefined;
    const name =
      id === undefined
        ? undefined
        : namespace === 'USER'
          ? await this.users.usernameOf(id)
          : await this.teams.teamNameOf(id);
    if (name === undefined) {
      throw unprocessable(
        `The title of a ${namespace} wiki must be the id of an existing ${namespace === 'USER' ? 'user' : 'team'}`,
        'title',
      );
    }
    return name;
  }

  /**
   * The values of a new revision: `base` with the submitted fields applied. A translation's first
   * revision copies the source's translatable fields and carries none of the others.
   */
  private mergeValues(
    base: WikiRevisionEntity | undefined,
    dto: WikiFieldsDto,
    displayTitle?: string,
    startsTranslation = false,
  ): RevisionValues {
    const data = startsTranslation ? {} : parseRevisionData(base?.data ?? '{}');
    if (dto.info !== undefined) data.info = dto.info;
    if (dto.suppliers !== undefined)
      data.suppliers = dto.suppliers.map((s) => ({ 'part_#': '', type: '', supplier: '', url: '', ...s }));
    if (dto.documents !== undefined) data.documents = [...new Set(dto.documents.map((d) => d.documentid))];
    if (dto.repairability_score !== undefined) data.repairability_score = dto.repairability_score;
    if (dto.table_of_contents !== undefined) data.table_of_contents = dto.table_of_contents;
    return {
      displayTitle: dto.display_title ?? displayTitle ?? base?.displayTitle ?? '',
      summary: dto.description ?? base?.summary ?? '',
      contents: dto.contents ?? base?.contents ?? '',
      imageid: startsTranslation ? null : dto.image !== undefined ? dto.image : (base?.imageid ?? null),
      flags: startsTranslation ? '' : dto.flags !== undefined ? [...new Set(dto.flags)].join(',') : (base?.flags ?? ''),
      data: serializeData(data),
    };
  }

  private imagesOf(values: Pick<RevisionValues, 'imageid' | 'contents'>[]): number[] {
    const ids = new Set<number>();
    for (const value of values) {
      if (value.imageid !== null) ids.add(value.imageid);
      for (const id of extractReferences(value.contents).imageids) ids.add(id);
    }
    return [...ids];
  }

  /** The wiki's images in use: main image and images in the contents of every language's newest revision. */
  private async refreshImageUsage(wikiid: number): Promise<void> {
    await this.media.setUsage('wiki', wikiid, this.imagesOf(await this.wikis.headRevisions(wikiid)));
  }
}
