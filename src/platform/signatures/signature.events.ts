import { defineEvent } from '../events/domain-event';

/** A signing attempt failed (wrong password or sign code), written with its audit row (docs/signatures.md). */
export interface SignatureFailurePayload {
  userid: number;
  method: string;
  subject_type: string;
  subject_id: string;
  /** Failures within the window, this one included. */
  failures: number;
  /** UNIX seconds until which signing is locked, when this failure locked it. */
  locked_until: number | null;
}

export const SignatureFailed = defineEvent<SignatureFailurePayload>('signature.failed', (p) => ['user', p.userid]);
