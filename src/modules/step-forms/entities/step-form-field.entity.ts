import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One field of one form revision; `field_guid` stays the same across the revisions of a field. */
@Entity({ name: 'step_form_fields' })
@Index('idx_step_form_fields_form', ['formRevisionid', 'orderby'])
@Index('idx_step_form_fields_guid', ['fieldGuid', 'stepid'])
export class StepFormFieldEntity {
  @PrimaryGeneratedColumn({ name: 'field_revisionid', type: 'int' })
  fieldRevisionid: number;

  @Column({ name: 'form_revisionid', type: 'int' })
  formRevisionid: number;

  @Column({ name: 'guideid', type: 'int' })
  guideid: number;

  @Column({ name: 'stepid', type: 'int' })
  stepid: number;

  @Column({ name: 'orderby', type: 'int' })
  orderby: number;

  @Column({ name: 'field_guid', type: 'varchar', length: 16 })
  fieldGuid: string;

  @Column({ name: 'label', type: 'varchar', length: 255 })
  label: string;

  @Column({ name: 'field_type', type: 'varchar', length: 20 })
  fieldType: string;

  @Column({ name: 'required', type: 'boolean', default: false })
  required: boolean;

  @Column({ name: 'placeholder', type: 'varchar', length: 255, default: '' })
  placeholder: string;

  @Column({ name: 'textarea', type: 'boolean', default: false })
  textarea: boolean;

  @Column({ name: 'options', type: 'json' })
  options: string[];

  @Column({ name: 'unit', type: 'varchar', length: 32, nullable: true })
  unit: string | null;

  @Column({ name: 'min_value', type: 'double', nullable: true })
  minValue: number | null;

  @Column({ name: 'max_value', type: 'double', nullable: true })
  maxValue: number | null;
}
