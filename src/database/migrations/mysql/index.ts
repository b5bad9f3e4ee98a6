import { Teams1795299206877 } from './1795299206877-Teams';
import { Initial1795298910071 } from './1795298910071-Initial';
export const MYSQL_MIGRATIONS: Function[] = [Initial1795298910071, Teams1795299206877];
