import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ImageEntity } from './image.entity';

/**
 * Which owners (guide, step, wiki, user, video…) use which images. Other modules keep their set current
 * through MediaService.setUsage; an image neither in a media manager nor used here is deleted. The
 * foreign key restricts deletes, so an image cannot vanish while something uses it.
 */
@Entity({ name: 'media_usage' })
@Index('idx_media_usage_imageid', ['imageid'])
export class MediaUsageEntity {
  @PrimaryColumn({ name: 'owner_kind', type: 'varchar', length: 16 })
  ownerKind: string;

  @PrimaryColumn({ name: 'owner_id', type: 'int' })
  ownerId: number;

  @PrimaryColumn({ name: 'imageid', type: 'int' })
  imageid: number;

  @ManyToOne(() => ImageEntity, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'imageid', foreignKeyConstraintName: 'fk_media_usage_image' })
  image?: ImageEntity;
}
