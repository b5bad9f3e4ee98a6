import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { isAdmin } from '../../common/auth/privileges';
import { ApiException, notFound, RevisionConflictException } from '../../common/http/api-errors';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { TransactionService, type Transaction } from '../../database/transaction.service';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../platform/clock/clock';
import type { CommitRegistrationDto } from './dto/training-body.dto';
import type { PlayerLaunchDto, TrainingRegistrationDto } from './dto/training-response.dto';
import type { RegistrationStatus, TrainingRegistrationEntity } from './entities/training-registration.entity';
import type { TrainingStandard, TrainingVersionEntity } from './entities/training-version.entity';
import { launchTarget } from './launch-target';
import { registrationTransition } from './registration.state-machine';
import { TrainingRegistrationCompleted } from './training-module.events';
import { toModuleDto, toRegistrationDto } from './training-module.mapper';
import { TrainingModulesRepository } from './training-modules.repository';
import { checkCommitToken, commitToken, contentSignature, playerSignature, SIGNED_TTL_S } from './training-signing';

const RUNTIME_API: Record<TrainingStandard, PlayerLaunchDto['runtime']['api']> = {
  scorm12: 'API',
  scorm2004: 'API_1484_11',
  cmi5: 'cmi5',
  xapi: 'xapi',
};

/** What the player page needs, read from its signed URL. */
export interface PlayerPageData {
  registration: TrainingRegistrationEntity;
  version: TrainingVersionEntity;
  launchFileUrl: string;
  commitUrl: string;
  commitToken: string;
  api: PlayerLaunchDto['runtime']['api'];
}

/** A version with a package to launch. */
type LaunchableVersion = TrainingVersionEntity & {
  standard: NonNullable<TrainingVersionEntity['standard']>;
  launchPath: string;
  packageSha256: string;
};

/**
 * The player (T4) and registration commits (E): launches create or reuse the caller's open registration
 * and answer signed URLs (the player page and the package files live under TRAINING_CONTENT_URL, never on
 * the API origin); commits authenticate with the commit token (or the owner's API token) and move the
 * status forward only.
 */
