import { Initial1795304022779 } from './1795304022779-Initial';
export const MYSQL_MIGRATIONS: Function[] = [Initial1795304022779];
