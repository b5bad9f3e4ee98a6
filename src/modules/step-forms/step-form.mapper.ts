import type { FormFieldDto, StepFormDto } from './dto/step-form.dto';
import type { StepFormFieldEntity } from './entities/step-form-field.entity';
import type { StepFormEntity } from './entities/step-form.entity';

export function toFormField(field: StepFormFieldEntity): FormFieldDto {
  const numeric = field.fieldType === 'Numeric Input';
  return {
    field_revisionid: field.fieldRevisionid,
    field_guid: field.fieldGuid,
    label: field.label,
    field_type: field.fieldType,
    required: Boolean(field.required),
    placeholder: field.placeholder,
    textarea: Boolean(field.textarea),
    options: typeof field.options === 'string' ? (JSON.parse(field.options) as string[]) : field.options,
    unit: numeric ? field.unit : null,
    min: numeric && field.minValue !== null ? Number(field.minValue) : null,
    max: numeric && field.maxValue !== null ? Number(field.maxValue) : null,
  };
}

export function toStepForm(form: StepFormEntity, fields: StepFormFieldEntity[]): StepFormDto {
  return {
    form_revisionid: form.formRevisionid,
    signoff_teamid: form.signoffTeamid,
    fields: fields.map(toFormField),
  };
}
