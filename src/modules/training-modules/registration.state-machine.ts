import type { RegistrationStatus } from './entities/training-registration.entity';

/**
 * Registrations move forward only (docs/enterprise/training-modules.md): a commit asks for a status; a move that is not
 * listed keeps the current one (the rest of the commit still applies). `failed` may still become `passed`
 * (a retake in the same attempt); `passed` is final.
 */
export const REGISTRATION_MOVES: Readonly<Record<RegistrationStatus, readonly RegistrationStatus[]>> = {
  not_attempted: ['incomplete', 'completed', 'passed', 'failed'],
  incomplete: ['completed', 'passed', 'failed'],
  completed: ['passed', 'failed'],
  failed: ['passed'],
  passed: [],
};

/** Statuses that finish a registration: the first one reached sets completed_date. */
export const FINISHED_STATUSES: readonly RegistrationStatus[] = ['completed', 'passed', 'failed'];

export interface RegistrationMove {
  to: RegistrationStatus;
  /** The status changed. */
  moved: boolean;
  /** The registration is finished for the first time (set completed_date, publish the completion). */
  finishes: boolean;
}

/** Pure: the status after a commit that asks for `requested` (undefined: no status in the commit). */
export function registrationTransition(
  from: RegistrationStatus,
  requested: RegistrationStatus | undefined,
): RegistrationMove {
  if (requested === undefined || !REGISTRATION_MOVES[from].includes(requested)) {
    return { to: from, moved: false, finishes: false };
  }
  return {
    to: requested,
    moved: true,
    finishes: !FINISHED_STATUSES.includes(from) && FINISHED_STATUSES.includes(requested),
  };
}
