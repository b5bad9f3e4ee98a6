import { Comments1795303108893 } from './1795303108893-Comments';
import { Initial1795300885712 } from './1795300885712-Initial';
export const MYSQL_MIGRATIONS: Function[] = [Initial1795300885712, Comments1795303108893];
