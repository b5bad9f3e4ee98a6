import { Initial1795300885712 } from './1795300885712-Initial';
export const MYSQL_MIGRATIONS: Function[] = [Initial1795300885712];
