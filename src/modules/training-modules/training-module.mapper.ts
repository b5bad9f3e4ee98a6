import type {
  ImportPreviewDto,
  TrainingImportDto,
  TrainingModuleDto,
  TrainingRegistrationDto,
  TrainingVersionDto,
} from './dto/training-response.dto';
import type { TrainingImportEntity } from './entities/training-import.entity';
import type { TrainingModuleEntity } from './entities/training-module.entity';
import type { TrainingRegistrationEntity } from './entities/training-registration.entity';
import type { TrainingVersionEntity } from './entities/training-version.entity';

export function toVersionDto(v: TrainingVersionEntity): TrainingVersionDto {
  return {
    versionid: v.versionid,
    status: v.status,
    standard: v.standard,
    title: v.title,
    launch_path: v.launchPath,
    launch_method: v.launchMethod,
    mastery_score: v.masteryScore,
    sco_count: v.scoCount,
    file_count: v.fileCount,
    package_bytes: v.packageBytes,
    package_sha256: v.packageSha256,
    created_date: v.createdDate,
    published_date: v.publishedDate,
  };
}

/** A module with its versions loaded; `withDraft` false hides the draft (non-Admins). */
export function toModuleDto(
  m: TrainingModuleEntity,
  versions: Map<number, TrainingVersionEntity>,
  withDraft: boolean,
): TrainingModuleDto {
  const current = m.currentVersionid !== null ? versions.get(m.currentVersionid) : undefined;
  const draft = withDraft && m.draftVersionid !== null ? versions.get(m.draftVersionid) : undefined;
  return {
    moduleid: m.moduleid,
    title: m.title,
    description: m.description,
    current: current ? toVersionDto(current) : null,
    draft: draft ? toVersionDto(draft) : null,
    created_date: m.createdDate,
    modified_date: m.modifiedDate,
  };
}

export function toImportDto(i: TrainingImportEntity): TrainingImportDto {
  return {
    importid: i.importid,
    moduleid: i.moduleid,
    source: i.source,
    status: i.status,
    progress: { stage: i.status, percent: i.percent, bytes_done: i.bytesDone, bytes_total: i.bytesTotal },
    warnings: JSON.parse(i.warningsJson) as TrainingImportDto['warnings'],
    error: i.errorCode ? { code: i.errorCode, message: i.errorMessage ?? '' } : null,
    versionid: i.status === 'complete' ? i.versionid : null,
    created_date: i.createdDate,
    finished_date: i.finishedDate,
  };
}

export function toPreviewDto(i: TrainingImportEntity, previewLaunchUrl: string): ImportPreviewDto {
  const stored = JSON.parse(i.previewJson ?? '{}') as Pick<ImportPreviewDto, 'manifest' | 'files'>;
  return {
    import: toImportDto(i),
    manifest: stored.manifest,
    files: stored.files ?? [],
    preview_launch_url: previewLaunchUrl,
  };
}

export function toRegistrationDto(r: TrainingRegistrationEntity): TrainingRegistrationDto {
  return {
    registrationid: r.registrationid,
    moduleid: r.moduleid,
    versionid: r.versionid,
    userid: r.userid,
    status: r.status,
    score_scaled: r.scoreScaled,
    total_time_s: r.totalTimeS,
    location: r.location,
    started_date: r.startedDate,
    last_commit_date: r.lastCommitDate,
    completed_date: r.completedDate,
  };
}
