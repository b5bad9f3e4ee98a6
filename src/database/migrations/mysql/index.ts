import { Initial1795298910071 } from './1795298910071-Initial';
export const MYSQL_MIGRATIONS: Function[] = [Initial1795298910071];
