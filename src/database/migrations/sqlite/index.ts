import { Teams1795299204096 } from './1795299204096-Teams';
import { Initial1795298906104 } from './1795298906104-Initial';
export const SQLITE_MIGRATIONS: Function[] = [Initial1795298906104, Teams1795299204096];
