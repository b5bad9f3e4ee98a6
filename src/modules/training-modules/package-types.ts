/** Why a package was refused (the import runner has its own codes too: INTERRUPTED, URL_REFUSED, …). */
export type PackageFailureCode =
  | 'NOT_A_ZIP'
  | 'ZIP_UNSAFE_PATH'
  | 'ZIP_ENCRYPTED'
  | 'ZIP_TOO_MANY_ENTRIES'
  | 'ZIP_TOO_LARGE'
  | 'ZIP_BOMB'
  | 'MANIFEST_NOT_AT_ROOT'
  | 'NO_MANIFEST'
  | 'UNSUPPORTED_STANDARD'
  | 'MANIFEST_INVALID'
  | 'TOO_MANY_SCOS'
  | 'LAUNCH_FILE_MISSING';

export type PackageWarningCode = 'MULTI_SCO' | 'SEQUENCING_IGNORED' | 'EXTERNAL_AU';
export type PackageStandard = 'scorm12' | 'scorm2004' | 'cmi5' | 'xapi';

export interface PackageLimits {
  maxEntries: number;
  maxInflatedBytes: number;
  /** Entries larger than this (inflated) must not inflate to more than `maxRatio` × their compressed size. */
  bombMinBytes: number;
  maxRatio: number;
  maxDescriptorBytes: number;
  maxNameBytes: number;
  /** SCORM SCOs or cmi5 AUs in one package. */
  maxScos: number;
}

export const DEFAULT_LIMITS: PackageLimits = {
  maxEntries: 10_000,
  maxInflatedBytes: 2 * 1024 ** 3,
  bombMinBytes: 1024 ** 2,
  maxRatio: 100,
  maxDescriptorBytes: 5 * 1024 ** 2,
  maxNameBytes: 512,
  maxScos: 1000,
};

export interface PackageSco {
  identifier: string;
  title: string;
  href: string;
}

export interface PackageManifest {
  identifier: string | null;
  title: string | null;
  standard: PackageStandard;
  schemaversion: string | null;
  scos: PackageSco[];
  /** Relative to the package root (with the item's parameters), or an absolute URL (an external cmi5 AU). */
  launch_path: string;
}

export interface PackageFile {
  path: string;
  bytes: number;
}

export type PackageWarnings = { code: PackageWarningCode; message: string }[];

/** What a descriptor says. */
export interface DescriptorReport {
  manifest: PackageManifest;
  warnings: PackageWarnings;
  /** cmi5 `masteryScore` (0-1 in the descriptor) as 0-100; null elsewhere. */
  masteryScore: number | null;
  /** cmi5 `moveOn`. */
  moveOn: string | null;
}

export interface PackageReport extends DescriptorReport {
  files: PackageFile[];
  /** Bytes of all files, inflated (as their headers declare them when only the descriptors were inflated). */
  inflatedBytes: number;
}

export class PackageError extends Error {
  constructor(
    readonly code: PackageFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'PackageError';
  }
}
