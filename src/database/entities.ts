import { GuideEntity } from '../modules/guides/entities/guide.entity';
import { GuideRevisionEntity } from '../modules/guides/entities/guide-revision.entity';
import { GuideTranslationEntity } from '../modules/guides/entities/guide-translation.entity';
import { GuideStepEntity } from '../modules/guides/entities/guide-step.entity';
import { GuideStepRevisionEntity } from '../modules/guides/entities/guide-step-revision.entity';
import { GuideUserGrantEntity } from '../modules/guides/entities/guide-user-grant.entity';
import { GuideTeamGrantEntity } from '../modules/guides/entities/guide-team-grant.entity';
import { GuideCompletionEntity } from '../modules/guides/entities/guide-completion.entity';
import { GuideFavoriteEntity } from '../modules/guides/entities/guide-favorite.entity';
import { CommentEntity } from '../modules/comments/entities/comment.entity';
import { AuthTokenEntity } from '../modules/auth/entities/auth-token.entity';
import { ReputationAwardEntity } from '../modules/reputation/entities/reputation-award.entity';
import { UserBadgeEntity } from '../modules/reputation/entities/user-badge.entity';
import { TeamMemberEntity } from '../modules/teams/entities/team-member.entity';
import { TeamEntity } from '../modules/teams/entities/team.entity';
import { UserEntity } from '../modules/users/entities/user.entity';
import { DocumentEntity } from '../modules/media/entities/document.entity';
import { ImageEntity } from '../modules/media/entities/image.entity';
import { MediaUsageEntity } from '../modules/media/entities/media-usage.entity';
import { VideoEntity } from '../modules/media/entities/video.entity';
import { DocumentTagEntity } from '../modules/tags/entities/document-tag.entity';
import { TagEntity } from '../modules/tags/entities/tag.entity';
import { ViewHistoryEntity } from '../modules/view-history/entities/view-history.entity';
import { WikiCategoryGuideEntity } from '../modules/wikis/entities/wiki-category-guide.entity';
import { WikiLanguageEntity } from '../modules/wikis/entities/wiki-language.entity';
import { WikiRevisionEntity } from '../modules/wikis/entities/wiki-revision.entity';
import { WikiEntity } from '../modules/wikis/entities/wiki.entity';

/** Every entity of the service; the data source, migrations check and tests share this list. */
export const ENTITIES = [
  CommentEntity,
  UserEntity,
  AuthTokenEntity,
  TeamEntity,
  TeamMemberEntity,
  UserBadgeEntity,
  ReputationAwardEntity,
  ImageEntity,
  MediaUsageEntity,
  VideoEntity,
  DocumentEntity,
  TagEntity,
  DocumentTagEntity,
  ViewHistoryEntity,
  WikiEntity,
  WikiLanguageEntity,
  WikiRevisionEntity,
  WikiCategoryGuideEntity,
  GuideEntity,
  GuideRevisionEntity,
  GuideTranslationEntity,
  GuideStepEntity,
  GuideStepRevisionEntity,
  GuideUserGrantEntity,
  GuideTeamGrantEntity,
  GuideCompletionEntity,
  GuideFavoriteEntity,
];
