import { GuideRevisionSummary1795307555306 } from './1795307555306-GuideRevisionSummary';
import { Initial1795304019449 } from './1795304019449-Initial';
export const SQLITE_MIGRATIONS: Function[] = [Initial1795304019449, GuideRevisionSummary1795307555306];
