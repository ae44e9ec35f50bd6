import { CUSTOM_FIELD_TYPES, type CustomFieldRecord, type CustomFieldType } from '../../contracts/custom-fields.js';
import type { CustomField } from './custom-fields.repository.js';

/** A definition in the contract's record shape; `href` is its own address (the contact's value, on a contact). */
export function fieldRecord(field: CustomField, href = `/rest/1/customfields/${field.id}`): CustomFieldRecord {
  return {
    custom_field_id: String(field.id),
    display_name: field.display_name,
    type_id: String(field.type_id),
    type_name: CUSTOM_FIELD_TYPES[field.type_id as CustomFieldType] ?? CUSTOM_FIELD_TYPES[1],
    display_order: String(field.display_order),
    _link: { self: { href } },
  };
}
