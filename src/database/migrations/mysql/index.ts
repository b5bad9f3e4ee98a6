import { GuideRevisionSummary1795307559007 } from './1795307559007-GuideRevisionSummary';
import { Initial1795304022779 } from './1795304022779-Initial';
export const MYSQL_MIGRATIONS: Function[] = [Initial1795304022779, GuideRevisionSummary1795307559007];
