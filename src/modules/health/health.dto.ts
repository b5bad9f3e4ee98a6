export class HealthDto {
  /** `ok` when the database answers, else `unavailable`. */
  status: 'ok' | 'unavailable';
}
