import { Initial1795298603325 } from './1795298603325-Initial';
export const SQLITE_MIGRATIONS: Function[] = [Initial1795298603325];
