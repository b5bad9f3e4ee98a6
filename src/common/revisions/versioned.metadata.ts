/** Route metadata of @Versioned(), read by the RevisionInterceptor. */
export const VERSIONED = 'revision:versioned';

export interface VersionedOptions {
  /** Whether a request without `revisionid` is refused (422). Default true. */
  required?: boolean;
}
