import { Initial1795300882520 } from './1795300882520-Initial';
export const SQLITE_MIGRATIONS: Function[] = [Initial1795300882520];
