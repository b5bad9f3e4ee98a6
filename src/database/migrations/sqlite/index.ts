import { Initial1795304019449 } from './1795304019449-Initial';
export const SQLITE_MIGRATIONS: Function[] = [Initial1795304019449];