@Injectable()
export class TrainingPlayerService {
  constructor(
    private readonly repository: TrainingModulesRepository,
    private readonly transactions: TransactionService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get secret(): string {
    return this.config.signingSecret;
  }

  /** T4 (and the preview launch of T13). */
  async launch(
    moduleid: number,
    versionid: number | undefined,
    caller: AuthenticatedUser,
    options: { preview?: boolean; registrationid?: string } = {},
  ): Promise<PlayerLaunchDto> {
    const { version, preview } = await this.launchableVersion(moduleid, versionid, caller, options.preview === true);
    const now = this.clock.nowSeconds();
    const registration = await this.openRegistration(version, caller, preview, now, options.registrationid);
    const expires = now + SIGNED_TTL_S;
    const base = this.config.training.contentUrl;
    const id = registration.registrationid;
    return {
      moduleid,
      versionid: version.versionid,
      standard: version.standard,
      registrationid: id,
      launch_url: `${base}/player/${id}/${expires}/${playerSignature(this.secret, id, expires)}`,
      launch_method: version.launchMethod,
      expires_date: expires,
      runtime: {
        api: RUNTIME_API[version.standard],
        commit_url: this.commitUrl(id),
        commit_token: commitToken(this.secret, id, expires),
        resume:
          registration.location !== null || registration.suspendData !== null
            ? { location: registration.location, suspend_data: registration.suspendData }
            : null,
      },
    };
  }

  /**
   * The version a launch opens (the current one unless `versionid`): 404 for an unknown module or version, 403
   * for a preview (asked for, or of a version that is not current) by anyone but an Admin, 409 with the Module
   * when there is nothing to launch.
   */
  private async launchableVersion(
    moduleid: number,
    versionid: number | undefined,
    caller: AuthenticatedUser,
    previewAsked: boolean,
  ): Promise<{ version: LaunchableVersion; preview: boolean }> {
    const module = await this.repository.findModule(moduleid);
    if (!module) throw notFound('Module');
    const admin = isAdmin(caller);
    const conflict = async () =>
      new RevisionConflictException(
        toModuleDto(module, await this.repository.versions([module.currentVersionid, module.draftVersionid]), admin),
      );
    let version: TrainingVersionEntity | null;
    if (versionid === undefined) {
      if (module.currentVersionid === null) throw await conflict();
      version = await this.repository.findVersion(module.currentVersionid);
    } else {
      version = await this.repository.findVersion(versionid);
      if (!version || version.moduleid !== moduleid) throw notFound('Version');
    }
    if (!version) throw await conflict();
    const preview = previewAsked || version.status !== 'current';
    if (preview && !admin) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'Only an Admin may preview a version that is not current');
    }
    if (
      version.packageSha256 === null ||
      version.standard === null ||
      version.launchPath === null ||
      !launchTarget(version.standard, version.launchPath)
    ) {
      throw await conflict();
    }
    return { version: version as LaunchableVersion, preview };
  }

  /** The caller's open registration of the version, or a new one (with its audit row). */
  private openRegistration(
    version: LaunchableVersion,
    caller: AuthenticatedUser,
    preview: boolean,
    now: number,
    registrationid: string | undefined,
  ): Promise<TrainingRegistrationEntity> {
    return this.transactions.run(async () => {
      const open = await this.repository.openRegistration(caller.userid, version.versionid, preview);
      if (open) return open;
      const row: TrainingRegistrationEntity = {
        registrationid: registrationid ?? randomUUID(),
        moduleid: version.moduleid,
        versionid: version.versionid,
        userid: caller.userid,
        preview,
        status: 'not_attempted',
        scoreScaled: null,
        totalTimeS: 0,
        location: null,
        suspendData: null,
        startedDate: now,
        lastCommitDate: null,
        completedDate: null,
        resultSource: null,
        resultBy: null,
      };
      await this.repository.insertRegistration(row);
      await this.audit.record({
        action: 'training_registration.create',
        entity: ['training_registration', row.registrationid],
        after: toRegistrationDto(row),
      });
      return row;
    });
  }

  private commitUrl(registrationid: string): string {
    return `${this.config.publicUrl}/api/2.0/external_training_modules/registrations/${registrationid}`;
  }

  /** Signed URL of a file of a version's package. */
  contentUrl(versionid: number, path: string, expires: number): string {
    const encoded = path
      .split('/')
      .map((segment) => encodeURIComponent(segment))
      .join('/')
      .replace(/%3F/i, '?');
    return `${this.config.training.contentUrl}/${versionid}/${expires}/${contentSignature(this.secret, versionid, expires)}/${encoded}`;
  }

  /**
   * What the player page shows for a registration (its URL already verified); null when there is nothing to
   * frame. Only a file of the package or an http(s) cmi5 AU is ever framed, whatever the stored launch path.
   */
  async pageData(registrationid: string, expires: number): Promise<PlayerPageData | null> {
    const registration = await this.repository.findRegistration(registrationid);
    if (!registration) return null;
    const version = await this.repository.findVersion(registration.versionid);
    if (!version || !version.standard || !version.launchPath) return null;
    const target = launchTarget(version.standard, version.launchPath);
    if (!target) return null;
    const [pathPart, query] = splitQuery(version.launchPath);
    const launchFileUrl =
      target.kind === 'external'
        ? target.url
        : `${this.contentUrl(version.versionid, pathPart, expires)}${query ? `?${query}` : ''}`;
    return {
      registration,
      version,
      launchFileUrl,
      commitUrl: this.commitUrl(registrationid),
      commitToken: commitToken(this.secret, registrationid, expires),
      api: RUNTIME_API[version.standard],
    };
  }

  /** E: a commit by the owner (API token) or the player (`X-Registration-Token`). */
  async commit(
    registrationid: string,
    body: CommitRegistrationDto,
    caller: AuthenticatedUser | undefined,
    token: string | undefined,
  ): Promise<TrainingRegistrationDto> {
    const now = this.clock.nowSeconds();
    if (!caller && token === undefined) throw new ApiException(HttpStatus.UNAUTHORIZED, 'Authentication required');
    const tokenValid = token !== undefined && checkCommitToken(this.secret, registrationid, token, now);
    if (token !== undefined && !tokenValid) {
      throw new ApiException(HttpStatus.FORBIDDEN, 'The registration token is invalid or expired');
    }
    const values = commitValues(body);
    for (let tries = 0; tries < 5; tries += 1) {
      const row = await this.repository.findRegistration(registrationid);
      if (!row) throw notFound('Registration');
      if (!tokenValid && caller?.userid !== row.userid) {
        throw new ApiException(HttpStatus.FORBIDDEN, 'Only the owner of the registration may commit to it');
      }
      const source: ResultSetter = tokenValid ? { source: 'player', by: null } : { source: 'api', by: caller!.userid };
      const done = await this.transactions.run((tx) => this.apply(row, values, source, now, tx));
      if (done) return done;
    }
    const current = await this.repository.findRegistration(registrationid);
    if (!current) throw notFound('Registration');
    throw new RevisionConflictException(toRegistrationDto(current));
  }

  /**
   * One commit, as a conditional update on the status read; null when the registration changed meanwhile. A
   * commit that moves the status or sets a score records how (the player's token, or the owner's API token):
   * in the registration row and its audit row, not in the response.
   */
  private async apply(
    row: TrainingRegistrationEntity,
    values: CommitValues,
    setter: ResultSetter,
    now: number,
    tx: Transaction,
  ): Promise<TrainingRegistrationDto | null> {
    const move = registrationTransition(row.status, values.status);
    const setsResult = move.moved || values.scoreScaled !== undefined;
    const changes: Partial<TrainingRegistrationEntity> = {
      status: move.to,
      lastCommitDate: now,
      ...(values.scoreScaled !== undefined ? { scoreScaled: values.scoreScaled } : {}),
      ...(values.totalTimeS !== undefined ? { totalTimeS: Math.max(values.totalTimeS, row.totalTimeS) } : {}),
      ...(values.location !== undefined ? { location: values.location } : {}),
      ...(values.suspendData !== undefined ? { suspendData: values.suspendData } : {}),
      ...(move.finishes && row.completedDate === null ? { completedDate: now } : {}),
      ...(setsResult ? { resultSource: setter.source, resultBy: setter.by } : {}),
    };
    if (!(await this.repository.commitRegistration(row.registrationid, row.status, changes))) return null;
    const after = toRegistrationDto({ ...row, ...changes });
    if (setsResult) {
      await this.audit.record({
        action: move.moved ? 'training_registration.status' : 'training_registration.score',
        entity: ['training_registration', row.registrationid],
        before: { status: row.status, score_scaled: row.scoreScaled },
        after: { ...after, result_source: setter.source, result_by: setter.by },
        reason:
          setter.source === 'player'
            ? 'commit by the player (registration token)'
            : `commit through the API by user ${setter.by} (the owner's API token)`,
      });
    }
    if (move.finishes && !row.preview) tx.publish(TrainingRegistrationCompleted(after));
    return after;
  }
}

