import { AuthTokenEntity } from '../modules/auth/entities/auth-token.entity';
import { UserEntity } from '../modules/users/entities/user.entity';

/** Every entity of the service; the data source, migrations check and tests share this list. */
export const ENTITIES = [UserEntity, AuthTokenEntity];
