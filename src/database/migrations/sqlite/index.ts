import { Comments1795303106415 } from './1795303106415-Comments';
import { Initial1795300882520 } from './1795300882520-Initial';
export const SQLITE_MIGRATIONS: Function[] = [Initial1795300882520, Comments1795303106415];
