import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

/**
 * An external training module (docs/enterprise/training-modules.md): a title and at most one `current` and one `draft`
 * version. Publishing (T6) moves the pointers in one conditional update.
 */
@Entity({ name: 'training_modules' })
export class TrainingModuleEntity {
  @PrimaryGeneratedColumn({ name: 'moduleid', type: 'int' })
  moduleid: number;

  @Column({ name: 'title', type: 'varchar', length: 255 })
  title: string;

  @Column({ name: 'description', type: 'text' })
  description: string;

  @Column({ name: 'current_versionid', type: 'int', nullable: true })
  currentVersionid: number | null;

  @Column({ name: 'draft_versionid', type: 'int', nullable: true })
  draftVersionid: number | null;

  @Column({ name: 'created_date', ...unixTimeColumn() })
  createdDate: number;

  @Column({ name: 'modified_date', ...unixTimeColumn() })
  modifiedDate: number;
}