/** Who sets a result: the player page (commit token), or a user through the API. */
type ResultSetter = { source: 'player'; by: null } | { source: 'api'; by: number };

function splitQuery(launchPath: string): [string, string] {
  const at = launchPath.indexOf('?');
  return at < 0 ? [launchPath, ''] : [launchPath.slice(0, at), launchPath.slice(at + 1)];
}

interface CommitValues {
  status?: RegistrationStatus;
  scoreScaled?: number;
  totalTimeS?: number;
  location?: string;
  suspendData?: string;
}

const STATUS_12: Record<string, RegistrationStatus> = {
  passed: 'passed',
  completed: 'completed',
  failed: 'failed',
  incomplete: 'incomplete',
  browsed: 'incomplete',
  'not attempted': 'not_attempted',
};

const path = (object: unknown, dotted: string): unknown =>
  dotted
    .split('.')
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      object,
    );

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The commit's fields, with what a `cmi` object (SCORM 1.2 `core.*` or 2004) adds where a field is absent. */
function commitValues(body: CommitRegistrationDto): CommitValues {
  const cmi = body.cmi ?? {};
  const lessonStatus = str(path(cmi, 'core.lesson_status'));
  const success = str(path(cmi, 'success_status'));
  const completion = str(path(cmi, 'completion_status'));
  let status: RegistrationStatus | undefined = body.status;
  if (status === undefined && lessonStatus) status = STATUS_12[lessonStatus];
  if (status === undefined && (success === 'passed' || success === 'failed')) status = success;
  if (status === undefined && (completion === 'completed' || completion === 'incomplete')) status = completion;
  let scoreScaled = body.score_scaled;
  if (scoreScaled === undefined) {
    const scaled = Number(str(path(cmi, 'score.scaled')) ?? NaN);
    const raw = Number(str(path(cmi, 'core.score.raw')) ?? NaN);
    const max = Number(str(path(cmi, 'core.score.max')) || 100);
    if (Number.isFinite(scaled) && scaled >= -1 && scaled <= 1) scoreScaled = scaled;
    else if (Number.isFinite(raw) && max > 0) scoreScaled = Math.max(-1, Math.min(1, raw / max));
  }
  const location = body.location ?? str(path(cmi, 'core.lesson_location')) ?? str(path(cmi, 'location'));
  const suspendData = body.suspend_data ?? str(path(cmi, 'suspend_data'));
  return {
    status,
    scoreScaled,
    totalTimeS: body.total_time_s,
    location: location?.slice(0, 1000),
    suspendData: suspendData?.slice(0, 64000),
  };
}
