import { Initial1795298906104 } from './1795298906104-Initial';
export const SQLITE_MIGRATIONS: Function[] = [Initial1795298906104];
