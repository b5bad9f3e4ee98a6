import { Initial1795298605631 } from './1795298605631-Initial';
export const MYSQL_MIGRATIONS: Function[] = [Initial1795298605631];
